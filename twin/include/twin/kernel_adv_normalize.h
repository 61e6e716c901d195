// Normalize (高阶API/归一化操作) and LayerNorm's [A, R] forms (LayerNormPara, LayerNormSeparateTiling, rstd output),
// A2's. Kernels include them as "lib/normalization/normalize.h" and "lib/normalization/layernorm.h" (asc-devkit
// include/adv_api/normalization/normalize.h, layernorm.h; NormalizeConfig, NormalizePara, ReducePattern from
// normalize_utils.h; NLCFG_* from impl/.../normalize/normalize_config.h; LNCFG_NORM from layernorm_normal_config.h).
// Checked against A2's implementation (impl/adv_api/detail/normalization/normalize/normalize_common_impl.h,
// layernorm/layernorm_common_impl.h, layernorm_common_basic_impl.h), the API checks (api_check/kernel_check/
// normalization/normalize/normalize_check_common.h, layernorm/layernorm_check_common.h), the tiling (impl/adv_api/
// tiling/normalization/layernorm_tiling_impl.cpp, normalize_tiling_impl.cpp) and the docs.
//
// Normalize<U, T, isReuseSource = false, config = NLCFG_NORM>(output, outputRstd, inputMean, inputVariance, inputX,
// gamma, beta[, sharedTmpBuffer], epsilon, para): inputX and output [A, R] (rows of para.rLengthWithPadding, the first
// para.rLength used), inputMean, inputVariance and outputRstd [A] float, gamma and beta [R] of U; outputRstd = 1 /
// sqrt(variance + epsilon), output = (x - mean) * rstd * gamma + beta. The twin runs A2's instruction sequence with its
// basic API (counter mode): Adds, Duplicate 1, Sqrt, Div for rstd; per round of N rows (N = what the temporary buffer
// holds: floor(size / 2R) for float U, floor((size - 2R) / 2R) for half U, at most A) x in float (Adds 0 / Cast), the
// row's mean and rstd spread over the row by a Duplicate of the scalar each (V_S / S_V flags around GetValue), Sub,
// Mul, then per row Mul gamma and Add beta over rLength columns, and Adds 0 / Cast into output. A2 spreads the
// scalars over rLength columns but subtracts and multiplies whole padded rows, so output's padding columns hold values
// computed from what the scratch held (undefined; the twin marks those scratch bytes written-undefined rather than
// refusing the read). Half gamma and beta are cast to float after the round buffers.
//
// LayerNorm<U, T, isReuseSource = false, config = LNCFG_NORM>(output, outputMean, outputRstd, inputX, gamma, beta,
// epsilon[, sharedTmpBuffer], para, tiling): mean = Σ x * (1 / rLength), variance = Σ (x - mean)² * (1 / rLength) over
// each row in rounds of tiling.inputRoundSize elements (A2's ComputeMeanVariance: Muls, the row sums of
// LayerNormReduceSumImpl, a scalar Adds of -mean per row), the variances in the temporary buffer at
// tiling.varianceTmpTensorPos, then Normalize with the rest of the buffer (from tiling.firstTmpStartPos). When
// para.rLength < rLengthWithPadding, inputX's padding columns are first set to 0 in place (LayerNormPreProc, as A2).
// As on A2 a call with a tail leaves the tail's lengths in tiling.arCurLength / aCurLength.
//
// Rules named "Normalize" / "LayerNorm" (A2's checks, the docs; the error names each): the dtypes (compile time: T
// half/float; U float for float T, half or float for half T); config.isOnlyOutput false, config.aLength not 1
// (compile time), config.reducePattern AR and config.aLength -1 or para.aLength; isReuseSource false (Normalize; the
// [A, R] LayerNorm for half); operands at VECIN/VECCALC/VECOUT, 32-byte aligned; 0 < rLength <= rLengthWithPadding,
// rLengthWithPadding * sizeof(T) a multiple of 32, aLength > 0; inputX and output hold aLength * rLengthWithPadding
// (A2 checks aLength * rLength; it reads and writes the padded rows: stricter by the padding), gamma and beta rLength,
// the [A] operands aLength; the temporary buffer at least aLength floats and one round (N > 0); no output overlapping
// another operand (A2's checks). LayerNorm also: the temporary buffer larger than rLengthWithPadding floats and at
// least tiling.tmpBufSize, the tiling's rounds covering para's shape as GetLayerNormNDTilingInfo writes them (and
// tiling.arCurLength / aCurLength a round's: deliberately stricter, as the [B, S, H] form).
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "twin/kernel_adv_common.h"
#include "twin/kernel_adv_layernorm.h"
#include "twin/kernel_cast.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_utils.h"
#include "twin/kernel_vec.h"
#include "twin/kernel_vec_more.h"
#include "twin/kernel_vec_repeat.h"

namespace AscendC {

#ifndef ASCC_ENUM_REDUCEPATTERN
#define ASCC_ENUM_REDUCEPATTERN
enum class ReducePattern : uint32_t {
    AR = 0,
    RA = 1,
    R,
    ARA,
    ARAR,
    ARARA,
    ARARAR,
    ARARARA,
    ARARARAR,
    ARARARARA,
    RAR,
    RARA,
    RARAR,
    RARARA,
    RARARAR,
    RARARARA,
};
#endif  // ASCC_ENUM_REDUCEPATTERN

struct NormalizeConfig {
    ReducePattern reducePattern = ReducePattern::AR;
    int32_t aLength = -1;
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
};

struct NormalizePara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};

__aicore__ constexpr NormalizeConfig GetNormalizeConfig(bool isNoBeta, bool isNoGamma)
{
    return {ReducePattern::AR, -1, isNoBeta, isNoGamma, false};
}

constexpr NormalizeConfig NLCFG_NORM = GetNormalizeConfig(false, false);
constexpr NormalizeConfig NLCFG_NOBETA = GetNormalizeConfig(true, false);
constexpr NormalizeConfig NLCFG_NOGAMMA = GetNormalizeConfig(false, true);
constexpr NormalizeConfig NLCFG_NOOPT = GetNormalizeConfig(true, true);

__aicore__ constexpr LayerNormConfig GetLayerNormNormalConfig() { return {false, false, false, true}; }
constexpr LayerNormConfig LNCFG_NORM = GetLayerNormNormalConfig();

namespace twin_detail {

struct NormalizeCall {
    uint32_t typeSizeT, typeSizeU;
    bool isReuseSource;
    bool framework;
    ReducePattern reducePattern;
    int32_t configALength;
    NormalizePara para;
    MathOperand output, rstd, mean, variance, x, gamma, beta, tmp;
};

void NormalizeCheck(const NormalizeCall& c);

struct LayerNormRstdCall {
    uint32_t typeSizeT, typeSizeU;
    bool isReuseSource;
    bool framework;
    LayerNormPara para;
    LayerNormSeparateTiling tiling;
    MathOperand output, mean, rstd, x, gamma, beta, tmp;
};

void LayerNormRstdCheck(const LayerNormRstdCall& c);

// Duplicate each of n scalars src[base + i] over row i (rLength columns) of dst (GetNormalizeOutputPre's broadcast).
inline void NormalizeSpreadRows(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t n,
                                uint32_t base, const NormalizePara& para)
{
    SetVectorMask<float, MaskMode::COUNTER>(0, para.rLength);
    for (uint32_t i = 0; i < n; i++) {
        const float value = src.GetValue(i + base);
        const TEventID sv = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        Duplicate<float, false>(dst[i * para.rLengthWithPadding], value, 1, 1, DEFAULT_BLK_STRIDE,
                                DEFAULT_REPEAT_STRIDE);
    }
    PipeBarrier<PIPE_V>();
}

// One round of n rows from row `base` (CastSrc, GetNormalizeOutputPre, GetNormalizeOutput).
template <typename T, const NormalizeConfig& config>
inline void NormalizeRound(const LocalTensor<T>& output, const LocalTensor<T>& x, const LocalTensor<float>& mean,
                           const LocalTensor<float>& rstd, const LocalTensor<float>& gammaF,
                           const LocalTensor<float>& betaF, const LocalTensor<float>& a, const LocalTensor<float>& b,
                           const NormalizePara& para, uint32_t n, uint32_t base)
{
    const uint32_t rows = n * para.rLengthWithPadding;
    SetVectorMask<float, MaskMode::COUNTER>(0, rows);
    if constexpr (std::is_same_v<T, float>) {
        Adds<float, false>(a, x, 0.0f, MASK_PLACEHOLDER, 1, UnaryRepeatParams(1, 1, DEFAULT_REPEAT_STRIDE,
                                                                             DEFAULT_REPEAT_STRIDE));
    } else {
        Cast<float, T, false>(a, x, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                              UnaryRepeatParams(1, 1, DEFAULT_REPEAT_STRIDE, HALF_DEFAULT_REPEAT_STRIDE));
    }
    PipeBarrier<PIPE_V>();
    const TEventID vs = GetTPipePtr()->FetchEventID(HardEvent::V_S);
    SetFlag<HardEvent::V_S>(vs);
    WaitFlag<HardEvent::V_S>(vs);
    if (para.rLength < para.rLengthWithPadding) {  // A2 spreads over rLength columns and computes whole padded rows:
        ascend_twin::Instr instr("Normalize", ascend_twin::Pipe::kV);  // the padding reads what b held
        for (uint32_t i = 0; i < n; i++) {
            instr.WriteUndefined(TwinData(b[i * para.rLengthWithPadding + para.rLength]),
                                 static_cast<uint64_t>(para.rLengthWithPadding - para.rLength) * sizeof(float));
        }
    }
    NormalizeSpreadRows(b, mean, n, base, para);
    SetVectorMask<float, MaskMode::COUNTER>(0, rows);
    Sub<float, false>(a, a, b, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
    PipeBarrier<PIPE_V>();
    NormalizeSpreadRows(b, rstd, n, base, para);
    SetVectorMask<float, MaskMode::COUNTER>(0, rows);
    Mul<float, false>(a, a, b, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
    PipeBarrier<PIPE_V>();
    SetVectorMask<float, MaskMode::COUNTER>(0, para.rLength);
    for (uint32_t i = 0; i < n; i++) {
        const LocalTensor<float> row = a[i * para.rLengthWithPadding];
        if constexpr (!config.isNoGamma) {
            Mul<float, false>(row, row, gammaF, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
            PipeBarrier<PIPE_V>();
        }
        if constexpr (!config.isNoBeta) {
            Add<float, false>(row, row, betaF, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
            PipeBarrier<PIPE_V>();
        }
    }
    SetVectorMask<float, MaskMode::COUNTER>(0, rows);
    if constexpr (std::is_same_v<T, float>) {
        Adds<float, false>(output, a, 0.0f, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
    } else {
        Cast<T, float, false>(output, a, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                              UnaryRepeatParams(1, 1, HALF_DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE));
    }
    PipeBarrier<PIPE_V>();
}

template <typename U, typename T, bool isReuseSource, const NormalizeConfig& config>
inline void NormalizeRun(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                         const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                         const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                         const LocalTensor<uint8_t>* shared, const float epsilon, const NormalizePara& para)
{
    static_assert((std::is_same_v<T, float> && std::is_same_v<U, float>) ||
                      (std::is_same_v<T, half> && (std::is_same_v<U, half> || std::is_same_v<U, float>)),
                  "Failed to check dtype in Normalize, current api support dtype combination is T: float, U: float; "
                  "T: half, U: half / float.");
    static_assert(config.isOnlyOutput == false, "isOnlyOutput must be set false for now.");
    static_assert(config.aLength != 1, "aLength in config must not be 1.");
    const bool framework = shared == nullptr;
    const LocalTensor<uint8_t> tmp = framework ? AdvFrameworkTmpTensor("Normalize") : *shared;
    NormalizeCheck(NormalizeCall{sizeof(T), sizeof(U), isReuseSource, framework, config.reducePattern,
                                 config.aLength, para, AdvOperand(output), AdvOperand(outputRstd),
                                 AdvOperand(inputMean), AdvOperand(inputVariance), AdvOperand(inputX),
                                 AdvOperand(gamma), AdvOperand(beta), AdvOperand(tmp)});
    const LocalTensor<float> stack = tmp.ReinterpretCast<float>();
    const uint32_t r2 = para.rLengthWithPadding * 2;
    uint32_t n = std::is_same_v<U, float> ? stack.GetSize() / r2 : (stack.GetSize() - r2) / r2;
    n = n >= para.aLength ? para.aLength : n;
    const LocalTensor<float> a = stack, b = stack[n * para.rLengthWithPadding];
    // GetNormalizeOutputRstd
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, para.aLength);
    Adds<float, false>(outputRstd, inputVariance, epsilon, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
    PipeBarrier<PIPE_V>();
    Duplicate<float, false>(a, 1.0f, 1, 1, DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE);
    PipeBarrier<PIPE_V>();
    Sqrt<float, false>(outputRstd, outputRstd, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
    PipeBarrier<PIPE_V>();
    Div<float, false>(outputRstd, a, outputRstd, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
    PipeBarrier<PIPE_V>();
    LocalTensor<float> gammaF, betaF;
    if constexpr (std::is_same_v<U, half>) {  // CastGammaBeta
        gammaF = stack[r2 * n];
        betaF = stack[r2 * n + para.rLengthWithPadding];
        SetVectorMask<float, MaskMode::COUNTER>(0, para.rLength);
        const UnaryRepeatParams widen(1, 1, DEFAULT_REPEAT_STRIDE, HALF_DEFAULT_REPEAT_STRIDE);
        if constexpr (!config.isNoGamma) {
            Cast<float, U, false>(gammaF, gamma, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, widen);
            PipeBarrier<PIPE_V>();
        }
        if constexpr (!config.isNoBeta) {
            Cast<float, U, false>(betaF, beta, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, widen);
            PipeBarrier<PIPE_V>();
        }
    } else {
        gammaF = gamma;
        betaF = beta;
    }
    const uint32_t rounds = para.aLength / n, tailN = para.aLength % n;
    for (uint32_t i = 0; i < rounds; i++) {
        const uint32_t at = para.rLengthWithPadding * n * i;
        NormalizeRound<T, config>(output[at], inputX[at], inputMean, outputRstd, gammaF, betaF, a, b, para, n, n * i);
    }
    if (tailN > 0) {
        const uint32_t at = para.rLengthWithPadding * n * rounds;
        NormalizeRound<T, config>(output[at], inputX[at], inputMean, outputRstd, gammaF, betaF, a, b, para, tailN,
                                  n * rounds);
    }
    SetMaskNorm();
    ResetMask();
}

// One round of ComputeMeanVariance: the means into mean[], the variances into variance[] (b: the row sums' scratch).
template <typename T>
inline void LayerNormRstdRound(const LocalTensor<float>& mean, const LocalTensor<float>& variance,
                               const LocalTensor<T>& src, const LocalTensor<float>& a, const LocalTensor<float>& b,
                               const LayerNormPara& para, const LayerNormSeparateTiling& t)
{
    const auto load = [&] {
        if constexpr (std::is_same_v<T, half>) {
            Cast<float, T>(a, src, RoundMode::CAST_NONE, t.arCurLength);
        } else {
            DataCopy(a, src, t.arCurLength);
        }
        PipeBarrier<PIPE_V>();
    };
    load();
    Muls<float>(a, a, t.rValueBack, t.arCurLength);
    PipeBarrier<PIPE_V>();
    LayerNormReduceSum(mean, b, a, t.aCurLength, para.rLengthWithPadding);
    TEventID id = GetTPipePtr()->FetchEventID(HardEvent::V_S);
    SetFlag<HardEvent::V_S>(id);
    WaitFlag<HardEvent::V_S>(id);
    if constexpr (std::is_same_v<T, half>) PipeBarrier<PIPE_V>();
    load();
    id = GetTPipePtr()->FetchEventID(HardEvent::S_V);
    for (uint32_t j = 0; j < t.aCurLength; j++) {
        const float scalar = -1.0f * mean.GetValue(j);
        SetFlag<HardEvent::S_V>(id);
        WaitFlag<HardEvent::S_V>(id);
        Adds<float>(a[j * para.rLengthWithPadding], a[j * para.rLengthWithPadding], scalar, t.rLength);
    }
    PipeBarrier<PIPE_V>();
    Mul<float>(a, a, a, t.arCurLength);
    PipeBarrier<PIPE_V>();
    Muls<float>(a, a, t.rValueBack, t.arCurLength);
    PipeBarrier<PIPE_V>();
    LayerNormReduceSum(variance, b, a, t.aCurLength, para.rLengthWithPadding);
    PipeBarrier<PIPE_V>();
}

template <typename U, typename T, bool isReuseSource, const LayerNormConfig& config>
inline void LayerNormRstdRun(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                             const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                             const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
                             const LocalTensor<uint8_t>* shared, const LayerNormPara& para,
                             const LayerNormSeparateTiling& tiling)
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "current data type is not supported on current device! (LayerNorm: T is half or float on A2)");
    static_assert(std::is_same_v<T, half> ? (std::is_same_v<U, half> || std::is_same_v<U, float>)
                                          : std::is_same_v<U, float>,
                  "current data type is not supported on current device! (LayerNorm: U is float for float T, half "
                  "or float for half T)");
    static_assert(config.isOnlyOutput == false,
                  "current data type is not supported on current device! (LayerNorm: config.isOnlyOutput is false)");
    const bool framework = shared == nullptr;
    const LocalTensor<uint8_t> tmp = framework ? AdvFrameworkTmpTensor("LayerNorm") : *shared;
    LayerNormRstdCheck(LayerNormRstdCall{sizeof(T), sizeof(U), isReuseSource, framework, para, tiling,
                                         AdvOperand(output), AdvOperand(outputMean), AdvOperand(outputRstd),
                                         AdvOperand(inputX), AdvOperand(gamma), AdvOperand(beta), AdvOperand(tmp)});
    const LocalTensor<float> stack = tmp.ReinterpretCast<float>();
    const LocalTensor<float> variance = stack[tiling.varianceTmpTensorPos];
    LayerNormSeparateTiling& t = const_cast<LayerNormSeparateTiling&>(tiling);  // as A2: the tail's lengths stay
    if (para.rLength != para.rLengthWithPadding) {  // LayerNormPreProc: inputX's padding columns set to 0
        const LocalTensor<T> ones = stack.ReinterpretCast<T>();
        Duplicate(ones, static_cast<T>(0), para.rLengthWithPadding);
        PipeBarrier<PIPE_V>();
        Adds(ones, ones, static_cast<T>(1), para.rLength);
        PipeBarrier<PIPE_V>();
        for (uint32_t i = 0; i < para.aLength; i++) {
            Mul(inputX[i * para.rLengthWithPadding], inputX[i * para.rLengthWithPadding], ones,
                para.rLengthWithPadding);
        }
        PipeBarrier<PIPE_V>();
    }
    const LocalTensor<float> a = stack[t.firstTmpStartPos], b = stack[t.secondTmpStartPos];
    uint32_t at = 0, mv = 0;
    for (uint32_t i = 0; i < t.loopRound; i++) {
        LayerNormRstdRound<T>(outputMean[mv], variance[mv], inputX[at], a, b, para, t);
        at += t.inputRoundSize;
        mv += t.meanVarRoundSize;
    }
    if (t.inputTailSize > 0) {
        t.arCurLength = t.inputTailSize;
        t.aCurLength = t.meanVarTailSize;
        LayerNormRstdRound<T>(outputMean[t.meanVarTailPos], variance[t.meanVarTailPos], inputX[t.inputTailPos], a, b,
                              para, t);
    }
    const LocalTensor<uint8_t> rest = stack[t.firstTmpStartPos].ReinterpretCast<uint8_t>();
    const NormalizePara np = {para.aLength, para.rLength, para.rLengthWithPadding};
    if constexpr (!config.isNoBeta && !config.isNoGamma) {
        NormalizeRun<U, T, false, NLCFG_NORM>(output, outputRstd, outputMean, variance, inputX, gamma, beta, &rest,
                                              epsilon, np);
    } else if constexpr (config.isNoBeta && !config.isNoGamma) {
        NormalizeRun<U, T, false, NLCFG_NOBETA>(output, outputRstd, outputMean, variance, inputX, gamma, beta, &rest,
                                                epsilon, np);
    } else if constexpr (!config.isNoBeta && config.isNoGamma) {
        NormalizeRun<U, T, false, NLCFG_NOGAMMA>(output, outputRstd, outputMean, variance, inputX, gamma, beta,
                                                 &rest, epsilon, np);
    } else {
        NormalizeRun<U, T, false, NLCFG_NOOPT>(output, outputRstd, outputMean, variance, inputX, gamma, beta, &rest,
                                               epsilon, np);
    }
}

}  // namespace twin_detail

template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
__aicore__ inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                                 const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                 const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float epsilon,
                                 const NormalizePara& para)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::NormalizeRun<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance, inputX, gamma,
                                                           beta, &sharedTmpBuffer, epsilon, para);
}

template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
__aicore__ inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                                 const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                 const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                                 const float epsilon, const NormalizePara& para)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::NormalizeRun<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance, inputX, gamma,
                                                           beta, nullptr, epsilon, para);
}

template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                                 const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                                 const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
                                 const LayerNormPara& para, const LayerNormSeparateTiling& tiling)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::LayerNormRstdRun<U, T, isReuseSource, config>(output, outputMean, outputRstd, inputX, gamma, beta,
                                                               epsilon, nullptr, para, tiling);
}

template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                                 const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                                 const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormPara& para,
                                 const LayerNormSeparateTiling& tiling)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::LayerNormRstdRun<U, T, isReuseSource, config>(output, outputMean, outputRstd, inputX, gamma, beta,
                                                               epsilon, &sharedTmpBuffer, para, tiling);
}

}  // namespace AscendC
