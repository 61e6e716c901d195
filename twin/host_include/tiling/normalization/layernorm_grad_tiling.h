// LayerNormGrad's and LayerNormGradBeta's host tiling functions on the twin, with the real names and signatures
// (asc-devkit include/adv_api/normalization/layernorm_grad_tiling.h, layernorm_grad_beta_tiling.h; host code reaches
// them through tiling/tiling_api.h, "tiling/normalization/layernorm_grad_tiling.h", "layernorm_grad_beta_tiling.h"):
//   void GetLayerNormGradMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
//                                      uint32_t& maxValue, uint32_t& minValue);
//   void GetLayerNormGradNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
//                                     const uint32_t typeSize, const bool isReuseSource,
//                                     optiling::LayerNormGradTiling& tiling);  (and AscendC::tiling::LayerNormGradTiling&)
//   void GetLayerNormGradBetaMaxMinTmpSize(...same as LayerNormGrad's...);
//   void GetLayerNormGradBetaNDTilingInfo(...same..., optiling::LayerNormGradBetaTiling& / AscendC::tiling::...&);
// srcShape is [B, S, H, originalH]. A2's sizes and tilings (impl/adv_api/tiling/normalization/
// layernorm_grad_tiling_impl.cpp, layernorm_grad_beta_tiling_impl.cpp): LayerNormGrad 9 buffers for half (6 for float,
// 4 with isReuseSource) of max(B·S·H, H·H) (maximum) or min(B·S·H, H·H) (minimum) elements of typeSize; its tiling
// rounds of whole rows of stackBufferSize / 4 / buffers floats, the rows rounded up to a 32-byte block of T (A2's own
// arithmetic: such a round may outgrow the buffer's share — the kernel side refuses a buffer too small for the
// tiling's buffers). LayerNormGradBeta: 4 buffers for half (2 for float) of B·S·H (maximum) or H (minimum) floats; its
// tiling rounds of whole rows in stackBufferSize / 4 floats (half: less two rows of H, halved), stackBufferSize kept
// in floats. As A2's functions, a bad typeSize or shape is reported on stderr and the function goes on, a buffer
// too small (or H of 0) is reported and the tiling left unchanged (the struct forms write zeros, as A2 saves a fresh
// class); a shape below 4-D is reported and nothing computed (A2 would read past it). Inline: nothing to link.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/normalization/layernorm_grad_beta_tilingdata.h"
#include "tiling/normalization/layernorm_grad_tilingdata.h"

namespace AscendC {

using TensorShape = ge::Shape;  // include/adv_api/utils/types.h

namespace twin_host {

// CheckLayerNormGrad(Beta)HostCommon: reported, not fatal. False when the shape has fewer than 4 dimensions.
inline bool LnGradHostCheck(const char* api, const char* fn, const AscendC::TensorShape& srcShape, uint32_t typeSize)
{
    if (typeSize != 2 && typeSize != 4) {
        std::fprintf(stderr, "[%s][%s] Type size %u is unsupported!\n", api, fn, typeSize);
    } else if (srcShape.GetShapeSize() <= 0) {
        std::fprintf(stderr, "[%s][%s] Input Shape size must be greater than 0.\n", api, fn);
    } else if (srcShape.GetDimNum() != 4) {
        std::fprintf(stderr,
                     "[%s][%s] The dims of srcShape is %zu, should be 4 (e.g. [B, S, storageHLength, "
                     "originHLength])!\n",
                     api, fn, srcShape.GetDimNum());
    }
    if (srcShape.GetDims().size() < 4) {
        std::fprintf(stderr, "[%s][%s] srcShape dims must not be less than 4.\n", api, fn);
        return false;
    }
    return true;
}

inline bool LnGradTiling(const AscendC::TensorShape& srcShape, uint32_t stackBufferSize, uint32_t typeSize,
                         bool isReuseSource, AscendC::tiling::LayerNormGradTiling& t)
{
    if (!LnGradHostCheck("LayerNormGrad", "GetLayerNormGradNDTilingInfo", srcShape, typeSize)) return false;
    const std::vector<int64_t> d = srcShape.GetDims();
    const uint32_t b = static_cast<uint32_t>(d[0]), s = static_cast<uint32_t>(d[1]), h = static_cast<uint32_t>(d[2]);
    const uint32_t oriH = static_cast<uint32_t>(d[3]);
    const uint32_t buffers = typeSize == 2 ? 9 : (isReuseSource ? 4 : 6);
    uint32_t one = h == 0 ? 0 : stackBufferSize / 4 / buffers / h * h;
    if (one == 0) {
        std::fprintf(stderr, "stackBufferSize is not enough.\n");
        return false;
    }
    const uint32_t perBlock = typeSize == 4 ? 8 : 16;
    const uint32_t noh = (one / h + perBlock - 1) / perBlock * perBlock;
    one = noh * h;
    const bool reuse = isReuseSource && typeSize == 4;
    const uint32_t x1 = reuse ? 0 : 3 * one, x2 = reuse ? 0 : 4 * one, x3 = reuse ? 3 * one : 5 * one;
    t.tmpTensorBSHPos = 0;
    t.pdVarTensorPos = one;
    t.pdMeanTensorPos = 2 * one;
    t.x1TensorPos = x1;
    t.x2TensorPos = x2;
    t.x3TensorPos = x3;
    t.tmpTensorPos = typeSize == 2 ? x3 + one : 0;
    t.tmpTensor1Pos = typeSize == 2 ? x3 + 2 * one : 0;
    t.tmpTensor2Pos = typeSize == 2 ? x3 + 3 * one : 0;
    t.tmpTensorBSHSize = t.pdVarTensorSize = t.pdMeanTensorSize = t.x1TensorSize = t.x2TensorSize = one;
    t.x3TensorSize = t.tmpTensorSize = t.tmpTensor1Size = t.tmpTensor2Size = one;
    const float back = 1.0f / static_cast<float>(oriH), backTwo = 2.0f / static_cast<float>(oriH);
    std::memcpy(&t.lastDimValueBack, &back, 4);
    std::memcpy(&t.lastDimValueBackMulTwo, &backTwo, 4);
    const uint32_t bsh = b * s * h;
    t.stackBufferSize = stackBufferSize;
    t.bLength = b;
    t.sLength = s;
    t.hLength = h;
    t.originalHLength = oriH;
    t.oneCalSize = one;
    t.nohCalSize = noh;
    t.loopNum = bsh / one;
    t.tailSize = bsh % one;
    t.nohTailSize = bsh % one / h;
    return true;
}

inline bool LnGradBetaTiling(const AscendC::TensorShape& srcShape, uint32_t stackBufferSize, uint32_t typeSize,
                             AscendC::tiling::LayerNormGradBetaTiling& t)
{
    if (!LnGradHostCheck("LayerNormGradBeta", "GetLayerNormGradBetaNDTilingInfo", srcShape, typeSize)) return false;
    const std::vector<int64_t> d = srcShape.GetDims();
    const uint32_t b = static_cast<uint32_t>(d[0]), s = static_cast<uint32_t>(d[1]), h = static_cast<uint32_t>(d[2]);
    const uint32_t floats = stackBufferSize / 4, bsh = b * s * h;
    if (floats < 2 * h || h == 0) {
        std::fprintf(stderr, h == 0 ? "the value of hLength should not be zero.\n" : "stackBufferSize is not enough.\n");
        return false;
    }
    uint32_t one = typeSize == 2 ? (floats - 2 * h) / 2 : floats;
    one = one / h * h;
    if (one == 0) {
        std::fprintf(stderr, "stackBufferSize is not enough.\n");
        return false;
    }
    one = one >= bsh ? bsh : one;
    t.stackBufferSize = floats;
    t.bLength = b;
    t.sLength = s;
    t.hLength = h;
    t.originalHLength = static_cast<uint32_t>(d[3]);
    t.bshLength = bsh;
    t.bsLength = b * s;
    t.oneCalSize = one;
    t.numberOfTmpBuf = typeSize == 2 ? 2 : 1;
    t.loopRound = bsh / one;
    t.inputTailSize = bsh % one;
    t.inputTailPos = bsh - t.inputTailSize;
    t.bsTailSize = t.inputTailSize / h;
    t.bshCurLength = one;
    t.bsCurLength = one / h;
    t.gammaTempTensorPos = 0;
    t.betaTempTensorPos = typeSize == 2 ? h : 0;
    t.inputDyTmpTensorPos = typeSize == 2 ? 2 * h : 0;
    t.resForGammaTmpTensorPos = typeSize == 2 ? 2 * h + one : 0;
    return true;
}

}  // namespace twin_host

inline void GetLayerNormGradMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                                          const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue)
{
    if (!twin_host::LnGradHostCheck("LayerNormGrad", "GetLayerNormGradMaxMinTmpSize", srcShape, typeSize)) return;
    const std::vector<int64_t> d = srcShape.GetDims();
    const uint32_t h = static_cast<uint32_t>(d[2]), bsh = static_cast<uint32_t>(d[0] * d[1]) * h;
    const uint32_t hh = h * h, buffers = typeSize == 2 ? 9 : (isReuseSource ? 4 : 6);
    maxValue = buffers * (bsh > hh ? bsh : hh) * typeSize;
    minValue = buffers * (bsh < hh ? bsh : hh) * typeSize;
}

inline void GetLayerNormGradNDTilingInfo(const AscendC::TensorShape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource,
                                         optiling::LayerNormGradTiling& tiling)
{
    AscendC::tiling::LayerNormGradTiling t;
    optiling::twin_host::Load(tiling, t);
    if (twin_host::LnGradTiling(srcShape, stackBufferSize, typeSize, isReuseSource, t)) {
        optiling::twin_host::Store(t, tiling);
    }
}

inline void GetLayerNormGradNDTilingInfo(const AscendC::TensorShape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource,
                                         AscendC::tiling::LayerNormGradTiling& tiling)
{
    AscendC::tiling::LayerNormGradTiling t{};  // A2 saves a fresh class: zeros where it returns early
    twin_host::LnGradTiling(srcShape, stackBufferSize, typeSize, isReuseSource, t);
    tiling = t;
}

inline void GetLayerNormGradBetaMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                                              const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue)
{
    (void)isReuseSource;
    if (!twin_host::LnGradHostCheck("LayerNormGradBeta", "GetLayerNormGradBetaMaxMinTmpSize", srcShape, typeSize)) {
        return;
    }
    const std::vector<int64_t> d = srcShape.GetDims();
    const uint32_t h = static_cast<uint32_t>(d[2]), bsh = static_cast<uint32_t>(d[0] * d[1]) * h;
    const uint32_t buffers = typeSize == 2 ? 4 : 2;
    maxValue = buffers * bsh * 4;
    minValue = buffers * h * 4;
}

inline void GetLayerNormGradBetaNDTilingInfo(const AscendC::TensorShape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             optiling::LayerNormGradBetaTiling& tiling)
{
    (void)isReuseSource;
    AscendC::tiling::LayerNormGradBetaTiling t;
    optiling::twin_host::Load(tiling, t);
    if (twin_host::LnGradBetaTiling(srcShape, stackBufferSize, typeSize, t)) optiling::twin_host::Store(t, tiling);
}

inline void GetLayerNormGradBetaNDTilingInfo(const AscendC::TensorShape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             AscendC::tiling::LayerNormGradBetaTiling& tiling)
{
    (void)isReuseSource;
    AscendC::tiling::LayerNormGradBetaTiling t{};
    twin_host::LnGradBetaTiling(srcShape, stackBufferSize, typeSize, t);
    tiling = t;
}

}  // namespace AscendC
