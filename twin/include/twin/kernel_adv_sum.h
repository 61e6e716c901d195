// Sum, the reduce API of the advanced library (高阶API/归约操作/Sum): dst[row] = the sum of the first n elements
// of each of `outter` rows of `inner` elements. Kernels include it as "lib/reduce/sum.h" (asc-devkit
// include/adv_api/reduce/sum.h, SumParams from sum_utils.h); A2's kernel_operator.h includes it.
//
// The twin runs A2's implementation (impl/adv_api/detail/reduce/sum/sum_common_impl.h) with its own basic
// instructions, so the rounding, the counters and the hazard records are those of the instructions A2 issues:
// in counter mode, one RepeatReduceSum (WholeReduceSum) per row over n elements into sharedTmpBuffer (one sum per
// 256-byte repeat, each a binary tree), then again over those partial sums until one is left, written to
// dst[row]; a row of at most one repeat goes straight to dst[row]. Like A2 it leaves normal mode behind, with
// the mask reset after the one-repeat path, and after the longer one holding as lane bits the count the last
// WholeReduceSum summed (A2 switches back to normal mode without ResetMask).
//
// Rules (each error names it): T half or float (compile time); dst, src, sharedTmpBuffer at VECIN/VECCALC/VECOUT
// and 32-byte aligned; sumParams.inner > 0 and a whole number of 32-byte blocks, 1 <= n <= inner; src holds
// outter * inner elements and dst outter rounded up to a block (docs); sharedTmpBuffer holds GetSumMaxMinTmpSize's
// size, ceil(ceil(n / per-repeat) / per-block) blocks (the framework form: the UB after the TPipe's buffers);
// src and dst do not overlap; sharedTmpBuffer overlaps neither. reduceDim, isReuseSource and isBasicBlock are
// reserved (docs) and ignored, as on A2.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/kernel_adv_math.h"
#include "twin/kernel_reduce_repeat.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_vec_repeat.h"

namespace AscendC {

struct SumParams {
    uint32_t outter = 1;
    uint32_t inner;  // n rounded up to 32 bytes: (n * sizeof(T) + 31) / 32 * 32 / sizeof(T)
    uint32_t n;      // the actual length of a row
};

namespace twin_detail {

// GetSumMaxMinTmpSize's size (both max and min): the per-repeat partial sums of one row, rounded up to a block.
inline uint32_t SumTmpBytes(uint32_t n, uint32_t typeSize)
{
    const uint32_t perBlk = 32 / typeSize;
    const uint32_t perRep = 256 / typeSize;
    const uint32_t repeats = (n + perRep - 1) / perRep;
    return (repeats + perBlk - 1) / perBlk * perBlk * typeSize;
}

void CheckSum(uint32_t typeSize, const MathOperand& dst, const MathOperand& src, const MathOperand& tmp, bool framework,
              uint32_t outter, uint32_t inner, uint32_t n);

template <typename T>
inline void SumRun(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& tmpBuf,
                   bool framework, const SumParams& sumParams)
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Sum on A2 supports half and float");
    CheckSum(sizeof(T),
             MathOperand{twin_detail::TwinData(dstTensor), static_cast<uint64_t>(dstTensor.GetSize()) * sizeof(T),
                         twin_detail::TwinPosition(dstTensor)},
             MathOperand{twin_detail::TwinData(srcTensor), static_cast<uint64_t>(srcTensor.GetSize()) * sizeof(T),
                         twin_detail::TwinPosition(srcTensor)},
             MathOperand{twin_detail::TwinData(tmpBuf), tmpBuf.GetSize(), twin_detail::TwinPosition(tmpBuf)}, framework, sumParams.outter,
             sumParams.inner, sumParams.n);
    constexpr uint32_t perRep = 256 / sizeof(T);
    const uint32_t firstRepeats = (sumParams.n + perRep - 1) / perRep;
    SetMaskCount();
    if (firstRepeats == 1) {
        SetVectorMask<T, MaskMode::COUNTER>(0, sumParams.n);
        for (uint32_t row = 0; row < sumParams.outter; ++row) {
            WholeReduceSum<T, false>(dstTensor[row], srcTensor[row * sumParams.inner], 0, 1, 1, 1, 8);
        }
        SetMaskNorm();
        ResetMask();
        return;
    }
    uint32_t totalCnt = 1;
    for (uint32_t size = firstRepeats; size > 1; size = (size + perRep - 1) / perRep) ++totalCnt;
    const LocalTensor<T> tmp = tmpBuf.ReinterpretCast<T>();
    for (uint32_t row = 0; row < sumParams.outter; ++row) {
        uint64_t lanes = sumParams.n;
        SetVectorMask<T, MaskMode::COUNTER>(0, lanes);
        WholeReduceSum<T, false>(tmp, srcTensor[row * sumParams.inner], 0, 1, 1, 1, 8);
        lanes = (lanes + perRep - 1) / perRep;
        for (uint32_t cnt = totalCnt - 1; cnt != 0; --cnt) {
            SetVectorMask<T, MaskMode::COUNTER>(0, lanes);
            if (cnt == 1) WholeReduceSum<T, false>(dstTensor[row], tmp, 0, 1, 1, 1, 8);
            else WholeReduceSum<T, false>(tmp, tmp, 0, 1, 1, 1, 8);
            lanes = (lanes + perRep - 1) / perRep;
        }
    }
    SetMaskNorm();
}

}  // namespace twin_detail

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const SumParams& sumParams)
{
    twin_detail::SumRun<T>(dstTensor, srcTensor, sharedTmpBuffer, false, sumParams);
}

// The framework's temporary buffer: the UB after the TPipe's buffers (A2's PopStackBuffer).
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SumParams& sumParams)
{
    TPipe* pipe = GetTPipePtr();
    uint64_t bytes = 0;
    uint8_t* tmp = twin_detail::AdvFrameworkTmp("Sum", pipe, pipe == nullptr ? 0 : twin_detail::TwinUbEnd(*pipe), bytes);
    LocalTensor<uint8_t> stack;
    twin_detail::TwinBind(stack, tmp, static_cast<uint32_t>(bytes), TPosition::VECCALC, twin_detail::BufferRef{});
    twin_detail::SumRun<T>(dstTensor, srcTensor, stack, true, sumParams);
}

}  // namespace AscendC
