// The A2 scalar conversions of bfloat16_t (include/basic_api/kernel_operator_scalar_intf.h; on dav-2201
// impl/basic_api/kernel_scalar_convert.h): the only way a kernel turns a bfloat16_t into a float and back,
// since the device compiler has no scalar bf16 conversion (twin/kernel_types.h).
//   float Cast(const bfloat16_t&)   bfloat16_t Cast(const float&)   (docs 标量计算: Cast（多类型转float）,
//   float ToFloat(const bfloat16_t&)   bfloat16_t ToBfloat16(const float&)   Cast（float转bfloat16_t）;
//   ToFloat/ToBfloat16 are the older names, kept by the header; 附录/接口变更说明 lists the rename.)
// float -> bfloat16_t rounds to nearest even (CAST_RINT); a NaN becomes 0x7FFF, as the dav-2201 code does.
#pragma once

#include <type_traits>

#include "twin/kernel_types.h"

namespace AscendC {

__aicore__ inline float Cast(const bfloat16_t& bVal) { return ascend_twin::Bf16BitsToFloat(bVal.bits); }

__aicore__ inline bfloat16_t Cast(const float& fVal)
{
    bfloat16_t b;
    b.bits = (ascend_twin::FloatToBits(fVal) & 0x7fffffffu) > 0x7f800000u ? 0x7fffu : ascend_twin::FloatToBf16Bits(fVal);
    return b;
}

// Cast(1): the docs' 约束说明 call an integer immediate a compile error ("AscendC暂不支持整数类型转bfloat16_t /
// float"); an integer argument matches none of the device's overloads unambiguously.
template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
__aicore__ inline float Cast(const I&)
{
    static_assert(ascend_twin::detail::kDependentFalse<I>,
                  "AscendC::Cast of an integer: the scalar Cast takes a float or a bfloat16_t; write "
                  "AscendC::Cast((float)1)");
    return 0.0f;
}

__aicore__ inline float ToFloat(const bfloat16_t& bVal) { return Cast(bVal); }
__aicore__ inline bfloat16_t ToBfloat16(const float& fVal) { return Cast(fVal); }

}  // namespace AscendC

// The device compiler's scalar `min` and `max`, found unqualified at global scope: no public header
// declares them, yet A2 kernels call them on scalars without a using-declaration (SGLang's alloc_extend:
// min(int64_t, int64_t)), and they form an overload set of non-template functions: `min(cid, 32)` with an
// int64_t block index and an int literal is "call to 'min' is ambiguous" under bisheng --npu-arch=dav-2201
// (tilelang-ascend issue 475, fixed in its code generator by writing a ternary instead). The twin declares
// the integer overloads seen in A2 kernels: int32_t, uint32_t, int64_t and uint64_t; a call mixing two of
// these types is ambiguous here as on the device. Floating-point forms are not declared: no evidence that
// the device has them (use AscendC::Std::min/max, which are templates).
#define ASCEND_TWIN_SCALAR_MIN_MAX(T)                                      \
    __aicore__ inline T min(T a, T b) { return b < a ? b : a; }            \
    __aicore__ inline T max(T a, T b) { return a < b ? b : a; }
ASCEND_TWIN_SCALAR_MIN_MAX(int32_t)
ASCEND_TWIN_SCALAR_MIN_MAX(uint32_t)
ASCEND_TWIN_SCALAR_MIN_MAX(int64_t)
ASCEND_TWIN_SCALAR_MIN_MAX(uint64_t)
#undef ASCEND_TWIN_SCALAR_MIN_MAX
