// VectorAdd tiling: flat length + dtype + platform -> per-core split and UB tile size.
// The struct part is read by the kernel (GET_TILING_DATA); the function part is host-only.
#pragma once

#include <cstdint>

struct VectorAddTilingData {
    uint64_t totalLength;   // elements in each operand
    uint64_t formerLength;  // elements of each of the first formerNum cores
    uint64_t tailLength;    // elements of each later core; the last core stops at totalLength
    uint32_t formerNum;
    uint32_t tileLength;    // elements per UB tile (a multiple of 64, so 32-byte aligned for every dtype)
};

#if !defined(__CCE_AICORE__)
#include <utility>
#include <vector>

#include "platform_info.h"

namespace ascend_ext {

struct VectorAddPlan {
    VectorAddTilingData tiling;
    uint32_t blockDim;  // 0: empty input, nothing to launch
    uint64_t ubBytes;   // UB the kernel allocates per core
};

inline constexpr uint32_t kVectorAddBufferNum = 2;        // double buffering of every queue
inline constexpr uint64_t kVectorAddMinBytesPerCore = 8192;  // below this a core costs more than it saves

// Bytes of UB one element of a tile needs: x, y, z queues double buffered, plus float32 scratch for
// the two operands when the dtype has no native vector Add (bfloat16).
inline constexpr uint64_t VectorAddUbBytesPerElement(DType dtype)
{
    uint64_t bytes = 3ULL * kVectorAddBufferNum * DTypeSize(dtype);
    if (dtype == DType::kBFloat16) {
        bytes += 2ULL * sizeof(float);
    }
    return bytes;
}

inline VectorAddPlan ComputeVectorAddTiling(uint64_t totalLength, DType dtype, const PlatformInfo& platform)
{
    VectorAddPlan plan{};
    plan.tiling.totalLength = totalLength;
    if (totalLength == 0) {
        return plan;
    }
    const uint64_t blockElems = platform.ubAlign / DTypeSize(dtype);
    const uint64_t totalBlocks = CeilDiv(totalLength, blockElems);
    const uint64_t minBlocksPerCore = kVectorAddMinBytesPerCore / platform.ubAlign;
    uint64_t blockDim = CeilDiv(totalBlocks, minBlocksPerCore);
    if (blockDim > platform.aivNum) {
        blockDim = platform.aivNum;
    }
    // Every core gets whole 32-byte blocks, so no two cores ever touch the same block of the output.
    const uint64_t blocksPerCore = totalBlocks / blockDim;
    plan.tiling.formerNum = static_cast<uint32_t>(totalBlocks % blockDim);
    plan.tiling.formerLength = (blocksPerCore + 1) * blockElems;
    plan.tiling.tailLength = blocksPerCore * blockElems;
    plan.blockDim = static_cast<uint32_t>(blockDim);

    constexpr uint64_t tileAlignElems = 64;
    const uint64_t perElement = VectorAddUbBytesPerElement(dtype);
    uint64_t tile = AlignDown(UbUsable(platform) / perElement, tileAlignElems);
    const uint64_t longestCore = AlignUp(plan.tiling.formerNum > 0 ? plan.tiling.formerLength : plan.tiling.tailLength,
                                         tileAlignElems);
    if (tile > longestCore) {
        tile = longestCore;  // a tile larger than the core's share would only waste UB
    }
    plan.tiling.tileLength = static_cast<uint32_t>(tile);
    plan.ubBytes = tile * perElement;
    return plan;
}

// The plan as named numbers, for ascend_ext.twin.plan() and the snapshot tests.
inline std::vector<std::pair<const char*, uint64_t>> DescribeVectorAddPlan(const VectorAddPlan& plan)
{
    const VectorAddTilingData& t = plan.tiling;
    return {{"block_dim", plan.blockDim},   {"total_length", t.totalLength}, {"former_num", t.formerNum},
            {"former_length", t.formerLength}, {"tail_length", t.tailLength},   {"tile_length", t.tileLength},
            {"ub_bytes", plan.ubBytes}};
}

}  // namespace ascend_ext
#endif
