// MulAddDst (include/basic_api/kernel_operator_vec_binary_intf.h, docs: 复合计算/MulAddDst), its count form:
// dst[i] = src0[i] * src1[i] + dst[i], on A2 for (dst, src) = (half, half), (float, float), (float, half);
// computed in float and rounded once to dst's type.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/hazard.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_vec.h"
#include "twin/runtime.h"

namespace AscendC {

template <typename T, typename U>
__aicore__ inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                                 const int32_t& count)
{
    static_assert((std::is_same_v<T, half> && std::is_same_v<U, half>) ||
                      (std::is_same_v<T, float> && std::is_same_v<U, float>) ||
                      (std::is_same_v<T, float> && std::is_same_v<U, half>),
                  "MulAddDst on A2 supports (dst, src) = (half, half), (float, float) and (float, half)");
    constexpr const char* kCall = "MulAddDst";
    twin_detail::CheckCount(kCall, count);
    twin_detail::CheckOperand(kCall, "dst", dst, count);
    twin_detail::CheckOperand(kCall, "src0", src0, count);
    twin_detail::CheckOperand(kCall, "src1", src1, count);
    ascend_twin::Instr instr(kCall, ascend_twin::Pipe::kV);
    instr.Read("src0", twin_detail::TwinData(src0), count * sizeof(U));
    instr.Read("src1", twin_detail::TwinData(src1), count * sizeof(U));
    instr.Read("dst", twin_detail::TwinData(dst), count * sizeof(T));
    instr.Write("dst", twin_detail::TwinData(dst), count * sizeof(T));
    T* d = twin_detail::TwinData(dst);
    const U* a = twin_detail::TwinData(src0);
    const U* b = twin_detail::TwinData(src1);
    for (int32_t i = 0; i < count; ++i) {
        d[i] = static_cast<T>(static_cast<float>(a[i]) * static_cast<float>(b[i]) + static_cast<float>(d[i]));
    }
    ascend_twin::CountVec(ascend_twin::VecOp::kMulAddDst, count,
                          ascend_twin::CountFormRepeats(count, sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U)));
}

}  // namespace AscendC
