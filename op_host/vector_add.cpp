// CANN glue of VectorAdd: OpDef (its ports generated from the op's declaration), TilingFunc, shape and dtype
// inference. The decisions are made by
// ComputeVectorAddTiling (vector_add_tiling.h), the same function the CPU twin's launches use.
//
// The op: z = scale_x * x + scale_y * y, where x has z's shape and y has x's element count, one
// element, or D elements repeated over x viewed as [R, D]; without y, z = scale_x * x + y_value.
// The adapter describes every operand as the flat buffer the kernel reads.
#include "ascend_ext_ports/VectorAdd.h"
#include "cann_glue.h"
#include "vector_add_tiling.h"

namespace optiling {

static ge::graphStatus VectorAddTilingFunc(gert::TilingContext* context)
{
    namespace port = ascend_ext::ports::VectorAdd;
    ascend_ext::DType dtype;
    if (!ascend_ext::cann::DTypeFromGe(context->GetInputDesc(port::kInputX)->GetDataType(), dtype)) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const gert::StorageShape* y = context->GetOptionalInputShape(port::kInputY);
    ascend_ext::VectorAddOperands operands;
    operands.fullElems = static_cast<uint64_t>(context->GetInputShape(port::kInputX)->GetOriginShape().GetShapeSize());
    operands.hasBcast = y != nullptr;
    operands.bcastElems = y != nullptr ? static_cast<uint64_t>(y->GetOriginShape().GetShapeSize()) : 0;
    operands.scaleX = *attrs->GetAttrPointer<float>(port::kAttrScaleX);
    operands.scaleY = *attrs->GetAttrPointer<float>(port::kAttrScaleY);
    operands.yValue = *attrs->GetAttrPointer<float>(port::kAttrYValue);
    const ascend_ext::VectorAddDecoded decoded = ascend_ext::DecodeVectorAddProblem(operands);
    if (decoded.error != nullptr) return ge::GRAPH_FAILED;
    const ascend_ext::VectorAddPlan plan =
        ascend_ext::ComputeVectorAddTiling(decoded.problem, dtype, ascend_ext::cann::PlatformFromContext(context));
    *context->GetTilingData<VectorAddTilingData>() = plan.tiling;
    context->SetBlockDim(plan.blockDim > 0 ? plan.blockDim : 1);  // an empty input runs one idle core
    ascend_ext::cann::SetWorkspace(context, /*usesApiWorkspace=*/false, 0);  // no library API, no scratch: none
    return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ge {

static graphStatus VectorAddInferShape(gert::InferShapeContext* context)
{
    namespace port = ascend_ext::ports::VectorAdd;
    *context->GetOutputShape(port::kOutputZ) = *context->GetInputShape(port::kInputX);  // x has the result's shape
    return GRAPH_SUCCESS;
}

static graphStatus VectorAddInferDataType(gert::InferDataTypeContext* context)
{
    namespace port = ascend_ext::ports::VectorAdd;
    context->SetOutputDataType(port::kOutputZ, context->GetInputDataType(port::kInputX));
    return GRAPH_SUCCESS;
}

}  // namespace ge

namespace ops {

class VectorAdd : public OpDef {
public:
    explicit VectorAdd(const char* name) : OpDef(name)
    {
        ascend_ext::ports::VectorAdd::Define(*this);  // the ports, in the declared order (generated)
        this->SetInferShape(ge::VectorAddInferShape).SetInferDataType(ge::VectorAddInferDataType);
        this->AICore().SetTiling(optiling::VectorAddTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(VectorAdd);

}  // namespace ops
