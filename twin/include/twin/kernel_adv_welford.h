// WelfordFinalize (高阶API/归一化操作), A2's four forms. Kernels include it as "lib/normalization/welfordfinalize.h"
// (asc-devkit include/adv_api/normalization/welfordfinalize.h, welfordfinalize_utils.h); A2's kernel_operator.h
// includes it. Checked against the header, A2's implementation (impl/adv_api/detail/normalization/welfordfinalize/
// welfordfinalize_common_impl.h), its API check (api_check/kernel_check/normalization/welfordfinalize/
// welfordfinalize_check_common.h), the tiling (impl/adv_api/tiling/normalization/welfordfinalize_tiling_impl.cpp)
// and the docs.
//
// WelfordFinalize<isReuseSource = false>(outputMean, outputVariance, inputMean, inputVariance[, counts]
// [, sharedTmpBuffer], para): the abLength partial means and variances (WelfordUpdate's outputs) reduced to one mean
// and one variance, written to element 0 of outputMean and outputVariance (elements 1..7 zeroed). Without counts:
// mean = Σ inputMean[i] * abRec, or with a tail (tailCount and tailCountLength non-zero) Σ inputMean[i] * c_i * rRec
// with c_i = headCount for i < headCountLength, else tailCount; variance = Σ (inputVariance[i] + c_i * (inputMean[i]
// - mean)²) * rRec, c_i = rnLength without a tail. With counts: c_i = counts[i] for both. The twin runs A2's
// instruction sequence with its basic API (float throughout): the buffer split into two 64-float partial-sum rows and
// two rows of computeLength = (floats - 128) / 128 * 64 floats, the abLength in rounds of computeLength (then the
// tail), each round's products summed by LayerNorm's row reduction into one partial (WholeReduceSum of the partials
// once 64 have gathered), the mean spread over a round by BroadcastLastDim (CMPMASK + Select), the scale factors
// (headCount / tailCount, rRec) applied as Muls, so the rounding is A2's.
//
// Rules named "WelfordFinalize" (A2's check, the docs, the tiling; the error names each): operands at
// VECIN/VECCALC/VECOUT, 32-byte aligned; para.abLength a non-zero multiple of 8 (docs); headCountLength +
// tailCountLength = abLength (docs, A2's check); tailCountLength 0 when tailCount is 0 (docs, A2's check on A2);
// abRec within 1e-4 of 1 / abLength (A2's check); inputMean, inputVariance (and counts) hold abLength, outputMean and
// outputVariance 8 floats (A2's check); the temporary buffer holds GetWelfordFinalizeMaxMinTmpSize's minimum (1024
// bytes); no source overlapping a destination, the temporary buffer overlapping no operand (docs), outputMean and
// outputVariance disjoint.
#pragma once

#include <cstdint>

#include "twin/kernel_adv_common.h"
#include "twin/kernel_adv_layernorm.h"
#include "twin/kernel_cast.h"
#include "twin/kernel_reduce_repeat.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_vec.h"
#include "twin/kernel_vec_repeat.h"

namespace AscendC {

// include/adv_api/normalization/welfordfinalize_utils.h (rRecWithCorrection is not a member on A2).
struct WelfordFinalizeConfig {
    __aicore__ constexpr WelfordFinalizeConfig(const bool isCorrectionIn) : isCorrection(isCorrectionIn) {}
    bool isCorrection = false;
};
constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};

struct WelfordFinalizePara {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t headCount;
    uint32_t headCountLength;
    uint32_t tailCount;
    uint32_t tailCountLength;
    float abRec;
    float rRec;
};

namespace twin_detail {

struct WelfordFinalizeCall {
    bool framework;
    bool hasCounts;
    WelfordFinalizePara para;
    MathOperand outMean, outVar, inMean, inVar, counts, tmp;
};

void WelfordFinalizeCheck(const WelfordFinalizeCall& c);

constexpr uint32_t kWfLen = 64;  // B32_LEN: floats a repeat

// A2's view of the temporary buffer (GetWelfordFinalizeTensorInfo).
struct WelfordFinalizeBufs {
    LocalTensor<float> outMean, outVar, mean, var;
    uint32_t computeLength;
};

inline WelfordFinalizeBufs WelfordFinalizeSplit(const LocalTensor<uint8_t>& tmp)
{
    const LocalTensor<float> f = tmp.ReinterpretCast<float>();
    WelfordFinalizeBufs b;
    b.computeLength = (f.GetSize() - 2 * kWfLen) / (2 * kWfLen) * kWfLen;
    b.outMean = f;
    b.outVar = f[kWfLen];
    b.mean = f[2 * kWfLen];
    b.var = f[2 * kWfLen + b.computeLength];
    return b;
}

// The part of a round's elements (from `offset`, `len` of them) that take headCount: the mask for the extra Muls.
inline uint32_t WelfordFinalizeHeadPart(const WelfordFinalizePara& p, uint32_t len, uint32_t offset)
{
    const int64_t head = static_cast<int64_t>(p.headCountLength) - offset;
    return head <= 0 ? 0 : (head > len ? len : static_cast<uint32_t>(head));
}

// One round's mean partial into dst (WelfordFinalizeExeMean, both forms).
inline void WelfordFinalizeMeanRound(const LocalTensor<float>& inMean, const LocalTensor<int32_t>* counts,
                                     const LocalTensor<float>& dst, const WelfordFinalizeBufs& b,
                                     const WelfordFinalizePara& p, uint32_t len, uint32_t offset)
{
    const UnaryRepeatParams un;
    const BinaryRepeatParams bin;
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, len);
    if (counts != nullptr) {
        Cast<float, int32_t, false>(b.mean, *counts, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, un);
        PipeBarrier<PIPE_V>();
        Mul<float, false>(b.mean, inMean, b.mean, MASK_PLACEHOLDER, 1, bin);
        PipeBarrier<PIPE_V>();
        Muls<float, false>(b.mean, b.mean, p.rRec, MASK_PLACEHOLDER, 1, un);
        PipeBarrier<PIPE_V>();
        LayerNormReduceSum(b.var, dst, b.mean, 1, len);
    } else if (p.tailCountLength == 0 || p.tailCount == 0) {
        Muls<float, false>(b.mean, inMean, p.abRec, MASK_PLACEHOLDER, 1, un);
        PipeBarrier<PIPE_V>();
        LayerNormReduceSum(b.var, dst, b.mean, 1, len);
    } else {
        Muls<float, false>(b.var, inMean, static_cast<float>(static_cast<int32_t>(p.tailCount)), MASK_PLACEHOLDER, 1,
                           un);
        PipeBarrier<PIPE_V>();
        Muls<float, false>(b.mean, b.var, p.rRec, MASK_PLACEHOLDER, 1, un);
        PipeBarrier<PIPE_V>();
        const uint32_t head = WelfordFinalizeHeadPart(p, len, offset);
        if (head > 0) {
            SetVectorMask<float, MaskMode::COUNTER>(0, head);
            Muls<float, false>(b.mean, b.mean,
                               static_cast<float>(static_cast<int32_t>(p.headCount)) /
                                   static_cast<float>(static_cast<int32_t>(p.tailCount)),
                               MASK_PLACEHOLDER, 1, un);
            PipeBarrier<PIPE_V>();
        }
        SetVectorMask<float, MaskMode::COUNTER>(0, len);
        LayerNormReduceSum(b.var, dst, b.mean, 1, len);
    }
    PipeBarrier<PIPE_V>();
}

// One round's variance partial into dst (WelfordFinalizeExeVariance, both forms); b.mean[0] holds the final mean.
inline void WelfordFinalizeVarRound(const LocalTensor<float>& inMean, const LocalTensor<float>& inVar,
                                    const LocalTensor<int32_t>* counts, const LocalTensor<float>& dst,
                                    const WelfordFinalizeBufs& b, const WelfordFinalizePara& p, uint32_t len,
                                    uint32_t offset)
{
    const UnaryRepeatParams un;
    const BinaryRepeatParams bin;
    Adds(b.var, b.mean, static_cast<float>(0), 1);
    PipeBarrier<PIPE_V>();
    SetMaskCount();
    LayerNormBroadcastRows(b.mean, b.var, 1, len, "WelfordFinalize");
    SetVectorMask<float, MaskMode::COUNTER>(0, len);
    const bool tail = counts == nullptr && p.tailCountLength != 0 && p.tailCount != 0;
    // (inMean - mean)² into b.mean, then each form's factor
    Sub<float, false>(b.var, inMean, b.mean, MASK_PLACEHOLDER, 1, bin);
    PipeBarrier<PIPE_V>();
    Mul<float, false>(b.mean, b.var, b.var, MASK_PLACEHOLDER, 1, bin);
    PipeBarrier<PIPE_V>();
    if (counts != nullptr) {
        Cast<float, int32_t, false>(b.var, *counts, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, un);
        PipeBarrier<PIPE_V>();
        Mul<float, false>(b.mean, b.mean, b.var, MASK_PLACEHOLDER, 1, bin);
        PipeBarrier<PIPE_V>();
        Add<float, false>(b.var, b.mean, inVar, MASK_PLACEHOLDER, 1, bin);
        PipeBarrier<PIPE_V>();
        Muls<float, false>(b.var, b.var, p.rRec, MASK_PLACEHOLDER, 1, un);
        PipeBarrier<PIPE_V>();
        LayerNormReduceSum(b.mean, dst, b.var, 1, len);
    } else {
        const float factor = static_cast<float>(static_cast<int32_t>(tail ? p.tailCount : p.rnLength));
        Muls<float, false>(b.var, b.mean, factor, MASK_PLACEHOLDER, 1, un);
        PipeBarrier<PIPE_V>();
        const uint32_t head = tail ? WelfordFinalizeHeadPart(p, len, offset) : 0;
        if (head > 0) {
            SetVectorMask<float, MaskMode::COUNTER>(0, head);
            Muls<float, false>(b.var, b.var,
                               static_cast<float>(static_cast<int32_t>(p.headCount)) /
                                   static_cast<float>(static_cast<int32_t>(p.tailCount)),
                               MASK_PLACEHOLDER, 1, un);
            PipeBarrier<PIPE_V>();
            SetVectorMask<float, MaskMode::COUNTER>(0, len);
        }
        Add<float, false>(b.mean, inVar, b.var, MASK_PLACEHOLDER, 1, bin);
        PipeBarrier<PIPE_V>();
        Muls<float, false>(b.var, b.mean, p.rRec, MASK_PLACEHOLDER, 1, un);
        PipeBarrier<PIPE_V>();
        LayerNormReduceSum(b.mean, dst, b.var, 1, len);
    }
    PipeBarrier<PIPE_V>();
}

// The partials gathered so far in row[0..n) summed into row[0] (a WholeReduceSum of n lanes, normal mask mode).
inline void WelfordFinalizeFold(const LocalTensor<float>& row, uint32_t n)
{
    SetMaskNorm();
    WholeReduceSum(row, row, static_cast<int32_t>(n), 1, DEFAULT_BLK_STRIDE, DEFAULT_BLK_STRIDE,
                   static_cast<int32_t>(n >> 3));
    PipeBarrier<PIPE_V>();
}

inline void WelfordFinalizeRun(const LocalTensor<float>& outMean, const LocalTensor<float>& outVar,
                               const LocalTensor<float>& inMean, const LocalTensor<float>& inVar,
                               const LocalTensor<int32_t>* counts, const LocalTensor<uint8_t>* shared,
                               const WelfordFinalizePara& para)
{
    const bool framework = shared == nullptr;
    const LocalTensor<uint8_t> tmp = framework ? AdvFrameworkTmpTensor("WelfordFinalize") : *shared;
    WelfordFinalizeCheck(WelfordFinalizeCall{framework, counts != nullptr, para, AdvOperand(outMean),
                                             AdvOperand(outVar), AdvOperand(inMean), AdvOperand(inVar),
                                             counts != nullptr ? AdvOperand(*counts) : MathOperand{},
                                             AdvOperand(tmp)});
    const WelfordFinalizeBufs b = WelfordFinalizeSplit(tmp);
    const uint32_t rounds = para.abLength / b.computeLength, tail = para.abLength % b.computeLength;
    SetMaskCount();
    for (int pass = 0; pass < 2; ++pass) {  // the mean's partials, then the variance's around the mean
        const LocalTensor<float>& row = pass == 0 ? b.outMean : b.outVar;
        uint32_t offset = 0, at = 0;
        for (uint32_t i = 0; i <= rounds; ++i) {
            const uint32_t len = i < rounds ? b.computeLength : tail;
            if (len == 0) break;
            const LocalTensor<int32_t> cnt = counts != nullptr ? (*counts)[offset] : LocalTensor<int32_t>();
            const LocalTensor<int32_t>* c = counts != nullptr ? &cnt : nullptr;
            if (pass == 0) {
                WelfordFinalizeMeanRound(inMean[offset], c, row[at], b, para, len, offset);
            } else {
                Adds(b.mean, b.outMean, static_cast<float>(0), 1);
                PipeBarrier<PIPE_V>();
                WelfordFinalizeVarRound(inMean[offset], inVar[offset], c, row[at], b, para, len, offset);
            }
            offset += len;
            if (++at == kWfLen && i < rounds) {
                WelfordFinalizeFold(row, kWfLen);
                at = 1;
            }
        }
        WelfordFinalizeFold(row, at);
    }
    // welfordFinalizeOutputPre: element 0 of each output, then elements 1..7 zeroed (mask 0b11111110).
    Adds(outMean, b.outMean, static_cast<float>(0), 1);
    Adds(outVar, b.outVar, static_cast<float>(0), 1);
    PipeBarrier<PIPE_V>();
    SetMaskNorm();
    SetVectorMask<float>(0, 254);
    Duplicate<float, false>(outMean, 0, MASK_PLACEHOLDER, DEFAULT_BLK_STRIDE, DEFAULT_BLK_STRIDE,
                            DEFAULT_REPEAT_STRIDE);
    PipeBarrier<PIPE_V>();
    Duplicate<float, false>(outVar, 0, MASK_PLACEHOLDER, DEFAULT_BLK_STRIDE, DEFAULT_BLK_STRIDE,
                            DEFAULT_REPEAT_STRIDE);
    PipeBarrier<PIPE_V>();
    SetMaskNorm();
    ResetMask();
}

}  // namespace twin_detail

template <bool isReuseSource = false>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::WelfordFinalizeRun(outputMean, outputVariance, inputMean, inputVariance, nullptr, &sharedTmpBuffer,
                                     para);
}

template <bool isReuseSource = false>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<int32_t>& counts, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                       WelfordFinalizePara& para)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::WelfordFinalizeRun(outputMean, outputVariance, inputMean, inputVariance, &counts, &sharedTmpBuffer,
                                     para);
}

template <bool isReuseSource = false>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       WelfordFinalizePara& para)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::WelfordFinalizeRun(outputMean, outputVariance, inputMean, inputVariance, nullptr, nullptr, para);
}

template <bool isReuseSource = false>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<int32_t>& counts, WelfordFinalizePara& para)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::WelfordFinalizeRun(outputMean, outputVariance, inputMean, inputVariance, &counts, nullptr, para);
}

}  // namespace AscendC
