// The advanced Select with a byte mask (高阶API/数据过滤/Select; asc-devkit include/adv_api/select/selectwithbytesmask.h),
// A2 forms: `template <typename T, typename U, bool isReuseMask = true>`
//   Select(dst, src0 (tensor), src1 (scalar), mask, sharedTmpBuffer, info): mask 0 takes src0's element, else src1;
//   Select(dst, src0 (scalar), src1 (tensor), mask, sharedTmpBuffer, info): mask 0 takes src0, else src1's element;
// SelectWithBytesMaskShapeInfo {firstAxis, srcLastAxis, maskLastAxis}: the tensor is [firstAxis, srcLastAxis], the mask
// [firstAxis, maskLastAxis], each mask row's elements past srcLastAxis dropped. Kernels include it as
// "lib/select/selectwithbytesmask.h"; A2's kernel_operator.h includes it. Checked against the header, A2's
// implementation (impl/adv_api/detail/select/selectwithbytesmask/selectwithbytesmask_impl.h, _v220_impl.h: the mask
// rows compacted by GatherMask when the axes differ, into the mask itself with isReuseMask, into the buffer's front
// without; then Cast to half, Compare with 0 and Select, in loops of the buffer's size), its CPU-debug checks
// (api_check/.../selectwithbytesmaskcheck_common.h) and the docs.
//
// The twin computes the selection (twin/src/adv_select.cpp) as one V instruction that reads the tensor and the mask,
// writes the part of the buffer A2 uses (left as NaN bytes), the compacted mask rows where A2 writes them (the docs:
// the mask may be rewritten when the axes differ) and dst; the mask mode is left normal and the mask full, as A2
// leaves them.
//
// T is half or float, U bool, int8_t, uint8_t, int16_t, uint16_t, int32_t or uint32_t (static_assert, the docs'
// table). Rules (the error names each; A2's checks and the docs): operands at VECIN/VECCALC/VECOUT, 32-byte aligned;
// the tensor holds firstAxis * srcLastAxis elements and the mask firstAxis * maskLastAxis; maskLastAxis >= srcLastAxis,
// maskLastAxis * sizeof(U) a whole number of 32 bytes and a multiple of 16, srcLastAxis * sizeof(T) a whole number of
// 32 bytes; sharedTmpBuffer at least 1024 bytes (plus the compacted mask, rounded up to 32 bytes, without isReuseMask
// when the axes differ: A2's asserts); dst holds the result and is the source tensor or shares no byte with it (docs:
// 源操作数与目的操作数可以复用); the buffer overlaps no operand and the mask not dst.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/kernel_adv_common.h"
#include "twin/kernel_vec_more.h"

namespace AscendC {

struct SelectWithBytesMaskShapeInfo {
    __aicore__ SelectWithBytesMaskShapeInfo() {};
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};

namespace twin_detail {

void SelectBytesMaskRun(uint32_t typeSize, uint32_t maskTypeSize, bool isReuseMask, bool reverse, const MathOperand& dst,
                        const MathOperand& src, const void* scalar, const MathOperand& mask, const MathOperand& tmp,
                        const SelectWithBytesMaskShapeInfo& info);

template <typename T, typename U, bool isReuseMask, bool reverse>
inline void SelectBytesMaskForm(const LocalTensor<T>& dst, const LocalTensor<T>& src, T scalar,
                                const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                const SelectWithBytesMaskShapeInfo& info)
{
    static_assert(kOneOf<T, half, float>, "Select (SelectWithBytesMask) on A2 supports half and float");
    static_assert(kOneOf<U, bool, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t>,
                  "Select (SelectWithBytesMask) on A2 takes a bool, int8_t, uint8_t, int16_t, uint16_t, int32_t or "
                  "uint32_t mask");
    SelectBytesMaskRun(sizeof(T), sizeof(U), isReuseMask, reverse, AdvOperand(dst), AdvOperand(src), &scalar,
                       AdvOperand(mask), AdvOperand(sharedTmpBuffer), info);
}

}  // namespace twin_detail

template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info)
{
    twin_detail::SelectBytesMaskForm<T, U, isReuseMask, false>(dst, src0, src1, mask, sharedTmpBuffer, info);
}

template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info)
{
    twin_detail::SelectBytesMaskForm<T, U, isReuseMask, true>(dst, src1, src0, mask, sharedTmpBuffer, info);
}

}  // namespace AscendC
