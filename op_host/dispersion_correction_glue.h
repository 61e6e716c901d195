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
    if (backward && context->GetInputShape(1 - xInput)->GetOriginShape() != shape) return ge::GRAPH_FAILED;
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const std::vector<int64_t> dims = Dims(shape);
    const DispersionCorrectionDecoded decoded =
        DecodeDispersionCorrectionProblem(dims.data(), dims.size(), *attrs->GetAttrPointer<float>(0),
                                          *attrs->GetAttrPointer<int64_t>(1), *attrs->GetAttrPointer<float>(2), backward);
    if (decoded.error != nullptr) return ge::GRAPH_FAILED;
    const DispersionCorrectionPlan plan =
        ComputeDispersionCorrectionTiling(decoded.problem, dtype, PlatformFromContext(context));
    *context->GetTilingData<DispersionCorrectionTilingData>() = plan.tiling;
    context->SetBlockDim(plan.blockDim > 0 ? plan.blockDim : 1);  // an empty input runs one idle core
    // Split rows: the cores' partial statistics live in the op's workspace, and SyncAll needs every block
    // resident at once, which batch mode guarantees (SyncAll docs).
    SetWorkspace(context, /*usesApiWorkspace=*/false, plan.workspaceBytes);  // none unless rows are split
    if (plan.tiling.coresPerRow > 1 && context->SetScheduleMode(1) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
    return ge::GRAPH_SUCCESS;
}

}  // namespace ascend_ext::cann
