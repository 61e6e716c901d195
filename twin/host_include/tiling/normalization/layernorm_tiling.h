// LayerNorm's host tiling functions on the twin, with the real names and signatures (asc-devkit
// include/adv_api/normalization/layernorm_tiling.h; host code reaches them as "tiling/normalization/layernorm_tiling.h",
// "tiling/layernorm/layernorm_tiling.h" or "lib/normalization/layernorm_tiling.h"), the [B, S, H] form's:
//   void GetLayerNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
//                                  uint32_t& maxValue, uint32_t& minValue);
//   void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
//                                 const bool isReuseSource, AscendC::tiling::LayerNormTiling& tiling);
// srcShape is [B, S, H, originalH] (4-D). A2's sizes and tiling (impl/adv_api/tiling/normalization/
// layernorm_tiling_impl.cpp): three float buffers (two for float with isReuseSource) of B * S * H (maximum) or H
// (minimum) plus two of B * S, each rounded up to 32 bytes; the tiling splits stackBufferSize / 4 floats (less, for
// half, the means and variances, B * S rounded up to 8 each) into those buffers, each a whole number of rows (at most
// B * S * H). As A2's functions, a shape of no elements, not 4-D or a typeSize other than 2/4 is reported on stderr
// and the sizes still computed; the tiling is left unchanged for an H of 0 or a buffer that holds no row (A2 returns),
// and for a shape below 4-D (A2 would read past its dimensions). GetLayerNormNDTilingInfo also has CANN's overload
// taking the tiling-data class optiling::LayerNormTiling (tiling/normalization/layernorm_tilingdata.h): the same
// tiling, set field by field. The [A, R] form's functions (below, after the [B, S, H] ones):
//   void GetLayerNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
//                                  const bool isComputeRstd, const bool isOnlyOutput, uint32_t& maxValue,
//                                  uint32_t& minValue);
//   void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
//                                 const bool isReuseSource, const bool isComputeRstd,
//                                 AscendC::tiling::LayerNormSeparateTiling& tiling);  (and optiling's class)
// with A2's branch of layernorm_tiling_impl.cpp: srcShape [A, R], R padded to 32 bytes of typeSize (RWP); sizes
// 2 * A * RWP (maximum) or 2 * RWP (minimum) floats plus A floats, each rounded up to 32 bytes, raised to Normalize's
// size plus the A floats when Normalize needs more; the tiling keeps the variances (A rounded up to 8 floats) first,
// then two round buffers of a whole number of rows each (at most A * RWP). As on A2, both also run the [B, S, H]
// form's shape check, which reports a 2-D shape on stderr ("should be 4") and goes on; a shape below 2-D, typeSize 0 or
// isOnlyOutput true is reported and the sizes / tiling left unchanged (A2 returns, or would read past the shape).
// Not provided: the deprecated GetLayerNormNDTillingInfo. Also here, as
// in the real header: GetWelfordUpdateMaxMinTmpSize (below); and WelfordFinalize's GetWelfordFinalizeMaxMinTmpSize
// (the real SDK has it in welfordfinalize_tiling.h: tiling/normalization/welfordfinalize_tiling.h includes this
// header). Inline: nothing to link.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/normalization/layernorm_tilingdata.h"
#include "tiling/normalization/normalize_tiling.h"

namespace AscendC {

using TensorShape = ge::Shape;  // include/adv_api/utils/types.h

namespace twin_host {

// CheckLayerNormHostCommon: reported, not fatal (A2's assert returns from the check only). False when the shape has
// fewer than the 4 dimensions A2 reads.
inline bool LayerNormHostCheck(const char* fn, const AscendC::TensorShape& srcShape, uint32_t typeSize)
{
    if (srcShape.GetShapeSize() <= 0) {
        std::fprintf(stderr, "[LayerNorm][%s] Input Shape size must be greater than 0.\n", fn);
    }
    if (srcShape.GetDimNum() != 4) {
        std::fprintf(stderr,
                     "[LayerNorm][%s] The dims of srcShape is %zu, should be 4 (e.g. [B, S, storageHLength, "
                     "originHLength])!\n",
                     fn, srcShape.GetDimNum());
    }
    if (typeSize != 2 && typeSize != 4) std::fprintf(stderr, "[LayerNorm][%s] Type size %u is unsupported!\n", fn, typeSize);
    return srcShape.GetDims().size() >= 4;
}

inline uint32_t LayerNormAlign32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

// The round fields LayerNorm's and DeepNorm's tilings share (A2's tiling code fills both alike): rows of h, `one`
// elements per round of the `buffers` temporary buffers after the mean/variance buffers (meanTmp each, meanVarTotal
// together) in tmpBufSize floats.
template <typename Tiling>
inline void FillLayerNormRounds(Tiling& t, uint32_t b, uint32_t s, uint32_t h, uint32_t oriH, uint32_t buffers,
                                uint32_t meanTmp, uint32_t meanVarTotal, uint32_t tmpBufSize, uint32_t one)
{
    const uint32_t inputXSize = b * s * h, meanVarSize = b * s;
    t.bLength = b;
    t.sLength = s;
    t.hLength = h;
    t.originalHLength = oriH;
    t.inputXSize = inputXSize;
    t.meanVarSize = meanVarSize;
    t.numberOfTmpBuf = buffers;
    t.meanTmpTensorPos = 0;
    t.meanTmpTensorSize = meanTmp;
    t.varianceTmpTensorPos = meanTmp;
    t.varianceTmpTensorSize = meanTmp;
    t.tmpBufSize = tmpBufSize;
    t.oneTmpSize = one;
    t.firstTmpStartPos = meanVarTotal;
    t.secondTmpStartPos = meanVarTotal + one;
    t.thirdTmpStartPos = meanVarTotal + 2 * one;
    t.loopRound = inputXSize / one;
    t.inputRoundSize = one;
    t.inputTailSize = inputXSize % one;
    t.inputTailPos = inputXSize - t.inputTailSize;
    t.meanVarRoundSize = one / h;
    t.meanVarTailSize = t.inputTailSize / h;
    t.meanVarTailPos = meanVarSize - t.meanVarTailSize;
    t.bshCurLength = one;
    t.bsCurLength = one / h;
    t.lastDimValueBack = 1.0f / static_cast<float>(oriH);
}

}  // namespace twin_host

inline void GetLayerNormMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                                      const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue)
{
    if (!twin_host::LayerNormHostCheck("GetLayerNormMaxMinTmpSize", srcShape, typeSize)) return;
    const std::vector<int64_t> d = srcShape.GetDims();
    const uint32_t b = static_cast<uint32_t>(d[0]), s = static_cast<uint32_t>(d[1]), h = static_cast<uint32_t>(d[2]);
    const uint32_t mv = twin_host::LayerNormAlign32(b * s * 4);
    const uint32_t buffers = isReuseSource && typeSize == 4 ? 2 : 3;
    maxValue = buffers * twin_host::LayerNormAlign32(b * s * h * 4) + 2 * mv;
    minValue = buffers * twin_host::LayerNormAlign32(h * 4) + 2 * mv;
}

// WelfordFinalize's sizes (include/adv_api/normalization/welfordfinalize_tiling.h; A2's branch of
// welfordfinalize_tiling_impl.cpp): srcShape [abLength], abLength a non-zero multiple of 8 (else reported on stderr,
// the sizes left unchanged, as A2 returns); minimum 4 rows of 64 floats, maximum 2 rows of 64 and 2 of abLength
// (the minimum for abLength <= 64). typeSize and isReuseSource are not read on A2.
inline void GetWelfordFinalizeMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                                            const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue)
{
    (void)typeSize;
    (void)isReuseSource;
    const std::vector<int64_t> d = srcShape.GetDims();
    if (d.size() != 1) {
        std::fprintf(stderr, "[GetWelfordFinalizeMaxMinTmpSize] srcShape dims must be 1.\n");
        return;
    }
    const uint32_t ab = static_cast<uint32_t>(d[0]);
    if (ab == 0 || ab % 8 != 0) {
        std::fprintf(stderr, "[GetWelfordFinalizeMaxMinTmpSize] abLength must be aligned to 32Bytes.\n");
        return;
    }
    minValue = 64 * 4 * sizeof(float);
    maxValue = ab <= 64 ? minValue : static_cast<uint32_t>((64 * 2 + ab * 2) * sizeof(float));
}

inline void GetLayerNormNDTilingInfo(const AscendC::TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource,
                                     AscendC::tiling::LayerNormTiling& tiling)
{
    if (!twin_host::LayerNormHostCheck("GetLayerNormNDTilingInfo", srcShape, typeSize)) return;
    const std::vector<int64_t> d = srcShape.GetDims();
    const uint32_t b = static_cast<uint32_t>(d[0]), s = static_cast<uint32_t>(d[1]), h = static_cast<uint32_t>(d[2]);
    const uint32_t oriH = static_cast<uint32_t>(d[3]);
    const uint32_t inputXSize = b * s * h;
    const uint32_t meanVarSize = b * s;
    const uint32_t buffers = isReuseSource && typeSize == 4 ? 2 : 3;
    const uint32_t mvTmp = (meanVarSize + 7) / 8 * 8;
    const uint32_t mvTotal = typeSize == 4 ? 0 : 2 * mvTmp;
    const uint32_t tmpBufSize = stackBufferSize / 4;
    if (h == 0) {
        std::fprintf(stderr, "the value of hLength should not be zero.\n");
        return;
    }
    uint32_t one = (tmpBufSize - mvTotal) / buffers;  // unsigned, as A2's
    one = one / h * h;
    if (one > inputXSize) one = inputXSize;
    if (one == 0) return;
    AscendC::tiling::LayerNormTiling t;
    twin_host::FillLayerNormRounds(t, b, s, h, oriH, buffers, mvTmp, mvTotal, tmpBufSize, one);
    tiling = t;
}

// WelfordUpdate's sizes (declared with LayerNorm's; A2's branch of layernorm_tiling_impl.cpp): srcShape [rnLength,
// abLength]; minimum 256 bytes per float buffer (3 for a 2-byte inputX, 1 with isReuseSource, else 2), maximum that
// times the 64-float repeats of rnLength * abLength. typeSizeU and isInplace do not change them. A shape that is not
// 2-D is reported on stderr and the sizes left unchanged, as A2 returns.
inline void GetWelfordUpdateMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSizeT,
                                          const uint32_t typeSizeU, const bool isReuseSource, const bool isInplace,
                                          uint32_t& maxValue, uint32_t& minValue)
{
    (void)typeSizeU;
    (void)isInplace;
    const std::vector<int64_t> d = srcShape.GetDims();
    if (d.size() != 2) {
        std::fprintf(stderr, "srcShape dims must be 2.\n");
        return;
    }
    const uint32_t rn = static_cast<uint32_t>(d[0]), ab = static_cast<uint32_t>(d[1]);
    minValue = (typeSizeT == 2 ? 3u : (isReuseSource ? 1u : 2u)) * 256;
    maxValue = (rn * ab + 63) / 64 * minValue;
}

inline void GetLayerNormNDTilingInfo(const AscendC::TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource,
                                     optiling::LayerNormTiling& tiling)
{
    AscendC::tiling::LayerNormTiling t;
    optiling::twin_host::Load(tiling, t);
    GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, t);
    optiling::twin_host::Store(t, tiling);
}

// The [A, R] form's sizes (A2's branch of layernorm_tiling_impl.cpp; see the top of this header).
inline void GetLayerNormMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                                      const bool isReuseSource, const bool isComputeRstd, const bool isOnlyOutput,
                                      uint32_t& maxValue, uint32_t& minValue)
{
    if (typeSize == 0 || isOnlyOutput) {
        std::fprintf(stderr, "[LayerNorm][GetLayerNormMaxMinTmpSize] %s\n",
                     typeSize == 0 ? "typeSize can not be 0!" : "isOnlyOutput current only support false.");
        return;
    }
    twin_host::LayerNormHostCheck("GetLayerNormMaxMinTmpSize", srcShape, typeSize);
    const std::vector<int64_t> d = srcShape.GetDims();
    if (d.size() < 2) return;
    const uint32_t a = static_cast<uint32_t>(d[0]), r = static_cast<uint32_t>(d[1]);
    const uint32_t per = 32 / typeSize;
    const uint32_t rPad = (r + per - 1) / per * per;
    const uint32_t mv = twin_host::LayerNormAlign32(a * 4);
    maxValue = 2 * twin_host::LayerNormAlign32(a * rPad * 4) + mv;
    minValue = 2 * twin_host::LayerNormAlign32(rPad * 4) + mv;
    uint32_t normMax = 0, normMin = 0;
    GetNormalizeMaxMinTmpSize(srcShape, typeSize, typeSize, isReuseSource, isComputeRstd, isOnlyOutput, normMax,
                              normMin);
    if (minValue - mv <= normMin) minValue = normMin + mv;
    if (maxValue - mv <= normMax) maxValue = normMax + mv;
}

// The [A, R] form's tiling (A2's branch of layernorm_tiling_impl.cpp). isReuseSource and isComputeRstd are not read.
inline void GetLayerNormNDTilingInfo(const AscendC::TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource, const bool isComputeRstd,
                                     AscendC::tiling::LayerNormSeparateTiling& tiling)
{
    (void)isReuseSource;
    (void)isComputeRstd;
    if (typeSize == 0) {
        std::fprintf(stderr, "[LayerNorm][GetLayerNormNDTilingInfo] typeSize can not be 0!\n");
        return;
    }
    twin_host::LayerNormHostCheck("GetLayerNormNDTilingInfo", srcShape, typeSize);
    const std::vector<int64_t> d = srcShape.GetDims();
    if (d.size() < 2) return;
    const uint32_t a = static_cast<uint32_t>(d[0]), r = static_cast<uint32_t>(d[1]);
    const uint32_t per = 32 / typeSize;
    const uint32_t rPad = (r + per - 1) / per * per;
    const uint32_t inputXSize = a * rPad;
    const uint32_t varSize = (a + 7) / 8 * 8;
    const uint32_t tmpBufSize = stackBufferSize / 4;
    uint32_t one = (tmpBufSize - varSize) / 2;  // unsigned as on A2
    one = rPad == 0 ? 0 : one / rPad * rPad;
    if (one > inputXSize) one = inputXSize;
    if (one == 0) return;
    AscendC::tiling::LayerNormSeparateTiling t = tiling;
    t.aLength = a;
    t.rLength = r;
    t.inputXSize = inputXSize;
    t.meanVarSize = a;
    t.numberOfTmpBuf = 2;
    t.varianceTmpTensorPos = 0;
    t.varianceTmpTensorSize = varSize;
    t.tmpBufSize = tmpBufSize;
    t.oneTmpSize = one;
    t.firstTmpStartPos = varSize;
    t.secondTmpStartPos = varSize + one;
    t.loopRound = inputXSize / one;
    t.inputRoundSize = one;
    t.inputTailSize = inputXSize % one;
    t.inputTailPos = inputXSize - t.inputTailSize;
    t.meanVarRoundSize = one / rPad;
    t.meanVarTailSize = t.inputTailSize / rPad;
    t.meanVarTailPos = a - t.meanVarTailSize;
    t.arCurLength = one;
    t.aCurLength = one / rPad;
    t.rValueBack = 1.0f / static_cast<float>(r);
    tiling = t;
}

inline void GetLayerNormNDTilingInfo(const AscendC::TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource, const bool isComputeRstd,
                                     optiling::LayerNormSeparateTiling& tiling)
{
    AscendC::tiling::LayerNormSeparateTiling t;
    optiling::twin_host::Load(tiling, t);
    GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, isComputeRstd, t);
    optiling::twin_host::Store(t, tiling);
}

}  // namespace AscendC
