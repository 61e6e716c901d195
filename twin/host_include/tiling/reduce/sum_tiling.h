// GetSumMaxMinTmpSize for host tiling code on the twin, with the real name and signature (asc-devkit
// include/adv_api/reduce/sum_tiling.h; host code reaches it as "tiling/reduce/sum_tiling.h",
// "tiling/sum/sum_tiling.h" or "lib/reduce/sum_tiling.h"). A2's size (impl/adv_api/tiling/reduce/sum_tiling.cpp):
// one row's per-repeat partial sums rounded up to a block, as both maxSize and minSize. typeSize 0 or n 0 is
// reported on stderr and leaves the outputs unchanged; isReuseSource is a warning. Inline: nothing to link.
#pragma once

#include <cstdint>
#include <cstdio>

namespace AscendC {

inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource, uint32_t& maxSize,
                                uint32_t& minSize)
{
    if (isReuseSource) {
        std::fprintf(stderr, "[Sum][GetSumMaxMinTmpSize] The parameter isReuseSource is true, which is not effective!\n");
    }
    if (typeSize == 0 || typeSize > 32) {
        std::fprintf(stderr, "[Sum][GetSumMaxMinTmpSize] The parameter typeSize is %u, expected is 2 or 4!\n", typeSize);
        return;
    }
    if (n == 0) {
        std::fprintf(stderr, "[Sum][GetSumMaxMinTmpSize] The parameter n is %u, expected is greater than 0!\n", n);
        return;
    }
    const uint32_t perBlk = 32 / typeSize;
    const uint32_t perRep = 256 / typeSize;
    const uint32_t repeats = (n + perRep - 1) / perRep;
    maxSize = minSize = (repeats + perBlk - 1) / perBlk * perBlk * typeSize;
}

}  // namespace AscendC
