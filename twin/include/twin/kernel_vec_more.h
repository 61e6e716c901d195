// More vector instructions in their count form ("first count elements", Level 2): unary (Exp, Ln, Abs,
// Reciprocal, Sqrt, Rsqrt, Relu, Not), binary-scalar (Maxs, Mins, LeakyRelu) and bitwise (And, Or).
// Dtypes are the A2 lists of impl/basic_api/dav_c220/kernel_operator_vec_{unary,binary_scalar,binary}_impl.h.
// The transcendental functions are computed with the C library in float (double for the float64 twin
// build) and rounded once; the NPU's results may differ in the last bits.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "twin/kernel_vec.h"

namespace AscendC {
namespace twin_detail {

template <typename T, typename... U>
inline constexpr bool kOneOf = (std::is_same_v<T, U> || ...);

template <typename T>
inline constexpr bool kHalfFloat = kOneOf<T, half, float>
#if defined(ASCEND_TWIN_ALLOW_FP64)
                                   || std::is_same_v<T, double>
#endif
    ;

template <typename T, typename F>
inline void Unary(const char* call, ascend_twin::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                  int32_t count, F f)
{
    CheckCount(call, count);
    CheckOperand(call, "dst", dst, count);
    CheckOperand(call, "src", src, count);
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    instr.Read("src", twin_detail::TwinData(src), count * sizeof(T));
    instr.Write("dst", twin_detail::TwinData(dst), count * sizeof(T));
    T* d = twin_detail::TwinData(dst);
    const T* a = twin_detail::TwinData(src);
    for (int32_t i = 0; i < count; ++i) d[i] = static_cast<T>(f(static_cast<Compute<T>>(a[i])));
    ascend_twin::CountVec(op, count, ascend_twin::CountFormRepeats(count, sizeof(T)));
}

}  // namespace twin_detail

#define ASCEND_TWIN_UNARY(NAME, OP, TYPES, TYPES_TEXT, EXPR)                                                 \
    template <typename T>                                                                                    \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count)  \
    {                                                                                                        \
        static_assert(TYPES, #NAME " on A2 supports " TYPES_TEXT);                                          \
        twin_detail::Unary(#NAME, ascend_twin::VecOp::OP, dst, src, count, [](auto a) { return EXPR; });    \
    }

ASCEND_TWIN_UNARY(Exp, kExp, twin_detail::kHalfFloat<T>, "half and float", std::exp(a))
ASCEND_TWIN_UNARY(Ln, kLn, twin_detail::kHalfFloat<T>, "half and float", std::log(a))
ASCEND_TWIN_UNARY(Abs, kAbs, twin_detail::kHalfFloat<T>, "half and float", std::fabs(a))
ASCEND_TWIN_UNARY(Reciprocal, kReciprocal, twin_detail::kHalfFloat<T>, "half and float", 1 / a)
ASCEND_TWIN_UNARY(Sqrt, kSqrt, twin_detail::kHalfFloat<T>, "half and float", std::sqrt(a))
ASCEND_TWIN_UNARY(Rsqrt, kRsqrt, twin_detail::kHalfFloat<T>, "half and float", 1 / std::sqrt(a))
ASCEND_TWIN_UNARY(Relu, kRelu, (twin_detail::kHalfFloat<T> || std::is_same_v<T, int32_t>),
                  "half, float and int32_t", a > 0 ? a : decltype(a)(0))
ASCEND_TWIN_UNARY(Not, kNot, (twin_detail::kOneOf<T, int16_t, uint16_t>), "int16_t and uint16_t", ~a)
#undef ASCEND_TWIN_UNARY

template <typename T, bool isSetMask = true>
__aicore__ inline void Maxs(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
                            const int32_t& count)
{
    static_assert(twin_detail::kVecArithType<T>, "Maxs on A2 supports int16_t, half, int32_t and float");
    twin_detail::WithScalar("Maxs", ascend_twin::VecOp::kMaxs, dst, src, scalarValue, count,
                            [](auto a, auto s) { return a > s ? a : s; });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Mins(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
                            const int32_t& count)
{
    static_assert(twin_detail::kVecArithType<T>, "Mins on A2 supports int16_t, half, int32_t and float");
    twin_detail::WithScalar("Mins", ascend_twin::VecOp::kMins, dst, src, scalarValue, count,
                            [](auto a, auto s) { return a < s ? a : s; });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void LeakyRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
                                 const int32_t& count)
{
    static_assert(twin_detail::kHalfFloat<T>, "LeakyRelu on A2 supports half and float");
    twin_detail::WithScalar("LeakyRelu", ascend_twin::VecOp::kLeakyRelu, dst, src, scalarValue, count,
                            [](auto a, auto s) { return a >= 0 ? a : a * s; });
}

namespace twin_detail {
// And/Or with count: the device reinterprets every dtype as int16_t and counts int16_t elements, so for
// 32-bit types only the first 2 * count bytes are processed (the docs advise against 32-bit types).
template <typename T, typename F>
inline void Bitwise(const char* call, ascend_twin::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                    const LocalTensor<T>& src1, int32_t count, F f)
{
    static_assert(kOneOf<T, int16_t, uint16_t, int32_t, uint32_t>,
                  "And/Or on A2 support int16_t, uint16_t, int32_t and uint32_t");
    CheckCount(call, count);
    const int32_t elems = static_cast<int32_t>((static_cast<int64_t>(count) * 2 + sizeof(T) - 1) / sizeof(T));
    CheckOperand(call, "dst", dst, elems);
    CheckOperand(call, "src0", src0, elems);
    CheckOperand(call, "src1", src1, elems);
    const uint64_t bytes = static_cast<uint64_t>(count) * 2;
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    instr.Read("src0", twin_detail::TwinData(src0), bytes);
    instr.Read("src1", twin_detail::TwinData(src1), bytes);
    instr.Write("dst", twin_detail::TwinData(dst), bytes);
    auto* d = reinterpret_cast<uint16_t*>(twin_detail::TwinData(dst));
    const auto* a = reinterpret_cast<const uint16_t*>(twin_detail::TwinData(src0));
    const auto* b = reinterpret_cast<const uint16_t*>(twin_detail::TwinData(src1));
    for (int32_t i = 0; i < count; ++i) d[i] = static_cast<uint16_t>(f(a[i], b[i]));
    ascend_twin::CountVec(op, count, ascend_twin::CountFormRepeats(count, 2));
}
}  // namespace twin_detail

template <typename T>
__aicore__ inline void And(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const int32_t& count)
{
    twin_detail::Bitwise("And", ascend_twin::VecOp::kAnd, dst, src0, src1, count, [](auto a, auto b) { return a & b; });
}

template <typename T>
__aicore__ inline void Or(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                          const int32_t& count)
{
    twin_detail::Bitwise("Or", ascend_twin::VecOp::kOr, dst, src0, src1, count, [](auto a, auto b) { return a | b; });
}

}  // namespace AscendC
