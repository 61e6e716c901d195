// CANN glue of DispersionCorrectionGrad, the backward of DispersionCorrection: OpDef, TilingFunc, shape and
// dtype inference, with the tiling of dispersion_correction_tiling.h (backward = true).
//
// The op: grad_x has x's shape; per row, with gm = mean(grad), mode 0: grad_x = alpha * grad + (1 - alpha) * gm;
// mode 1, with s = sqrt(var + eps) and xh = (x - mu) / s: grad_x = gm + (alpha / s) * (grad - gm - xh * mean(grad * xh)).
#include "cann_glue.h"
#include "dispersion_correction_tiling.h"

namespace optiling {

static ge::graphStatus DispersionCorrectionGradTilingFunc(gert::TilingContext* context)
{
    ascend_ext::DType dtype;
    if (!ascend_ext::cann::DTypeFromGe(context->GetInputDesc(0)->GetDataType(), dtype)) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    if (shape.GetDimNum() == 0 || shape.GetDim(shape.GetDimNum() - 1) <= 0) return ge::GRAPH_FAILED;
    if (context->GetInputShape(1)->GetOriginShape() != shape) return ge::GRAPH_FAILED;
    ascend_ext::DispersionCorrectionProblem p;
    p.rowLength = static_cast<uint64_t>(shape.GetDim(shape.GetDimNum() - 1));
    p.rows = static_cast<uint64_t>(shape.GetShapeSize()) / p.rowLength;
    p.alpha = *attrs->GetAttrPointer<float>(0);
    const int64_t mode = *attrs->GetAttrPointer<int64_t>(1);
    if (mode != kDispersionScale && mode != kDispersionNormalize) return ge::GRAPH_FAILED;
    p.mode = static_cast<uint32_t>(mode);
    p.eps = *attrs->GetAttrPointer<float>(2);
    p.backward = true;
    const ascend_ext::DispersionCorrectionPlan plan =
        ascend_ext::ComputeDispersionCorrectionTiling(p, dtype, ascend_ext::cann::PlatformFromContext(context));
    *context->GetTilingData<DispersionCorrectionTilingData>() = plan.tiling;
    context->SetBlockDim(plan.blockDim > 0 ? plan.blockDim : 1);  // an empty input runs one idle core
    ascend_ext::cann::SetWorkspace(context, 0);
    return ge::GRAPH_SUCCESS;
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
