// LayerNormGrad and LayerNormGradBeta (高阶API/归一化操作), A2's forms. Kernels include them as
// "lib/normalization/layernormgrad.h" and "layernormgradbeta.h" (asc-devkit include/adv_api/normalization/;
// LayerNormGradTiling, LayerNormGradBetaTiling from kernel_tiling/kernel_tiling.h); A2's kernel_operator.h includes
// them. Checked against the headers, A2's implementations (impl/adv_api/detail/normalization/layernormgrad/
// layernormgrad_common_impl.h, layernormgradbeta_common_impl.h), their API checks (api_check/kernel_check/
// normalization/layernormgrad*/), the tilings (impl/adv_api/tiling/normalization/layernorm_grad_tiling_impl.cpp,
// layernorm_grad_beta_tiling_impl.cpp) and the docs.
//
// LayerNormGrad<T, isReuseSource = false>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean,
// inputGamma[, sharedTmpBuffer], epsilon, tiling[, shapeInfo]): per row of H (the padding columns too: the docs ask
// for zeros there), x1 = dy * gamma, x2 = x - mean, rstd = 1 / sqrt(var + eps); pdVar = Σ -0.5 * x1 * x2 * rstd³,
// resForGamma = x2 * rstd, x3 = x1 * rstd, pdMean = Σ -x3 + pdVar * Σ(-2 * x2) / N, outputPdX = x2 * pdVar * 2 / N +
// pdMean / N + x3 (N = originalHLength). LayerNormGradBeta<T, isReuseSource = false>(outputPdGamma, outputPdBeta,
// resForGamma, inputDy[, sharedTmpBuffer], tiling): pdGamma = Σ_rows dy * resForGamma, pdBeta = Σ_rows dy over the
// originalHLength columns. The twin runs A2's instruction sequences with its basic API: in float (half cast in and
// out), in rounds of tiling.oneCalSize elements (nohCalSize rows; then the tail), the row sums as WholeReduceSum trees,
// the row values spread over their rows by Brcb and then scalar Duplicates (both, as A2 does), rstd³ as
// 1 / sqrt((var + eps)³); LayerNormGrad's float form uses outputPdX as its row scratch (and with isReuseSource inputDy
// and inputX, overwritten), as A2 does. LayerNormGradBeta adds the rounds' row sums in order.
//
// Rules named "LayerNormGrad" / "LayerNormGradBeta" (A2's checks, the docs, the tilings' invariants; the error names
// each): T half/float (compile time); isReuseSource for float only; operands at VECIN/VECCALC/VECOUT, 32-byte aligned;
// hLength 32-byte aligned, 0 < originalHLength <= hLength; the tiling's rounds as the tiling function writes them;
// the sizes (B * S * H, B * S rounded up to nohCalSize where A2's count reads that far, H); the temporary buffer
// (tiling.stackBufferSize bytes for LayerNormGrad, floats for LayerNormGradBeta, as each tiling writes it); the
// temporary buffer overlapping no operand.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "twin/kernel_adv_common.h"
#include "twin/kernel_brcb.h"
#include "twin/kernel_cast.h"
#include "twin/kernel_reduce_repeat.h"
#include "twin/kernel_shape_info.h"
#include "twin/runtime.h"
#include "twin/kernel_sync.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_sys_var.h"
#include "twin/kernel_tpipe.h"
#include "twin/kernel_utils.h"
#include "twin/kernel_vec.h"
#include "twin/kernel_vec_more.h"
#include "twin/kernel_vec_repeat.h"

namespace AscendC {

// include/adv_api/normalization/layernormgrad_utils.h
struct LayerNormGradShapeInfo {
    DataFormat dataFormat = DataFormat::ND;
};

namespace twin_detail {

struct LayerNormGradCall {
    const char* api;  // "LayerNormGrad" or "LayerNormGradBeta"
    uint32_t typeSize;
    bool isReuseSource;
    bool framework;
    // the fields both checks read, from either tiling
    uint32_t b, s, h, oriH, rounds, oneCalSize, rowsPerRound, tailSize, tailRows, tmpBytes;
    MathOperand outs[2], ins[5], tmp;
    uint32_t nIns;
    uint64_t usedFloats;  // the end of the last buffer the tiling places in the temporary buffer
};

void LayerNormGradCheck(const LayerNormGradCall& c);

// The float views of LayerNormGrad's buffer (LayerNormGradParams).
struct LnGradBufs {
    LocalTensor<float> x1, x2, x3, pdVar, pdMean, tmp, tmp1, tmp2, bsh;
    uint32_t h;
    float back, backTwo;
};

// Each of bs values of src over its row of h in dst: Brcb of column blocks, then scalar Duplicates of every row
// (BroadcastLastDimImpl: BrcbLastDimImpl, then DuplicateLastDimImpl).
inline void LnGradDuplicateRows(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t bs, uint32_t h)
{
    const event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(ev);
    WaitFlag<HardEvent::V_S>(ev);
    for (uint32_t r = 0; r < bs; r += 8) {
        const uint32_t n = bs - r < 8 ? bs - r : 8;
        float v[8] = {0};
        for (uint32_t j = 0; j < n; ++j) v[j] = src[r + j].GetValue(0);
        for (uint32_t j = 0; j < n; ++j) Duplicate(dst[(r + j) * h], v[j], static_cast<int32_t>(h));
    }
}

inline void LnGradBroadcastRows(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t bs, uint32_t h)
{
    constexpr uint32_t kMaxRep = 8 * static_cast<uint32_t>(MAX_REPEAT_TIMES);  // BRCB_MAX_REPEAT_SIZE
    const uint32_t lineRound = h / 8, rowRound = bs / 8, rowTail = bs % 8;
    const uint32_t full = rowRound / static_cast<uint32_t>(MAX_REPEAT_TIMES), tail = rowRound % static_cast<uint32_t>(MAX_REPEAT_TIMES);
    BrcbRepeatParams p;
    p.dstBlkStride = static_cast<uint16_t>(lineRound);
    p.dstRepStride = static_cast<uint16_t>(h);
    for (uint32_t i = 0; i < lineRound; ++i) {
        for (uint32_t j = 0; j < full; ++j) {
            Brcb(dst[i * 8 + j * kMaxRep * h], src[j * kMaxRep], static_cast<uint8_t>(static_cast<uint32_t>(MAX_REPEAT_TIMES)), p);
        }
        if (tail > 0) Brcb(dst[i * 8 + full * kMaxRep * h], src[full * kMaxRep], static_cast<uint8_t>(tail), p);
    }
    if (rowTail != 0) LnGradDuplicateRows(dst[(bs - rowTail) * h], src[bs - rowTail], rowTail, h);
    LnGradDuplicateRows(dst, src, bs, h);
}

// The sum of each row of h of src into dst[row] (ReduceSumImpl: WholeReduceSum trees, partials in dst's rows).
inline void LnGradReduceRows(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t calSize,
                             uint32_t h)
{
    constexpr uint32_t kRep = 64;
    const uint32_t rows = calSize / h;
    for (uint32_t i = 0; i < rows; ++i) {
        uint32_t total = h;
        const uint32_t base = i * h;
        LocalTensor<float> from = src;
        while (total > 1) {
            const uint32_t reps = total / kRep, tail = total % kRep;
            const uint32_t blocks = reps / static_cast<uint32_t>(MAX_REPEAT_TIMES), blockTail = reps % static_cast<uint32_t>(MAX_REPEAT_TIMES);
            for (uint32_t j = 0; j < blocks; ++j) {
                WholeReduceSum(dst[base + j * static_cast<uint32_t>(MAX_REPEAT_TIMES)], from[base + j * static_cast<uint32_t>(MAX_REPEAT_TIMES) * kRep],
                               static_cast<int32_t>(kRep), static_cast<uint32_t>(MAX_REPEAT_TIMES), 1, 1, DEFAULT_REPEAT_STRIDE);
            }
            LocalTensor<float> to = total == kRep ? dst[i] : dst[base + blocks * static_cast<uint32_t>(MAX_REPEAT_TIMES)];
            if (blockTail > 0) {
                WholeReduceSum(to, from[base + blocks * static_cast<uint32_t>(MAX_REPEAT_TIMES) * kRep], static_cast<int32_t>(kRep),
                               static_cast<int32_t>(blockTail), DEFAULT_BLK_STRIDE, DEFAULT_BLK_STRIDE,
                               DEFAULT_REPEAT_STRIDE);
            }
            to = total < kRep ? dst[i] : dst[base + total / kRep];
            if (tail > 0) {
                WholeReduceSum(to, from[base + reps * kRep], static_cast<int32_t>(tail), DEFAULT_BLK_STRIDE,
                               DEFAULT_BLK_STRIDE, DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE);
            }
            total = (total + kRep - 1) / kRep;
            from = dst;
        }
    }
}

// dst = 1 / src over n (DoOneDiv: a block of ones, Div with src0 repeating it).
inline void LnGradOneDiv(const LocalTensor<float>& dst, const LocalTensor<float>& ones, const LocalTensor<float>& src,
                         uint32_t n)
{
    SetMaskCount();
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, 8);
    Duplicate<float, false>(ones, 1, MASK_PLACEHOLDER, 1, DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE);
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, n);
    Div<float, false>(dst, ones, src, MASK_PLACEHOLDER, 1, BinaryRepeatParams(1, 0, 1, DEFAULT_REPEAT_STRIDE, 0,
                                                                               DEFAULT_REPEAT_STRIDE));
    SetMaskNorm();
}

// The rest of a round once x1 = dy * gamma and x2 = x - mean are in place (ComputePdVar, ComputePdMean, ComputePdX):
// pdX and resForGamma written (float views), var the round's variances.
inline void LnGradRoundTail(const LocalTensor<float>& var, const LocalTensor<float>& pdX,
                            const LocalTensor<float>& resForGamma, float eps, const LnGradBufs& p, uint32_t calSize,
                            uint32_t noh)
{
    const uint32_t h = p.h;
    const int32_t cs = static_cast<int32_t>(calSize), nh = static_cast<int32_t>(noh);
    // pdVar = Σ -0.5 * x1 * x2 * (var + eps)^-1.5
    Adds(p.tmp, var, eps, nh);
    Mul(p.bsh, p.tmp, p.tmp, nh);
    Mul(p.tmp, p.bsh, p.tmp, nh);
    Sqrt(p.tmp, p.tmp, nh);
    LnGradOneDiv(p.tmp, p.bsh, p.tmp, noh);
    LnGradBroadcastRows(p.bsh, p.tmp, noh, h);
    Mul(p.bsh, p.x2, p.bsh, cs);
    Mul(p.bsh, p.x1, p.bsh, cs);
    Muls(p.bsh, p.bsh, -0.5f, cs);
    LnGradReduceRows(p.pdVar, p.bsh, calSize, h);
    // pdMean = Σ -x1 * rstd + pdVar * Σ(-2 * x2) / N; resForGamma = x2 * rstd, x3 = x1 * rstd
    Adds(p.tmp, var, eps, nh);
    Sqrt(p.tmp, p.tmp, nh);
    LnGradOneDiv(p.tmp, p.bsh, p.tmp, noh);
    LnGradBroadcastRows(p.bsh, p.tmp, noh, h);
    Mul(resForGamma, p.x2, p.bsh, cs);
    Mul(p.x3, p.x1, p.bsh, cs);
    Muls(p.bsh, p.x3, -1.0f, cs);
    LnGradReduceRows(p.pdMean, p.bsh, calSize, h);
    Muls(p.bsh, p.x2, -2.0f, cs);
    LnGradReduceRows(p.tmp, p.bsh, calSize, h);
    Muls(p.tmp, p.tmp, p.back, nh);
    Mul(p.tmp, p.pdVar, p.tmp, nh);
    Add(p.pdMean, p.pdMean, p.tmp, nh);
    // pdX = x2 * pdVar * 2 / N + pdMean / N + x3
    Muls(p.pdVar, p.pdVar, p.backTwo, nh);
    LnGradBroadcastRows(p.bsh, p.pdVar, noh, h);
    Mul(p.x1, p.bsh, p.x2, cs);
    Muls(p.pdMean, p.pdMean, p.back, nh);
    LnGradBroadcastRows(p.bsh, p.pdMean, noh, h);
    Add(p.x1, p.x1, p.bsh, cs);
    Add(pdX, p.x1, p.x3, cs);
}

template <typename T, bool isReuseSource>
inline void LayerNormGradRun(const LocalTensor<T>& pdX, const LocalTensor<T>& resForGamma, const LocalTensor<T>& dy,
                             const LocalTensor<T>& x, const LocalTensor<T>& var, const LocalTensor<T>& mean,
                             const LocalTensor<T>& gamma, const LocalTensor<uint8_t>* shared, T epsilon,
                             LayerNormGradTiling& t)
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "LayerNormGrad on A2 supports half and float");
    const bool framework = shared == nullptr;
    const LocalTensor<uint8_t> tmp = framework ? AdvFrameworkTmpTensor("LayerNormGrad") : *shared;
    LayerNormGradCall c{"LayerNormGrad", sizeof(T), isReuseSource, framework, t.bLength, t.sLength, t.hLength,
                        t.originalHLength, t.loopNum, t.oneCalSize, t.nohCalSize, t.tailSize, t.nohTailSize,
                        t.stackBufferSize, {AdvOperand(pdX), AdvOperand(resForGamma)},
                        {AdvOperand(dy), AdvOperand(x), AdvOperand(var), AdvOperand(mean), AdvOperand(gamma)},
                        AdvOperand(tmp), 5, 0};
    for (const auto& [pos, size] : {std::pair<uint32_t, uint32_t>{t.tmpTensorBSHPos, t.tmpTensorBSHSize},
                                    {t.pdVarTensorPos, t.pdVarTensorSize}, {t.pdMeanTensorPos, t.pdMeanTensorSize},
                                    {t.x1TensorPos, isReuseSource ? 0 : t.x1TensorSize},
                                    {t.x2TensorPos, isReuseSource ? 0 : t.x2TensorSize}, {t.x3TensorPos, t.x3TensorSize},
                                    {t.tmpTensorPos, sizeof(T) == 2 ? t.tmpTensorSize : 0},
                                    {t.tmpTensor1Pos, sizeof(T) == 2 ? t.tmpTensor1Size : 0},
                                    {t.tmpTensor2Pos, sizeof(T) == 2 ? t.tmpTensor2Size : 0}}) {
        if (size != 0 && static_cast<uint64_t>(pos) + size > c.usedFloats) c.usedFloats = static_cast<uint64_t>(pos) + size;
    }
    LayerNormGradCheck(c);
    const LocalTensor<float> st = tmp.ReinterpretCast<float>();
    LnGradBufs p;
    p.x1 = st[t.x1TensorPos];
    p.x2 = st[t.x2TensorPos];
    p.x3 = st[t.x3TensorPos];
    p.pdVar = st[t.pdVarTensorPos];
    p.pdMean = st[t.pdMeanTensorPos];
    p.tmp = st[t.tmpTensorPos];
    p.tmp1 = st[t.tmpTensor1Pos];
    p.tmp2 = st[t.tmpTensor2Pos];
    p.bsh = st[t.tmpTensorBSHPos];
    p.h = t.hLength;
    uint32_t back = t.lastDimValueBack, backTwo = t.lastDimValueBackMulTwo;
    std::memcpy(&p.back, &back, 4);
    std::memcpy(&p.backTwo, &backTwo, 4);
    uint32_t off = 0, offRows = 0;
    for (uint32_t r = 0; r <= t.loopNum; ++r) {
        const uint32_t cal = r < t.loopNum ? t.oneCalSize : t.tailSize;
        const uint32_t noh = r < t.loopNum ? t.nohCalSize : t.nohTailSize;
        if (cal == 0) break;
        if constexpr (std::is_same_v<T, half>) {
            LnGradBufs q = p;
            Cast(q.tmp1, dy[off], RoundMode::CAST_NONE, static_cast<int32_t>(cal));
            Cast(q.tmp2, gamma, RoundMode::CAST_NONE, static_cast<int32_t>(t.hLength));
            for (uint32_t i = 0; i < noh; ++i) Mul(q.x1[i * q.h], q.tmp1[i * q.h], q.tmp2, static_cast<int32_t>(q.h));
            Cast(q.tmp1, x[off], RoundMode::CAST_NONE, static_cast<int32_t>(cal));
            Cast(q.tmp2, mean[offRows], RoundMode::CAST_NONE, static_cast<int32_t>(noh));
            LnGradBroadcastRows(q.bsh, q.tmp2, noh, q.h);
            Sub(q.x2, q.tmp1, q.bsh, static_cast<int32_t>(cal));
            Cast(q.tmp1, var[offRows], RoundMode::CAST_NONE, static_cast<int32_t>(noh));
            LnGradRoundTail(q.tmp1, q.tmp, q.tmp2, static_cast<float>(epsilon), q, cal, noh);
            Cast(pdX[off], q.tmp, RoundMode::CAST_NONE, static_cast<int32_t>(cal));
            Cast(resForGamma[off], q.tmp2, RoundMode::CAST_NONE, static_cast<int32_t>(cal));
        } else {
            LnGradBufs q = p;
            q.tmp = pdX[off];  // GetTmpTensor: the output is the row scratch
            if constexpr (isReuseSource) {
                q.x1 = dy[off];
                q.x2 = x[off];
            }
            for (uint32_t i = 0; i < noh; ++i) Mul(q.x1[i * q.h], dy[off + i * q.h], gamma, static_cast<int32_t>(q.h));
            LnGradBroadcastRows(q.bsh, mean[offRows], noh, q.h);
            Sub(q.x2, x[off], q.bsh, static_cast<int32_t>(cal));
            LnGradRoundTail(var[offRows], pdX[off], resForGamma[off], epsilon, q, cal, noh);
        }
        off += cal;
        offRows += noh;
    }
}

// LayerNormGradBeta: a round's dy * resForGamma and dy summed over its rows into the float sums (ReduceSumFirstN;
// the first round starts them from its first row).
inline void LnGradBetaRound(const LocalTensor<float>& res, const LocalTensor<float>& dy, const LocalTensor<float>& prod,
                            const LocalTensor<float>& pdGamma, const LocalTensor<float>& pdBeta, uint32_t bsh,
                            uint32_t rows, uint32_t h, uint32_t oriH, bool first)
{
    SetVectorMask<float, MaskMode::COUNTER>(0, bsh);
    Mul<float, false>(prod, dy, res, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
    PipeBarrier<PIPE_V>();
    for (const auto& [dst, src] : {std::pair<const LocalTensor<float>*, const LocalTensor<float>*>{&pdGamma, &prod},
                                   {&pdBeta, &dy}}) {
        SetVectorMask<float, MaskMode::COUNTER>(0, oriH);
        uint32_t r = 0;
        if (first) {
            Adds<float, false>(*dst, *src, 0.0f, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
            r = 1;
            PipeBarrier<PIPE_V>();
        }
        for (; r < rows; ++r) {
            Add<float, false>(*dst, (*src)[r * h], *dst, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
            PipeBarrier<PIPE_V>();
        }
    }
}

template <typename T, bool isReuseSource>
inline void LayerNormGradBetaRun(const LocalTensor<T>& pdGamma, const LocalTensor<T>& pdBeta,
                                 const LocalTensor<T>& res, const LocalTensor<T>& dy,
                                 const LocalTensor<uint8_t>* shared, const LayerNormGradBetaTiling& t)
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "LayerNormGradBeta on A2 supports half and float");
    const bool framework = shared == nullptr;
    const LocalTensor<uint8_t> tmp = framework ? AdvFrameworkTmpTensor("LayerNormGradBeta") : *shared;
    LayerNormGradCall c{"LayerNormGradBeta", sizeof(T), isReuseSource, framework, t.bLength, t.sLength, t.hLength,
                        t.originalHLength, t.loopRound, t.oneCalSize, t.bsCurLength, t.inputTailSize, t.bsTailSize,
                        t.stackBufferSize * 4, {AdvOperand(pdGamma), AdvOperand(pdBeta)},
                        {AdvOperand(res), AdvOperand(dy)}, AdvOperand(tmp), 2, 0};
    if constexpr (sizeof(T) == 2) {
        c.usedFloats = static_cast<uint64_t>(t.resForGammaTmpTensorPos) + t.oneCalSize;
    } else if constexpr (!isReuseSource) {
        c.usedFloats = static_cast<uint64_t>(t.resForGammaTmpTensorPos) + t.oneCalSize;
    }
    if (t.bshCurLength != t.oneCalSize) c.rowsPerRound = 0;  // a round's lengths, checked with the rest
    LayerNormGradCheck(c);
    const LocalTensor<float> st = tmp.ReinterpretCast<float>();
    const uint32_t h = t.hLength, oriH = t.originalHLength;
    SetMaskCount();
    for (uint32_t r = 0; r < t.loopRound || (r == t.loopRound && t.inputTailSize > 0); ++r) {
        const bool tail = r == t.loopRound;
        const uint32_t off = tail ? t.inputTailPos : r * t.oneCalSize;
        const uint32_t bsh = tail ? t.inputTailSize : t.bshCurLength, rows = tail ? t.bsTailSize : t.bsCurLength;
        if constexpr (std::is_same_v<T, half>) {
            const LocalTensor<float> g = st[t.gammaTempTensorPos], b = st[t.betaTempTensorPos];
            const LocalTensor<float> dyF = st[t.inputDyTmpTensorPos], resF = st[t.resForGammaTmpTensorPos];
            UnaryRepeatParams un;
            un.srcRepStride = DEFAULT_REPEAT_STRIDE / 2;
            SetVectorMask<half, MaskMode::COUNTER>(0, bsh);
            Cast<float, half, false>(dyF, dy[off], RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, un);
            PipeBarrier<PIPE_V>();
            Cast<float, half, false>(resF, res[off], RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, un);
            PipeBarrier<PIPE_V>();
            LnGradBetaRound(resF, dyF, resF, g, b, bsh, rows, h, oriH, r == 0);
            SetVectorMask<float, MaskMode::COUNTER>(0, oriH);
            un.srcRepStride = DEFAULT_REPEAT_STRIDE;
            un.dstRepStride = DEFAULT_REPEAT_STRIDE / 2;
            Cast<half, float, false>(pdGamma, g, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, un);
            PipeBarrier<PIPE_V>();
            Cast<half, float, false>(pdBeta, b, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, un);
            PipeBarrier<PIPE_V>();
        } else {
            // isReuseSource: A2's scratch is resForGamma itself from its start (each round's products there)
            const LocalTensor<float> prod = isReuseSource ? res : st[t.resForGammaTmpTensorPos];
            LnGradBetaRound(res[off], dy[off], prod, pdGamma, pdBeta, bsh, rows, h, oriH, r == 0);
        }
    }
    SetMaskNorm();
    ResetMask();
}

// shapeInfo.dataFormat is ND (A2's check; A2 computes nothing for another format).
inline void LayerNormGradFormat(const LayerNormGradShapeInfo& shapeInfo)
{
    if (shapeInfo.dataFormat != DataFormat::ND) {
        ascend_twin::Fail("LayerNormGrad", "shapeInfo.dataFormat is DataFormat::ND (A2's check: only ND is computed)",
                          "another DataFormat was given");
    }
}

}  // namespace twin_detail

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                                     const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                                     const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                                     const LocalTensor<T>& inputGamma, LocalTensor<uint8_t>& sharedTmpBuffer,
                                     T epsilon, LayerNormGradTiling& tiling,
                                     const LayerNormGradShapeInfo& shapeInfo = {})
{
    twin_detail::LayerNormGradFormat(shapeInfo);
    twin_detail::LayerNormGradRun<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean,
                                                    inputGamma, &sharedTmpBuffer, epsilon, tiling);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                                     const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                                     const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                                     const LocalTensor<T>& inputGamma, T epsilon, LayerNormGradTiling& tiling,
                                     const LayerNormGradShapeInfo& shapeInfo = {})
{
    twin_detail::LayerNormGradFormat(shapeInfo);
    twin_detail::LayerNormGradRun<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean,
                                                    inputGamma, nullptr, epsilon, tiling);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                                         const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                                         const LocalTensor<uint8_t>& sharedTmpBuffer,
                                         const LayerNormGradBetaTiling& tiling)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::LayerNormGradBetaRun<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy,
                                                        &sharedTmpBuffer, tiling);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                                         const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                                         LayerNormGradBetaTiling& tiling)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::LayerNormGradBetaRun<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy, nullptr,
                                                        tiling);
}

}  // namespace AscendC
