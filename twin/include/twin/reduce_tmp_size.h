// A2's (dav-2201) temporary-buffer sizes of the reductions over a pattern (ReduceSum, ReduceMax, ReduceMin,
// ReduceProd, ReduceMean, ReduceAny, ReduceAll): what GetReduceXxxMaxMinTmpSize returns on the host
// (twin/host_include/tiling/reduce/reduce_tiling.h) and the minimum the kernel side holds sharedTmpBuffer (or the
// framework's buffer) to (twin/include/twin/kernel_adv_reduce.h). Shared by host and kernel code: no AscendC types.
//
// Checked against asc-devkit impl/adv_api/tiling/reduce/reduce_tiling.cpp. The shape is [first, last] for both
// patterns (AR reduces `last`, RA reduces `first`); rows are `last` padded to a 32-byte block (padLast). k is the
// largest power of two <= n (FindK), halved when it is n itself and there is more than one row/column to fold.
// Maximum and minimum are the same number ("该接口最大临时空间当前等于最小临时空间"):
//   Sum, Mean (float)   isReuseSource 0; AR: last <= 64 -> 0, else first * k(last) * 4; RA: k(first) * padLast * 4
//   Max, Min, Any, All (float/half; Any/All float) isReuseSource 0; AR: last <= a block -> 0, last < a repeat
//                       -> first * 32 bytes, else first * 256 bytes; RA: k(first) * align32(last * typeSize)
//   Any, All (uint8_t)  AR: padLast * 2 + first * 32 (also with isReuseSource); RA: isReuseSource 0, else
//                       k(first) * align32(last)
//   Prod (float)        isReuseSource: AR 256, RA 0; AR: (max(8, k(last)) + first * 8) * 4 + 256;
//                       RA: k(first) * align32(last * 4)
// (k(last) for Sum/Mean AR is halved when first > 1, for Prod when first > 1, as A2 has it.)
#pragma once

#include <cstdint>

namespace ascend_twin {

enum class ReduceFn : uint8_t { kSum, kMax, kMin, kProd, kMean, kAny, kAll, kCount };

inline const char* ReduceFnName(ReduceFn fn)
{
    static const char* const kNames[] = {"ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd",
                                         "ReduceMean", "ReduceAny", "ReduceAll"};
    return kNames[static_cast<unsigned>(fn)];
}

constexpr uint32_t ReduceFindK(uint32_t n)
{
    uint32_t k = 1;
    while (n > 1) {
        k <<= 1;
        n >>= 1;
    }
    return k;
}

constexpr uint32_t ReduceAlign32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

// The size in bytes for the reduction over [first, last] (AR: isAR true) of elements of typeSize bytes
// (uint8_t: 1) with isReuseSource.
constexpr uint32_t ReduceTmpBytesA2(ReduceFn fn, uint32_t typeSize, bool isAR, bool isReuseSource, uint32_t first,
                                    uint32_t last)
{
    const uint32_t elePerBlk = 32 / typeSize;
    const uint32_t padLast = (last + elePerBlk - 1) / elePerBlk * elePerBlk;
    const bool bytes1 = typeSize == 1;
    if (fn == ReduceFn::kProd && isReuseSource) return isAR ? 256 : 0;
    if ((fn == ReduceFn::kAny || fn == ReduceFn::kAll) && bytes1) {
        if (isAR) return padLast * 2 + first * 32;
        if (isReuseSource) return 0;
        uint32_t k = ReduceFindK(first);
        if (k == first && first > 1) k >>= 1;
        return k * ReduceAlign32(last);
    }
    if (isReuseSource) return 0;
    if (!isAR) {
        uint32_t k = ReduceFindK(first);
        if (k == first && first > 1) k >>= 1;
        const uint32_t rowBytes = (fn == ReduceFn::kSum || fn == ReduceFn::kMean) ? (last + 7) / 8 * 8 * 4
                                                                                   : ReduceAlign32(last * typeSize);
        return k * rowBytes;
    }
    if (fn == ReduceFn::kSum || fn == ReduceFn::kMean) {
        uint32_t k = ReduceFindK(last);
        if (k == last && first > 1) k >>= 1;
        return last <= 64 ? 0 : first * k * 4;
    }
    if (fn == ReduceFn::kProd) {
        uint32_t k = ReduceFindK(last);
        if (k == last && first > 1) k >>= 1;
        return ((k > 8 ? k : 8) + first * 8) * 4 + 256;
    }
    // Max, Min, Any/All on float
    if (last <= elePerBlk) return 0;
    return last < 256 / typeSize ? first * 32 : first * 256;
}

}  // namespace ascend_twin
