// RmsNorm (高阶API/归一化操作), A2 forms. Kernels include it as "lib/normalization/rmsnorm.h" (asc-devkit
// include/adv_api/normalization/rmsnorm.h; RmsNormTiling from kernel_tiling/kernel_tiling.h); A2's kernel_operator.h
// includes it. Checked against the header, A2's implementation (impl/adv_api/detail/normalization/rmsnorm/
// rmsnorm_common_impl.h, rmsnorm_v220_impl.h), its API check (api_check/kernel_check/normalization/rmsnorm/
// rmsnorm_check_common.h), the tiling (impl/adv_api/tiling/normalization/rmsnorm_tiling_impl.cpp) and the docs.
//
// RmsNorm<T, isBasicBlock = false>(dst, src, gamma[, sharedTmpBuffer], epsilon, tiling): src and dst [B, S, H] with H
// = tiling.hLength (32-byte aligned), gamma [H]; dst = src / sqrt(mean(src²) + epsilon) * gamma, the mean over the
// first originalHLength elements of a row (times tiling.reciprocalOfHLength). The twin runs A2's instruction
// sequence with its basic API, so the instructions' rules, the hazard detector and the counters apply and the
// numerics are A2's: in float (half is cast to float and back), in chunks of tiling.mainBsLength rows (then the
// tail), Σx² by RepeatReduceSum trees (isBasicBlock: Adds of the 64-column blocks first), 1 / sqrt(·) as
// Exp(-0.5 · Ln(·)), the per-row factor by scalar Muls (isBasicBlock with more than 8 rows: Brcb + Adds), gamma by
// Mul over rows. The temporary buffer holds, as floats, the row sums (mainBsLengthAlign), x² and the products
// (mainBshLength) and for half the cast input (mainBshLength). The mask is left normal and full.
//
// Rules named "RmsNorm" (A2's check, the docs, the tiling's invariants; the error names each): T half/float (compile
// time); operands at VECIN/VECCALC/VECOUT, 32-byte aligned; hLength * sizeof(T) a multiple of 32 and 0 <
// originalHLength <= hLength (docs); the tiling's chunks consistent with its shape (what GetRmsNormTilingInfo
// writes: mainBsLength > 0, mainBshLength = mainBsLength * hLength, mainBsLengthAlign >= mainBsLength and a
// multiple of 8, loopRound chunks and the tail cover B * S * H, inputTailPos and tailBsLength agree); without
// isBasicBlock mainBsLength <= 255 (a repeat count on A2), with it hLength a multiple of 64 below 2048 and B * S a
// multiple of 8 (docs); src and dst hold B * S * H elements, gamma H; sharedTmpBuffer the floats above; dst and gamma do not overlap (docs),
// src and dst are the same or disjoint, the temporary buffer overlaps no operand; a TPipe where A2 fetches an event id
// from it (the row factors by scalar Muls).
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "twin/kernel_adv_common.h"
#include "twin/kernel_adv_math.h"
#include "twin/kernel_brcb.h"
#include "twin/kernel_cast.h"
#include "twin/kernel_reduce_repeat.h"
#include "twin/kernel_sync.h"
#include "twin/kernel_sys_var.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_tpipe.h"
#include "twin/kernel_vec.h"
#include "twin/kernel_vec_more.h"
#include "twin/kernel_vec_repeat.h"

namespace AscendC {

namespace twin_detail {

struct RmsNormCall {
    uint32_t typeSize;
    bool isBasicBlock;
    bool framework;
    RmsNormTiling tiling;
    MathOperand dst, src, gamma, tmp;
};

void RmsNormCheck(const RmsNormCall& c);

// The float views of the temporary buffer.
struct RmsNormBufs {
    LocalTensor<float> rowSums;  // mainBsLengthAlign
    LocalTensor<float> work;     // mainBshLength: x², then x / rms
    LocalTensor<float> srcF;     // mainBshLength: half's input (and gamma) as float; float: src itself
};

constexpr uint32_t kRmsBlkH = 64;  // a basic block's columns
constexpr uint32_t kRmsBlkBs = 8;  // a basic block's rows

// Σx² of each row into rowSums (work is overwritten).
template <bool isBasicBlock>
inline void RmsNormRowSums(const RmsNormBufs& b, uint32_t rows, uint32_t h, uint32_t origH)
{
    if constexpr (isBasicBlock) {
        SetVectorMask<float>(0, rows * kRmsBlkH);
        const uint8_t rowStride = static_cast<uint8_t>(h / 8);
        const BinaryRepeatParams p(1, 1, 1, rowStride, rowStride, rowStride);
        for (uint32_t blk = 1; blk < h / kRmsBlkH; ++blk) {
            Add<float, false>(b.work, b.work, b.work[blk * kRmsBlkH], MASK_PLACEHOLDER, 1, p);
            PipeBarrier<PIPE_V>();
        }
        RepeatReduceSum<float, false>(b.rowSums, b.work, 1, MASK_PLACEHOLDER, 1, 1, 1, rowStride);
        PipeBarrier<PIPE_V>();
    } else {
        for (uint32_t r = 0; r < rows; ++r) {
            LocalTensor<float> from = b.work[r * h];
            LocalTensor<float> to = from;
            for (uint32_t left = origH; left > 1; left = (left + 63) / 64) {  // partial sums in place, then the row's
                if (left <= 64) to = b.rowSums[r];
                SetVectorMask<float>(0, left);
                RepeatReduceSum<float, false>(to, from, 1, MASK_PLACEHOLDER, 1, 1, 1, 8);
                PipeBarrier<PIPE_V>();
            }
        }
    }
}

// work = srcF * (each row's factor in rowSums).
template <bool isBasicBlock>
inline void RmsNormScaleRows(const RmsNormBufs& b, uint32_t rows, uint32_t h, uint32_t count)
{
    if (isBasicBlock && rows > kRmsBlkBs && rows > h / kRmsBlkH) {
        // Broadcast each factor over its row's first block (Brcb), then over the row (Adds of 0, block stride 0).
        const uint16_t rowBlocks = static_cast<uint16_t>(h / 8);
        SetMaskNorm();
        ResetMask();
        Brcb(b.work, b.rowSums, static_cast<uint8_t>(rows / kRmsBlkBs),
             BrcbRepeatParams(rowBlocks, static_cast<uint16_t>(rowBlocks * kRmsBlkBs)));
        PipeBarrier<PIPE_V>();
        SetMaskCount();
        SetVectorMask<float>(0, rows * kRmsBlkH);
        const UnaryRepeatParams spread(1, 0, static_cast<uint8_t>(rowBlocks), static_cast<uint8_t>(rowBlocks));
        for (uint32_t blk = 0; blk < h / kRmsBlkH; ++blk) {
            Adds<float, false>(b.work[blk * kRmsBlkH], b.work, 0.0f, MASK_PLACEHOLDER, 1, spread);
        }
        PipeBarrier<PIPE_V>();
        SetVectorMask<float>(0, count);
        Mul<float, false>(b.work, b.work, b.srcF, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
        PipeBarrier<PIPE_V>();
        return;
    }
    SetVectorMask<float>(0, h);
    TPipe* pipe = GetTPipePtr();
    if (pipe == nullptr) {
        ascend_twin::Fail("RmsNorm", "RmsNorm takes its V->S event from the TPipe (FetchEventID), as A2 does",
                          "no TPipe was constructed on this core");
    }
    const int8_t ev = pipe->FetchEventID(HardEvent::V_S);
    SetFlag<HardEvent::V_S>(ev);
    WaitFlag<HardEvent::V_S>(ev);
    const UnaryRepeatParams unary;
    for (uint32_t r = 0; r < rows; ++r) {
        Muls<float, false>(b.work[r * h], b.srcF[r * h], b.rowSums.GetValue(r), MASK_PLACEHOLDER, 1, unary);
    }
    PipeBarrier<PIPE_V>();
    SetVectorMask<float>(0, count);
}

// dst[r][j] = src0[r][j] * g[j] over `rows` rows of h, with the row-wise forms A2 chooses.
inline void RmsNormGammaRows(const LocalTensor<float>& dst, const LocalTensor<float>& src0, const LocalTensor<float>& g,
                             uint32_t rows, uint32_t h)
{
    const uint32_t blocks = h / kRmsBlkH;
    if (blocks >= rows) {  // one Mul a row
        SetVectorMask<float>(0, h);
        for (uint32_t r = 0; r < rows; ++r) {
            Mul<float, false>(dst[r * h], src0[r * h], g, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
        }
        return;
    }
    // One Mul a 64-column block over all rows (rows as repeats), then the columns past the last whole block.
    const uint8_t rowStride = static_cast<uint8_t>(h / 8);
    const BinaryRepeatParams p(1, 1, 1, rowStride, rowStride, 0);
    SetVectorMask<float>(0, rows * kRmsBlkH);
    for (uint32_t blk = 0; blk < blocks; ++blk) {
        Mul<float, false>(dst[blk * kRmsBlkH], src0[blk * kRmsBlkH], g[blk * kRmsBlkH], MASK_PLACEHOLDER, 1, p);
    }
    if (h % kRmsBlkH != 0) {
        const uint32_t at = blocks * kRmsBlkH;
        SetMaskNorm();
        SetVectorMask<float>(0, (1ull << (h - at)) - 1);
        Mul<float, false>(dst[at], src0[at], g[at], MASK_PLACEHOLDER, static_cast<uint8_t>(rows), p);
        SetMaskCount();
    }
}

template <bool isBasicBlock>
inline void RmsNormGamma(const LocalTensor<float>& dst, const LocalTensor<float>& src0, const LocalTensor<float>& g,
                         uint32_t rows, uint32_t h)
{
    if (!isBasicBlock && h == kRmsBlkH) {
        BinaryRepeatParams p;
        p.src1RepStride = 0;
        SetVectorMask<float>(0, rows * h);
        Mul<float, false>(dst, src0, g, MASK_PLACEHOLDER, 1, p);
    } else if (!isBasicBlock && h < kRmsBlkH) {
        SetMaskNorm();
        SetVectorMask<float>(0, (1ull << h) - 1);
        const uint8_t rowStride = static_cast<uint8_t>(h / 8);
        Mul<float, false>(dst, src0, g, MASK_PLACEHOLDER, static_cast<uint8_t>(rows),
                          BinaryRepeatParams(1, 1, 1, rowStride, rowStride, 0));
        SetMaskCount();
    } else {
        RmsNormGammaRows(dst, src0, g, rows, h);
    }
    PipeBarrier<PIPE_V>();
}

// One chunk of `rows` rows (count = rows * h elements); the mask register is in counter mode.
template <typename T, bool isBasicBlock>
inline void RmsNormChunk(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& gamma, T epsilon,
                         const RmsNormTiling& t, RmsNormBufs& b, uint32_t rows, uint32_t count)
{
    UnaryRepeatParams unary;
    SetVectorMask<T>(0, count);
    if constexpr (std::is_same_v<T, half>) {
        unary.srcRepStride = DEFAULT_REPEAT_STRIDE / 2;
        Cast<float, half, false>(b.srcF, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, unary);
        PipeBarrier<PIPE_V>();
        unary.srcRepStride = DEFAULT_REPEAT_STRIDE;
    } else {
        b.srcF = src;
    }
    Mul<float, false>(b.work, b.srcF, b.srcF, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
    PipeBarrier<PIPE_V>();
    RmsNormRowSums<isBasicBlock>(b, rows, t.hLength, t.originalHLength);
    SetVectorMask<T>(0, rows);
    Muls<float, false>(b.rowSums, b.rowSums, t.reciprocalOfHLength, MASK_PLACEHOLDER, 1, unary);
    PipeBarrier<PIPE_V>();
    Adds<float, false>(b.rowSums, b.rowSums, static_cast<float>(epsilon), MASK_PLACEHOLDER, 1, unary);
    PipeBarrier<PIPE_V>();
    Ln<float, false>(b.rowSums, b.rowSums, MASK_PLACEHOLDER, 1, unary);  // 1 / sqrt(x) = e^(-0.5 ln x)
    PipeBarrier<PIPE_V>();
    Muls<float, false>(b.rowSums, b.rowSums, -0.5f, MASK_PLACEHOLDER, 1, unary);
    PipeBarrier<PIPE_V>();
    Exp<float, false>(b.rowSums, b.rowSums, MASK_PLACEHOLDER, 1, unary);
    PipeBarrier<PIPE_V>();
    RmsNormScaleRows<isBasicBlock>(b, rows, t.hLength, count);
    PipeBarrier<PIPE_V>();
    if constexpr (std::is_same_v<T, half>) {
        unary.srcRepStride = DEFAULT_REPEAT_STRIDE / 2;
        SetVectorMask<T>(0, t.hLength);
        Cast<float, half, false>(b.srcF, gamma, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, unary);
        PipeBarrier<PIPE_V>();
        RmsNormGamma<isBasicBlock>(b.work, b.work, b.srcF, rows, t.hLength);
        unary.srcRepStride = DEFAULT_REPEAT_STRIDE;
        unary.dstRepStride = DEFAULT_REPEAT_STRIDE / 2;
        SetVectorMask<T>(0, count);
        Cast<half, float, false>(dst, b.work, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, unary);
    } else {
        RmsNormGamma<isBasicBlock>(dst, b.work, gamma, rows, t.hLength);
    }
    PipeBarrier<PIPE_V>();
}

template <typename T, bool isBasicBlock>
inline void RmsNormRun(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& gamma,
                       const LocalTensor<uint8_t>* shared, T epsilon, const RmsNormTiling& tiling)
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "RmsNorm on A2 supports half and float");
    const bool framework = shared == nullptr;
    const LocalTensor<uint8_t> tmp = framework ? AdvFrameworkTmpTensor("RmsNorm") : *shared;
    RmsNormCheck(RmsNormCall{sizeof(T), isBasicBlock, framework, tiling, AdvOperand(dst), AdvOperand(src),
                             AdvOperand(gamma), AdvOperand(tmp)});
    LocalTensor<float> f = tmp.ReinterpretCast<float>();
    RmsNormBufs b;
    b.rowSums = f;
    b.work = f[tiling.mainBsLengthAlign];
    if constexpr (std::is_same_v<T, half>) b.srcF = f[tiling.mainBsLengthAlign + tiling.mainBshLength];
    SetMaskCount();
    for (uint32_t i = 0; i < tiling.loopRound; ++i) {
        const uint32_t at = i * tiling.mainBshLength;
        RmsNormChunk<T, isBasicBlock>(dst[at], src[at], gamma, epsilon, tiling, b, tiling.mainBsLength,
                                      tiling.mainBshLength);
    }
    if (tiling.tailBsLength != 0) {
        RmsNormChunk<T, isBasicBlock>(dst[tiling.inputTailPos], src[tiling.inputTailPos], gamma, epsilon, tiling, b,
                                      tiling.tailBsLength, tiling.tailBshLength);
    }
    SetMaskNorm();
    ResetMask();
}

}  // namespace twin_detail

template <typename T, bool isBasicBlock = false>
__aicore__ inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                               const T epsilon, const RmsNormTiling& tiling)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::RmsNormRun<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal, &sharedTmpBuffer, epsilon, tiling);
}

template <typename T, bool isBasicBlock = false>
__aicore__ inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<T>& gammaLocal, const T epsilon, const RmsNormTiling& tiling)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::RmsNormRun<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal, nullptr, epsilon, tiling);
}

}  // namespace AscendC
