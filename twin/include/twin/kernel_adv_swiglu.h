// SwiGLU, the GLU variant of the activation family (高阶API/激活函数/SwiGLU): dst = src0 * Swish(src1, beta) =
// src0 * src1 / (1 + e^(-beta src1)). Kernels include it as "lib/activation/swiglu.h" (asc-devkit
// include/adv_api/activation/swiglu.h, its A2 branch); A2's kernel_operator.h includes it.
//
// Forms (A2, `template <typename T, bool isReuseSource = false>`; dstTensor is a non-const reference, as declared):
//   SwiGLU(dst, src0, src1, scalarValue)                              framework buffer, src0.GetSize() elements
//   SwiGLU(dst, src0, src1, scalarValue, sharedTmpBuffer)             src0.GetSize() elements
//   SwiGLU(dst, src0, src1, scalarValue, calCount)                    framework buffer
//   SwiGLU(dst, src0, src1, scalarValue, sharedTmpBuffer, calCount)
// T half or float; beta is a float. A2 computes in float (half through Casts into three float copies in the
// temporary buffer). The instruction, the numerics and the rules SwiGLU shares with GeGLU and Fmod:
// twin/kernel_adv_binary.h (half: sharedTmpBuffer holds 6 * 256 bytes; float needs none).
#pragma once

#include <type_traits>

#include "twin/kernel_adv_binary.h"

namespace AscendC {
namespace twin_detail {

template <typename T>
inline void SwiGLURun(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, float beta,
                      const LocalTensor<uint8_t>* sharedTmpBuffer, uint32_t calCount)
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "SwiGLU on A2 supports half and float");
    AdvBinaryRun<T>(AdvBinaryFn::kSwiGLU, dst, src0, src1, beta, sharedTmpBuffer, calCount);
}

}  // namespace twin_detail

template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, LocalTensor<T>& srcTensor0, LocalTensor<T>& srcTensor1,
                              const float& scalarValue)
{
    twin_detail::SwiGLURun<T>(dstTensor, srcTensor0, srcTensor1, scalarValue, nullptr, srcTensor0.GetSize());
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1, const float& scalarValue,
                              const LocalTensor<uint8_t>& sharedTmpBuffer)
{
    twin_detail::SwiGLURun<T>(dstTensor, srcTensor0, srcTensor1, scalarValue, &sharedTmpBuffer, srcTensor0.GetSize());
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1, const float& scalarValue, const uint32_t calCount)
{
    twin_detail::SwiGLURun<T>(dstTensor, srcTensor0, srcTensor1, scalarValue, nullptr, calCount);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1, const float& scalarValue,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount)
{
    twin_detail::SwiGLURun<T>(dstTensor, srcTensor0, srcTensor1, scalarValue, &sharedTmpBuffer, calCount);
}

}  // namespace AscendC
