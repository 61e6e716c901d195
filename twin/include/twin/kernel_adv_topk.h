// TopK of the advanced API (高阶API/排序操作/TopK), A2 forms (include/adv_api/sort/topk.h, dav-2201 branch: no
// TopKConfig template argument there):
//   template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
//             TopKMode topkMode = TopKMode::TOPK_NORMAL>
//   TopK(dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, tmpLocal, k, tilling, topKInfo,
//        isLargest = true)                       and the same without tmpLocal (the framework's buffer, PopStackBuffer)
// Kernels include it as "lib/sort/topk.h"; A2's kernel_operator.h includes it. Checked against the header, A2's
// implementation (impl/adv_api/detail/sort/topk/topk_common_impl.h, topk_v220_impl.h), its CPU-debug checks
// (api_check/kernel_check/sort/topk/topk_check_common.h) and the docs (TopK.md).
//
// Each of the outter rows of inner elements (srcLocal[r * inner ..]) is ordered by value, descending (isLargest) or
// ascending (A2 sorts the negated values descending with Sort32 + MrgSort, then negates back), equal values in input
// order (docs: srcLocal[i] == srcLocal[j], i > j: j first), NaN first either way (docs); all inner elements take
// part (the padding beyond n is the caller's, docs: fill it with the type's minimum/maximum). The first k values and
// their indices are written: the index is srcIndexLocal's (normal mode: one row of inner shared by all rows; small
// mode: outter x inner) with isInitIndex, else the position 0 .. inner - 1 (A2's Arange). Normal mode: row r at
// dstValueLocal[r * k_pad] (k_pad: k rounded up to 32 bytes of T) and dstIndexLocal[r * kpad_index] (k rounded up
// to 8); with isHasfinish and finishLocal[r] true the row's k indices are n (docs). Small mode (inner 32): packed,
// row r at r * k. For !isLargest A2's final Muls by -1 covers tiling.maskOffset elements of dstValueLocal (normal
// mode: outter * k_pad, so the rows' unwritten tails change sign too); the twin does the same. A2's temporary
// buffer (tiling.tmpLocalSize elements of T) is left as unspecified bytes. One V instruction (counted as Sort over
// outter * inner elements).
//
// T is half or float (static_assert, the docs' table for A2). Rules (the error names each; A2's CPU-debug checks
// and the docs): operands at VECIN/VECCALC/VECOUT, 32-byte aligned; tmpLocal at VECCALC (docs: 逻辑位置仅支持
// VECCALC); 1 <= k <= n <= inner; inner a multiple of 32, at most 4096 (normal) or exactly 32 (small); outter >= 1;
// small mode without isHasfinish; srcLocal holds outter * inner, the destinations the docs' sizes, srcIndexLocal
// (isInitIndex) inner (normal) or outter * inner (small), finishLocal (isHasfinish) outter; the tiling's fields A2's
// path reads are TopKTilingFunc's for (inner, outter, k, sizeof(T), isInitIndex, topkMode, isLargest) (A2 computes
// with them unchecked: another tiling sorts the wrong lengths; the twin is stricter there); the temporary buffer
// holds tiling.tmpLocalSize elements of T (A2's check of the framework's buffer; GetTopKMaxMinTmpSize's minimum)
// and overlaps no operand; sources and destinations do not overlap (docs: 不支持源操作数与目的操作数地址重叠).
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "twin/kernel_adv_common.h"
#include "twin/topk_tiling_a2.h"

namespace AscendC {

namespace twin_detail {

struct TopKCall {
    uint32_t typeSize;
    bool isInitIndex, isHasfinish, small, framework, isLargest;
    int32_t k;
};

void TopKRun(const TopKCall& c, const MathOperand& dstValue, const MathOperand& dstIndex, const MathOperand& src,
             const MathOperand& srcIndex, const MathOperand& finish, const MathOperand& tmp,
             const tiling::TopkTiling& tiling, const TopKInfo& info);

template <typename T, bool isInitIndex, bool isHasfinish, bool isReuseSrc, TopKMode topkMode>
inline void TopKForm(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
                     const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
                     const LocalTensor<bool>& finishLocal, const LocalTensor<uint8_t>& tmpLocal, bool framework,
                     const int32_t k, const TopkTiling& tilling, const TopKInfo& topKInfo, const bool isLargest)
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "TopK on A2 supports half and float");
    (void)isReuseSrc;  // reserved on A2 (docs: 该参数预留，传入默认值false即可)
    const TopKCall c{sizeof(T), isInitIndex, isHasfinish, topkMode == TopKMode::TOPK_NSMALL, framework, isLargest, k};
    TopKRun(c, AdvOperand(dstValueLocal), AdvOperand(dstIndexLocal), AdvOperand(srcLocal), AdvOperand(srcIndexLocal),
            AdvOperand(finishLocal), AdvOperand(tmpLocal), tilling, topKInfo);
}

}  // namespace twin_detail

template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL>
__aicore__ inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
                            const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
                            const LocalTensor<bool>& finishLocal, const LocalTensor<uint8_t>& tmpLocal,
                            const int32_t k, const TopkTiling& tilling, const TopKInfo& topKInfo,
                            const bool isLargest = true)
{
    twin_detail::TopKForm<T, isInitIndex, isHasfinish, isReuseSrc, topkMode>(
        dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, tmpLocal, false, k, tilling, topKInfo,
        isLargest);
}

template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL>
__aicore__ inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
                            const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
                            const LocalTensor<bool>& finishLocal, const int32_t k, const TopkTiling& tilling,
                            const TopKInfo& topKInfo, const bool isLargest = true)
{
    twin_detail::TopKForm<T, isInitIndex, isHasfinish, isReuseSrc, topkMode>(
        dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, twin_detail::AdvFrameworkTmpTensor("TopK"),
        true, k, tilling, topKInfo, isLargest);
}

}  // namespace AscendC
