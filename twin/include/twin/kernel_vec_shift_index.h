// AddRelu and CreateVecIndex, their count forms ("first count elements") as A2 (dav-2201) has them:
// include/basic_api/kernel_operator_vec_binary_intf.h (AddRelu), kernel_operator_vec_createvecindex_intf.h
// (CreateVecIndex); the dtype lists of impl/basic_api/dav_c220/ and of the docs (复合计算/AddRelu,
// 数据填充/CreateVecIndex). ShiftLeft/ShiftRight are in twin/kernel_vec_shift.h.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/kernel_vec.h"
#include "twin/kernel_vec_more.h"

namespace AscendC {

// dst[i] = max(src0[i] + src1[i], 0) for int16_t, half and float. half adds in float and rounds once; int16_t
// wraps as Add does, the ReLU applies to the wrapped sum.
template <typename T>
__aicore__ inline void AddRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               const int32_t& count)
{
    static_assert(twin_detail::kOneOf<T, int16_t, half, float>, "AddRelu on A2 supports int16_t, half and float");
    twin_detail::Binary("AddRelu", ascend_twin::VecOp::kAddRelu, dst, src0, src1, count, [](auto a, auto b) {
        using C = twin_detail::Compute<T>;
        const C sum = static_cast<C>(static_cast<T>(a + b));  // rounded (half) or wrapped (int16_t) first
        return sum > C(0) ? sum : C(0);
    });
}

// dst[i] = firstValue + i for i < count, as A2 builds it (dav_c220 impl): the first 32-byte block by scalar
// SetValue (in float for half), then each further block of the first repeat as the block before it plus the
// block's element count, and each further repeat as the repeat before it plus the repeat's element count, by
// Adds in T (half rounds at each step past 2048).
template <typename T>
__aicore__ inline void CreateVecIndex(LocalTensor<T> dst, const T& firstValue, uint32_t count)
{
    static_assert(twin_detail::kOneOf<T, int16_t, half, int32_t, float>,
                  "CreateVecIndex on A2 supports int16_t, half, int32_t and float");
    constexpr const char* kCall = "CreateVecIndex";
    if (count > static_cast<uint32_t>(INT32_MAX)) {
        ascend_twin::FailF(kCall, "count fits the vector unit's count register", "count %u", count);
    }
    twin_detail::CheckCount(kCall, count);
    twin_detail::CheckOperand(kCall, "dst", dst, count);
    constexpr uint32_t kBlk = 32 / sizeof(T);
    constexpr uint32_t kRep = 256 / sizeof(T);
    T* d = twin_detail::TwinData(dst);
    const uint32_t head = count < kBlk ? count : kBlk;
    {
        ascend_twin::Instr instr(kCall, ascend_twin::Pipe::kS);
        instr.Write("dst", d, head * sizeof(T));
    }
    for (uint32_t i = 0; i < head; ++i) {
        if constexpr (std::is_same_v<T, half> || std::is_same_v<T, float>) {
            d[i] = static_cast<T>(static_cast<float>(firstValue) + static_cast<float>(i));
        } else {
            d[i] = static_cast<T>(static_cast<int64_t>(firstValue) + static_cast<int64_t>(i));
        }
    }
    if (count <= kBlk) return;
    // One Adds of the dav_c220 impl: n elements from `from` plus inc into `to`, one masked repeat.
    const auto adds = [&](uint32_t to, uint32_t from, uint32_t n, uint32_t inc) {
        ascend_twin::Instr instr(kCall, ascend_twin::Pipe::kV);
        instr.Read("dst", d + from, n * sizeof(T));
        instr.Write("dst", d + to, n * sizeof(T));
        using C = twin_detail::Compute<T>;
        const C step = static_cast<C>(static_cast<T>(static_cast<int32_t>(inc)));
        for (uint32_t k = 0; k < n; ++k) d[to + k] = static_cast<T>(static_cast<C>(d[from + k]) + step);
        ascend_twin::CountVec(ascend_twin::VecOp::kCreateVecIndex, n, 1);
    };
    // Blocks 2 to 8 of the first repeat, each from the block before it.
    const uint32_t blocks = count >= kRep ? kRep / kBlk : count / kBlk;
    for (uint32_t b = 1; b < blocks; ++b) adds(b * kBlk, (b - 1) * kBlk, kBlk, kBlk);
    if (count < kRep && count % kBlk != 0) adds(blocks * kBlk, (blocks - 1) * kBlk, count % kBlk, kBlk);
    if (count <= kRep) return;
    // Repeats 2 to n, each from the repeat before it.
    for (uint32_t r = 1; r < count / kRep; ++r) adds(r * kRep, (r - 1) * kRep, kRep, kRep);
    if (count % kRep != 0) adds(count / kRep * kRep, (count / kRep - 1) * kRep, count % kRep, kRep);
}

}  // namespace AscendC
