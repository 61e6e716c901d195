// The two-input elementwise functions of the advanced API that share one shape of rules: SwiGLU and GeGLU (the
// GLU variants, 高阶API/激活函数) and Fmod (高阶API/数学计算). Their forms: twin/kernel_adv_swiglu.h (SwiGLU),
// twin/kernel_adv_more.h (GeGLU, Fmod). Each call is one V instruction reading both sources, writing the
// temporary buffer's used part (left as NaN bytes afterwards) and dst, counted as its VecOp; the mask is left
// normal and full, as A2 leaves it.
//
// Numerics (each in double unless A2's documented algorithm rounds on the way):
//   SwiGLU  dst = src0 * src1 / (1 + e^(-beta src1)), rounded once (half: through float, as A2 computes it).
//   GeGLU   dst = src0 * src1 / (1 + e^(a src1 (src1^2 + b))), a = -0.0713548162726 and b = 22.363860002236 as
//           floats (A2's COEFF0/COEFF1; the tanh form of Gelu), rounded once.
//   Fmod    dst = src0 - trunc(src0 / src1) * src1 as A2 evaluates it: in float, the quotient, its product with
//           src1 and the difference each rounded to float (half: the operands cast to float first, the result
//           cast back). It is not C's exact fmod: large quotients lose what float rounding loses.
//
// Rules (each error names the API and the argument): T half/float (compile time); operands at VECIN/VECCALC/
// VECOUT, 32-byte aligned; src0 and src1 hold the same number of elements (A2's checks; Fmod's docs:
// 源操作数src0Tensor与src1Tensor的数据长度必须保持一致); calCount <= what src0 and dst hold; dst overlaps neither
// source (docs: 不支持源操作数与目的操作数地址重叠); sharedTmpBuffer holds GetXxxMaxMinTmpSize's minimum (the
// framework form: the UB after the TPipe's buffers, up to its last 128 bytes) and overlaps no operand. Minimums:
// SwiGLU half 6 * 256, float 0; GeGLU half 4 * 256, float 0; Fmod float 256, half 8 * 256.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "twin/adv_math_tmp_size.h"
#include "twin/kernel_adv_math.h"

namespace AscendC {
namespace twin_detail {

enum class AdvBinaryFn : uint8_t { kSwiGLU, kGeGLU, kFmod };

// Checks the rules above and returns the temporary bytes A2's implementation writes.
uint64_t CheckAdvBinary(AdvBinaryFn fn, uint32_t typeSize, uint32_t calCount, const MathOperand& dst,
                        const MathOperand& src0, const MathOperand& src1, const MathOperand& tmp, bool framework);

void EvalAdvBinary(AdvBinaryFn fn, uint32_t typeSize, void* dst, const void* src0, const void* src1, float beta,
                   uint32_t n);

const char* AdvBinaryName(AdvBinaryFn fn);

template <typename T>
inline void AdvBinaryRun(AdvBinaryFn fn, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                         const LocalTensor<T>& src1, float beta, const LocalTensor<uint8_t>* sharedTmpBuffer,
                         uint32_t calCount)
{
    const char* call = AdvBinaryName(fn);
    uint8_t* tmp = nullptr;
    uint64_t tmpBytes = 0;
    TPosition tmpPos = TPosition::VECCALC;
    const bool framework = sharedTmpBuffer == nullptr;
    if (framework) {
        TPipe* pipe = GetTPipePtr();
        tmp = AdvFrameworkTmp(call, pipe, pipe == nullptr ? 0 : twin_detail::TwinUbEnd(*pipe), tmpBytes);
    } else {
        tmp = twin_detail::TwinData(*sharedTmpBuffer);
        tmpBytes = sharedTmpBuffer->GetSize();
        tmpPos = twin_detail::TwinPosition(*sharedTmpBuffer);
    }
    const auto op = [](const LocalTensor<T>& t) {
        return MathOperand{twin_detail::TwinData(t), static_cast<uint64_t>(t.GetSize()) * sizeof(T), twin_detail::TwinPosition(t)};
    };
    const uint64_t used =
        CheckAdvBinary(fn, sizeof(T), calCount, op(dst), op(src0), op(src1), MathOperand{tmp, tmpBytes, tmpPos}, framework);
    const uint64_t bytes = static_cast<uint64_t>(calCount) * sizeof(T);
    {
        ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
        instr.Read("srcTensor0", twin_detail::TwinData(src0), bytes);
        instr.Read("srcTensor1", twin_detail::TwinData(src1), bytes);
        if (used != 0) instr.Write("sharedTmpBuffer", tmp, used);
        instr.Write("dstTensor", twin_detail::TwinData(dst), bytes);
    }
    if (calCount != 0) {
        EvalAdvBinary(fn, sizeof(T), twin_detail::TwinData(dst), twin_detail::TwinData(src0), twin_detail::TwinData(src1),
                      beta, calCount);
    }
    if (used != 0) std::memset(tmp, 0xff, used);
    SetMaskNorm();
    ResetMask();
    const ascend_twin::VecOp vop = fn == AdvBinaryFn::kSwiGLU  ? ascend_twin::VecOp::kSwiGLU
                                   : fn == AdvBinaryFn::kGeGLU ? ascend_twin::VecOp::kGeGLU
                                                               : ascend_twin::VecOp::kFmod;
    ascend_twin::CountVec(vop, calCount, ascend_twin::CountFormRepeats(calCount, sizeof(T)));
}

}  // namespace twin_detail
}  // namespace AscendC
