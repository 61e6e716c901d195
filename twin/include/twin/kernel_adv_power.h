// Power, the advanced math library's elementwise power (高阶API/数学计算/Power), A2 forms. Kernels include it as
// "lib/math/power.h" (asc-devkit include/adv_api/math/power.h, its A2 branch `template <typename T, bool
// isReuseSource = false>`); A2's kernel_operator.h includes it.
//
// Three kinds, each in four forms (with/without sharedTmpBuffer, with/without calCount):
//   Power(dst, src0Tensor, src1Tensor [, sharedTmpBuffer] [, calCount])   base and exponent tensors
//   Power(dst, src0Tensor, const T& src1Scalar [, ...])                    scalar exponent
//   Power(dst, const T& src0Scalar, src1Tensor [, ...])                    scalar base
// without calCount: src0Tensor.GetSize() (src1Tensor.GetSize() for a scalar base). T half, float or int32_t.
//
// Values: float and half as A2 computes them, exp(y * ln|x|) with C pow's special cases (a negative base with an
// integer exponent keeps its sign by the exponent's parity, a negative base with a non-integer exponent gives
// NaN, x^0 = 1, 1^y = 1); the twin evaluates std::pow in double and rounds once to T (A2 works in float, also for
// half: a few float ulp apart). int32_t: x^|y| by repeated multiplication in 32 bits (wrapping as Mul does), and
// for y < 0 A2's trunc(1.0f / float(x^|y|)) (so 1 or -1 for x = ±1, 0 otherwise, 0 for x = 0).
// One V instruction reading the sources, writing the temporary buffer's used part (left as NaN bytes) and dst,
// counted as VecOp::kPower. A2's implementation selects with Select in tensor-tensor mode, which writes 32 bytes
// of scratch at TMP_UB_OFFSET (the header marks Power __ASC_USE_RESERVED_UBUF__ on 2201): the twin applies
// Select's rule (the top 8 KiB of UB is free) and records the scratch write. The mask is left normal and full.
//
// Rules (each error names it): T half/float/int32_t (compile time); operands at VECIN/VECCALC/VECOUT, 32-byte
// aligned; calCount <= what dst and each source tensor hold; dst overlaps no source tensor (docs:
// 不支持源操作数与目的操作数地址重叠); sharedTmpBuffer holds GetPowerMaxMinTmpSize's minimum for the kind and dtype
// (the framework form: the UB after the TPipe's buffers) and overlaps none of them.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "twin/adv_math_tmp_size.h"
#include "twin/kernel_adv_math.h"
#include "twin/kernel_cmpsel.h"

namespace AscendC {
namespace twin_detail {

// Checks the rules above for `kind` (0 tensor^tensor, 1 tensor^scalar, 2 scalar^tensor; a scalar operand has a
// null address) and returns the temporary bytes A2's implementation writes.
uint64_t CheckPower(int kind, uint32_t typeSize, bool typeIsInt, uint32_t calCount, const MathOperand& dst,
                    const MathOperand& src0, const MathOperand& src1, const MathOperand& tmp, bool framework);

// dst[i] = base^exp elementwise; a null source reads its scalar. typeSize 2 (half), 4 (float or int32_t).
void EvalPower(uint32_t typeSize, bool typeIsInt, void* dst, const void* src0, const void* src1, const void* scalar0,
               const void* scalar1, uint32_t n);

template <typename T>
inline MathOperand PowerOperand(const LocalTensor<T>* t)
{
    if (t == nullptr) return MathOperand{nullptr, 0, TPosition::VECCALC};
    return MathOperand{twin_detail::TwinData(*t), static_cast<uint64_t>(t->GetSize()) * sizeof(T), twin_detail::TwinPosition(*t)};
}

template <typename T>
inline void PowerRun(const LocalTensor<T>& dstTensor, const LocalTensor<T>* src0, const T* scalar0,
                     const LocalTensor<T>* src1, const T* scalar1, const LocalTensor<uint8_t>* sharedTmpBuffer,
                     uint32_t calCount)
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, int32_t>,
                  "Power on A2 supports half, float and int32_t");
    const int kind = src0 != nullptr && src1 != nullptr ? 0 : (src0 != nullptr ? 1 : 2);
    uint8_t* tmp = nullptr;
    uint64_t tmpBytes = 0;
    TPosition tmpPos = TPosition::VECCALC;
    const bool framework = sharedTmpBuffer == nullptr;
    if (framework) {
        TPipe* pipe = GetTPipePtr();
        tmp = AdvFrameworkTmp("Power", pipe, pipe == nullptr ? 0 : twin_detail::TwinUbEnd(*pipe), tmpBytes);
    } else {
        tmp = twin_detail::TwinData(*sharedTmpBuffer);
        tmpBytes = sharedTmpBuffer->GetSize();
        tmpPos = twin_detail::TwinPosition(*sharedTmpBuffer);
    }
    const uint64_t used = CheckPower(kind, sizeof(T), std::is_same_v<T, int32_t>, calCount, PowerOperand(&dstTensor),
                                     PowerOperand(src0), PowerOperand(src1), MathOperand{tmp, tmpBytes, tmpPos},
                                     framework);
    uint8_t* scratch = SelectScratch("Power");
    const uint64_t bytes = static_cast<uint64_t>(calCount) * sizeof(T);
    {
        ascend_twin::Instr instr("Power", ascend_twin::Pipe::kV);
        if (src0 != nullptr) instr.Read("src0Tensor", twin_detail::TwinData(*src0), bytes);
        if (src1 != nullptr) instr.Read("src1Tensor", twin_detail::TwinData(*src1), bytes);
        if (used != 0) instr.Write("sharedTmpBuffer", tmp, used);
        if (scratch != nullptr) instr.Write("Select's scratch at TMP_UB_OFFSET", scratch, 32);
        instr.Write("dstTensor", twin_detail::TwinData(dstTensor), bytes);
    }
    if (calCount != 0) {
        EvalPower(sizeof(T), std::is_same_v<T, int32_t>, twin_detail::TwinData(dstTensor),
                  src0 != nullptr ? twin_detail::TwinData(*src0) : nullptr, src1 != nullptr ? twin_detail::TwinData(*src1) : nullptr, scalar0,
                  scalar1, calCount);
    }
    if (used != 0) std::memset(tmp, 0xff, used);
    SetMaskNorm();
    ResetMask();
    ascend_twin::CountVec(ascend_twin::VecOp::kPower, calCount, ascend_twin::CountFormRepeats(calCount, sizeof(T)));
}

}  // namespace twin_detail

// tensor ^ tensor
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             uint32_t calCount)
{
    twin_detail::PowerRun<T>(dstTensor, &src0Tensor, nullptr, &src1Tensor, nullptr, &sharedTmpBuffer, calCount);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, uint32_t calCount)
{
    twin_detail::PowerRun<T>(dstTensor, &src0Tensor, nullptr, &src1Tensor, nullptr, nullptr, calCount);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer)
{
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize());
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor)
{
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize());
}

// tensor ^ scalar
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount)
{
    twin_detail::PowerRun<T>(dstTensor, &src0Tensor, nullptr, nullptr, &src1Scalar, &sharedTmpBuffer, calCount);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                             uint32_t calCount)
{
    twin_detail::PowerRun<T>(dstTensor, &src0Tensor, nullptr, nullptr, &src1Scalar, nullptr, calCount);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                             const LocalTensor<uint8_t>& sharedTmpBuffer)
{
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Scalar, sharedTmpBuffer, src0Tensor.GetSize());
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar)
{
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Scalar, src0Tensor.GetSize());
}

// scalar ^ tensor
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount)
{
    twin_detail::PowerRun<T>(dstTensor, nullptr, &src0Scalar, &src1Tensor, nullptr, &sharedTmpBuffer, calCount);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                             uint32_t calCount)
{
    twin_detail::PowerRun<T>(dstTensor, nullptr, &src0Scalar, &src1Tensor, nullptr, nullptr, calCount);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                             const LocalTensor<uint8_t>& sharedTmpBuffer)
{
    Power<T, isReuseSource>(dstTensor, src0Scalar, src1Tensor, sharedTmpBuffer, src1Tensor.GetSize());
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor)
{
    Power<T, isReuseSource>(dstTensor, src0Scalar, src1Tensor, src1Tensor.GetSize());
}

}  // namespace AscendC
