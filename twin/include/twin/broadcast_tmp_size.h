// The temporary UB the Broadcast high-level API needs on A2 (dav-2201), as GetBroadCastMaxMinTmpSize
// reports it. One formula for both sides: the host function (twin/host_include/tiling/pad/broadcast_tiling.h)
// returns it, and the kernel API (twin/include/twin/kernel_broadcast.h) holds sharedTmpBuffer to its minimum.
// Plain C++ without the standard library's containers, so kernel code may include it.
//
// What the A2 implementation does with the buffer (asc-devkit impl/adv_api/detail/pad/broadcast/
// broadcast_common_impl.h, broadcast_v220_impl.h; the sizes in impl/adv_api/tiling/pad/broadcast_tiling.cpp):
// - b8 types (int8_t, uint8_t) are cast to half first: the front of the buffer holds src and dst as half,
//   each rounded up to 16 elements; the rest of the computation then runs on half (typeSize 2);
// - no broadcast (equal sizes) or a single source element: nothing more (b8 types: 32 bytes more are
//   reported);
// - dim 2, axis 0 ([1, k] -> [m, k]): one 32-byte block of zeros (the rows are or-ed into place);
// - dim 2, axis 1 ([m, 1] -> [m, k]): each row's element fills one 32-byte block (Brcb), 8 rows at a
//   time, and the blocks are copied out along the row; when k is not a whole number of blocks the rows
//   are first built k rounded up to a block wide and then gathered. Larger buffers take more rows per
//   round: the maximum holds every row.
#pragma once

#include <cstdint>

namespace ascend_twin {

struct BroadcastTmpSize {
    const char* error = nullptr;  // the shapes are not ones GetBroadCastMaxMinTmpSize accepts: why
    uint32_t minValue = 0;
    uint32_t maxValue = 0;
    int32_t axis = -1;      // the broadcast axis of a dim-2 broadcast, -1 when there is none
    uint64_t castBytes = 0;  // the front of the buffer that holds src and dst as half (b8 types)
};

inline uint64_t BroadcastAlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

// dimNum 1 or 2; dims as ge::Shape holds them.
inline BroadcastTmpSize BroadcastTmpSizeA2(uint32_t dimNum, const int64_t* srcDims, const int64_t* dstDims,
                                           uint32_t typeSize)
{
    BroadcastTmpSize r;
    if (dimNum != 1 && dimNum != 2) {
        r.error = "Broadcast supports dim 1 or 2 on A2";
        return r;
    }
    if (typeSize == 0) {
        r.error = "typeSize must be greater than 0";
        return r;
    }
    uint64_t srcSize = 1;
    uint64_t dstSize = 1;
    for (uint32_t i = 0; i < dimNum; ++i) {
        // As A2's function: srcShape[i] is dstShape[i] or 1, and src holds at least one element (a 0 in
        // dstShape where src has 1 is accepted). Negative (unknown) dims are refused.
        if (srcDims[i] != dstDims[i] && srcDims[i] != 1) {
            r.error = "srcShape cannot broadcast to dstShape (each srcShape[i] is dstShape[i] or 1)";
            return r;
        }
        if (srcDims[i] <= 0 || dstDims[i] < 0) {
            r.error = "srcShape's size must be greater than 0 (and no dim negative)";
            return r;
        }
        srcSize *= static_cast<uint64_t>(srcDims[i]);
        dstSize *= static_cast<uint64_t>(dstDims[i]);
    }
    uint64_t ts = typeSize;
    if (typeSize == 1) {
        ts = 2;
        r.castBytes = (BroadcastAlignUp(srcSize, 16) + BroadcastAlignUp(dstSize, 16)) * 2;
    }
    if (srcSize == dstSize || srcSize == 1) {
        const uint64_t v = typeSize == 1 ? r.castBytes + 32 : 0;
        r.minValue = r.maxValue = static_cast<uint32_t>(v);
        return r;
    }
    // dim 2 with a real broadcast: one of the two axes.
    const uint64_t perBlock = 32 / ts;
    const uint64_t m = static_cast<uint64_t>(dstDims[0]);
    const uint64_t k = static_cast<uint64_t>(dstDims[1]);
    if (srcDims[1] != 1) {
        r.axis = 0;
        if (k % perBlock != 0) {
            r.error = "dstShape[1] is not 32-byte aligned (axis 0)";
            return r;
        }
        r.minValue = r.maxValue = static_cast<uint32_t>(32 + r.castBytes);
        return r;
    }
    r.axis = 1;
    const uint64_t brcbMin = perBlock * perBlock * ts;
    const uint64_t brcbMax = BroadcastAlignUp(m, 8) * perBlock * ts;
    if (k % perBlock == 0) {
        r.minValue = static_cast<uint32_t>(brcbMin + r.castBytes);
        r.maxValue = static_cast<uint32_t>(brcbMax + r.castBytes);
    } else {
        const uint64_t kAlign = BroadcastAlignUp(k, perBlock);
        r.minValue = static_cast<uint32_t>(brcbMin + perBlock * kAlign * ts + r.castBytes);
        r.maxValue = static_cast<uint32_t>(brcbMax + m * kAlign * ts + r.castBytes);
    }
    return r;
}

}  // namespace ascend_twin
