// Xor of the advanced math library (高阶API/数学计算/Xor), A2 forms: `template <typename T, bool isReuseSource = false>`
// Xor(dst, src0, src1, sharedTmpBuffer, calCount), Xor(dst, src0, src1, sharedTmpBuffer) (over src0's size),
// Xor(dst, src0, src1, calCount) and Xor(dst, src0, src1) (the framework's buffer: the UB after the TPipe's buffers).
// Kernels include it as "lib/math/xor.h" (asc-devkit include/adv_api/math/xor.h); A2's kernel_operator.h includes
// it. Checked against the header, A2's implementation (impl/adv_api/detail/math/xor/xor_membase_impl.h: And, Or, Not
// and And through sharedTmpBuffer, in parts of the buffer's size rounded down to 32 elements) and the docs.
//
// dst[i] = src0[i] ^ src1[i], T int16_t or uint16_t (static_assert, A2's). One V instruction reading both sources,
// writing the temporary buffer's part A2 uses (left as NaN bytes) and dst, counted as VecOp::kXor; the mask is left
// normal and full, as A2 leaves it.
//
// Rules (the error names each): operands at VECIN/VECCALC/VECOUT, 32-byte aligned; calCount within dst, src0 and
// src1 (without calCount src0 and src1 the same size: A2's CPU-debug check); dst overlaps neither source (docs:
// 不支持源操作数与目的操作数地址重叠; A2 writes dst before it reads the sources a second time); sharedTmpBuffer holds
// GetXorMaxMinTmpSize's minimum, 256 bytes (A2 splits the work into parts of the buffer's size rounded down to 32
// elements: below 64 bytes it divides by zero) and overlaps no operand.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/kernel_adv_math.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_tpipe.h"

namespace AscendC {
namespace twin_detail {

void XorRun(const MathOperand& dst, const MathOperand& src0, const MathOperand& src1, const MathOperand& tmp,
            bool framework, bool sameSizeRule, uint32_t calCount);

template <typename T>
inline void XorForm(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                    const LocalTensor<uint8_t>* sharedTmpBuffer, bool hasCount, uint32_t calCount)
{
    static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>,
                  "Failed to check the data types, current api support data types are int16_t/uint16_t.");
    const auto op = [](const auto& t, uint64_t elem) {
        return MathOperand{TwinData(t), static_cast<uint64_t>(t.GetSize()) * elem, TwinPosition(t)};
    };
    MathOperand tmp{};
    if (sharedTmpBuffer != nullptr) {
        tmp = op(*sharedTmpBuffer, 1);
    } else {
        TPipe* pipe = GetTPipePtr();
        uint64_t bytes = 0;
        uint8_t* p = AdvFrameworkTmp("Xor", pipe, pipe == nullptr ? 0 : TwinUbEnd(*pipe), bytes);
        tmp = MathOperand{p, bytes, TPosition::VECCALC};
    }
    XorRun(op(dst, sizeof(T)), op(src0, sizeof(T)), op(src1, sizeof(T)), tmp, sharedTmpBuffer == nullptr, !hasCount,
           hasCount ? calCount : src0.GetSize());
}

}  // namespace twin_detail

template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const uint32_t calCount)
{
    twin_detail::XorForm<T>(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, true, calCount);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer)
{
    twin_detail::XorForm<T>(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, false, 0);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor, const uint32_t calCount)
{
    twin_detail::XorForm<T>(dstTensor, src0Tensor, src1Tensor, nullptr, true, calCount);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor)
{
    twin_detail::XorForm<T>(dstTensor, src0Tensor, src1Tensor, nullptr, false, 0);
}

}  // namespace AscendC
