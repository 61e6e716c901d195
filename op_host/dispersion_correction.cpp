// CANN glue of DispersionCorrection: OpDef, TilingFunc, shape and dtype inference. The decisions are made by
// ComputeDispersionCorrectionTiling (dispersion_correction_tiling.h), the same function the CPU twin's
// launches use.
//
// The op: y has x's shape; per row of x's last dimension (mu, var: the row's mean and population variance)
// mode 0: y = mu + alpha * (x - mu); mode 1: y = mu + alpha * (x - mu) / sqrt(var + eps).
#include "ascend_ext_ports/DispersionCorrection.h"
#include "dispersion_correction_glue.h"

namespace optiling {

static ge::graphStatus DispersionCorrectionTilingFunc(gert::TilingContext* context)
{
    namespace port = ascend_ext::ports::DispersionCorrection;
    return ascend_ext::cann::DispersionCorrectionTiling(
        context, {port::kInputX, /*grad: none*/ port::kInputX, port::kAttrAlpha, port::kAttrMode, port::kAttrEps}, /*backward=*/false);
}

}  // namespace optiling

namespace ge {

static graphStatus DispersionCorrectionInferShape(gert::InferShapeContext* context)
{
    namespace port = ascend_ext::ports::DispersionCorrection;
    *context->GetOutputShape(port::kOutputY) = *context->GetInputShape(port::kInputX);
    return GRAPH_SUCCESS;
}

static graphStatus DispersionCorrectionInferDataType(gert::InferDataTypeContext* context)
{
    namespace port = ascend_ext::ports::DispersionCorrection;
    context->SetOutputDataType(port::kOutputY, context->GetInputDataType(port::kInputX));
    return GRAPH_SUCCESS;
}

}  // namespace ge

namespace ops {

class DispersionCorrection : public OpDef {
public:
    explicit DispersionCorrection(const char* name) : OpDef(name)
    {
        ascend_ext::ports::DispersionCorrection::Define(*this);  // the ports, in the declared order (generated)
        this->SetInferShape(ge::DispersionCorrectionInferShape).SetInferDataType(ge::DispersionCorrectionInferDataType);
        this->AICore().SetTiling(optiling::DispersionCorrectionTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(DispersionCorrection);

}  // namespace ops
