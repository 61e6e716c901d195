// CANN glue of VectorAdd: OpDef, TilingFunc, shape and dtype inference. The decisions are made by
// ComputeVectorAddTiling (vector_add_tiling.h), the same function the CPU twin's launches use.
//
// The op: z = scale_x * x + scale_y * y, where x has z's shape and y has x's element count, one
// element, or D elements repeated over x viewed as [R, D]; without y, z = scale_x * x + y_value.
// The adapter describes every operand as the flat buffer the kernel reads.
#include "cann_glue.h"
#include "vector_add_tiling.h"

namespace optiling {

static ge::graphStatus VectorAddTilingFunc(gert::TilingContext* context)
{
    ascend_ext::DType dtype;
    if (!ascend_ext::cann::DTypeFromGe(context->GetInputDesc(0)->GetDataType(), dtype)) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const gert::StorageShape* y = context->GetOptionalInputShape(1);
    ascend_ext::VectorAddOperands operands;
    operands.fullElems = static_cast<uint64_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    operands.hasBcast = y != nullptr;
    operands.bcastElems = y != nullptr ? static_cast<uint64_t>(y->GetOriginShape().GetShapeSize()) : 0;
    operands.scaleX = *attrs->GetAttrPointer<float>(0);
    operands.scaleY = *attrs->GetAttrPointer<float>(1);
    operands.yValue = *attrs->GetAttrPointer<float>(2);
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
    *context->GetOutputShape(0) = *context->GetInputShape(0);  // x has the result's shape
    return GRAPH_SUCCESS;
}

static graphStatus VectorAddInferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}

}  // namespace ge

namespace ops {

class VectorAdd : public OpDef {
public:
    explicit VectorAdd(const char* name) : OpDef(name)
    {
        const std::vector<ge::DataType> dtypes{ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16};
        const std::vector<ge::Format> formats{ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND};
        this->Input("x").ParamType(REQUIRED).DataType(dtypes).Format(formats);
        this->Input("y").ParamType(OPTIONAL).DataType(dtypes).Format(formats);
        this->Output("z").ParamType(REQUIRED).DataType(dtypes).Format(formats);
        this->Attr("scale_x").AttrType(OPTIONAL).Float(1.0f);
        this->Attr("scale_y").AttrType(OPTIONAL).Float(1.0f);
        this->Attr("y_value").AttrType(OPTIONAL).Float(0.0f);
        this->SetInferShape(ge::VectorAddInferShape).SetInferDataType(ge::VectorAddInferDataType);
        this->AICore().SetTiling(optiling::VectorAddTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(VectorAdd);

}  // namespace ops
