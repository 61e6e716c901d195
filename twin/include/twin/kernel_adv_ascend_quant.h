// AscendQuant (高阶API/量化操作), A2 forms. Kernels include it as "lib/quantization/ascend_quant.h" (asc-devkit
// include/adv_api/quantization/ascend_quant.h; AscendQuantConfig, ASCEND_QUANT_DEFAULT_CFG, AscendQuantPolicy and
// AscendQuantParam from ascend_quant_utils.h as A2 declares them); A2's kernel_operator.h includes it. Checked against
// the header, A2's implementation (impl/adv_api/detail/quantization/quant/ascend_quant_common_impl.h,
// ascend_quant_v220_impl.h, ascend_quant_pre_impl.h), its API check (api_check/kernel_check/quantization/quant/) and
// the docs.
//
// AscendQuant<T, isReuseSource = false, config = ASCEND_QUANT_DEFAULT_CFG>(dst int8_t, src T, [sharedTmpBuffer,] ...)
// in A2's twelve forms: per tensor (float scale, float offset[, calCount]); per channel (scale tensor, T offset[,
// scaleCount, calCount]); per channel (scale tensor, offset tensor[, scaleCount, offsetCount, calCount]). The forms
// without counts take calCount = src.GetSize() and scaleCount/offsetCount = the tensors' sizes. dst[i] =
// int8(half(src[i]) * scale + offset), per channel with scale[i % scaleCount] (and offset[i % scaleCount]). The twin
// runs A2's instruction sequence with its basic API, so the instructions' rules, the hazard detector and the counters
// apply and the numerics are A2's: everything in half (a float src, scale and offset are cast to half first: the docs'
// "the scale's range is half's"), chunks of the temporary buffer (sharedTmpBuffer / 2 halves rounded down to 32, or
// config.workLocalSize's when config fixes the sizes), Muls/Mul then Adds/Add in half, Cast to int8_t with CAST_NONE
// (to nearest, saturating). As on A2, a float scale (and offset) tensor is converted to half in place: its first
// scaleCount * 2 bytes hold halves after the call. config (the A2 four-field AscendQuantConfig) fixes the counts at
// compile time as A2 does: per tensor with calcCount and workLocalSize non-zero, per channel with scaleCount and
// calcCount (and workLocalSize for the chunks) non-zero; A2 then computes config.calcCount elements. The mask is left
// normal and full.
//
// Rules named "AscendQuant" (A2's checks and the docs; the error names each): T half/float (compile time); operands
// at VECIN/VECCALC/VECOUT, 32-byte aligned; calCount and config.calcCount <= src's and dst's sizes; per channel
// 0 < scaleCount <= the scale tensor's size, calCount a non-zero multiple of scaleCount, the offset tensor's count
// equal to scaleCount and within its size; config.scaleCount a multiple of 32, within the scale tensor, dividing
// config.calcCount, equal to config.offsetCount; config.workLocalSize within sharedTmpBuffer; a chunk of at least 32
// halves (A2's "splitSize should not be zero"); the counts computed a multiple of 32 (docs: the data 32-byte aligned,
// dst being int8_t); dst and src start together or do not overlap (docs: they may share their space); scale and offset
// overlap neither dst nor the temporary buffer; the temporary buffer overlaps no operand.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/kernel_adv_common.h"
#include "twin/kernel_cast.h"
#include "twin/kernel_sync.h"
#include "twin/kernel_sys_var.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_utils.h"
#include "twin/kernel_vec.h"
#include "twin/kernel_vec_repeat.h"

namespace AscendC {

struct AscendQuantConfig {
    __aicore__ constexpr AscendQuantConfig(const uint32_t calcCount, const uint32_t offsetCount,
                                           const uint32_t scaleCount, const uint32_t workLocalSize)
        : calcCount(calcCount), offsetCount(offsetCount), scaleCount(scaleCount), workLocalSize(workLocalSize)
    {
    }
    uint32_t calcCount = 0;
    uint32_t offsetCount = 0;
    uint32_t scaleCount = 0;
    uint32_t workLocalSize = 0;
};

constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};

enum class AscendQuantPolicy : int32_t {
    PER_TENSOR,
    PER_CHANNEL,
    PER_TOKEN,
    PER_GROUP,
    PER_CHANNEL_PER_GROUP,
    PER_TOKEN_PER_GROUP
};

struct AscendQuantParam {
    uint32_t m;
    uint32_t n;
    uint32_t calCount;
    uint32_t groupSize = 0;
};

namespace twin_detail {

enum class QuantForm : uint8_t { kPerTensor, kScaleTensor, kScaleOffsetTensors };

struct AscendQuantCall {
    uint32_t typeSize;
    QuantForm form;
    bool framework;
    uint32_t calCount, scaleCount, offsetCount;
    AscendQuantConfig config;
    MathOperand dst, src, scale, offset, tmp;
};

// The rules above; returns the elements a chunk holds.
uint32_t AscendQuantCheck(const AscendQuantCall& c);

// One chunk of `count` elements (already in the mask register): half(src) [* scale or Muls] [+ offset or Adds],
// to int8_t.
template <typename T, typename Scale, typename Offset>
inline void AscendQuantChunk(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src, const LocalTensor<half>& work,
                             const Scale& scale, const Offset& offset)
{
    UnaryRepeatParams toHalf;
    toHalf.dstRepStride = HALF_DEFAULT_REPEAT_STRIDE;
    const UnaryRepeatParams unary;
    const BinaryRepeatParams binary;
    LocalTensor<half> x = work;
    if constexpr (std::is_same_v<T, float>) {
        Cast<half, float, false>(work, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, toHalf);
        PipeBarrier<PIPE_V>();
    } else {
        x = src;
    }
    if constexpr (std::is_same_v<Scale, half>) Muls<half, false>(work, x, scale, MASK_PLACEHOLDER, 1, unary);
    else Mul<half, false>(work, x, scale, MASK_PLACEHOLDER, 1, binary);
    PipeBarrier<PIPE_V>();
    if constexpr (std::is_same_v<Offset, half>) Adds<half, false>(work, work, offset, MASK_PLACEHOLDER, 1, unary);
    else Add<half, false>(work, work, offset, MASK_PLACEHOLDER, 1, binary);
    PipeBarrier<PIPE_V>();
    Cast<int8_t, half, false>(dst, work, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, toHalf);
    PipeBarrier<PIPE_V>();
}

// `total` elements in chunks of `split` (counter mode), the scale/offset tensors advancing with the data.
template <typename T, typename Scale, typename Offset>
inline void AscendQuantChunks(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src, const LocalTensor<half>& work,
                              const Scale& scale, const Offset& offset, uint32_t split, uint32_t total)
{
    auto at = [](const auto& v, uint32_t i) {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, half>) return v;
        else return v[i];
    };
    const uint32_t rounds = total / split;
    SetVectorMask<T, MaskMode::COUNTER>(0, split);
    for (uint32_t i = 0; i < rounds; ++i) {
        AscendQuantChunk<T>(dst[i * split], src[i * split], work, at(scale, i * split), at(offset, i * split));
    }
    if (total % split != 0) {
        SetVectorMask<T, MaskMode::COUNTER>(0, total % split);
        AscendQuantChunk<T>(dst[rounds * split], src[rounds * split], work, at(scale, rounds * split),
                            at(offset, rounds * split));
    }
}

// A float scale (offset) tensor becomes half in place, as A2 converts it ("source vector of scale is reused").
template <typename T>
inline LocalTensor<half> AscendQuantHalfParam(const LocalTensor<T>& t, uint32_t count)
{
    if constexpr (std::is_same_v<T, float>) {
        LocalTensor<half> h = t.template ReinterpretCast<half>();
        UnaryRepeatParams toHalf;
        toHalf.dstRepStride = HALF_DEFAULT_REPEAT_STRIDE;
        SetVectorMask<half, MaskMode::COUNTER>(0, count);
        Cast<half, float, false>(h, t, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, toHalf);
        PipeBarrier<PIPE_V>();
        return h;
    } else {
        return t;
    }
}

template <typename T, const AscendQuantConfig& config>
inline void AscendQuantRun(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>* shared,
                           QuantForm form, float scaleF, float offsetF, const LocalTensor<T>* scale,
                           const LocalTensor<T>* offset, T offsetT, uint32_t scaleCount, uint32_t offsetCount,
                           uint32_t calCount)
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "AscendQuant on A2 quantizes half and float to int8_t");
    if ASCEND_IS_AIC {
        return;
    }
    const bool framework = shared == nullptr;
    const LocalTensor<uint8_t> tmp = framework ? AdvFrameworkTmpTensor("AscendQuant") : *shared;
    AscendQuantCall call{sizeof(T), form, framework, calCount, scaleCount, offsetCount, config,
                         AdvOperand(dst), AdvOperand(src), MathOperand{}, MathOperand{}, AdvOperand(tmp)};
    if (scale != nullptr) call.scale = AdvOperand(*scale);
    if (offset != nullptr) call.offset = AdvOperand(*offset);
    const uint32_t split = AscendQuantCheck(call);
    const LocalTensor<half> work = tmp.ReinterpretCast<half>();
    SetMaskCount();
    if (form == QuantForm::kPerTensor) {
        const uint32_t total = (config.workLocalSize != 0 && config.calcCount != 0) ? config.calcCount : calCount;
        AscendQuantChunks<T>(dst, src, work, static_cast<half>(scaleF), static_cast<half>(offsetF), split, total);
    } else {
        const bool fixed = config.scaleCount != 0 && config.calcCount != 0;
        const uint32_t perRow = fixed ? config.scaleCount : scaleCount;
        const uint32_t rows = fixed ? config.calcCount / config.scaleCount : calCount / scaleCount;
        // A row's chunks: config.scaleCount elements when config fixes the chunk size (A2's per-channel loop).
        const uint32_t rowTotal = (config.workLocalSize != 0 && config.scaleCount != 0) ? config.scaleCount : perRow;
        const LocalTensor<half> s = AscendQuantHalfParam(*scale, perRow);
        if (form == QuantForm::kScaleTensor) {
            for (uint32_t r = 0; r < rows; ++r) {
                AscendQuantChunks<T>(dst[r * perRow], src[r * perRow], work, s, static_cast<half>(offsetT), split,
                                     rowTotal);
            }
        } else {
            const LocalTensor<half> o = AscendQuantHalfParam(*offset, perRow);
            for (uint32_t r = 0; r < rows; ++r) {
                AscendQuantChunks<T>(dst[r * perRow], src[r * perRow], work, s, o, split, rowTotal);
            }
        }
    }
    SetMaskNorm();
    ResetMask();
}

}  // namespace twin_detail

// Per tensor.
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                                   const uint32_t calCount)
{
    twin_detail::AscendQuantRun<T, config>(dstTensor, srcTensor, &sharedTmpBuffer, twin_detail::QuantForm::kPerTensor,
                                           scale, offset, nullptr, nullptr, T{}, 0, 0, calCount);
}

template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const float scale, const float offset, const uint32_t calCount)
{
    twin_detail::AscendQuantRun<T, config>(dstTensor, srcTensor, nullptr, twin_detail::QuantForm::kPerTensor, scale,
                                           offset, nullptr, nullptr, T{}, 0, 0, calCount);
}

template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset)
{
    twin_detail::AscendQuantRun<T, config>(dstTensor, srcTensor, &sharedTmpBuffer, twin_detail::QuantForm::kPerTensor,
                                           scale, offset, nullptr, nullptr, T{}, 0, 0, srcTensor.GetSize());
}

template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const float scale, const float offset)
{
    twin_detail::AscendQuantRun<T, config>(dstTensor, srcTensor, nullptr, twin_detail::QuantForm::kPerTensor, scale,
                                           offset, nullptr, nullptr, T{}, 0, 0, srcTensor.GetSize());
}

// Per channel, scale tensor and scalar offset.
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const T offset, const uint32_t scaleCount, const uint32_t calCount)
{
    twin_detail::AscendQuantRun<T, config>(dstTensor, srcTensor, &sharedTmpBuffer,
                                           twin_detail::QuantForm::kScaleTensor, 0.0f, 0.0f, &scaleTensor, nullptr,
                                           offset, scaleCount, 0, calCount);
}

template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const T offset, const uint32_t scaleCount,
                                   const uint32_t calCount)
{
    twin_detail::AscendQuantRun<T, config>(dstTensor, srcTensor, nullptr, twin_detail::QuantForm::kScaleTensor, 0.0f,
                                           0.0f, &scaleTensor, nullptr, offset, scaleCount, 0, calCount);
}

template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const T offset)
{
    twin_detail::AscendQuantRun<T, config>(dstTensor, srcTensor, &sharedTmpBuffer,
                                           twin_detail::QuantForm::kScaleTensor, 0.0f, 0.0f, &scaleTensor, nullptr,
                                           offset, scaleTensor.GetSize(), 0, srcTensor.GetSize());
}

template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const T offset)
{
    twin_detail::AscendQuantRun<T, config>(dstTensor, srcTensor, nullptr, twin_detail::QuantForm::kScaleTensor, 0.0f,
                                           0.0f, &scaleTensor, nullptr, offset, scaleTensor.GetSize(), 0,
                                           srcTensor.GetSize());
}

// Per channel, scale and offset tensors.
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const LocalTensor<T>& offsetTensor, const uint32_t scaleCount,
                                   const uint32_t offsetCount, const uint32_t calCount)
{
    twin_detail::AscendQuantRun<T, config>(dstTensor, srcTensor, &sharedTmpBuffer,
                                           twin_detail::QuantForm::kScaleOffsetTensors, 0.0f, 0.0f, &scaleTensor,
                                           &offsetTensor, T{}, scaleCount, offsetCount, calCount);
}

template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor,
                                   const uint32_t scaleCount, const uint32_t offsetCount, const uint32_t calCount)
{
    twin_detail::AscendQuantRun<T, config>(dstTensor, srcTensor, nullptr, twin_detail::QuantForm::kScaleOffsetTensors,
                                           0.0f, 0.0f, &scaleTensor, &offsetTensor, T{}, scaleCount, offsetCount,
                                           calCount);
}

template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const LocalTensor<T>& offsetTensor)
{
    twin_detail::AscendQuantRun<T, config>(dstTensor, srcTensor, &sharedTmpBuffer,
                                           twin_detail::QuantForm::kScaleOffsetTensors, 0.0f, 0.0f, &scaleTensor,
                                           &offsetTensor, T{}, scaleTensor.GetSize(), offsetTensor.GetSize(),
                                           srcTensor.GetSize());
}

template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor)
{
    twin_detail::AscendQuantRun<T, config>(dstTensor, srcTensor, nullptr, twin_detail::QuantForm::kScaleOffsetTensors,
                                           0.0f, 0.0f, &scaleTensor, &offsetTensor, T{}, scaleTensor.GetSize(),
                                           offsetTensor.GetSize(), srcTensor.GetSize());
}

}  // namespace AscendC
