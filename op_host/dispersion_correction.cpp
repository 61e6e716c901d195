// CANN glue of DispersionCorrection: OpDef, TilingFunc, shape and dtype inference. The decisions are made by
// ComputeDispersionCorrectionTiling (dispersion_correction_tiling.h), the same function the CPU twin's
// launches use.
//
// The op: y has x's shape; per row of x's last dimension (mu, var: the row's mean and population variance)
// mode 0: y = mu + alpha * (x - mu); mode 1: y = mu + alpha * (x - mu) / sqrt(var + eps).
#include "cann_glue.h"
#include "dispersion_correction_tiling.h"

namespace optiling {

static ge::graphStatus DispersionCorrectionTilingFunc(gert::TilingContext* context)
{
    ascend_ext::DType dtype;
    if (!ascend_ext::cann::DTypeFromGe(context->GetInputDesc(0)->GetDataType(), dtype)) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    if (shape.GetDimNum() == 0 || shape.GetDim(shape.GetDimNum() - 1) <= 0) return ge::GRAPH_FAILED;
    ascend_ext::DispersionCorrectionProblem p;
    p.rowLength = static_cast<uint64_t>(shape.GetDim(shape.GetDimNum() - 1));
    p.rows = static_cast<uint64_t>(shape.GetShapeSize()) / p.rowLength;
    p.alpha = *attrs->GetAttrPointer<float>(0);
    const int64_t mode = *attrs->GetAttrPointer<int64_t>(1);
    if (mode != kDispersionScale && mode != kDispersionNormalize) return ge::GRAPH_FAILED;
    p.mode = static_cast<uint32_t>(mode);
    p.eps = *attrs->GetAttrPointer<float>(2);
    const ascend_ext::DispersionCorrectionPlan plan =
        ascend_ext::ComputeDispersionCorrectionTiling(p, dtype, ascend_ext::cann::PlatformFromContext(context));
    *context->GetTilingData<DispersionCorrectionTilingData>() = plan.tiling;
    context->SetBlockDim(plan.blockDim > 0 ? plan.blockDim : 1);  // an empty input runs one idle core
    ascend_ext::cann::SetWorkspace(context, 0);
    return ge::GRAPH_SUCCESS;
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
