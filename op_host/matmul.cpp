// CANN glue of MatmulCube (the kernel behind ascend_ext::matmul): OpDef with trans_a/trans_b and an optional
// float32 bias, TilingFunc, shape and dtype inference. The decisions are made by ComputeMatmulTiling
// (matmul_tiling.h), the same function the CPU twin's launches use. The op type is not "Matmul": the Matmul
// API's `namespace matmul` takes the kernel name `matmul`, and CANN has its own MatMul ops.
#include "cann_glue.h"
#include "matmul_tiling.h"

namespace ascend_ext::cann {

// op(a) is [M, K], op(b) is [K, N]; false when a or b is not 2-D or the K's differ.
inline bool MatmulSizes(const gert::Shape& a, const gert::Shape& b, bool transA, bool transB, int64_t& m, int64_t& n,
                        int64_t& k)
{
    if (a.GetDimNum() != 2 || b.GetDimNum() != 2) {
        return false;
    }
    m = transA ? a.GetDim(1) : a.GetDim(0);
    k = transA ? a.GetDim(0) : a.GetDim(1);
    const int64_t kb = transB ? b.GetDim(1) : b.GetDim(0);
    n = transB ? b.GetDim(0) : b.GetDim(1);
    return k == kb && m >= 0 && n >= 0 && k >= 0;
}

}  // namespace ascend_ext::cann

namespace optiling {

static ge::graphStatus MatmulCubeTilingFunc(gert::TilingContext* context)
{
    ascend_ext::DType dtype;
    if (!ascend_ext::cann::DTypeFromGe(context->GetInputDesc(0)->GetDataType(), dtype)) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const bool transA = *attrs->GetAttrPointer<bool>(0);
    const bool transB = *attrs->GetAttrPointer<bool>(1);
    int64_t m = 0;
    int64_t n = 0;
    int64_t k = 0;
    if (!ascend_ext::cann::MatmulSizes(context->GetInputShape(0)->GetStorageShape(),
                                       context->GetInputShape(1)->GetStorageShape(), transA, transB, m, n, k)) {
        return ge::GRAPH_FAILED;
    }
    const bool hasBias = context->GetOptionalInputShape(2) != nullptr;
    const ascend_ext::MatmulPlan plan = ascend_ext::ComputeMatmulTiling(
        m, n, k, dtype, transA, transB, hasBias, ascend_ext::cann::PlatformFromContext(context));
    if (plan.unsupported != nullptr) {
        return ge::GRAPH_FAILED;
    }
    *context->GetTilingData<MatmulTilingData>() = plan.tiling;
    context->SetBlockDim(plan.blockDim > 0 ? plan.blockDim : 1);  // an empty C runs one idle core
    ascend_ext::cann::SetWorkspace(context, 0);  // the Matmul API's system workspace only
    return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ge {

static graphStatus MatmulCubeInferShape(gert::InferShapeContext* context)
{
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    int64_t m = 0;
    int64_t n = 0;
    int64_t k = 0;
    if (!ascend_ext::cann::MatmulSizes(*context->GetInputShape(0), *context->GetInputShape(1),
                                       *attrs->GetAttrPointer<bool>(0), *attrs->GetAttrPointer<bool>(1), m, n, k)) {
        return GRAPH_FAILED;
    }
    gert::Shape* c = context->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, m);
    c->SetDim(1, n);
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
