// The hardware profiles and element types host tiling plans with. The figures live in the twin
// (twin/include/twin/platform.h, sources in docs/hardware.md): one copy, read by the tilings, the twin and
// the NPU glue alike. Included by path, not through the include path, so that op_host builds that also
// see CANN's headers never get the twin's kernel headers with it.
#pragma once

#include <cstdint>

#include "../twin/include/twin/dtype.h"
#include "../twin/include/twin/platform.h"

namespace ascend_ext {

using PlatformInfo = ascend_twin::Platform;
using ascend_twin::FindPlatform;
using ascend_twin::kAscend910B2;
using ascend_twin::kAscend910B3;
using ascend_twin::kPlatforms;
using ascend_twin::kL1KfcReserved;
using ascend_twin::L1Usable;

using ascend_twin::DType;
using ascend_twin::DTypeName;
using ascend_twin::DTypeSize;

// UB our tilings plan with: all of it but the instructions' scratch (InitBuffer itself may hand out all of UB).
inline constexpr uint64_t UbUsable(const PlatformInfo& p) { return p.ubSize - p.ubApiReserved; }

// The workspace an op asks for (TilingContext::GetWorkspaceSizes). The system part, GetLibApiWorkSpaceSize()
// bytes (16 MiB on A2), only where the kernel needs it: for an API that uses it (the Matmul object; asc-devkit
// guide 如何使用workspace), and in front of any user workspace, which the op build's kernel wrapper
// places after it (usrWorkspace = workspace + RESERVED_WORKSPACE, asc-devkit
// tools/build/asc_op_compile_base/asc_op_compiler/compile_op.py). A kernel using neither asks for nothing.
inline constexpr uint64_t OpWorkspaceBytes(uint64_t systemBytes, bool usesApiWorkspace, uint64_t userBytes)
{
    return (usesApiWorkspace || userBytes > 0 ? systemBytes : 0) + userBytes;
}

inline constexpr uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
inline constexpr uint64_t AlignUp(uint64_t a, uint64_t b) { return CeilDiv(a, b) * b; }
inline constexpr uint64_t AlignDown(uint64_t a, uint64_t b) { return a / b * b; }

}  // namespace ascend_ext
