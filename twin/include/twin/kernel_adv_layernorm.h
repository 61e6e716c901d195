// LayerNorm (高阶API/归一化操作), A2's [B, S, H] forms. Kernels include it as "lib/normalization/layernorm.h"
// (asc-devkit include/adv_api/normalization/layernorm.h; LayerNormTiling from kernel_tiling/kernel_tiling.h); A2's
// kernel_operator.h includes it. Checked against the header, A2's implementation (impl/adv_api/detail/normalization/
// layernorm/layernorm_common_impl.h, layernorm_common_basic_impl.h), its API check (api_check/kernel_check/
// normalization/layernorm/layernorm_check_common.h), the tiling (impl/adv_api/tiling/normalization/
// layernorm_tiling_impl.cpp) and the docs.
//
// LayerNorm<T, isReuseSource = false>(output, outputMean, outputVariance, inputX, gamma, beta[, sharedTmpBuffer],
// epsilon, tiling): inputX and output [B, S, H] with H = tiling.hLength, gamma and beta [H], outputMean and
// outputVariance [B, S]; mean = Σx / originalHLength, variance = Σ(x - mean)² / originalHLength over the H columns
// of a row (the padding columns too: the docs ask for zeros there), output = (x - mean) / sqrt(variance + epsilon) *
// gamma + beta. The twin runs A2's instruction sequence with its basic API, so the instructions' rules, the hazard
// detector and the counters apply and the numerics are A2's: in float (half is cast to float and back), in rounds of
// tiling.inputRoundSize elements (then the tail), x * (1 / n) summed per row (Add of the 64-column blocks into the
// first, WholeReduceSum), the row's value spread over the row by SetCmpMask + Select (mode 1), 1 / sqrt(·) as Div of
// a duplicated 1 by Sqrt, gamma and beta by a Mul and an Add per row. The temporary buffer holds, as floats, for half
// the means and variances (meanVarSize each, 8-aligned) and three round buffers (tiling.oneTmpSize each; float with
// isReuseSource: two, inputX is the third). As on A2, a call with a tail leaves the tail's lengths in
// tiling.bshCurLength / bsCurLength (the tiling is taken by reference and written).
//
// WelfordUpdate<T, U, isReuseSource = false, config = WFUPDATE_DEFAULT_CFG>(outputMean, outputVariance, inputMean,
// inputVariance, inputX[, sharedTmpBuffer], para), declared in the same header on A2: per element i <
// para.abComputeLength, delta = x - inputMean, outputMean = inputMean + delta * nRec, outputVariance = inputVariance +
// delta * (x - outputMean), in float (half x cast), in chunks of 64 floats per 256 bytes of each temporary buffer
// (3 for half, 1 for float with isReuseSource, which overwrites inputX with x - inputMean, else 2); with
// config.isInplace and abComputeLength < abLength the outputs from abLength - AlignUp(abLength - abComputeLength, 8)
// on are the inputs' (UB->UB DataCopy before the chunks). Rules named "WelfordUpdate": T half/float, U float (compile
// time); positions and alignment; para.rnLength 1, abLength a multiple of 32 / sizeof(T), 0 < abComputeLength <=
// abLength (docs); each operand holds rnLength * abLength; the temporary buffer's minimum; no source overlapping a
// destination, outputMean and outputVariance disjoint, the temporary buffer overlapping no operand (docs).
//
// The [A, R] forms with LayerNormPara / LayerNormSeparateTiling (rstd output) and Normalize, which they run
// through: twin/include/twin/kernel_adv_normalize.h (included at the end of this header, as A2's layernorm.h
// includes normalize.h).
//
// Rules named "LayerNorm" (A2's check, the docs, the tiling's invariants; the error names each): T half/float
// (compile time); isReuseSource for float only (docs, A2's check); operands at VECIN/VECCALC/VECOUT, 32-byte aligned;
// hLength * sizeof(T) a multiple of 32 and 0 < originalHLength <= hLength; gamma's and beta's sizes 32-byte multiples
// (A2's check) holding H; the tiling's rounds consistent with its shape as GetLayerNormNDTilingInfo writes them
// (oneTmpSize > 0 a multiple of H, the round buffers inside tmpBufSize, loopRound rounds and the tail = B * S * H,
// bshCurLength / bsCurLength those of a round: a tiling an earlier call with a tail wrote is refused, where A2 would
// run the rounds at the tail's length — deliberately stricter); inputX and output hold B * S * H, outputMean and
// outputVariance B * S; sharedTmpBuffer tiling.tmpBufSize floats; output and inputX the same or disjoint (docs), no
// other output overlapping an input or another output, the temporary buffer overlapping no operand.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "twin/kernel_adv_common.h"
#include "twin/kernel_cast.h"
#include "twin/kernel_cmpsel.h"
#include "twin/kernel_reduce_repeat.h"
#include "twin/kernel_sys_var.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_utils.h"
#include "twin/kernel_vec.h"
#include "twin/kernel_vec_more.h"
#include "twin/kernel_vec_repeat.h"

namespace AscendC {

// include/adv_api/normalization/layernorm_utils.h (the structs the A2 forms and WelfordUpdate take).
struct LayerNormConfig {
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
    bool isOutputRstd = true;
};

struct LayerNormPara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};

struct WelfordUpdateConfig {
    __aicore__ constexpr WelfordUpdateConfig(const bool isInplaceIn) : isInplace(isInplaceIn) {}
    bool isInplace = false;
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};

struct WelfordUpdateParam {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t abComputeLength;
    float nRec;
};

namespace twin_detail {

struct LayerNormCall {
    uint32_t typeSize;
    bool isReuseSource;
    bool framework;
    LayerNormTiling tiling;
    MathOperand output, mean, variance, x, gamma, beta, tmp;
};

void LayerNormCheck(const LayerNormCall& c);

struct WelfordUpdateCall {
    uint32_t typeSize;
    uint32_t tmpBuffers;  // A2's WelfordUpdateGetTmpSize: 3 for half, 1 for float with isReuseSource, else 2
    bool framework;
    WelfordUpdateParam para;
    MathOperand outMean, outVar, inMean, inVar, x, tmp;
};

void WelfordUpdateCheck(const WelfordUpdateCall& c);

// The float views A2 takes from the temporary buffer (GetLayerNormNDTensorInfo).
struct LayerNormBufs {
    LocalTensor<float> a, b, c;
    LocalTensor<float> mean, variance;  // float: the outputs themselves; half: in the temporary buffer
};

constexpr uint32_t kLnBlock = 64;  // floats a repeat

// Σ of each row of src (bs rows of h, the 64-column blocks added into the first, in place) into dstMV[r] and
// dst[r * h] (LayerNormReduceSumImpl); the mask register is left in counter mode.
inline void LayerNormReduceSum(const LocalTensor<float>& dstMV, const LocalTensor<float>& dst,
                               const LocalTensor<float>& src, uint32_t bs, uint32_t h)
{
    ResetMask();
    SetMaskNorm();
    const BinaryRepeatParams fold(DEFAULT_BLK_STRIDE, DEFAULT_BLK_STRIDE, DEFAULT_BLK_STRIDE, 0,
                                  DEFAULT_REPEAT_STRIDE, 0);
    if (h > kLnBlock) {
        const uint32_t addRepeat = h / kLnBlock - 1;
        const uint32_t tail = h % kLnBlock;
        for (uint32_t i = 0; i < bs * h; i += h) {
            if (addRepeat > 0) {
                Add(src[i], src[i + kLnBlock], src[i], kLnBlock, static_cast<uint8_t>(addRepeat), fold);
                PipeBarrier<PIPE_V>();
            }
            if (tail != 0) {
                Add(src[i], src[i + h / kLnBlock * kLnBlock], src[i], tail, 1, fold);
                PipeBarrier<PIPE_V>();
            }
        }
    }
    const int32_t lanes = static_cast<int32_t>(h > kLnBlock ? kLnBlock : h);
    const int32_t srcRep = static_cast<int32_t>(h / 8);
    for (uint32_t done = 0; done < bs; done += MAX_REPEAT_TIMES) {
        const uint32_t n = bs - done < static_cast<uint32_t>(MAX_REPEAT_TIMES) ? bs - done : MAX_REPEAT_TIMES;
        WholeReduceSum<float>(dstMV[done], src[done * h], lanes, static_cast<int32_t>(n), 1, DEFAULT_BLK_STRIDE, srcRep);
        WholeReduceSum<float>(dst[done * h], src[done * h], lanes, static_cast<int32_t>(n), static_cast<int32_t>(h),
                              DEFAULT_BLK_STRIDE, srcRep);
        PipeBarrier<PIPE_V>();
    }
    SetMaskCount();
}

// Each row r of dst (h columns) = src[r * h] (BroadcastLastDim: CMPMASK holds the value, Select mode 1 of an all-zero
// selMask made from src's first h int16_t). `api` names the advanced API that runs it (WelfordFinalize too).
inline void LayerNormBroadcastRows(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t bs,
                                   uint32_t h, const char* api = "LayerNorm")
{
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, h);
    SetCmpMask<float>(src);
    PipeBarrier<PIPE_V>();
    LocalTensor<int16_t> zeros = src.ReinterpretCast<int16_t>();
    {  // A2 multiplies whatever the first h int16_t hold by 0 (row 0's value, loaded above, among them)
        ascend_twin::Instr instr(api, ascend_twin::Pipe::kV);
        instr.WriteUndefined(TwinData(zeros), static_cast<uint64_t>(h) * sizeof(int16_t));
    }
    Muls<int16_t, false>(zeros, zeros, 0, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
    PipeBarrier<PIPE_V>();
    const LocalTensor<uint16_t> sel = zeros.ReinterpretCast<uint16_t>();
    Select<float, uint16_t>(dst, sel, dst, 1, BinaryRepeatParams());
    PipeBarrier<PIPE_V>();
    for (uint32_t r = 1; r < bs; ++r) {
        SetCmpMask<float>(src[r * h]);
        PipeBarrier<PIPE_V>();
        Select<float, uint16_t>(dst[r * h], sel, dst, 1, BinaryRepeatParams());
        PipeBarrier<PIPE_V>();
    }
}

// dst row r = src0 row r (op) src1 (h columns), one instruction a row; the mask holds h (counter mode).
template <bool kMul>
inline void LayerNormRowsWith(const LocalTensor<float>& dst, const LocalTensor<float>& src0,
                              const LocalTensor<float>& src1, uint32_t bs, uint32_t h)
{
    for (uint32_t r = 0; r < bs; ++r) {
        if constexpr (kMul) Mul<float, false>(dst[r * h], src0[r * h], src1, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
        else Add<float, false>(dst[r * h], src0[r * h], src1, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
    }
    PipeBarrier<PIPE_V>();
}

// One round: x (float) of bs rows, the means into b's rows and mean[], variances into variance[], the normalised
// values into c (GetLayerNormOutputMean, GetLayerNormOutputVariance, GetLayerNormOutputPre).
inline void LayerNormRoundStats(const LocalTensor<float>& x, const LayerNormBufs& p, const LocalTensor<float>& mean,
                                const LocalTensor<float>& variance, float epsilon, const LayerNormTiling& t)
{
    const uint32_t bs = t.bsCurLength, bsh = t.bshCurLength, h = t.hLength;
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, bsh);
    Muls<float, false>(p.c, x, t.lastDimValueBack, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
    PipeBarrier<PIPE_V>();
    LayerNormReduceSum(mean, p.b, p.c, bs, h);
    // variance
    LayerNormBroadcastRows(p.c, p.b, bs, h);
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, bsh);
    Sub<float, false>(p.b, x, p.c, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
    PipeBarrier<PIPE_V>();
    Mul<float, false>(p.c, p.b, p.b, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
    PipeBarrier<PIPE_V>();
    Muls<float, false>(p.a, p.c, t.lastDimValueBack, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
    PipeBarrier<PIPE_V>();
    LayerNormReduceSum(variance, p.c, p.a, bs, h);
    PipeBarrier<PIPE_V>();
    // (x - mean) / sqrt(variance + epsilon)
    LayerNormBroadcastRows(p.a, p.c, bs, h);
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, bsh);
    Adds<float, false>(p.c, p.a, epsilon, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
    PipeBarrier<PIPE_V>();
    Sqrt<float, false>(p.a, p.c, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
    PipeBarrier<PIPE_V>();
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, 8);
    Duplicate<float, false>(p.c, 1.0f, MASK_PLACEHOLDER, 1, DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE);
    PipeBarrier<PIPE_V>();
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, bsh);
    Div<float, false>(p.a, p.c, p.a, MASK_PLACEHOLDER, 1, BinaryRepeatParams(1, 0, 1, DEFAULT_REPEAT_STRIDE, 0,
                                                                             DEFAULT_REPEAT_STRIDE));
    PipeBarrier<PIPE_V>();
    Mul<float, false>(p.c, p.a, p.b, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
    PipeBarrier<PIPE_V>();
}

template <typename T>
inline void LayerNormRound(const LocalTensor<T>& x, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                           const LocalTensor<T>& output, const LocalTensor<float>& mean,
                           const LocalTensor<float>& variance, T epsilon, const LayerNormTiling& t,
                           const LayerNormBufs& p)
{
    const uint32_t bs = t.bsCurLength, h = t.hLength;
    if constexpr (std::is_same_v<T, half>) {
        SetVectorMask<uint8_t, MaskMode::COUNTER>(0, t.bshCurLength);
        UnaryRepeatParams widen;
        widen.srcRepStride = DEFAULT_REPEAT_STRIDE / sizeof(half);
        Cast<float, half, false>(p.a, x, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, widen);
        PipeBarrier<PIPE_V>();
        LayerNormRoundStats(p.a, p, mean, variance, static_cast<float>(epsilon), t);
        // output = c * gamma + beta (GetLayerNormOutput<half>)
        SetVectorMask<uint8_t, MaskMode::COUNTER>(0, h);
        Cast<float, half, false>(p.a, gamma, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, widen);
        PipeBarrier<PIPE_V>();
        LayerNormRowsWith<true>(p.b, p.c, p.a, bs, h);
        Cast<float, half, false>(p.c, beta, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, widen);
        PipeBarrier<PIPE_V>();
        LayerNormRowsWith<false>(p.a, p.b, p.c, bs, h);
        SetVectorMask<uint8_t, MaskMode::COUNTER>(0, t.bshCurLength);
        UnaryRepeatParams narrow;
        narrow.dstRepStride = DEFAULT_REPEAT_STRIDE / sizeof(half);
        Cast<half, float, false>(output, p.a, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, narrow);
        PipeBarrier<PIPE_V>();
    } else {
        LayerNormRoundStats(x, p, mean, variance, epsilon, t);
        SetVectorMask<uint8_t, MaskMode::COUNTER>(0, h);
        LayerNormRowsWith<true>(p.a, p.c, gamma, bs, h);
        LayerNormRowsWith<false>(output, p.a, beta, bs, h);
    }
}

template <typename T, bool isReuseSource>
inline void LayerNormRun(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                         const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX, const LocalTensor<T>& gamma,
                         const LocalTensor<T>& beta, const LocalTensor<uint8_t>* shared, T epsilon,
                         LayerNormTiling& tiling)
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "LayerNorm on A2 supports half and float");
    const bool framework = shared == nullptr;
    const LocalTensor<uint8_t> tmp = framework ? AdvFrameworkTmpTensor("LayerNorm") : *shared;
    LayerNormCheck(LayerNormCall{sizeof(T), isReuseSource, framework, tiling, AdvOperand(output),
                                 AdvOperand(outputMean), AdvOperand(outputVariance), AdvOperand(inputX),
                                 AdvOperand(gamma), AdvOperand(beta), AdvOperand(tmp)});
    const LocalTensor<float> stack = tmp.ReinterpretCast<float>();
    LayerNormBufs p;
    if constexpr (std::is_same_v<T, float>) {
        p.mean = outputMean;
        p.variance = outputVariance;
        if constexpr (isReuseSource) {
            p.a = inputX;
            p.b = stack[tiling.firstTmpStartPos];
            p.c = stack[tiling.secondTmpStartPos];
        }
    } else {
        p.mean = stack[tiling.meanTmpTensorPos];
        p.variance = stack[tiling.varianceTmpTensorPos];
    }
    if constexpr (!(std::is_same_v<T, float> && isReuseSource)) {
        p.a = stack[tiling.firstTmpStartPos];
        p.b = stack[tiling.secondTmpStartPos];
        p.c = stack[tiling.thirdTmpStartPos];
    }
    SetMaskCount();
    uint32_t at = 0, mv = 0;
    for (uint32_t i = 0; i < tiling.loopRound; ++i) {
        LayerNormRound<T>(inputX[at], gamma, beta, output[at], p.mean[mv], p.variance[mv], epsilon, tiling, p);
        at += tiling.inputRoundSize;
        mv += tiling.meanVarRoundSize;
    }
    if (tiling.inputTailSize > 0) {
        tiling.bshCurLength = tiling.inputTailSize;  // as A2: the caller's tiling keeps the tail's lengths
        tiling.bsCurLength = tiling.meanVarTailSize;
        LayerNormRound<T>(inputX[tiling.inputTailPos], gamma, beta, output[tiling.inputTailPos],
                          p.mean[tiling.meanVarTailPos], p.variance[tiling.meanVarTailPos], epsilon, tiling, p);
    }
    if constexpr (std::is_same_v<T, half>) {  // GetOutputMeanVariance
        SetVectorMask<uint8_t, MaskMode::COUNTER>(0, tiling.meanVarSize);
        UnaryRepeatParams narrow;
        narrow.dstRepStride = DEFAULT_REPEAT_STRIDE / sizeof(half);
        Cast<half, float, false>(outputMean, p.mean, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, narrow);
        PipeBarrier<PIPE_V>();
        Cast<half, float, false>(outputVariance, p.variance, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, narrow);
        PipeBarrier<PIPE_V>();
    }
    SetMaskNorm();
    ResetMask();
}

// WelfordUpdate, one chunk of the mask register's count (layernorm_common_impl.h, WelfordUpdateCompute*): delta =
// x - inMean, outMean = inMean + delta * nRec, outVar = inVar + delta * (x - outMean); the float views of the
// temporary buffer are 64 * tmpNum floats each.
inline void WelfordUpdateMean(const LocalTensor<float>& tmpV, const LocalTensor<float>& src,
                              const LocalTensor<float>& inMean, const LocalTensor<float>& outV,
                              const LocalTensor<float>& outMean, float nRec)
{
    PipeBarrier<PIPE_V>();
    Sub<float, false>(tmpV, src, inMean, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
    PipeBarrier<PIPE_V>();
    Muls<float, false>(outV, tmpV, nRec, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
    PipeBarrier<PIPE_V>();
    Add<float, false>(outMean, outV, inMean, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
    PipeBarrier<PIPE_V>();
}

inline void WelfordUpdateVar(const LocalTensor<float>& tmpV, const LocalTensor<float>& inVar,
                             const LocalTensor<float>& outVar)
{
    PipeBarrier<PIPE_V>();
    Add<float, false>(outVar, tmpV, inVar, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
    PipeBarrier<PIPE_V>();
}

template <typename T, bool isReuseSource>
inline void WelfordUpdateChunk(const LocalTensor<float>& outMean, const LocalTensor<float>& outVar,
                               const LocalTensor<T>& src, const LocalTensor<float>& inMean,
                               const LocalTensor<float>& inVar, const LocalTensor<uint8_t>& tmp, float nRec,
                               uint32_t tmpNum)
{
    const LocalTensor<float> f = tmp.ReinterpretCast<float>();
    const uint32_t step = 64 * tmpNum;
    if constexpr (std::is_same_v<T, half>) {
        const LocalTensor<float> srcV = f, tmpV = f[step], outV = f[2 * step];
        PipeBarrier<PIPE_V>();
        Cast<float, half, false>(srcV, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                                 UnaryRepeatParams(1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2));
        WelfordUpdateMean(tmpV, srcV, inMean, outV, outMean, nRec);
        Sub<float, false>(outV, srcV, outMean, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
        PipeBarrier<PIPE_V>();
        Mul<float, false>(tmpV, tmpV, outV, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
        WelfordUpdateVar(tmpV, inVar, outVar);
    } else if constexpr (isReuseSource) {  // src is overwritten with x - inMean
        const LocalTensor<float> tmpV = f;
        WelfordUpdateMean(tmpV, src, inMean, tmpV, outMean, nRec);
        Sub<float, false>(tmpV, src, outMean, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
        PipeBarrier<PIPE_V>();
        Sub<float, false>(src, src, inMean, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
        PipeBarrier<PIPE_V>();
        Mul<float, false>(tmpV, tmpV, src, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
        WelfordUpdateVar(tmpV, inVar, outVar);
    } else {
        const LocalTensor<float> tmpV = f, outV = f[step];
        WelfordUpdateMean(tmpV, src, inMean, outV, outMean, nRec);
        Sub<float, false>(outV, src, outMean, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
        PipeBarrier<PIPE_V>();
        Mul<float, false>(tmpV, tmpV, outV, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
        WelfordUpdateVar(tmpV, inVar, outVar);
    }
}

template <typename T, typename U, bool isReuseSource, const WelfordUpdateConfig& config>
inline void WelfordUpdateRun(const LocalTensor<U>& outMean, const LocalTensor<U>& outVar, const LocalTensor<U>& inMean,
                             const LocalTensor<U>& inVar, const LocalTensor<T>& x, const LocalTensor<uint8_t>* shared,
                             const WelfordUpdateParam& para)
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "WelfordUpdate on A2: inputX is half or float");
    static_assert(std::is_same_v<U, float>, "WelfordUpdate on A2: the means and variances are float");
    constexpr uint32_t buffers = sizeof(T) == 2 ? 3 : (isReuseSource ? 1 : 2);
    const bool framework = shared == nullptr;
    const LocalTensor<uint8_t> tmp = framework ? AdvFrameworkTmpTensor("WelfordUpdate") : *shared;
    WelfordUpdateCheck(WelfordUpdateCall{sizeof(T), buffers, framework, para, AdvOperand(outMean), AdvOperand(outVar),
                                         AdvOperand(inMean), AdvOperand(inVar), AdvOperand(x), AdvOperand(tmp)});
    SetMaskCount();
    if (config.isInplace && para.abComputeLength < para.abLength) {  // WelfordUpdateInplace
        const uint32_t keep = (para.abLength - para.abComputeLength + 7) / 8 * 8;
        const uint32_t at = para.abLength - keep;
        DataCopy(outMean[at], inMean[at], keep);
        DataCopy(outVar[at], inVar[at], keep);
        PipeBarrier<PIPE_V>();
    }
    const uint32_t tmpNum = tmp.GetSize() / (ONE_REPEAT_BYTE_SIZE * buffers);
    const uint32_t step = 64 * tmpNum;
    const uint32_t rounds = para.abComputeLength / step, tail = para.abComputeLength % step;
    SetVectorMask<float, MaskMode::COUNTER>(0, step);
    uint32_t at = 0;
    for (uint32_t i = 0; i < rounds; ++i, at += step) {
        WelfordUpdateChunk<T, isReuseSource>(outMean[at], outVar[at], x[at], inMean[at], inVar[at], tmp, para.nRec,
                                             tmpNum);
    }
    if (tail != 0) {
        SetVectorMask<float, MaskMode::COUNTER>(0, tail);
        WelfordUpdateChunk<T, isReuseSource>(outMean[at], outVar[at], x[at], inMean[at], inVar[at], tmp, para.nRec,
                                             tmpNum);
    }
    SetMaskNorm();
    ResetMask();
}

}  // namespace twin_detail

template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
__aicore__ inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                                     const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                                     const LocalTensor<T>& inputX, const WelfordUpdateParam& para)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::WelfordUpdateRun<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance,
                                                               inputX, nullptr, para);
}

template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
__aicore__ inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                                     const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                                     const LocalTensor<T>& inputX, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     const WelfordUpdateParam& para)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::WelfordUpdateRun<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance,
                                                               inputX, &sharedTmpBuffer, para);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, LayerNormTiling& tiling)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::LayerNormRun<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta,
                                                &sharedTmpBuffer, epsilon, tiling);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
                                 LayerNormTiling& tiling)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::LayerNormRun<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta, nullptr,
                                                epsilon, tiling);
}

}  // namespace AscendC

#include "twin/kernel_adv_normalize.h"  // the [A, R] LayerNorm and Normalize (A2's layernorm.h includes normalize.h)
