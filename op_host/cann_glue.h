// CANN-only: turns what a gert::TilingContext knows into the inputs of the pure tiling functions.
// Built only by the CANN branch of CMakeLists.txt.
#pragma once

#include <vector>

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

}  // namespace ascend_ext::cann
