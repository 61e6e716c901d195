// Hardware profiles the tiling functions and the CPU twin read. Pure C++, shared by host and twin.
#pragma once

#include <cstdint>
#include <cstring>

namespace ascend_ext {

struct PlatformInfo {
    const char* name;
    uint32_t aicNum;       // AI Cube cores
    uint32_t aivNum;       // AI Vector cores
    double clockGhz;
    uint64_t ubSize;       // Unified Buffer per vector core, bytes
    uint64_t ubApiReserved;  // top of UB some instructions use as scratch (A2: Select, AddDeqRelu at 184 KiB); tilings keep clear of it
    uint64_t l1Size;
    uint64_t l0aSize;
    uint64_t l0bSize;
    uint64_t l0cSize;
    uint32_t ubAlign;      // UB / L1 address and DataCopy length granule
    uint32_t l0abAlign;
    uint32_t l0cAlign;
    uint32_t repeatBytes;  // bytes one vector repeat processes
};

// Numbers from the 910B platform configs (see ARCHITECTURE.md §3).
inline constexpr PlatformInfo kAscend910B2{"Ascend910B2", 24, 48, 1.8, 196608, 8192, 524288, 65536, 65536,
                                           131072, 32, 512, 64, 256};
inline constexpr PlatformInfo kAscend910B3{"Ascend910B3", 20, 40, 1.8, 196608, 8192, 524288, 65536, 65536,
                                           131072, 32, 512, 64, 256};

// UB our tilings plan with: all of it but the instructions' scratch (InitBuffer itself may hand out all of UB).
inline constexpr uint64_t UbUsable(const PlatformInfo& p) { return p.ubSize - p.ubApiReserved; }

// L1 a kernel's TPipe can hand out on A2 (dav-2201): TOTAL_L1_SIZE = 512 KiB - KFC_L1_RESERVER_SIZE (128 B,
// kept for the Matmul API's messages), asc-devkit impl/basic_api/utils/kernel_utils_constants.h. l1Size is
// the physical size GetCoreMemSize(L1) reports.
inline constexpr uint64_t kL1KfcReserved = 128;
inline constexpr uint64_t L1Usable(const PlatformInfo& p) { return p.l1Size - kL1KfcReserved; }

// The workspace an op asks for (TilingContext::GetWorkspaceSizes). The system part, GetLibApiWorkSpaceSize()
// bytes (16 MiB on A2), only where the kernel needs it: for an API that uses it (the Matmul object; asc-devkit
// guide 如何使用workspace), and in front of any user workspace, which the op build's kernel wrapper
// places after it (usrWorkspace = workspace + RESERVED_WORKSPACE, asc-devkit
// tools/build/asc_op_compile_base/asc_op_compiler/compile_op.py). A kernel using neither asks for nothing.
inline constexpr uint64_t OpWorkspaceBytes(uint64_t systemBytes, bool usesApiWorkspace, uint64_t userBytes)
{
    return (usesApiWorkspace || userBytes > 0 ? systemBytes : 0) + userBytes;
}

inline constexpr const PlatformInfo* kPlatforms[] = {&kAscend910B2, &kAscend910B3};

// Accepts "Ascend910B2" or the short "910B2". Returns nullptr for an unknown name.
inline const PlatformInfo* FindPlatform(const char* name)
{
    for (const PlatformInfo* p : kPlatforms) {
        if (std::strcmp(p->name, name) == 0 || std::strcmp(p->name + std::strlen("Ascend"), name) == 0) {
            return p;
        }
    }
    return nullptr;
}

// Element types the kernels are built for. Float64 exists only on the CPU twin, so that gradients can be
// checked in double precision; the NPU package is built for the first three.
enum class DType : uint32_t { kFloat32 = 0, kFloat16 = 1, kBFloat16 = 2, kFloat64 = 3 };

inline constexpr uint32_t DTypeSize(DType t)
{
    return t == DType::kFloat64 ? 8 : (t == DType::kFloat32 ? 4 : 2);
}

inline constexpr const char* DTypeName(DType t)
{
    switch (t) {
        case DType::kFloat32: return "float32";
        case DType::kFloat16: return "float16";
        case DType::kBFloat16: return "bfloat16";
        case DType::kFloat64: return "float64";
    }
    return "?";
}

inline constexpr uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
inline constexpr uint64_t AlignUp(uint64_t a, uint64_t b) { return CeilDiv(a, b) * b; }
inline constexpr uint64_t AlignDown(uint64_t a, uint64_t b) { return a / b * b; }

}  // namespace ascend_ext
