// GeGLU (高阶API/激活函数, lib/activation/geglu.h), Fmod and the advanced Axpy (高阶API/数学计算, lib/math/fmod.h,
// lib/math/axpy.h), as asc-devkit's A2 branches declare them; on A2 the real kernel_operator.h includes them.
//
// GeGLU<T, isReuseSource = false>: (dst, src0, src1, sharedTmpBuffer, calCount), (dst, src0, src1, calCount)
//   (the framework's buffer), (dst, src0, src1, sharedTmpBuffer) and (dst, src0, src1) over src0.GetSize().
// Fmod<T, isReuseSource = false>: the same four forms (A2's; the Ascend 950 FmodConfig parameter is not declared
//   on A2). Numerics and rules of both: twin/kernel_adv_binary.h.
// Axpy<T, U, isReuseSource = false>(dst, src, scalarValue, sharedTmpBuffer, calCount): dst[i] += src[i] *
//   scalarValue, (T, U) one of (half, half), (float, float), (float, half) (the docs' precision table; a
//   static_assert). A2 runs the basic Axpy for float sources; for half ones it casts to float in the temporary
//   buffer, Muls, Add, and casts back for a half dst: the twin rounds the product and the sum to float, as those
//   instructions do. Rules: operands at VECIN/VECCALC/VECOUT, 32-byte aligned; calCount <= what dst and src
//   hold; src and dst do not overlap (docs); a half source needs sharedTmpBuffer >= GetAxpyMaxMinTmpSize's
//   minimum (4 * 256 bytes), not overlapping src or dst.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "twin/kernel_adv_binary.h"
#include "twin/kernel_vec.h"

namespace AscendC {
namespace twin_detail {

// Checks the advanced Axpy's rules (typeSizes of dst and src) and returns the temporary bytes it writes.
uint64_t CheckAdvAxpy(uint32_t dstTypeSize, uint32_t srcTypeSize, uint32_t calCount, const MathOperand& dst,
                      const MathOperand& src, const MathOperand& tmp);

}  // namespace twin_detail

#define ASCEND_TWIN_ADV_BINARY_FORMS(Name, Fn)                                                                   \
    template <typename T, bool isReuseSource = false>                                                          \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,              \
                                const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer,  \
                                const uint32_t calCount)                                                        \
    {                                                                                                           \
        static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, #Name " on A2 supports half and float"); \
        twin_detail::AdvBinaryRun<T>(twin_detail::AdvBinaryFn::Fn, dstTensor, srcTensor0, srcTensor1, 0.0f,    \
                                     &sharedTmpBuffer, calCount);                                               \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false>                                                          \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,              \
                                const LocalTensor<T>& srcTensor1, const uint32_t calCount)                      \
    {                                                                                                           \
        static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, #Name " on A2 supports half and float"); \
        twin_detail::AdvBinaryRun<T>(twin_detail::AdvBinaryFn::Fn, dstTensor, srcTensor0, srcTensor1, 0.0f,    \
                                     nullptr, calCount);                                                        \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false>                                                          \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,              \
                                const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer)  \
    {                                                                                                           \
        Name<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, sharedTmpBuffer, srcTensor0.GetSize());       \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false>                                                          \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,              \
                                const LocalTensor<T>& srcTensor1)                                               \
    {                                                                                                           \
        Name<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, srcTensor0.GetSize());                        \
    }

ASCEND_TWIN_ADV_BINARY_FORMS(GeGLU, kGeGLU)
ASCEND_TWIN_ADV_BINARY_FORMS(Fmod, kFmod)

#undef ASCEND_TWIN_ADV_BINARY_FORMS

template <typename T, typename U, bool isReuseSource = false>
__aicore__ inline void Axpy(const LocalTensor<T>& dstTensor, const LocalTensor<U>& srcTensor, const U scalarValue,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount)
{
    static_assert((std::is_same_v<T, half> && std::is_same_v<U, half>) ||
                      (std::is_same_v<T, float> && std::is_same_v<U, float>) ||
                      (std::is_same_v<T, float> && std::is_same_v<U, half>),
                  "Axpy (the advanced API) on A2 supports dst/src half/half, float/float and float/half");
    const auto op = [](const auto& t) {
        using E = typename std::decay_t<decltype(t)>::PrimType;
        return twin_detail::MathOperand{twin_detail::TwinData(t), static_cast<uint64_t>(t.GetSize()) * sizeof(E),
                                        twin_detail::TwinPosition(t)};
    };
    const twin_detail::MathOperand tmpOp{twin_detail::TwinData(sharedTmpBuffer), sharedTmpBuffer.GetSize(),
                                         twin_detail::TwinPosition(sharedTmpBuffer)};
    const uint64_t used = twin_detail::CheckAdvAxpy(sizeof(T), sizeof(U), calCount, op(dstTensor), op(srcTensor), tmpOp);
    if constexpr (std::is_same_v<U, float>) {
        Axpy<T, U>(dstTensor, srcTensor, scalarValue, static_cast<int32_t>(calCount));  // A2: the basic Axpy
    } else {
        {
            ascend_twin::Instr instr("Axpy", ascend_twin::Pipe::kV);
            instr.Read("srcTensor", twin_detail::TwinData(srcTensor), static_cast<uint64_t>(calCount) * sizeof(U));
            instr.Read("dstTensor", twin_detail::TwinData(dstTensor), static_cast<uint64_t>(calCount) * sizeof(T));
            if (used != 0) instr.Write("sharedTmpBuffer", twin_detail::TwinData(sharedTmpBuffer), used);
            instr.Write("dstTensor", twin_detail::TwinData(dstTensor), static_cast<uint64_t>(calCount) * sizeof(T));
        }
        T* d = twin_detail::TwinData(dstTensor);
        const U* s = twin_detail::TwinData(srcTensor);
        const float k = static_cast<float>(scalarValue);
        for (uint32_t i = 0; i < calCount; ++i) {
            const float product = static_cast<float>(s[i]) * k;               // Muls in float
            d[i] = static_cast<T>(product + static_cast<float>(d[i]));        // Add in float (Cast back for half)
        }
        if (used != 0) std::memset(static_cast<void*>(twin_detail::TwinData(sharedTmpBuffer)), 0xff, used);
        SetMaskNorm();
        ResetMask();
        ascend_twin::CountVec(ascend_twin::VecOp::kAxpy, calCount, ascend_twin::CountFormRepeats(calCount, sizeof(T)));
    }
}

}  // namespace AscendC
