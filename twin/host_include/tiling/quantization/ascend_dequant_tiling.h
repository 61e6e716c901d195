// AscendDequant's size functions for host tiling code on the twin, with the real names and signatures (asc-devkit
// include/adv_api/quantization/ascend_dequant_tiling.h; host code reaches them as
// "tiling/quantization/ascend_dequant_tiling.h", "tiling/ascend_dequant/ascend_dequant_tiling.h" or
// "lib/quantization/ascend_dequant_tiling.h"):
//   void GetAscendDequantMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
//                                      uint32_t& minValue);
//   void GetAscendDequantTmpBufferFactorSize(const TensorShape& srcShape, uint32_t& maxLiveNodeCount,
//                                            uint32_t& extraBuf);
// A2's sizes (impl/adv_api/tiling/quantization/ascend_dequant_tiling_impl.cpp): the shape [m, n] (or [n]), the scale
// taken as n + 8 floats; minimum (64 + n + n + 8) * 4 bytes, maximum (64 + m * n + n + 8) * 4; the factor form
// maxLiveNodeCount 1 and extraBuf 72 + n for a 2-D shape, 2 and 72 for a 1-D one. As A2's function, a shape of no
// element, of more than 2 dimensions or a typeSize other than 4 (int32_t) is reported on stderr (A2 goes on; a shape
// of more than 2 dimensions leaves the outputs unchanged). The kernel side requires less (twin/kernel_adv_quant.h:
// the scale and one row). Inline: nothing to link.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "graph/tensor.h"

namespace AscendC {

using TensorShape = ge::Shape;  // include/adv_api/utils/types.h

inline void GetAscendDequantTmpBufferFactorSize(const AscendC::TensorShape& srcShape, uint32_t& maxLiveNodeCount,
                                                uint32_t& extraBuf)
{
    const std::vector<int64_t> dims = srcShape.GetDims();
    extraBuf = 8 + 64;
    if (dims.size() == 2) {
        extraBuf += static_cast<uint32_t>(dims[1]);
        maxLiveNodeCount = 1;
    } else if (dims.size() == 1) {
        maxLiveNodeCount = 2;
    } else {
        extraBuf = 0;
        maxLiveNodeCount = 0;
    }
}

inline void GetAscendDequantMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                                          uint32_t& maxValue, uint32_t& minValue)
{
    const std::vector<int64_t> dims = srcShape.GetDims();
    if (srcShape.GetShapeSize() <= 0) {
        std::fprintf(stderr, "[AscendDequant][GetAscendDequantMaxMinTmpSize] Input Shape size must be greater than 0.\n");
    }
    if (dims.empty() || dims.size() > 2) {
        std::fprintf(stderr, "[AscendDequant][GetAscendDequantMaxMinTmpSize] SrcShape dim %zu is unsupported, must be 1 "
                             "or 2!\n",
                     dims.size());
    }
    if (typeSize != 4) {
        std::fprintf(stderr, "[AscendDequant][GetAscendDequantMaxMinTmpSize] Type size %u is unsupported!\n", typeSize);
    }
    uint32_t outer = 1;
    uint32_t inner = 0;
    if (dims.size() == 2) {
        outer = static_cast<uint32_t>(dims[0]);
        inner = static_cast<uint32_t>(dims[1]);
    } else if (dims.size() == 1) {
        inner = static_cast<uint32_t>(dims[0]);
    } else {
        return;
    }
    const uint32_t scaleFloats = inner + 8;
    maxValue = (64 + outer * inner + scaleFloats) * 4;
    minValue = (64 + inner + scaleFloats) * 4;
}

}  // namespace AscendC
