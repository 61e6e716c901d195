// CANN-only: the TilingFunc body shared by DispersionCorrection and DispersionCorrectionBackward. Both ops
// read x's shape and the attrs alpha/mode/eps and tile with ComputeDispersionCorrectionTiling, the
// function the CPU twin's launches use too.
#pragma once

#include "cann_glue.h"
#include "dispersion_correction_tiling.h"

namespace ascend_ext::cann {

// Where the op's operands are (the indices its generated ports header gives): x, grad (backward only) and the
// attrs alpha, mode, eps.
struct DispersionCorrectionPorts {
    size_t x;
    size_t grad;
    size_t alpha;
    size_t mode;
    size_t eps;
};

// backward: the grad op, whose input grad must have x's shape.
inline ge::graphStatus DispersionCorrectionTiling(gert::TilingContext* context, const DispersionCorrectionPorts& ports,
                                                  bool backward)
{
    DType dtype;
    if (!DTypeFromGe(context->GetInputDesc(ports.x)->GetDataType(), dtype)) return ge::GRAPH_FAILED;
    const gert::Shape& shape = context->GetInputShape(ports.x)->GetOriginShape();
    if (backward && context->GetInputShape(ports.grad)->GetOriginShape() != shape) return ge::GRAPH_FAILED;
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const std::vector<int64_t> dims = Dims(shape);
    const DispersionCorrectionDecoded decoded = DecodeDispersionCorrectionProblem(
        dims.data(), dims.size(), *attrs->GetAttrPointer<float>(ports.alpha), *attrs->GetAttrPointer<int64_t>(ports.mode),
        *attrs->GetAttrPointer<float>(ports.eps), backward);
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
