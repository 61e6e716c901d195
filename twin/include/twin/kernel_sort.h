// The region-proposal sort family A2 runs (the docs' 高阶API/排序操作/Sort without SortConfig; asc-devkit
// include/basic_api/kernel_operator_proposal_intf.h, impl/basic_api/kernel_operator_proposal_intf_impl.h and
// dav_c220/kernel_operator_proposal_impl.h): `Concat(concat, src, tmp, repeatTime)`, `Sort<T, isFullSort>(dst,
// concat, index, tmp, repeatTime)`, `Extract(dstValue, dstIndex, sorted, repeatTime)`, `GetSortLen<T>(elemCount)`,
// `GetSortOffset<T>(elemOffset)`. On A2 kernel_operator.h includes them.
//
// A2's layout (方式一): a sorted element takes 8 bytes, the value (T) first and its uint32_t index at byte 4 (a half's
// bytes 2..3 are written as zero here); GetSortLen<T>(n) = n * 8 / sizeof(T) elements of T. Concat on A2 makes concat
// the source itself (no instruction). Sort: each of the repeatTime groups of 32 (value, index) pairs sorted by value,
// descending, equal values keeping their input order (docs: score[i] == score[j], i > j: score[j] first); with
// isFullSort all repeatTime * 32 sorted as one (A2 merges the groups with MrgSort in the temporary tensor). NaN is not
// ordered by the docs: the twin puts it before every number (a total order; the NPU's placement may differ). Extract
// splits the pairs into values and indices (A2's two GatherMasks). Each is one V instruction on the twin (Sort also
// writing the temporary tensor with isFullSort, left as NaN bytes), counted as `Sort`/`GatherMask`.
//
// T is half or float (static_assert, A2's checks). Rules (the error names each): repeatTime in [0, 255]; operands at
// VECIN/VECCALC/VECOUT, 32-byte aligned; Sort: concat and index hold repeatTime * 32 elements, dst repeatTime * 32 * 8
// bytes and with isFullSort tmp as many, dst overlapping neither source and tmp no operand; Extract: sorted holds
// repeatTime * 32 * 8 bytes, dstValue and dstIndex repeatTime * 32 elements, overlapping neither each other nor sorted.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/kernel_adv_common.h"
#include "twin/kernel_vec_more.h"

namespace AscendC {

namespace twin_detail {

void SortCheckRepeat(const char* call, int32_t repeatTime);
void Sort32Run(uint32_t typeSize, bool isFullSort, const MathOperand& dst, const MathOperand& concat,
               const MathOperand& index, const MathOperand& tmp, int32_t repeatTime);
void ExtractRun(uint32_t typeSize, const MathOperand& dstValue, const MathOperand& dstIndex, const MathOperand& sorted,
                int32_t repeatTime);

}  // namespace twin_detail

template <typename T>
__aicore__ inline void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp,
                              const int32_t repeatTime)
{
    static_assert(twin_detail::kOneOf<T, half, float>, "Concat on A2 supports half and float");
    (void)tmp;  // A2 uses none
    twin_detail::SortCheckRepeat("Concat", repeatTime);
    concat = src;
}

template <typename T, bool isFullSort>
__aicore__ inline void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<uint32_t>& index,
                            LocalTensor<T>& tmp, const int32_t repeatTime)
{
    static_assert(twin_detail::kOneOf<T, half, float>, "Sort on A2 supports half and float");
    twin_detail::Sort32Run(sizeof(T), isFullSort, twin_detail::AdvOperand(dst), twin_detail::AdvOperand(concat),
                           twin_detail::AdvOperand(index), twin_detail::AdvOperand(tmp), repeatTime);
}

template <typename T>
__aicore__ inline void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex,
                               const LocalTensor<T>& sorted, const int32_t repeatTime)
{
    static_assert(twin_detail::kOneOf<T, half, float>, "Extract on A2 supports half and float");
    twin_detail::ExtractRun(sizeof(T), twin_detail::AdvOperand(dstValue), twin_detail::AdvOperand(dstIndex),
                            twin_detail::AdvOperand(sorted), repeatTime);
}

template <typename T>
__aicore__ inline uint32_t GetSortLen(const uint32_t elemCount)
{
    static_assert(twin_detail::kOneOf<T, half, float>, "GetSortLen on A2 supports half and float");
    return elemCount * (std::is_same_v<T, half> ? 4 : 2);
}

template <typename T>
__aicore__ inline uint32_t GetSortOffset(const uint32_t elemOffset)
{
    static_assert(twin_detail::kOneOf<T, half, float>, "GetSortOffset on A2 supports half and float");
    return elemOffset * (std::is_same_v<T, half> ? 4 : 2);
}

}  // namespace AscendC
