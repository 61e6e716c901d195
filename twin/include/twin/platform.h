// The hardware the twin models: one profile per SoC. Pure C++ (no twin runtime), so host tiling code reads
// the same figures (it keeps no copy of its own). docs/hardware.md cites the source of every figure.
#pragma once

#include <cstdint>
#include <cstring>

namespace ascend_twin {

struct Platform {
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
    // Bytes the runtime appends to every GM data allocation after rounding it up to ubAlign: aclrtMalloc
    // allocates AlignUp(n, 32) + padding_size (AICoreSpec.padding_size, 32 on the 910B SoCs), and torch-npu's
    // caching allocator adds the same 32 before 950. DMA reads may run into it; what they read is undefined.
    uint32_t gmPadding;
};

// Numbers from the 910B platform configs and asc-devkit's A2 constants (docs/hardware.md).
inline constexpr Platform kAscend910B2{"Ascend910B2", 24, 48, 1.8, 196608, 8192, 524288, 65536, 65536,
                                       131072, 32, 512, 64, 256, 32};
inline constexpr Platform kAscend910B3{"Ascend910B3", 20, 40, 1.8, 196608, 8192, 524288, 65536, 65536,
                                       131072, 32, 512, 64, 256, 32};

inline constexpr const Platform* kPlatforms[] = {&kAscend910B2, &kAscend910B3};

// L1 a kernel's TPipe can hand out on A2 (dav-2201): TOTAL_L1_SIZE = 512 KiB - KFC_L1_RESERVER_SIZE (128 B,
// kept for the Matmul API's messages), asc-devkit impl/basic_api/utils/kernel_utils_constants.h. l1Size is
// the physical size GetCoreMemSize(L1) reports.
inline constexpr uint64_t kL1KfcReserved = 128;
inline constexpr uint64_t L1Usable(const Platform& p) { return p.l1Size - kL1KfcReserved; }

// Accepts "Ascend910B2" or the short "910B2". Returns nullptr for an unknown name.
inline const Platform* FindPlatform(const char* name)
{
    for (const Platform* p : kPlatforms) {
        if (std::strcmp(p->name, name) == 0 || std::strcmp(p->name + std::strlen("Ascend"), name) == 0) {
            return p;
        }
    }
    return nullptr;
}

}  // namespace ascend_twin
