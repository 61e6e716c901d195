// CANN glue of DispersionCorrection: OpDef, TilingFunc, shape and dtype inference. The decisions are made by
// ComputeDispersionCorrectionTiling (dispersion_correction_tiling.h), the same function the CPU twin's
// launches use.
//
// The op: y has x's shape; per row of x's last dimension (mu, var: the row's mean and population variance)
// mode 0: y = mu + alpha * (x - mu); mode 1: y = mu + alpha * (x - mu) / sqrt(var + eps).
#include "dispersion_correction_glue.h"

namespace optiling {

static ge::graphStatus DispersionCorrectionTilingFunc(gert::TilingContext* context)
{
    return ascend_ext::cann::DispersionCorrectionTiling(context, /*xInput=*/0, /*backward=*/false);
}

}  // namespace optiling

namespace ge {

static graphStatus DispersionCorrectionInferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}

static graphStatus DispersionCorrectionInferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}

}  // namespace ge

namespace ops {

class DispersionCorrection : public OpDef {
public:
    explicit DispersionCorrection(const char* name) : OpDef(name)
    {
        const std::vector<ge::DataType> dtypes{ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16};
        const std::vector<ge::Format> formats{ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND};
        this->Input("x").ParamType(REQUIRED).DataType(dtypes).Format(formats);
        this->Output("y").ParamType(REQUIRED).DataType(dtypes).Format(formats);
        this->Attr("alpha").AttrType(REQUIRED).Float();
        this->Attr("mode").AttrType(OPTIONAL).Int(1);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
        this->SetInferShape(ge::DispersionCorrectionInferShape).SetInferDataType(ge::DispersionCorrectionInferDataType);
        this->AICore().SetTiling(optiling::DispersionCorrectionTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(DispersionCorrection);

}  // namespace ops
