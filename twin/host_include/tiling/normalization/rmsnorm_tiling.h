// RmsNorm's host tiling functions on the twin, with the real names and signatures (asc-devkit
// include/adv_api/normalization/rmsnorm_tiling.h; host code reaches them as "tiling/normalization/rmsnorm_tiling.h",
// "tiling/rmsnorm/rmsnorm_tiling.h" or "lib/normalization/rmsnorm_tiling.h"):
//   bool GetRmsNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
//                                uint32_t& minValue, const bool isBasicBlock = false);
//   bool GetRmsNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
//                             const uint32_t stackBufferByteSize, const uint32_t typeSize,
//                             AscendC::tiling::RmsNormTiling& tiling, const bool isBasicBlock = false);
// A2's sizes and tiling (impl/adv_api/tiling/normalization/rmsnorm_tiling_impl.cpp), shape [B, S, H]: maximum
// (B * S * H (twice for half) + B * S rounded up to a block of typeSize) * 4 bytes, minimum (H (twice for half) + 8) * 4;
// the tiling takes the most rows a chunk the buffer holds (at most B * S; without isBasicBlock at most 255, with it a
// multiple of 8 from 8 rows on). As A2's functions: a basic-block shape that is not one (H not a multiple of 64 below
// 2048 or B * S not a multiple of 8) gives false, and so do for the tiling a shape or an original shape that is not
// 3-D, shapes whose B or S differ, an original H of 0 or above H, an H not 32-byte aligned and a buffer below the
// minimum (the tiling is then left unchanged). GetRmsNormTilingInfo also has CANN's overload taking the tiling-data
// class optiling::RmsNormTiling (tiling/normalization/rmsnorm_tilingdata.h): the same tiling, set field by field.
// Inline: nothing to link.
#pragma once

#include <cstdint>
#include <vector>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/normalization/rmsnorm_tilingdata.h"

namespace AscendC {

using TensorShape = ge::Shape;  // include/adv_api/utils/types.h

namespace twin_host {

inline bool RmsNormNotBasic(uint32_t b, uint32_t s, uint32_t h)
{
    return h % 64 != 0 || b * s % 8 != 0 || h >= 2048;
}

inline uint32_t RmsNormMinTmpSize(uint32_t h, uint32_t typeSize)
{
    return ((typeSize == 2 ? 2 * h : h) + 8) * 4;
}

}  // namespace twin_host

inline bool GetRmsNormMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                    uint32_t& minValue, const bool isBasicBlock = false)
{
    const std::vector<int64_t> d = srcShape.GetDims();
    if (d.size() < 3 || typeSize == 0) return false;  // A2 reads three dimensions (and divides by typeSize)
    const uint32_t b = static_cast<uint32_t>(d[0]), s = static_cast<uint32_t>(d[1]), h = static_cast<uint32_t>(d[2]);
    if (isBasicBlock && twin_host::RmsNormNotBasic(b, s, h)) return false;
    const uint32_t unit = 32 / typeSize;
    const uint32_t bs = (b * s + unit - 1) / unit * unit;
    const uint32_t input = b * s * h;
    maxValue = ((typeSize == 2 ? 2 * input : input) + bs) * 4;
    minValue = twin_host::RmsNormMinTmpSize(h, typeSize);
    return true;
}

inline bool GetRmsNormTilingInfo(const AscendC::TensorShape& srcShape, const AscendC::TensorShape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 AscendC::tiling::RmsNormTiling& tiling, const bool isBasicBlock = false)
{
    const std::vector<int64_t> d = srcShape.GetDims();
    const std::vector<int64_t> o = originSrcShape.GetDims();
    if (d.size() != 3 || o.size() != 3) return false;
    const uint32_t b = static_cast<uint32_t>(d[0]), s = static_cast<uint32_t>(d[1]), h = static_cast<uint32_t>(d[2]);
    const uint32_t oriH = static_cast<uint32_t>(o[2]);
    if (b != static_cast<uint32_t>(o[0]) || s != static_cast<uint32_t>(o[1]) || h < oriH || oriH == 0) return false;
    if (h * typeSize % 32 != 0) return false;
    if (isBasicBlock && twin_host::RmsNormNotBasic(b, s, h)) return false;
    if (stackBufferByteSize < twin_host::RmsNormMinTmpSize(h, typeSize)) return false;
    AscendC::tiling::RmsNormTiling t = tiling;
    t.bLength = b;
    t.sLength = s;
    t.hLength = h;
    t.originalHLength = oriH;
    t.reciprocalOfHLength = 1.0f / static_cast<float>(oriH);
    const uint32_t floats = stackBufferByteSize / 4;
    const uint32_t coeff = typeSize == 4 ? 1u : 2u;
    uint32_t rows = 1;
    while (floats >= (rows + 1) * h * coeff + (rows + 1 + 7) / 8 * 8) ++rows;
    const uint32_t input = b * s * h;
    rows = (rows * h > input ? input : rows * h) / h;
    if (isBasicBlock) rows = rows < 8 ? rows : rows / 8 * 8;
    else if (rows > 255) rows = 255;
    t.mainBshLength = rows * h;
    t.mainBsLength = rows;
    t.mainBsLengthAlign = (rows + 7) / 8 * 8;
    t.loopRound = input / t.mainBshLength;
    const uint32_t tail = input % t.mainBshLength;
    t.tailBshLength = tail;
    t.inputTailPos = input - tail;
    t.tailBsLength = tail / h;
    tiling = t;
    return true;
}

inline bool GetRmsNormTilingInfo(const AscendC::TensorShape& srcShape, const AscendC::TensorShape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 optiling::RmsNormTiling& tiling, const bool isBasicBlock = false)
{
    AscendC::tiling::RmsNormTiling t;
    optiling::twin_host::Load(tiling, t);
    const bool ok = GetRmsNormTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize, t, isBasicBlock);
    optiling::twin_host::Store(t, tiling);
    return ok;
}

}  // namespace AscendC
