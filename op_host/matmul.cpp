// CANN glue of MatmulCube (the kernel behind ascend_ext::matmul): OpDef with trans_a/trans_b and an optional
// float32 bias, TilingFunc, shape and dtype inference. The decisions are made by ComputeMatmulTiling
// (matmul_tiling.h), the same function the CPU twin's launches use. The op type is not "Matmul": the Matmul
// API's `namespace matmul` takes the kernel name `matmul`, and CANN has its own MatMul ops.
#include "cann_glue.h"
#include "matmul_tiling.h"

namespace ascend_ext::cann {

// The op's operands decoded by DecodeMatmulProblem (matmul_tiling.h), as the CPU adapter decodes them.
inline MatmulDecoded DecodeMatmul(const gert::Shape& a, const gert::Shape& b, const gert::Shape* bias,
                                  const gert::RuntimeAttrs* attrs)
{
    const std::vector<int64_t> aDims = Dims(a), bDims = Dims(b);
    const std::vector<int64_t> biasDims = bias != nullptr ? Dims(*bias) : std::vector<int64_t>();
    return DecodeMatmulProblem(aDims.data(), aDims.size(), bDims.data(), bDims.size(),
                               *attrs->GetAttrPointer<bool>(0), *attrs->GetAttrPointer<bool>(1),
                               bias != nullptr ? biasDims.data() : nullptr, biasDims.size());
}

}  // namespace ascend_ext::cann

namespace optiling {

static ge::graphStatus MatmulCubeTilingFunc(gert::TilingContext* context)
{
    ascend_ext::DType dtype;
    if (!ascend_ext::cann::DTypeFromGe(context->GetInputDesc(0)->GetDataType(), dtype)) {
        return ge::GRAPH_FAILED;
    }
    const gert::StorageShape* bias = context->GetOptionalInputShape(2);
    const ascend_ext::MatmulDecoded decoded = ascend_ext::cann::DecodeMatmul(
        context->GetInputShape(0)->GetStorageShape(), context->GetInputShape(1)->GetStorageShape(),
        bias != nullptr ? &bias->GetStorageShape() : nullptr, context->GetAttrs());
    if (decoded.error != nullptr) return ge::GRAPH_FAILED;
    const ascend_ext::MatmulPlan plan =
        ascend_ext::ComputeMatmulTiling(decoded.problem, dtype, ascend_ext::cann::PlatformFromContext(context));
    if (plan.unsupported != nullptr) {
        return ge::GRAPH_FAILED;
    }
    *context->GetTilingData<MatmulTilingData>() = plan.tiling;
    context->SetBlockDim(plan.blockDim > 0 ? plan.blockDim : 1);  // an empty C runs one idle core
    ascend_ext::cann::SetWorkspace(context, /*usesApiWorkspace=*/true, 0);  // the Matmul API's system workspace only
    return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ge {

static graphStatus MatmulCubeInferShape(gert::InferShapeContext* context)
{
    const ascend_ext::MatmulDecoded decoded = ascend_ext::cann::DecodeMatmul(
        *context->GetInputShape(0), *context->GetInputShape(1), context->GetOptionalInputShape(2),
        context->GetAttrs());
    if (decoded.error != nullptr) return GRAPH_FAILED;
    gert::Shape* c = context->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, static_cast<int64_t>(decoded.problem.m));
    c->SetDim(1, static_cast<int64_t>(decoded.problem.n));
    return GRAPH_SUCCESS;
}

static graphStatus MatmulCubeInferDataType(gert::InferDataTypeContext* context)
{
    return context->SetOutputDataType(0, context->GetInputDataType(0));
}

}  // namespace ge

namespace ops {

class MatmulCube : public OpDef {
public:
    explicit MatmulCube(const char* name) : OpDef(name)
    {
        const std::vector<ge::DataType> dtypes{ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16};
        const std::vector<ge::DataType> biasTypes{ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT};
        const std::vector<ge::Format> formats{ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND};
        this->Input("a").ParamType(REQUIRED).DataType(dtypes).Format(formats);
        this->Input("b").ParamType(REQUIRED).DataType(dtypes).Format(formats);
        this->Input("bias").ParamType(OPTIONAL).DataType(biasTypes).Format(formats);
        this->Output("c").ParamType(REQUIRED).DataType(dtypes).Format(formats);
        this->Attr("trans_a").AttrType(OPTIONAL).Bool(false);
        this->Attr("trans_b").AttrType(OPTIONAL).Bool(false);
        this->SetInferShape(ge::MatmulCubeInferShape).SetInferDataType(ge::MatmulCubeInferDataType);
        this->AICore().SetTiling(optiling::MatmulCubeTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(MatmulCube);

}  // namespace ops
