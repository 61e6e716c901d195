// Xor's size functions for host tiling code on the twin, with the real names and signatures (asc-devkit
// include/adv_api/math/xor_tiling.h; host code reaches them as "tiling/math/xor_tiling.h" or
// "lib/math/xor_tiling.h"):
//   void GetXorMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
//                            uint32_t& maxValue, uint32_t& minValue);
//   void GetXorTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer);
// A2's sizes (impl/adv_api/tiling/math/xor_tiling.cpp): minimum 256 bytes, maximum max(elements * typeSize, 256);
// factor 1, extra 0. A shape of no element is reported on stderr (its maximum is then the minimum, as A2's).
// Inline: nothing to link.
#pragma once

#include <cstdint>
#include <cstdio>

#include "graph/tensor.h"

namespace AscendC {

using TensorShape = ge::Shape;  // include/adv_api/utils/types.h

inline void GetXorMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue)
{
    (void)isReuseSource;
    uint64_t n = 1;
    for (const int64_t d : srcShape.GetDims()) n *= static_cast<uint64_t>(d < 0 ? 0 : d);
    uint32_t max = 0;
    if (n == 0) {
        std::fprintf(stderr, "[Xor][GetXorMaxMinTmpSize] Input Shape size must be greater than 0.\n");
    } else {
        max = static_cast<uint32_t>(n * typeSize);
    }
    minValue = 256;
    maxValue = max > minValue ? max : minValue;
}

inline void GetXorTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer)
{
    (void)typeSize;
    extraBuffer = 0;
    maxLiveNodeCount = 1;
}

}  // namespace AscendC
