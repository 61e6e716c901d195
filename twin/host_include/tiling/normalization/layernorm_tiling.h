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
// tiling, set field by field. Not provided: the deprecated GetLayerNormNDTillingInfo, and the [A, R] form's
// functions (isComputeRstd, LayerNormSeparateTiling; the twin's kernel side does not model that form). Also here, as
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

}  // namespace AscendC
