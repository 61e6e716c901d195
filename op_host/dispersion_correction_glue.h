// CANN-only: the TilingFunc body shared by DispersionCorrection and DispersionCorrectionGrad. Both ops
// read x's shape and the attrs alpha/mode/eps and tile with ComputeDispersionCorrectionTiling, the
// function the CPU twin's launches use too.
#pragma once

#include "cann_glue.h"
#include "dispersion_correction_tiling.h"

namespace ascend_ext::cann {

// xInput: the index of x among the op's inputs; the grad op's other input (grad) must have x's shape.
inline ge::graphStatus DispersionCorrectionTiling(gert::TilingContext* context, size_t xInput, bool backward)
{
    DType dtype;
    if (!DTypeFromGe(context->GetInputDesc(0)->GetDataType(), dtype)) return ge::GRAPH_FAILED;
    const gert::Shape& shape = context->GetInputShape(xInput)->GetOriginShape();
    if (shape.GetDimNum() == 0 || shape.GetDim(shape.GetDimNum() - 1) <= 0) return ge::GRAPH_FAILED;
    if (backward && context->GetInputShape(1 - xInput)->GetOriginShape() != shape) return ge::GRAPH_FAILED;
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    DispersionCorrectionProblem p;
    p.rowLength = static_cast<uint64_t>(shape.GetDim(shape.GetDimNum() - 1));
    p.rows = static_cast<uint64_t>(shape.GetShapeSize()) / p.rowLength;
    p.alpha = *attrs->GetAttrPointer<float>(0);
    const int64_t mode = *attrs->GetAttrPointer<int64_t>(1);
    if (mode != kDispersionScale && mode != kDispersionNormalize) return ge::GRAPH_FAILED;
    p.mode = static_cast<uint32_t>(mode);
    p.eps = *attrs->GetAttrPointer<float>(2);
    p.backward = backward;
    const DispersionCorrectionPlan plan = ComputeDispersionCorrectionTiling(p, dtype, PlatformFromContext(context));
    *context->GetTilingData<DispersionCorrectionTilingData>() = plan.tiling;
    context->SetBlockDim(plan.blockDim > 0 ? plan.blockDim : 1);  // an empty input runs one idle core
    // Split rows: the cores' partial statistics live in the op's workspace, and SyncAll needs every block
    // resident at once, which batch mode guarantees (SyncAll docs).
    SetWorkspace(context, plan.workspaceBytes);
    if (plan.tiling.coresPerRow > 1 && context->SetScheduleMode(1) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
    return ge::GRAPH_SUCCESS;
}

}  // namespace ascend_ext::cann
