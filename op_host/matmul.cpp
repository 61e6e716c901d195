// CANN glue of MatmulCube (the kernel behind ascend_ext::matmul): OpDef with trans_a/trans_b and an optional
// float32 bias (its ports generated from the op's declaration), TilingFunc, shape and dtype inference. The decisions are made by ComputeMatmulTiling
// (matmul_tiling.h), the same function the CPU twin's launches use. The op type is not "Matmul": the Matmul
// API's `namespace matmul` takes the kernel name `matmul`, and CANN has its own MatMul ops.
#include "ascend_ext_ports/MatmulCube.h"
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
                               *attrs->GetAttrPointer<bool>(ports::MatmulCube::kAttrTransA),
                               *attrs->GetAttrPointer<bool>(ports::MatmulCube::kAttrTransB),
                               bias != nullptr ? biasDims.data() : nullptr, biasDims.size());
}

}  // namespace ascend_ext::cann

namespace optiling {

static ge::graphStatus MatmulCubeTilingFunc(gert::TilingContext* context)
{
    namespace port = ascend_ext::ports::MatmulCube;
    ascend_ext::DType dtype;
    if (!ascend_ext::cann::DTypeFromGe(context->GetInputDesc(port::kInputA)->GetDataType(), dtype)) {
        return ge::GRAPH_FAILED;
    }
    const gert::StorageShape* bias = context->GetOptionalInputShape(port::kInputBias);
    const ascend_ext::MatmulDecoded decoded = ascend_ext::cann::DecodeMatmul(
        context->GetInputShape(port::kInputA)->GetStorageShape(), context->GetInputShape(port::kInputB)->GetStorageShape(),
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
    namespace port = ascend_ext::ports::MatmulCube;
    const ascend_ext::MatmulDecoded decoded = ascend_ext::cann::DecodeMatmul(
        *context->GetInputShape(port::kInputA), *context->GetInputShape(port::kInputB),
        context->GetOptionalInputShape(port::kInputBias), context->GetAttrs());
    if (decoded.error != nullptr) return GRAPH_FAILED;
    gert::Shape* c = context->GetOutputShape(port::kOutputC);
    c->SetDimNum(2);
    c->SetDim(0, static_cast<int64_t>(decoded.problem.m));
    c->SetDim(1, static_cast<int64_t>(decoded.problem.n));
    return GRAPH_SUCCESS;
}

static graphStatus MatmulCubeInferDataType(gert::InferDataTypeContext* context)
{
    namespace port = ascend_ext::ports::MatmulCube;
    return context->SetOutputDataType(port::kOutputC, context->GetInputDataType(port::kInputA));
}

}  // namespace ge

namespace ops {

class MatmulCube : public OpDef {
public:
    explicit MatmulCube(const char* name) : OpDef(name)
    {
        ascend_ext::ports::MatmulCube::Define(*this);  // the ports, in the declared order (generated)
        this->SetInferShape(ge::MatmulCubeInferShape).SetInferDataType(ge::MatmulCubeInferDataType);
        this->AICore().SetTiling(optiling::MatmulCubeTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(MatmulCube);

}  // namespace ops
