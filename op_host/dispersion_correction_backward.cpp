// CANN glue of DispersionCorrectionBackward, the backward of DispersionCorrection: OpDef, TilingFunc, shape and
// dtype inference, with the tiling of dispersion_correction_tiling.h (backward = true).
//
// The op: grad_x has x's shape; per row, with gm = mean(grad), mode 0: grad_x = alpha * grad + (1 - alpha) * gm;
// mode 1, with s = sqrt(var + eps) and xh = (x - mu) / s: grad_x = gm + (alpha / s) * (grad - gm - xh * mean(grad * xh)).
#include "ascend_ext_ports/DispersionCorrectionBackward.h"
#include "dispersion_correction_glue.h"

namespace optiling {

static ge::graphStatus DispersionCorrectionBackwardTilingFunc(gert::TilingContext* context)
{
    namespace port = ascend_ext::ports::DispersionCorrectionBackward;
    return ascend_ext::cann::DispersionCorrectionTiling(
        context, {port::kInputX, port::kInputGrad, port::kAttrAlpha, port::kAttrMode, port::kAttrEps}, /*backward=*/true);
}

}  // namespace optiling

namespace ge {

static graphStatus DispersionCorrectionBackwardInferShape(gert::InferShapeContext* context)
{
    namespace port = ascend_ext::ports::DispersionCorrectionBackward;
    *context->GetOutputShape(port::kOutputGradX) = *context->GetInputShape(port::kInputX);  // grad_x has x's shape
    return GRAPH_SUCCESS;
}

static graphStatus DispersionCorrectionBackwardInferDataType(gert::InferDataTypeContext* context)
{
    namespace port = ascend_ext::ports::DispersionCorrectionBackward;
    context->SetOutputDataType(port::kOutputGradX, context->GetInputDataType(port::kInputX));
    return GRAPH_SUCCESS;
}

}  // namespace ge

namespace ops {

class DispersionCorrectionBackward : public OpDef {
public:
    explicit DispersionCorrectionBackward(const char* name) : OpDef(name)
    {
        ascend_ext::ports::DispersionCorrectionBackward::Define(*this);  // the ports, in the declared order (generated)
        this->SetInferShape(ge::DispersionCorrectionBackwardInferShape)
            .SetInferDataType(ge::DispersionCorrectionBackwardInferDataType);
        this->AICore().SetTiling(optiling::DispersionCorrectionBackwardTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(DispersionCorrectionBackward);

}  // namespace ops
