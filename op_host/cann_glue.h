// CANN-only: turns what a gert::TilingContext knows into the inputs of the pure tiling functions.
// Built only by the CANN branch of CMakeLists.txt.
#pragma once

#include <vector>

#include "cpp_tiling.h"
#include "platform_info.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace ascend_ext::cann {

// The profile this SoC matches, with the core counts and UB/L1/L0 sizes the runtime reports.
inline PlatformInfo PlatformFromContext(gert::TilingContext* context)
{
    const platform_ascendc::PlatformAscendC ascendc(context->GetPlatformInfo());
    PlatformInfo info = kAscend910B2;
    info.name = "runtime";
    info.aivNum = ascendc.GetCoreNumAiv();
    info.aicNum = ascendc.GetCoreNumAic();
    uint64_t ub = 0;
    ascendc.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    info.ubSize = ub;
    ascendc.GetCoreMemSize(platform_ascendc::CoreMemType::L1, info.l1Size);
    ascendc.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, info.l0aSize);
    ascendc.GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, info.l0bSize);
    ascendc.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, info.l0cSize);
    return info;
}

// A shape's dimensions, for the ops' pure decode functions (<op>_tiling.h).
inline std::vector<int64_t> Dims(const gert::Shape& shape)
{
    std::vector<int64_t> dims(shape.GetDimNum());
    for (size_t i = 0; i < dims.size(); ++i) dims[i] = shape.GetDim(i);
    return dims;
}

// False for a dtype the kernels are not built for (the OpDef admits none such; this is a guard).
inline bool DTypeFromGe(ge::DataType dt, DType& out)
{
    switch (dt) {
        case ge::DT_FLOAT: out = DType::kFloat32; return true;
        case ge::DT_FLOAT16: out = DType::kFloat16; return true;
        case ge::DT_BF16: out = DType::kBFloat16; return true;
        default: return false;
    }
}

// The op's workspace: OpWorkspaceBytes (platform_info.h) with this SoC's system workspace size.
inline void SetWorkspace(gert::TilingContext* context, bool usesApiWorkspace, uint64_t userBytes)
{
    const platform_ascendc::PlatformAscendC ascendc(context->GetPlatformInfo());
    size_t* sizes = context->GetWorkspaceSizes(1);
    sizes[0] = OpWorkspaceBytes(ascendc.GetLibApiWorkSpaceSize(), usesApiWorkspace, userBytes);
}

// The TilingFunc of an op tiled by a C++ tiling function (cpp_tiling.h): the function the host calls through
// ascend_ext.library.CppTiling, here on the context. Its tensors are the op's first numInputs inputs in order
// (every one present: REQUIRED), its attrs are read by their kinds, 'f' Float, 'i' Int, 'b' Bool (the
// generated ports header's kNumInputs and kAttrKinds), the platform is the SoC's.
template <typename Data>
inline ge::graphStatus RunCppTiling(gert::TilingContext* context,
                                    TilingDecision (*fn)(const TilingArgs&, const PlatformInfo&, Data&),
                                    size_t numInputs, const char* attrKinds, bool usesApiWorkspace)
{
    TilingArgs args{};
    if (numInputs > kTilingMaxTensors) return ge::GRAPH_FAILED;
    args.numTensors = static_cast<uint32_t>(numInputs);
    for (size_t i = 0; i < numInputs; ++i) {
        const gert::StorageShape* shape = context->GetInputShape(i);
        const auto* desc = context->GetInputDesc(i);
        if (shape == nullptr || desc == nullptr) return ge::GRAPH_FAILED;
        const std::vector<int64_t> dims = Dims(shape->GetOriginShape());
        if (dims.size() > kTilingMaxDims) return ge::GRAPH_FAILED;
        TilingTensor& t = args.tensors[i];
        t.present = 1;
        t.dim = static_cast<uint32_t>(dims.size());
        for (size_t d = 0; d < dims.size(); ++d) t.sizes[d] = dims[d];
        DType dtype;
        t.dtype = DTypeFromGe(desc->GetDataType(), dtype) ? static_cast<uint32_t>(dtype) : kTilingOtherDType;
        t.elemSize = static_cast<uint32_t>(ge::GetSizeByDataType(desc->GetDataType()));
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    for (uint32_t j = 0; attrKinds[j] != '\0'; ++j) {
        if (j >= kTilingMaxAttrs) return ge::GRAPH_FAILED;
        TilingAttr& a = args.attrs[j];
        switch (attrKinds[j]) {
            case 'f': a.real = *attrs->GetAttrPointer<float>(j); break;
            case 'i': a.integer = *attrs->GetAttrPointer<int64_t>(j); a.real = static_cast<double>(a.integer); break;
            case 'b': a.integer = *attrs->GetAttrPointer<bool>(j) ? 1 : 0; a.real = static_cast<double>(a.integer); break;
            default: return ge::GRAPH_FAILED;
        }
        args.numAttrs = j + 1;
    }
    const TilingDecision d = fn(args, PlatformFromContext(context), *context->GetTilingData<Data>());
    if (d.error != nullptr || d.blockDim == 0) return ge::GRAPH_FAILED;
    context->SetBlockDim(d.blockDim);
    context->SetTilingKey(d.tilingKey);
    SetWorkspace(context, usesApiWorkspace, d.workspaceBytes);
    return ge::GRAPH_SUCCESS;
}

}  // namespace ascend_ext::cann
