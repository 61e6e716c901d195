// DeepNorm's host tiling functions on the twin, with the real names and signatures (asc-devkit
// include/adv_api/normalization/deepnorm_tiling.h; host code reaches them through tiling/tiling_api.h):
//   bool GetDeepNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
//                                 const bool isBasicBlock, uint32_t& maxValue, uint32_t& minValue);
//   bool GetDeepNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
//                              const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
//                              const bool isBasicBlock, optiling::DeepNormTiling& tiling);
//   bool GetDeepNormTilingInfo(..., AscendC::tiling::DeepNormTiling& tiling);
// srcShape is [B, S, H]. A2's sizes and tiling (impl/adv_api/tiling/normalization/deepnorm_tiling_impl.cpp): three
// float buffers (two for float with isReuseSource) of B * S * H (maximum) or H (minimum) plus two of B * S, each
// rounded up to 32 bytes; the tiling splits stackBufferSize / 4 floats (less, for half, the means and variances, B * S
// rounded up to 8 each) into those buffers, each a whole number of rows (at most B * S * H; with isBasicBlock a whole
// number of 8-row groups where one fits). As A2's functions, a bad shape or typeSize is reported on stderr (the check
// returns, the function goes on); false (the sizes or the class unchanged) for isBasicBlock without H % 64 == 0 and
// B * S % 8 == 0, a buffer below the minimum, an originSrcShape that does not fit, H > 2040 or no row fitting; the
// struct form writes a tiling of zeros then, as A2 saves a fresh class. Inline: nothing to link.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/normalization/deepnorm_tilingdata.h"
#include "tiling/normalization/layernorm_tiling.h"

namespace AscendC {

using TensorShape = ge::Shape;  // include/adv_api/utils/types.h

namespace twin_host {

inline uint32_t DeepNormAlign32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

// CheckDeepNormHostCommon: reported, not fatal (A2's assert returns from the check only).
inline void DeepNormHostCheck(const char* fn, const AscendC::TensorShape& srcShape, uint32_t typeSize,
                              bool isBasicBlock)
{
    if (srcShape.GetShapeSize() <= 0) {
        std::fprintf(stderr, "[DeepNorm][%s] Input Shape size must be greater than 0.\n", fn);
        return;
    }
    if (typeSize != 2 && typeSize != 4) {
        std::fprintf(stderr, "[DeepNorm][%s] Type size %u is unsupported!\n", fn, typeSize);
        return;
    }
    if (srcShape.GetDimNum() != 3) {
        std::fprintf(stderr, "[DeepNorm][%s] The dims of srcShape is %zu, should be 3 (e.g. [B, S, H])!\n", fn,
                     srcShape.GetDimNum());
        return;
    }
    const uint32_t bs = static_cast<uint32_t>(srcShape.GetDim(0) * srcShape.GetDim(1));
    const uint32_t h = static_cast<uint32_t>(srcShape.GetDim(2));
    const char* bad = h == 0                     ? "The last axis H must be greater than 0!"
                      : bs == 0                  ? "The non-last axis B*S must be greater than 0!"
                      : h * typeSize % 32 != 0   ? "The last axis H must be 32B aligned!"
                      : h > 2040                 ? "The value of last axis can not be greater than 2040!"
                      : isBasicBlock && h % 64   ? "The last axis H must be 64 aligned!"
                      : isBasicBlock && bs % 8   ? "The non-last axis B*S must be 8 aligned!"
                                                 : nullptr;
    if (bad != nullptr) std::fprintf(stderr, "[DeepNorm][%s] %s\n", fn, bad);
}

inline bool DeepNormSizes(const AscendC::TensorShape& srcShape, uint32_t typeSize, bool isReuseSource,
                          bool isBasicBlock, uint32_t& maxValue, uint32_t& minValue)
{
    const std::vector<int64_t> d = srcShape.GetDims();
    if (d.size() < 3) return false;  // A2 would read past the dimensions
    const uint32_t b = static_cast<uint32_t>(d[0]), s = static_cast<uint32_t>(d[1]), h = static_cast<uint32_t>(d[2]);
    if (isBasicBlock && !(h % 64 == 0 && h > 0 && (b * s) % 8 == 0)) return false;
    const uint32_t buffers = isReuseSource && typeSize == sizeof(float) ? 2 : 3;
    const uint32_t bsBytes = DeepNormAlign32(b * s * 4);
    maxValue = buffers * DeepNormAlign32(b * s * h * 4) + 2 * bsBytes;
    minValue = buffers * DeepNormAlign32(h * 4) + 2 * bsBytes;
    return true;
}

// A2's GetDeepNormTilingInfo on the kernel-side struct; false (t unchanged) where A2 returns false.
inline bool DeepNormTilingCore(const AscendC::TensorShape& srcShape, const AscendC::TensorShape& originSrcShape,
                               uint32_t stackBufferSize, uint32_t typeSize, bool isReuseSource, bool isBasicBlock,
                               AscendC::tiling::DeepNormTiling& t)
{
    DeepNormHostCheck("GetDeepNormTilingInfo", srcShape, typeSize, isBasicBlock);
    const std::vector<int64_t> d = srcShape.GetDims(), o = originSrcShape.GetDims();
    if (d.size() < 3 || o.size() < 3) return false;
    const uint32_t b = static_cast<uint32_t>(d[0]), s = static_cast<uint32_t>(d[1]), h = static_cast<uint32_t>(d[2]);
    const uint32_t oriH = static_cast<uint32_t>(o[2]);
    if (!(oriH > 0 && oriH <= h)) {
        std::fprintf(stderr, "[DeepNorm][GetDeepNormTilingInfo] The range of originH is %u, must be (0, %u]!\n", oriH,
                     h);
    } else if (isBasicBlock && oriH != h) {
        std::fprintf(stderr,
                     "[DeepNorm][GetDeepNormTilingInfo] When isBasicBlock is true, originH is %u, H is %u, originH "
                     "must be equal to H!\n",
                     oriH, h);
    }
    uint32_t maxSize = 0, minSize = 0;
    if (!DeepNormSizes(srcShape, typeSize, isReuseSource, isBasicBlock, maxSize, minSize) ||
        stackBufferSize < minSize) {
        return false;
    }
    const bool ok = b == static_cast<uint32_t>(o[0]) && s == static_cast<uint32_t>(o[1]) && h * typeSize % 32 == 0 &&
                    oriH > 0 && oriH <= h && !(isBasicBlock && oriH != h) && h <= 255 * 8;
    if (!ok) return false;
    const uint32_t inputXSize = b * s * h, meanVarSize = b * s;
    const uint32_t buffers = isReuseSource && typeSize == sizeof(float) ? 2 : 3;
    const uint32_t meanTmpSize = (meanVarSize + 7) / 8 * 8;
    const uint32_t meanVarTotal = typeSize == sizeof(float) ? 0 : 2 * meanTmpSize;
    const uint32_t tmpBufSize = stackBufferSize / 4;
    uint32_t one = (tmpBufSize - meanVarTotal) / buffers;
    one = one / h * h;
    one = one > inputXSize ? inputXSize : one;
    if (isBasicBlock && one / (8 * h) > 0) one = one / (8 * h) * (8 * h);
    if (one == 0) return false;
    FillLayerNormRounds(t, b, s, h, oriH, buffers, meanTmpSize, meanVarTotal, tmpBufSize, one);
    return true;
}

}  // namespace twin_host

inline bool GetDeepNormMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                                     const bool isReuseSource, const bool isBasicBlock, uint32_t& maxValue,
                                     uint32_t& minValue)
{
    twin_host::DeepNormHostCheck("GetDeepNormMaxMinTmpSize", srcShape, typeSize, isBasicBlock);
    return twin_host::DeepNormSizes(srcShape, typeSize, isReuseSource, isBasicBlock, maxValue, minValue);
}

inline bool GetDeepNormTilingInfo(const AscendC::TensorShape& srcShape, const AscendC::TensorShape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, optiling::DeepNormTiling& tiling)
{
    AscendC::tiling::DeepNormTiling t;
    optiling::twin_host::Load(tiling, t);
    if (!twin_host::DeepNormTilingCore(srcShape, originSrcShape, stackBufferSize, typeSize, isReuseSource,
                                       isBasicBlock, t)) {
        return false;
    }
    optiling::twin_host::Store(t, tiling);
    return true;
}

inline bool GetDeepNormTilingInfo(const AscendC::TensorShape& srcShape, const AscendC::TensorShape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, AscendC::tiling::DeepNormTiling& tiling)
{
    AscendC::tiling::DeepNormTiling t{};  // A2 saves a fresh class: zeros when it returns false
    const bool ok = twin_host::DeepNormTilingCore(srcShape, originSrcShape, stackBufferSize, typeSize, isReuseSource,
                                                  isBasicBlock, t);
    tiling = t;
    return ok;
}

}  // namespace AscendC
