// CANN glue of ScaleShift (ascend_ext::scale_shift, y = x * a + b): the OpDef (its ports generated from the
// op's declaration), the TilingFunc (the op's C++ tiling, the function the host calls too) and inference.
#include "ascend_ext_ports/ScaleShift.h"
#include "cann_glue.h"
#include "scale_shift_tiling.h"

namespace optiling {

static ge::graphStatus ScaleShiftTilingFunc(gert::TilingContext* context)
{
    namespace port = ascend_ext::ports::ScaleShift;
    return ascend_ext::cann::RunCppTiling(context, &ascend_ext::ScaleShiftTiling, port::kNumInputs, port::kAttrKinds,
                                          /*usesApiWorkspace=*/false);
}

}  // namespace optiling

namespace ge {

static graphStatus ScaleShiftInferShape(gert::InferShapeContext* context)
{
    namespace port = ascend_ext::ports::ScaleShift;
    *context->GetOutputShape(port::kOutputY) = *context->GetInputShape(port::kInputX);
    return GRAPH_SUCCESS;
}

static graphStatus ScaleShiftInferDataType(gert::InferDataTypeContext* context)
{
    namespace port = ascend_ext::ports::ScaleShift;
    context->SetOutputDataType(port::kOutputY, context->GetInputDataType(port::kInputX));
    return GRAPH_SUCCESS;
}

}  // namespace ge

namespace ops {

class ScaleShift : public OpDef {
public:
    explicit ScaleShift(const char* name) : OpDef(name)
    {
        ascend_ext::ports::ScaleShift::Define(*this);
        this->SetInferShape(ge::ScaleShiftInferShape).SetInferDataType(ge::ScaleShiftInferDataType);
        this->AICore().SetTiling(optiling::ScaleShiftTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(ScaleShift);

}  // namespace ops
