// The elementwise activation functions of the advanced API (高阶API/激活函数), A2 forms: Sigmoid, Silu, Swish,
// Gelu, FasterGelu, FasterGeluV2. Kernels include them as "lib/activation/<fn>.h" (asc-devkit
// include/adv_api/activation/<fn>.h); on A2 the real kernel_operator.h includes every one of them, and so does
// the twin's. Checked against each header's A2 branch, the A2 implementations impl/adv_api/detail/activation/
// (sigmoid_common_impl.h + sigmoid_impl.h, silu_common_impl.h, swish_common_impl.h, gelu/gelu_impl.h), the
// host sizes impl/adv_api/tiling/activation/ and the docs 高阶API/激活函数/.
//
// Forms:
//   Sigmoid<T, isReuseSource = false>(dst, src, sharedTmpBuffer, calCount), (dst, src, calCount), and without
//     calCount (src.GetSize()): (dst, src, sharedTmpBuffer), (dst, src)
//   Silu<T, isReuseSource = false>(dstLocal, srcLocal, dataSize)                   no temporary buffer
//   Swish<T, isReuseSource = false>(dstLocal, srcLocal, dataSize, scalarValue)     no temporary buffer
//   Gelu / FasterGelu / FasterGeluV2<T, highPrecision = false, highPerformance = false>
//     (dstLocal, srcLocal, sharedTmpBuffer, dataSize) and (dstLocal, srcLocal, dataSize)
// T is half or float (static_assert). The formulas are A2's: sigmoid 1 / (1 + e^-x); silu x / (1 + e^-x);
// swish x / (1 + e^(-beta x)); Gelu x / (1 + e^(-1.5957691216057308 (x + 0.044715 x^3))) (the tanh form);
// FasterGelu x / (1 + e^(-1.702 x)); FasterGeluV2 x (sgn(x) (-0.1444 (min(|0.7071 x|, 1.769) - 1.769)^2 + 0.5)
// + 0.5) with sgn from x + 1e-12, the constants held as T as the implementation holds them. The twin evaluates
// them in double and rounds once; the NPU evaluates them with Muls/Exp/Adds/Div in T (half in half unless
// highPrecision), so its results may differ by a few ulp of T; highPrecision and highPerformance (Reciprocal
// and Mul instead of Div) change only that rounding and are accepted, not modelled.
//
// Rules and counters as for the math functions (twin/kernel_adv_math.h): positions, alignment, counts,
// temporary-buffer minimum (Sigmoid 256 bytes, the Gelu family 768 bytes, the host functions' minimum) and
// overlap with src/dst; src and dst may not overlap for Sigmoid, Silu and Swish (docs: 不支持源操作数与目的操作数
// 地址重叠), may for the Gelu family (docs: 源操作数和目的操作数的Tensor空间可以复用). Sigmoid and the Gelu family
// leave the vector mask normal and full; Silu and Swish leave it, as A2's do, in normal mode holding
// (0, dataSize) as lane bits (they set the count in counter mode and only switch back to normal mode).
#pragma once

#include <type_traits>

#include "twin/kernel_adv_math.h"

namespace AscendC {

#define ASCEND_TWIN_ACT_DTYPES(Name)                                                                            \
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, #Name " on A2 supports half and float")

template <typename T, bool isReuseSource = false>
__aicore__ inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount)
{
    ASCEND_TWIN_ACT_DTYPES(Sigmoid);
    twin_detail::MathUnaryTmp<T, ascend_twin::MathFn::kSigmoid, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer,
                                                                               calCount);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount)
{
    ASCEND_TWIN_ACT_DTYPES(Sigmoid);
    twin_detail::MathUnaryFramework<T, ascend_twin::MathFn::kSigmoid, isReuseSource>(dstTensor, srcTensor, calCount);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer)
{
    Sigmoid<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor)
{
    Sigmoid<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize)
{
    ASCEND_TWIN_ACT_DTYPES(Silu);
    twin_detail::MathUnaryRun<T, ascend_twin::MathFn::kSilu, isReuseSource>(dstLocal, srcLocal, nullptr, 0,
                                                                            TPosition::VECCALC, false, dataSize);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
                             const T scalarValue)
{
    ASCEND_TWIN_ACT_DTYPES(Swish);
    // A2 negates beta in T first (static_cast<T>(-1.0f * scalarValue)): exact.
    twin_detail::MathUnaryRun<T, ascend_twin::MathFn::kSwish, isReuseSource>(
        dstLocal, srcLocal, nullptr, 0, TPosition::VECCALC, false, dataSize,
        static_cast<double>(static_cast<float>(scalarValue)));
}

#define ASCEND_TWIN_GELU_FORMS(Name, Fn)                                                                         \
    template <typename T, bool highPrecision = false, bool highPerformance = false>                            \
    __aicore__ inline void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize)          \
    {                                                                                                           \
        ASCEND_TWIN_ACT_DTYPES(Name);                                                                           \
        twin_detail::MathUnaryTmp<T, ascend_twin::MathFn::Fn, false>(dstLocal, srcLocal, sharedTmpBuffer, dataSize); \
    }                                                                                                           \
    template <typename T, bool highPrecision = false, bool highPerformance = false>                            \
    __aicore__ inline void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                \
                                const uint32_t dataSize)                                                        \
    {                                                                                                           \
        ASCEND_TWIN_ACT_DTYPES(Name);                                                                           \
        twin_detail::MathUnaryFramework<T, ascend_twin::MathFn::Fn, false>(dstLocal, srcLocal, dataSize);      \
    }

ASCEND_TWIN_GELU_FORMS(Gelu, kGelu)
ASCEND_TWIN_GELU_FORMS(FasterGelu, kFasterGelu)
ASCEND_TWIN_GELU_FORMS(FasterGeluV2, kFasterGeluV2)

#undef ASCEND_TWIN_GELU_FORMS
#undef ASCEND_TWIN_ACT_DTYPES

}  // namespace AscendC
