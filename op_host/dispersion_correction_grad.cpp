// CANN glue of DispersionCorrectionGrad, the backward of DispersionCorrection: OpDef, TilingFunc, shape and
// dtype inference, with the tiling of dispersion_correction_tiling.h (backward = true).
//
// The op: grad_x has x's shape; per row, with gm = mean(grad), mode 0: grad_x = alpha * grad + (1 - alpha) * gm;
// mode 1, with s = sqrt(var + eps) and xh = (x - mu) / s: grad_x = gm + (alpha / s) * (grad - gm - xh * mean(grad * xh)).
#include "dispersion_correction_glue.h"

namespace optiling {

static ge::graphStatus DispersionCorrectionGradTilingFunc(gert::TilingContext* context)
{
    return ascend_ext::cann::DispersionCorrectionTiling(context, /*xInput=*/1, /*backward=*/true);
}

}  // namespace optiling

namespace ge {

static graphStatus DispersionCorrectionGradInferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(1);  // grad_x has x's shape
    return GRAPH_SUCCESS;
}

static graphStatus DispersionCorrectionGradInferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(1));
    return GRAPH_SUCCESS;
}

}  // namespace ge

namespace ops {

class DispersionCorrectionGrad : public OpDef {
public:
    explicit DispersionCorrectionGrad(const char* name) : OpDef(name)
    {
        const std::vector<ge::DataType> dtypes{ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16};
        const std::vector<ge::Format> formats{ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND};
        this->Input("grad").ParamType(REQUIRED).DataType(dtypes).Format(formats);
        this->Input("x").ParamType(REQUIRED).DataType(dtypes).Format(formats);
        this->Output("grad_x").ParamType(REQUIRED).DataType(dtypes).Format(formats);
        this->Attr("alpha").AttrType(REQUIRED).Float();
        this->Attr("mode").AttrType(OPTIONAL).Int(1);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
        this->SetInferShape(ge::DispersionCorrectionGradInferShape)
            .SetInferDataType(ge::DispersionCorrectionGradInferDataType);
        this->AICore().SetTiling(optiling::DispersionCorrectionGradTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(DispersionCorrectionGrad);

}  // namespace ops
