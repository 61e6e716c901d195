// Unary vector instructions in their "first count elements" form (Level 2), with the A2 dtype sets.
#pragma once

#include <cmath>
#include <cstdint>

#include "twin/kernel_tensor.h"
#include "twin/kernel_vec.h"
#include "twin/runtime.h"

namespace AscendC {
namespace twin_detail {

template <typename T, typename F>
inline void Unary(const char* call, ascend_twin::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                  int32_t count, F f)
{
    CheckCount(call, count);
    CheckOperand(call, "dst", dst, count);
    CheckOperand(call, "src", src, count);
    T* d = dst.TwinData();
    const T* s = src.TwinData();
    for (int32_t i = 0; i < count; ++i) d[i] = static_cast<T>(f(static_cast<Compute<T>>(s[i])));
    ascend_twin::CountVec(op, static_cast<uint64_t>(count));
}

}  // namespace twin_detail

// dst[i] = sqrt(src[i]); half and float on A2 (correctly rounded in the twin; the hardware is within 1 ulp).
template <typename T>
__aicore__ inline void Sqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count)
{
    static_assert(twin_detail::kVecFloatType<T>, "Sqrt on A2 supports half and float");
    twin_detail::Unary("Sqrt", ascend_twin::VecOp::kSqrt, dst, src, count, [](auto v) { return std::sqrt(v); });
}

}  // namespace AscendC
