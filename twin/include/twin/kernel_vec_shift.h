// ShiftLeft and ShiftRight with a scalar shift, in the three forms A2 (dav-2201) has for each: the count form
// ("first count elements") and the mask-bit / mask-continuous forms with repeatTime and UnaryRepeatParams
// (include/basic_api/kernel_operator_vec_binary_scalar_intf.h; impl/basic_api/dav_c220/
// kernel_operator_vec_binary_scalar_impl.h; docs 逻辑计算/ShiftLeft.md, ShiftRight.md). ShiftRight's mask forms
// take roundEn as well. The forms with a shift tensor (kernel_operator_vec_binary_intf.h) are not on A2 (docs:
// "ShiftLeft（左移位数为Tensor）" lists A2 as 不支持) and are not declared here.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/kernel_vec.h"
#include "twin/kernel_vec_repeat.h"

namespace AscendC {
namespace twin_detail {

template <typename T>
inline constexpr bool kShiftType = kOneOf<T, int16_t, uint16_t, int32_t, uint32_t>;

// A2 takes a shift in [0, 16] for the 16-bit types and [0, 32] for the 32-bit ones (CheckValueRange of the
// dav_c220 impl, the docs' scalarValue取值说明); the result of a shift by the full width is defined below.
template <typename T>
inline int64_t CheckShift(const char* call, T scalarValue)
{
    constexpr int64_t kBits = sizeof(T) * 8;
    const int64_t shift = static_cast<int64_t>(scalarValue);
    if (shift < 0 || shift > kBits) {
        ascend_twin::FailF(call, "scalarValue is within [0, 16] for 16-bit types, [0, 32] for 32-bit types",
                           "scalarValue %lld for a %lld-bit type", static_cast<long long>(shift),
                           static_cast<long long>(kBits));
    }
    return shift;
}

// Logical left shift for the unsigned types; the docs' arithmetic left shift for the signed ones: the sign bit
// stays, the bits below it move left (the bit under the sign is dropped), zeros come in (int16_t
// 1010101010101010 << 3 = 1101010101010000). A shift by the full width leaves 0, or the sign bit alone.
template <typename T>
inline T ShiftLeftOne(T a, int64_t shift)
{
    using U = std::make_unsigned_t<T>;
    constexpr int kBits = sizeof(T) * 8;
    const U bits = static_cast<U>(a);
    const U moved = shift >= kBits ? U(0) : static_cast<U>(bits << shift);
    if constexpr (std::is_signed_v<T>) {
        constexpr U kSign = static_cast<U>(U(1) << (kBits - 1));
        return static_cast<T>((bits & kSign) | (moved & static_cast<U>(~kSign)));
    } else {
        return static_cast<T>(moved);
    }
}

// Arithmetic right shift for the signed types, logical for the unsigned ones; a shift by the full width leaves
// the sign (-1 or 0), 0 for the unsigned types. roundEn (signed types only; the impl warns it has no effect on
// the unsigned ones) adds the last bit shifted out, bit shift - 1 of the source (docs: roundEn).
template <typename T>
inline T ShiftRightOne(T a, int64_t shift, bool roundEn)
{
    constexpr int64_t kBits = sizeof(T) * 8;
    int64_t r;
    if (shift == kBits) {
        r = std::is_signed_v<T> && a < 0 ? -1 : 0;
    } else {
        r = static_cast<int64_t>(static_cast<T>(a >> shift));  // >> of a signed value is arithmetic (C++20)
    }
    if (std::is_signed_v<T> && roundEn && shift > 0) {
        r += (static_cast<std::make_unsigned_t<T>>(a) >> (shift - 1)) & 1u;
    }
    return static_cast<T>(r);
}

}  // namespace twin_detail

// dst[i] = src[i] << scalarValue over the first count elements.
template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
                                 const int32_t& count)
{
    static_assert(twin_detail::kShiftType<T>, "ShiftLeft on A2 supports int16_t, uint16_t, int32_t and uint32_t");
    const int64_t shift = twin_detail::CheckShift("ShiftLeft", scalarValue);
    twin_detail::WithScalar("ShiftLeft", ascend_twin::VecOp::kShiftLeft, dst, src, scalarValue, count,
                            [shift](T a, T) { return twin_detail::ShiftLeftOne(a, shift); });
}

// dst[i] = src[i] << scalarValue over the mask's lanes of repeatTime repeats (mask-bit form).
template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
                                 uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams)
{
    static_assert(twin_detail::kShiftType<T>, "ShiftLeft on A2 supports int16_t, uint16_t, int32_t and uint32_t");
    const int64_t shift = twin_detail::CheckShift("ShiftLeft", scalarValue);
    twin_detail::UnaryRepeat<T, isSetMask>("ShiftLeft", ascend_twin::VecOp::kShiftLeft, dst, src, mask, true,
                                           repeatTime, repeatParams,
                                           [shift](T a) { return twin_detail::ShiftLeftOne(a, shift); });
}

// The mask-continuous form: the first mask lanes of each repeat.
template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
                                 uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams)
{
    static_assert(twin_detail::kShiftType<T>, "ShiftLeft on A2 supports int16_t, uint16_t, int32_t and uint32_t");
    const int64_t shift = twin_detail::CheckShift("ShiftLeft", scalarValue);
    const uint64_t bits[2] = {mask, 0};
    twin_detail::UnaryRepeat<T, isSetMask>("ShiftLeft", ascend_twin::VecOp::kShiftLeft, dst, src, bits, false,
                                           repeatTime, repeatParams,
                                           [shift](T a) { return twin_detail::ShiftLeftOne(a, shift); });
}

// dst[i] = src[i] >> scalarValue over the first count elements (no rounding: the impl's count form passes
// roundEn = false).
template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
                                  const int32_t& count)
{
    static_assert(twin_detail::kShiftType<T>, "ShiftRight on A2 supports int16_t, uint16_t, int32_t and uint32_t");
    const int64_t shift = twin_detail::CheckShift("ShiftRight", scalarValue);
    twin_detail::WithScalar("ShiftRight", ascend_twin::VecOp::kShiftRight, dst, src, scalarValue, count,
                            [shift](T a, T) { return twin_detail::ShiftRightOne(a, shift, false); });
}

// dst[i] = src[i] >> scalarValue over the mask's lanes of repeatTime repeats (mask-bit form).
template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
                                  uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                                  bool roundEn = false)
{
    static_assert(twin_detail::kShiftType<T>, "ShiftRight on A2 supports int16_t, uint16_t, int32_t and uint32_t");
    const int64_t shift = twin_detail::CheckShift("ShiftRight", scalarValue);
    twin_detail::UnaryRepeat<T, isSetMask>("ShiftRight", ascend_twin::VecOp::kShiftRight, dst, src, mask, true,
                                           repeatTime, repeatParams, [shift, roundEn](T a) {
                                               return twin_detail::ShiftRightOne(a, shift, roundEn);
                                           });
}

// The mask-continuous form: the first mask lanes of each repeat.
template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
                                  uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                                  bool roundEn = false)
{
    static_assert(twin_detail::kShiftType<T>, "ShiftRight on A2 supports int16_t, uint16_t, int32_t and uint32_t");
    const int64_t shift = twin_detail::CheckShift("ShiftRight", scalarValue);
    const uint64_t bits[2] = {mask, 0};
    twin_detail::UnaryRepeat<T, isSetMask>("ShiftRight", ascend_twin::VecOp::kShiftRight, dst, src, bits, false,
                                           repeatTime, repeatParams, [shift, roundEn](T a) {
                                               return twin_detail::ShiftRightOne(a, shift, roundEn);
                                           });
}

}  // namespace AscendC
