// DeepNorm (高阶API/归一化操作), A2's two forms. Kernels include it as "lib/normalization/deepnorm.h" (asc-devkit
// include/adv_api/normalization/deepnorm.h; DeepNormTiling from kernel_tiling/kernel_tiling.h); A2's
// kernel_operator.h includes it. Checked against the header, A2's implementation (impl/adv_api/detail/normalization/
// deepnorm/deepnorm_common_impl.h, deepnorm_v220_impl.h), its API check (api_check/kernel_check/normalization/
// deepnorm/deepnorm_check_common.h), the tiling (impl/adv_api/tiling/normalization/deepnorm_tiling_impl.cpp) and the
// docs.
//
// DeepNorm<T, isReuseSrc = false, isBasicBlock = false>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal,
// gammaLocal[, sharedTmpBuffer], alpha, epsilon, tiling): x1 = alpha * src + gx over [B, S, H] (H = tiling.hLength),
// mean = Σx1 / originalHLength and variance = Σ(x1 - mean)² / originalHLength over the first originalHLength columns
// of a row (isBasicBlock: all H), dst = (x1 - mean) / sqrt(variance + epsilon) * gamma + beta. meanLocal receives the
// means and rstdLocal the variances (A2's implementation writes the variance there; the docs name it 倒数标准差, the
// asc-devkit example checks it against the variance). The twin runs A2's instruction sequence with its basic API: in
// float (half cast in and out), in rounds of tiling.inputRoundSize elements (then the tail, whose lengths A2 leaves in
// tiling.bshCurLength / bsCurLength), x1 * (1 / n) reduced by RepeatReduceSum trees per row (isBasicBlock: the
// 64-column blocks added first, one RepeatReduceSum a row), x1 - mean per row by Adds of the scalar mean read after a
// V->S flag (isBasicBlock with rounds of whole 8-row groups and more rows than 64-column blocks: Brcb of the means),
// 1 / sqrt(·) as Div of a duplicated 1 by Sqrt, gamma and beta by a Mul and an Add per row (isBasicBlock: per
// 64-column block).
//
// Rules named "DeepNorm" (A2's check, the docs, the tiling's invariants; the error names each): T half/float
// (compile time); isReuseSrc for float only (A2's check); operands at VECIN/VECCALC/VECOUT, 32-byte aligned; gamma's
// and beta's lengths 32-byte multiples of at most 2040 elements (A2's check); hLength 32-byte aligned, 0 <
// originalHLength <= hLength; isBasicBlock: hLength and originalHLength multiples of 64 and B * S of 8 (A2 returns
// without computing otherwise); the tiling's rounds consistent with its shape as GetDeepNormTilingInfo writes them,
// bshCurLength / bsCurLength those of a round (a tiling an earlier call with a tail wrote is refused, where A2 would
// run the rounds at the tail's length — deliberately stricter, as for LayerNorm); srcLocal, gxLocal and dstLocal hold
// B * S * H, meanLocal and rstdLocal B * S, gamma and beta H; the temporary buffer tiling.tmpBufSize floats; srcLocal
// and dstLocal disjoint unless isReuseSrc (docs), no other output overlapping an input or another output, the
// temporary buffer overlapping no operand.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "twin/kernel_adv_common.h"
#include "twin/kernel_brcb.h"
#include "twin/kernel_cast.h"
#include "twin/kernel_reduce_repeat.h"
#include "twin/kernel_sync.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_sys_var.h"
#include "twin/kernel_tpipe.h"
#include "twin/kernel_utils.h"
#include "twin/kernel_vec.h"
#include "twin/kernel_vec_more.h"
#include "twin/kernel_vec_repeat.h"

namespace AscendC {

namespace twin_detail {

struct DeepNormCall {
    uint32_t typeSize;
    bool isReuseSrc;
    bool isBasicBlock;
    bool framework;
    DeepNormTiling tiling;
    MathOperand dst, mean, rstd, src, gx, beta, gamma, tmp;
};

void DeepNormCheck(const DeepNormCall& c);

struct DeepNormBufs {
    LocalTensor<float> a, b, c, mean, variance;
    float lastDimValueBack;
};

constexpr uint32_t kDnBlockH = 64;  // BASIC_BLOCK_HLENGTH
constexpr uint32_t kDnBlockBs = 8;  // BASIC_BLOCK_BSLENGTH

// x1 = alpha * x + gx into b.a (DeepNormExec).
template <typename T>
inline void DeepNormX1(const LocalTensor<T>& x, const LocalTensor<T>& gx, T alpha, const DeepNormTiling& t,
                       const DeepNormBufs& b)
{
    const BinaryRepeatParams bin;
    SetVectorMask<float, MaskMode::COUNTER>(0, t.bshCurLength);
    if constexpr (std::is_same_v<T, half>) {
        UnaryRepeatParams un;
        un.srcRepStride = 4;
        Cast<float, half, false>(b.a, x, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, un);
        PipeBarrier<PIPE_V>();
        Cast<float, half, false>(b.c, gx, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, un);
        PipeBarrier<PIPE_V>();
        un.srcRepStride = DEFAULT_REPEAT_STRIDE;
        Muls<float, false>(b.a, b.a, static_cast<float>(alpha), MASK_PLACEHOLDER, 1, un);
        PipeBarrier<PIPE_V>();
        Add<float, false>(b.a, b.c, b.a, MASK_PLACEHOLDER, 1, bin);
    } else {
        Muls<float, false>(b.b, x, alpha, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
        PipeBarrier<PIPE_V>();
        Add<float, false>(b.a, gx, b.b, MASK_PLACEHOLDER, 1, bin);
    }
    PipeBarrier<PIPE_V>();
}

// Σ of each row's 64-column blocks (isBasicBlock): added into the first, one RepeatReduceSum a row into out and tmp.
inline void DeepNormBasicBlockReduceSum(const LocalTensor<float>& out, const LocalTensor<float>& tmp,
                                        const LocalTensor<float>& in, uint32_t bs, uint32_t h)
{
    const uint8_t num = static_cast<uint8_t>(h / kDnBlockH);
    BinaryRepeatParams bin;
    bin.dstRepStride = num * DEFAULT_REPEAT_STRIDE;
    bin.src0RepStride = num * DEFAULT_REPEAT_STRIDE;
    bin.src1RepStride = num * DEFAULT_REPEAT_STRIDE;
    SetVectorMask<float, MaskMode::COUNTER>(0, bs * kDnBlockH);
    for (uint32_t i = 1; i < num; ++i) {
        Add<float, false>(in, in[i * kDnBlockH], in, MASK_PLACEHOLDER, 1, bin);
        PipeBarrier<PIPE_V>();
    }
    const uint16_t rep = static_cast<uint16_t>(num * DEFAULT_REPEAT_STRIDE);
    RepeatReduceSum<float, false>(out, in, 1, 1, DEFAULT_BLK_STRIDE, DEFAULT_BLK_STRIDE, DEFAULT_BLK_STRIDE, rep);
    PipeBarrier<PIPE_V>();
    RepeatReduceSum<float, false>(tmp, in, 1, 1, DEFAULT_BLK_STRIDE, DEFAULT_BLK_STRIDE, DEFAULT_BLK_STRIDE, rep);
    PipeBarrier<PIPE_V>();
    SetVectorMask<float, MaskMode::COUNTER>(0, bs);
}

// Σ of each row's first oriH columns by a tree of RepeatReduceSums (DeepNormReduceSumImpl): into mv[i] and dst[i].
inline void DeepNormReduceSum(const LocalTensor<float>& mv, const LocalTensor<float>& dst,
                              const LocalTensor<float>& src, uint32_t bs, uint32_t h, uint32_t oriH)
{
    for (uint32_t i = 0; i < bs; ++i) {
        uint32_t total = oriH;
        LocalTensor<float> from = src[i * h];
        LocalTensor<float> to = dst[i * h];
        while (total > 1) {
            SetVectorMask<float, MaskMode::COUNTER>(0, total);
            if (total <= kDnBlockH) {
                RepeatReduceSum<float, false>(mv[i], from, 1, 1, DEFAULT_BLK_STRIDE, DEFAULT_BLK_STRIDE,
                                              DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE);
                PipeBarrier<PIPE_V>();
                to = dst[i];
            }
            RepeatReduceSum<float, false>(to, from, 1, 1, DEFAULT_BLK_STRIDE, DEFAULT_BLK_STRIDE, DEFAULT_BLK_STRIDE,
                                          DEFAULT_REPEAT_STRIDE);
            PipeBarrier<PIPE_V>();
            total = (total + kDnBlockH - 1) / kDnBlockH;
            from = to;
        }
    }
    SetVectorMask<float, MaskMode::COUNTER>(0, bs);
}

// dst = src0 (op) src1 a row (src1 one row of H): isBasicBlock one instruction per 64-column block over all rows.
template <bool isBasicBlock, bool kMul>
inline void DeepNormRowsWith(const LocalTensor<float>& dst, const LocalTensor<float>& src0,
                             const LocalTensor<float>& src1, uint32_t bs, uint32_t h)
{
    if constexpr (isBasicBlock) {
        const uint16_t rep = static_cast<uint16_t>(h / 8);
        const BinaryRepeatParams bin(1, 1, 1, static_cast<uint8_t>(rep), static_cast<uint8_t>(rep), 0);
        SetVectorMask<float, MaskMode::COUNTER>(0, bs * kDnBlockH);
        for (uint32_t off = 0; off < h; off += kDnBlockH) {
            if constexpr (kMul) Mul<float, false>(dst[off], src0[off], src1[off], MASK_PLACEHOLDER, 1, bin);
            else Add<float, false>(dst[off], src0[off], src1[off], MASK_PLACEHOLDER, 1, bin);
        }
        PipeBarrier<PIPE_V>();
        SetVectorMask<float, MaskMode::COUNTER>(0, h);
    } else {
        const BinaryRepeatParams bin;
        for (uint32_t i = 0; i < bs; ++i) {
            if constexpr (kMul) Mul<float, false>(dst[i * h], src0[i * h], src1, MASK_PLACEHOLDER, 1, bin);
            else Add<float, false>(dst[i * h], src0[i * h], src1, MASK_PLACEHOLDER, 1, bin);
        }
        PipeBarrier<PIPE_V>();
    }
}

// Each of bs values of src spread over 64 floats of dst (DeepNormBasicBlockVbrcb: Brcb then Adds of the block).
inline void DeepNormBrcb64(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t bs)
{
    SetMaskNorm();
    ResetMask();
    Brcb<float>(dst, src, static_cast<uint8_t>(bs / 8), BrcbRepeatParams(8, 64));
    PipeBarrier<PIPE_V>();
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, bs * kDnBlockH);
    Adds<float, false>(dst, dst, 0, MASK_PLACEHOLDER, 1,
                       UnaryRepeatParams(DEFAULT_BLK_STRIDE, 0, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE));
    PipeBarrier<PIPE_V>();
}

// IsBasicBlockTmp8HBetter: rounds of whole 8-row groups with more rows than 64-column blocks.
inline bool DeepNormBrcbBetter(const DeepNormTiling& t)
{
    return t.oneTmpSize % (t.hLength * kDnBlockBs) == 0 && t.bsCurLength > t.hLength / kDnBlockH;
}

// A round's statistics and normalised rows (DeepNormLayerNormExec): means into mean[], variances into variance[],
// (x1 - mean) * rstd into b.c.
template <bool isBasicBlock>
inline void DeepNormRoundStats(const LocalTensor<float>& x1, const LocalTensor<float>& mean,
                               const LocalTensor<float>& variance, float epsilon, const DeepNormTiling& t,
                               const DeepNormBufs& b)
{
    const UnaryRepeatParams un;
    const BinaryRepeatParams bin;
    const uint32_t bs = t.bsCurLength, h = t.hLength;
    // mean
    SetVectorMask<float, MaskMode::COUNTER>(0, t.bshCurLength);
    Muls<float, false>(b.c, x1, b.lastDimValueBack, MASK_PLACEHOLDER, 1, un);
    PipeBarrier<PIPE_V>();
    if constexpr (isBasicBlock) DeepNormBasicBlockReduceSum(mean, b.c, b.c, bs, h);
    else DeepNormReduceSum(mean, b.c, b.c, bs, h, t.originalHLength);
    // x1 - mean into b.b
    const bool brcb = isBasicBlock && DeepNormBrcbBetter(t);
    const uint8_t num = static_cast<uint8_t>(h / kDnBlockH);
    if (brcb) {
        DeepNormBrcb64(b.c, mean, bs);
        BinaryRepeatParams p;
        p.dstRepStride = num * DEFAULT_REPEAT_STRIDE;
        p.src0RepStride = num * DEFAULT_REPEAT_STRIDE;
        SetVectorMask<float, MaskMode::COUNTER>(0, t.bshCurLength / num);
        for (uint32_t i = 0; i < num; ++i) {
            Sub<float, false>(b.b[i * kDnBlockH], x1[i * kDnBlockH], b.c, MASK_PLACEHOLDER, 1, p);
        }
        PipeBarrier<PIPE_V>();
        SetVectorMask<float, MaskMode::COUNTER>(0, t.bshCurLength);
    } else {
        const event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        SetVectorMask<float, MaskMode::COUNTER>(0, h);
        for (uint32_t i = 0; i < bs; ++i) {
            Adds<float, false>(b.b[i * h], x1[i * h], static_cast<float>(mean.GetValue(i) * (-1)), MASK_PLACEHOLDER, 1,
                               un);
        }
        PipeBarrier<PIPE_V>();
        SetVectorMask<float, MaskMode::COUNTER>(0, t.bshCurLength);
    }
    // variance
    Mul<float, false>(b.c, b.b, b.b, MASK_PLACEHOLDER, 1, bin);
    PipeBarrier<PIPE_V>();
    Muls<float, false>(b.a, b.c, b.lastDimValueBack, MASK_PLACEHOLDER, 1, un);
    PipeBarrier<PIPE_V>();
    if constexpr (isBasicBlock) DeepNormBasicBlockReduceSum(variance, b.c, b.a, bs, h);
    else DeepNormReduceSum(variance, b.c, b.a, bs, h, t.originalHLength);
    // rstd = 1 / sqrt(variance + epsilon) into b.a, then (x1 - mean) * rstd into b.c
    SetVectorMask<float, MaskMode::COUNTER>(0, bs);
    Adds<float, false>(b.a, b.c, epsilon, MASK_PLACEHOLDER, 1, un);
    PipeBarrier<PIPE_V>();
    Duplicate<float, false>(b.c, static_cast<float>(1.0), 1, 1, 1, 8);
    PipeBarrier<PIPE_V>();
    Sqrt<float, false>(b.a, b.a, 1, 1, un);
    PipeBarrier<PIPE_V>();
    Div<float, false>(b.a, b.c, b.a, 1, 1, bin);
    PipeBarrier<PIPE_V>();
    if (brcb) {
        BinaryRepeatParams p;
        p.dstRepStride = num * DEFAULT_REPEAT_STRIDE;
        p.src1RepStride = num * DEFAULT_REPEAT_STRIDE;
        DeepNormBrcb64(b.c, b.a, bs);
        SetVectorMask<float, MaskMode::COUNTER>(0, t.bshCurLength / num);
        for (uint32_t i = 0; i < num; ++i) {
            Mul<float, false>(b.a[i * kDnBlockH], b.c, b.b[i * kDnBlockH], MASK_PLACEHOLDER, 1, p);
        }
        PipeBarrier<PIPE_V>();
        SetVectorMask<float, MaskMode::COUNTER>(0, t.bshCurLength);
        Adds<float, false>(b.c, b.a, 0.0f, MASK_PLACEHOLDER, 1, un);
        PipeBarrier<PIPE_V>();
        return;
    }
    const event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(ev);
    WaitFlag<HardEvent::V_S>(ev);
    SetVectorMask<float, MaskMode::COUNTER>(0, h);
    for (uint32_t i = 0; i < bs; ++i) {
        Muls<float, false>(b.c[i * h], b.b[i * h], static_cast<float>(b.a.GetValue(i)), MASK_PLACEHOLDER, 1, un);
    }
    PipeBarrier<PIPE_V>();
    SetVectorMask<float, MaskMode::COUNTER>(0, t.bshCurLength);
}

// dst = y * gamma + beta (GetDeepNormOutput); y is b.c.
template <typename T, bool isBasicBlock>
inline void DeepNormOutput(const LocalTensor<T>& dst, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                           const DeepNormTiling& t, const DeepNormBufs& b)
{
    const uint32_t bs = t.bsCurLength, h = t.hLength;
    SetVectorMask<float, MaskMode::COUNTER>(0, h);
    if constexpr (std::is_same_v<T, half>) {
        UnaryRepeatParams un;
        un.srcRepStride = 4;
        Cast<float, half, false>(b.a, gamma, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, un);
        PipeBarrier<PIPE_V>();
        DeepNormRowsWith<isBasicBlock, true>(b.b, b.c, b.a, bs, h);
        Cast<float, half, false>(b.c, beta, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, un);
        PipeBarrier<PIPE_V>();
        DeepNormRowsWith<isBasicBlock, false>(b.a, b.b, b.c, bs, h);
        SetVectorMask<float, MaskMode::COUNTER>(0, t.bshCurLength);
        un.srcRepStride = DEFAULT_REPEAT_STRIDE;
        un.dstRepStride = 4;
        Cast<half, float, false>(dst, b.a, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, un);
        PipeBarrier<PIPE_V>();
    } else {
        DeepNormRowsWith<isBasicBlock, true>(b.a, b.c, gamma, bs, h);
        DeepNormRowsWith<isBasicBlock, false>(dst, b.a, beta, bs, h);
    }
}

template <typename T, bool isReuseSrc, bool isBasicBlock>
inline void DeepNormRun(const LocalTensor<T>& dst, const LocalTensor<T>& mean, const LocalTensor<T>& rstd,
                        const LocalTensor<T>& src, const LocalTensor<T>& gx, const LocalTensor<T>& beta,
                        const LocalTensor<T>& gamma, const LocalTensor<uint8_t>* shared, const T alpha,
                        const T epsilon, DeepNormTiling& tiling)
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "DeepNorm on A2 supports half and float");
    const bool framework = shared == nullptr;
    const LocalTensor<uint8_t> tmp = framework ? AdvFrameworkTmpTensor("DeepNorm") : *shared;
    DeepNormCheck(DeepNormCall{sizeof(T), isReuseSrc, isBasicBlock, framework, tiling, AdvOperand(dst),
                               AdvOperand(mean), AdvOperand(rstd), AdvOperand(src), AdvOperand(gx), AdvOperand(beta),
                               AdvOperand(gamma), AdvOperand(tmp)});
    const LocalTensor<float> stack = tmp.ReinterpretCast<float>();
    DeepNormBufs b;
    LocalTensor<float> meanF, varF;
    if constexpr (std::is_same_v<T, half>) {
        b.a = stack[tiling.firstTmpStartPos];
        b.b = stack[tiling.secondTmpStartPos];
        b.c = stack[tiling.thirdTmpStartPos];
        meanF = stack[tiling.meanTmpTensorPos];
        varF = stack[tiling.varianceTmpTensorPos];
    } else {
        meanF = mean;
        varF = rstd;
        if constexpr (isReuseSrc) {
            b.a = src;
            b.b = stack[tiling.firstTmpStartPos];
            b.c = stack[tiling.secondTmpStartPos];
        } else {
            b.a = stack[tiling.firstTmpStartPos];
            b.b = stack[tiling.secondTmpStartPos];
            b.c = stack[tiling.thirdTmpStartPos];
        }
    }
    b.lastDimValueBack = tiling.lastDimValueBack;
    SetMaskCount();
    uint32_t bsh = 0, bsOff = 0;
    for (uint32_t r = 0; r <= tiling.loopRound; ++r) {
        if (r == tiling.loopRound) {
            if (tiling.inputTailSize == 0) break;
            tiling.bshCurLength = tiling.inputTailSize;
            tiling.bsCurLength = tiling.meanVarTailSize;
            bsh = tiling.inputTailPos;
            bsOff = tiling.meanVarTailPos;
        }
        DeepNormX1<T>(src[bsh], gx[bsh], alpha, tiling, b);
        DeepNormRoundStats<isBasicBlock>(b.a, meanF[bsOff], varF[bsOff], static_cast<float>(epsilon), tiling, b);
        DeepNormOutput<T, isBasicBlock>(dst[bsh], gamma, beta, tiling, b);
        bsh += tiling.inputRoundSize;
        bsOff += tiling.meanVarRoundSize;
    }
    if constexpr (std::is_same_v<T, half>) {  // the float means and variances cast out
        UnaryRepeatParams un;
        un.dstRepStride = 4;
        SetVectorMask<float, MaskMode::COUNTER>(0, tiling.meanVarSize);
        Cast<half, float, false>(mean, meanF, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, un);
        PipeBarrier<PIPE_V>();
        Cast<half, float, false>(rstd, varF, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, un);
        PipeBarrier<PIPE_V>();
    }
    SetMaskNorm();
    ResetMask();
}

}  // namespace twin_detail

template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
__aicore__ inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
                                const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
                                const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                                const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                const T alpha, const T epsilon, DeepNormTiling& tiling)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::DeepNormRun<T, isReuseSrc, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal,
                                                          gammaLocal, &sharedTmpBuffer, alpha, epsilon, tiling);
}

template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
__aicore__ inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
                                const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
                                const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                                const LocalTensor<T>& gammaLocal, const T alpha, const T epsilon,
                                DeepNormTiling& tiling)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::DeepNormRun<T, isReuseSrc, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal,
                                                          gammaLocal, nullptr, alpha, epsilon, tiling);
}

}  // namespace AscendC
