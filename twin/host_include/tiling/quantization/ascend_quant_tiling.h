// AscendQuant's size functions for host tiling code on the twin, with the real names and signatures (asc-devkit
// include/adv_api/quantization/ascend_quant_tiling.h; host code reaches them as
// "tiling/quantization/ascend_quant_tiling.h", "tiling/ascend_quant/ascend_quant_tiling.h" or
// "lib/quantization/ascend_quant_tiling.h"):
//   void GetAscendQuantMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
//                                    uint32_t& minValue);
//   void GetAscendQuantTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf);
// A2's sizes (impl/adv_api/tiling/quantization/ascend_quant_tiling_impl.cpp): minimum 2 * 256 bytes, maximum
// max(2 * elements, 512) rounded up to 32 bytes; the factor form maxLiveNodeCount 2, extraBuf 0. As A2's function, a
// shape of no elements, data not 32-byte aligned and a typeSize other than 2/4 are reported on stderr and the sizes
// still computed. The kernel side needs a chunk of 32 halves (twin/kernel_adv_ascend_quant.h). Inline: nothing to
// link.
#pragma once

#include <cstdint>
#include <cstdio>

#include "graph/tensor.h"

namespace AscendC {

using TensorShape = ge::Shape;  // include/adv_api/utils/types.h

inline void GetAscendQuantTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf)
{
    extraBuf = 0;
    maxLiveNodeCount = 2;
}

inline void GetAscendQuantMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                                        uint32_t& maxValue, uint32_t& minValue)
{
    const int64_t size = srcShape.GetShapeSize();
    const char* fn = "[AscendQuant][GetAscendQuantMaxMinTmpSize]";
    if (size <= 0) {
        std::fprintf(stderr, "%s Input Shape size must be greater than 0.\n", fn);
    } else if (size * typeSize % 32 != 0) {
        std::fprintf(stderr, "%s Input Shape size must be 32B aligned!.\n", fn);
    } else if (typeSize != 2 && typeSize != 4) {
        std::fprintf(stderr, "%s Type size %u is unsupported!\n", fn, typeSize);
    }
    const uint32_t twice = static_cast<uint32_t>(size) * 2;
    const uint32_t m = twice > 512 ? twice : 512;
    maxValue = (m + 31) / 32 * 32;
    minValue = 512;
}

}  // namespace AscendC
