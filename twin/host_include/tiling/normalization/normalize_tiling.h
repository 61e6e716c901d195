// Normalize's host size function on the twin, with the real name and signature (asc-devkit
// include/adv_api/normalization/normalize_tiling.h; host code reaches it as "tiling/normalization/normalize_tiling.h",
// "lib/normalization/normalize_tiling.h" or through tiling/tiling_api.h):
//   void GetNormalizeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSizeU, const uint32_t typeSizeT,
//                                  const bool isReuseSource, const bool isComputeRstd, const bool isOnlyOutput,
//                                  uint32_t& maxValue, uint32_t& minValue);
// srcShape is [A, R]. A2's sizes (impl/adv_api/tiling/normalization/normalize_tiling_impl.cpp): R padded to 32 bytes
// of T; maximum 2 * R + 2 * A8 * R floats (A8: A rounded up to 8), each part rounded up to 32 bytes; minimum the larger
// of A floats and 2 * R floats (4 * R for a 2-byte U), rounded up to 32 bytes. As A2's function, isComputeRstd false,
// isOnlyOutput true or a type size of 0 is reported on stderr and the sizes left unchanged; so is a shape that is not
// at least 2-D (A2 would read past its dimensions). Inline: nothing to link.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "graph/tensor.h"

namespace AscendC {

using TensorShape = ge::Shape;  // include/adv_api/utils/types.h

inline void GetNormalizeMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSizeU,
                                      const uint32_t typeSizeT, const bool isReuseSource, const bool isComputeRstd,
                                      const bool isOnlyOutput, uint32_t& maxValue, uint32_t& minValue)
{
    (void)isReuseSource;
    const char* fails = !isComputeRstd  ? "isComputeRstd current only support true"
                        : isOnlyOutput  ? "isOnlyOutput current only support false"
                        : typeSizeU == 0 ? "typeSizeU can not be 0!"
                        : typeSizeT == 0 ? "typeSizeT can not be 0!"
                                         : nullptr;
    if (fails != nullptr) {
        std::fprintf(stderr, "[Normalize][GetNormalizeMaxMinTmpSize] %s\n", fails);
        return;
    }
    const std::vector<int64_t> d = srcShape.GetDims();
    if (d.size() < 2) {
        std::fprintf(stderr, "[Normalize][GetNormalizeMaxMinTmpSize] srcShape is [A, R]: %zu dims given\n", d.size());
        return;
    }
    const auto align32 = [](uint32_t bytes) { return (bytes + 31) / 32 * 32; };
    const uint32_t a = static_cast<uint32_t>(d[0]), r = static_cast<uint32_t>(d[1]);
    const uint32_t per = 32 / typeSizeT;
    const uint32_t rPad = (r + per - 1) / per * per;
    const uint32_t rBytes = align32(rPad * 4);
    maxValue = 2 * rBytes + 2 * align32((a + 7) / 8 * 8 * rPad * 4);
    const uint32_t aBytes = align32(a * 4);
    const uint32_t nrBytes = (typeSizeU == 4 ? 2 : 4) * rBytes;
    minValue = aBytes >= nrBytes ? aBytes : nrBytes;
}

}  // namespace AscendC
