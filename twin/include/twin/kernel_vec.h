// Vector instructions in their "first count elements" form: binary, binary-with-scalar, Duplicate.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/hazard.h"
#include "twin/kernel_tensor.h"
#include "twin/runtime.h"
#include "twin/simd_loops.h"

namespace AscendC {
namespace twin_detail {

// Element types the A2 vector unit computes in for Add/Sub/Mul/Max/Min/Adds/Muls. double is not one of
// them; the twin admits it only in kernels built as the float64 twin variant (ASCEND_TWIN_ALLOW_FP64),
// which exists so that gradients can be checked in double precision on the CPU.
template <typename T>
inline constexpr bool kVecArithType =
    std::is_same_v<T, int16_t> || std::is_same_v<T, half> || std::is_same_v<T, int32_t> ||
    std::is_same_v<T, float>
#if defined(ASCEND_TWIN_ALLOW_FP64)
    || std::is_same_v<T, double>
#endif
    ;

template <typename T>
inline constexpr bool kVecFloatType = std::is_same_v<T, half> || std::is_same_v<T, float>
#if defined(ASCEND_TWIN_ALLOW_FP64)
                                      || std::is_same_v<T, double>
#endif
    ;

// Arithmetic on half runs in float and rounds once, as the hardware's correctly rounded result.
template <typename T>
using Compute = std::conditional_t<std::is_same_v<T, half>, float, T>;

void CheckCount(const char* call, int64_t count);
[[noreturn]] void FailAxpyOverlap();

template <typename T>
inline void CheckOperand(const char* call, const char* name, const LocalTensor<T>& t, int64_t count)
{
    ascend_twin::CheckUbAligned(call, name, twin_detail::TwinData(t));
    if (static_cast<uint64_t>(count) > t.GetSize()) {
        ascend_twin::FailF(call, "vector operands hold count elements", "operand '%s' holds %u elements, count is %lld",
                           name, t.GetSize(), static_cast<long long>(count));
    }
}

template <typename T, typename F>
inline void Binary(const char* call, ascend_twin::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, int32_t count, F f)
{
    CheckCount(call, count);
    CheckOperand(call, "dst", dst, count);
    CheckOperand(call, "src0", src0, count);
    CheckOperand(call, "src1", src1, count);
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    instr.Read("src0", twin_detail::TwinData(src0), count * sizeof(T));
    instr.Read("src1", twin_detail::TwinData(src1), count * sizeof(T));
    instr.Write("dst", twin_detail::TwinData(dst), count * sizeof(T));
    T* d = twin_detail::TwinData(dst);
    const T* a = twin_detail::TwinData(src0);
    const T* b = twin_detail::TwinData(src1);
    bool done = false;
    if constexpr (std::is_same_v<T, float>) done = ascend_twin::simd::BinaryF32(op, d, a, b, count);
    for (int32_t i = 0; !done && i < count; ++i) {
        d[i] = static_cast<T>(f(static_cast<Compute<T>>(a[i]), static_cast<Compute<T>>(b[i])));
    }
    ascend_twin::CountVec(op, count, ascend_twin::CountFormRepeats(count, sizeof(T)));
}

template <typename T, typename F>
inline void WithScalar(const char* call, ascend_twin::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                       const T& scalar, int32_t count, F f)
{
    CheckCount(call, count);
    CheckOperand(call, "dst", dst, count);
    CheckOperand(call, "src", src, count);
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    instr.Read("src", twin_detail::TwinData(src), count * sizeof(T));
    instr.Write("dst", twin_detail::TwinData(dst), count * sizeof(T));
    T* d = twin_detail::TwinData(dst);
    const T* a = twin_detail::TwinData(src);
    const Compute<T> s = static_cast<Compute<T>>(scalar);
    bool done = false;
    if constexpr (std::is_same_v<T, float>) done = ascend_twin::simd::ScalarF32(op, d, a, s, count);
    for (int32_t i = 0; !done && i < count; ++i) {
        d[i] = static_cast<T>(f(static_cast<Compute<T>>(a[i]), s));
    }
    ascend_twin::CountVec(op, count, ascend_twin::CountFormRepeats(count, sizeof(T)));
}

}  // namespace twin_detail

#define ASCEND_TWIN_BINARY(NAME, OP, EXPR)                                                                    \
    template <typename T>                                                                                     \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                const int32_t& count)                                                         \
    {                                                                                                         \
        static_assert(twin_detail::kVecArithType<T>, #NAME " on A2 supports int16_t, half, int32_t and float"); \
        twin_detail::Binary(#NAME, ascend_twin::VecOp::OP, dst, src0, src1, count,                            \
                            [](auto a, auto b) { return EXPR; });                                             \
    }

ASCEND_TWIN_BINARY(Add, kAdd, a + b)
ASCEND_TWIN_BINARY(Sub, kSub, a - b)
ASCEND_TWIN_BINARY(Mul, kMul, a * b)
ASCEND_TWIN_BINARY(Max, kMax, a > b ? a : b)
ASCEND_TWIN_BINARY(Min, kMin, a < b ? a : b)
#undef ASCEND_TWIN_BINARY

template <typename T>
__aicore__ inline void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const int32_t& count)
{
    static_assert(twin_detail::kVecFloatType<T>, "Div on A2 supports half and float");
    twin_detail::Binary("Div", ascend_twin::VecOp::kDiv, dst, src0, src1, count, [](auto a, auto b) { return a / b; });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
                            const int32_t& count)
{
    static_assert(twin_detail::kVecArithType<T>, "Adds on A2 supports int16_t, half, int32_t and float");
    twin_detail::WithScalar("Adds", ascend_twin::VecOp::kAdds, dst, src, scalarValue, count,
                            [](auto a, auto s) { return a + s; });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Muls(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
                            const int32_t& count)
{
    static_assert(twin_detail::kVecArithType<T>, "Muls on A2 supports int16_t, half, int32_t and float");
    twin_detail::WithScalar("Muls", ascend_twin::VecOp::kMuls, dst, src, scalarValue, count,
                            [](auto a, auto s) { return a * s; });
}

// dst[i] = src[i] * scalar + dst[i]. A2 pairs (dst, src): (half, half), (float, float), (float, half).
// The twin computes in float and rounds once to the destination type.
template <typename T, typename U>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue,
                            const int32_t& count)
{
    static_assert((std::is_same_v<T, half> && std::is_same_v<U, half>) ||
                      (std::is_same_v<T, float> && std::is_same_v<U, float>) ||
                      (std::is_same_v<T, float> && std::is_same_v<U, half>)
#if defined(ASCEND_TWIN_ALLOW_FP64)
                      || (std::is_same_v<T, double> && std::is_same_v<U, double>)
#endif
                  ,
                  "Axpy on A2 supports dst/src half/half, float/float and float/half");
    twin_detail::CheckCount("Axpy", count);
    twin_detail::CheckOperand("Axpy", "dst", dst, count);
    twin_detail::CheckOperand("Axpy", "src", src, count);
    if constexpr (!std::is_same_v<T, U>) {  // half -> float: no address overlap (docs)
        const uint8_t* d0 = reinterpret_cast<const uint8_t*>(twin_detail::TwinData(dst));
        const uint8_t* s0 = reinterpret_cast<const uint8_t*>(twin_detail::TwinData(src));
        if (count > 0 && d0 < s0 + count * sizeof(U) && s0 < d0 + count * sizeof(T)) twin_detail::FailAxpyOverlap();
    }
    ascend_twin::Instr instr("Axpy", ascend_twin::Pipe::kV);
    instr.Read("src", twin_detail::TwinData(src), count * sizeof(U));
    instr.Read("dst", twin_detail::TwinData(dst), count * sizeof(T));
    instr.Write("dst", twin_detail::TwinData(dst), count * sizeof(T));
    using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
    T* d = twin_detail::TwinData(dst);
    const U* a = twin_detail::TwinData(src);
    const C s = static_cast<C>(scalarValue);
    for (int32_t i = 0; i < count; ++i) d[i] = static_cast<T>(static_cast<C>(a[i]) * s + static_cast<C>(d[i]));
    ascend_twin::CountVec(ascend_twin::VecOp::kAxpy, count, ascend_twin::CountFormRepeats(count, sizeof(T)));
}

template <typename T>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const int32_t& count)
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, int16_t> ||
                      std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
                      std::is_same_v<T, float>
#if defined(ASCEND_TWIN_ALLOW_FP64)
                      || std::is_same_v<T, double>
#endif
                  ,
                  "Duplicate on A2 supports half, bfloat16_t, int16_t, uint16_t, int32_t, uint32_t and float");
    twin_detail::CheckCount("Duplicate", count);
    twin_detail::CheckOperand("Duplicate", "dst", dst, count);
    ascend_twin::Instr("Duplicate", ascend_twin::Pipe::kV).Write("dst", twin_detail::TwinData(dst), count * sizeof(T));
    T* d = twin_detail::TwinData(dst);
    for (int32_t i = 0; i < count; ++i) d[i] = scalarValue;
    ascend_twin::CountVec(ascend_twin::VecOp::kDuplicate, count, ascend_twin::CountFormRepeats(count, sizeof(T)));
}

}  // namespace AscendC
