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
// temporary buffer); the twin evaluates in double and rounds once to T. One V instruction reading src0 and src1,
// writing the temporary buffer's used part (half only; left as NaN bytes) and dst, counted as VecOp::kSwiGLU; the
// mask is left normal and full, as A2 leaves it.
//
// Rules (each error names it): T half/float (compile time); operands at VECIN/VECCALC/VECOUT, 32-byte aligned;
// src0 and src1 hold the same number of elements (A2's check); calCount <= what src0 and dst hold; dst overlaps
// neither source (docs: 不支持源操作数与目的操作数地址重叠); half: sharedTmpBuffer holds GetSwiGLUMaxMinTmpSize's
// minimum, 6 * 256 bytes (the framework form: the UB after the TPipe's buffers), and overlaps no operand; float
// needs no temporary buffer (minimum 0).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "twin/adv_math_tmp_size.h"
#include "twin/kernel_adv_math.h"

namespace AscendC {
namespace twin_detail {

// Checks the rules above and returns the temporary bytes A2's implementation writes.
uint64_t CheckSwiGLU(uint32_t typeSize, uint32_t calCount, const MathOperand& dst, const MathOperand& src0,
                     const MathOperand& src1, const MathOperand& tmp, bool framework);

void EvalSwiGLU(uint32_t typeSize, void* dst, const void* src0, const void* src1, float beta, uint32_t n);

template <typename T>
inline void SwiGLURun(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, float beta,
                      const LocalTensor<uint8_t>* sharedTmpBuffer, uint32_t calCount)
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "SwiGLU on A2 supports half and float");
    uint8_t* tmp = nullptr;
    uint64_t tmpBytes = 0;
    TPosition tmpPos = TPosition::VECCALC;
    const bool framework = sharedTmpBuffer == nullptr;
    if (framework) {
        TPipe* pipe = GetTPipePtr();
        tmp = AdvFrameworkTmp("SwiGLU", pipe, pipe == nullptr ? 0 : twin_detail::TwinUbEnd(*pipe), tmpBytes);
    } else {
        tmp = twin_detail::TwinData(*sharedTmpBuffer);
        tmpBytes = sharedTmpBuffer->GetSize();
        tmpPos = twin_detail::TwinPosition(*sharedTmpBuffer);
    }
    const auto op = [](const LocalTensor<T>& t) {
        return MathOperand{twin_detail::TwinData(t), static_cast<uint64_t>(t.GetSize()) * sizeof(T), twin_detail::TwinPosition(t)};
    };
    const uint64_t used =
        CheckSwiGLU(sizeof(T), calCount, op(dst), op(src0), op(src1), MathOperand{tmp, tmpBytes, tmpPos}, framework);
    const uint64_t bytes = static_cast<uint64_t>(calCount) * sizeof(T);
    {
        ascend_twin::Instr instr("SwiGLU", ascend_twin::Pipe::kV);
        instr.Read("srcTensor0", twin_detail::TwinData(src0), bytes);
        instr.Read("srcTensor1", twin_detail::TwinData(src1), bytes);
        if (used != 0) instr.Write("sharedTmpBuffer", tmp, used);
        instr.Write("dstTensor", twin_detail::TwinData(dst), bytes);
    }
    if (calCount != 0) EvalSwiGLU(sizeof(T), twin_detail::TwinData(dst), twin_detail::TwinData(src0), twin_detail::TwinData(src1), beta, calCount);
    if (used != 0) std::memset(tmp, 0xff, used);
    SetMaskNorm();
    ResetMask();
    ascend_twin::CountVec(ascend_twin::VecOp::kSwiGLU, calCount, ascend_twin::CountFormRepeats(calCount, sizeof(T)));
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
