// ArithProgression and Arange, the index API of the advanced library (高阶API/索引计算): dst[i] = firstValue +
// i * diffValue for i < count. Kernels include it as "lib/index/arithprogression.h" (asc-devkit
// include/adv_api/index/arithprogression.h, which declares Arange; on A2 its implementation
// impl/adv_api/detail/index/arithprogression/arithprogression_common_impl.h defines ArithProgression, which the
// kernels of ops-math, ops-nn, vllm-ascend and sgl-kernel-npu call); A2's kernel_operator.h includes it.
//
// The values are A2's, computed the way its implementation computes them, so rounding matches: a count of at
// most one 32-byte block (8 float/int32_t, 16 half/int16_t) is written by the scalar unit as firstValue +
// diffValue * i (half through float); a longer one gets that first block by the scalar unit, then the vector
// unit adds diffValue * (elements per block) block after block, and beyond one 256-byte repeat adds
// diffValue * (elements per repeat) repeat after repeat (integer steps computed in 64 bits, float steps in
// float), each add in T. Those vector adds cover count rounded up to a whole block (the tail's mask is
// rounded up), as on the device: the bytes up to the block boundary are written too.
// Recorded for the hazard detector as the scalar writes (S pipe) and one V-pipe instruction for the adds;
// counted as VecOp::kArithProgression (the vector part's element-ops, one repeat per Adds A2 issues). Like
// A2's implementation it changes the vector mask (normal mode assumed): to the first block's lanes when
// count fits one 256-byte repeat, else to the tail rounded up to a block (full when there is no tail).
//
// Rules (each error names it): T int16_t, half, int32_t or float (compile time, A2's table); count > 0;
// diffValue >= 0 (docs); dst at VECIN/VECCALC/VECOUT, 32-byte aligned, holding count elements; a TPipe exists
// when count exceeds one block (A2's implementation takes its S->V event from GetTPipePtr()).
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/hazard.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_tpipe.h"
#include "twin/kernel_vec_repeat.h"
#include "twin/runtime.h"

namespace AscendC {
namespace twin_detail {

// Checks the rules above (value = the float value of diffValue) and returns the bytes the call writes.
uint64_t CheckArithProgression(const char* call, const void* dst, uint64_t dstBytes, TPosition pos, uint32_t typeSize,
                               double diffValue, int32_t count, bool hasPipe);

template <typename T>
inline T ArithStep(T diffValue, int32_t stepNum)
{
    if constexpr (std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t>) {
        return static_cast<T>(static_cast<int64_t>(diffValue) * static_cast<int64_t>(stepNum));
    } else {
        return static_cast<T>(static_cast<float>(diffValue) * static_cast<float>(stepNum));
    }
}

template <typename T>
inline T ArithAdd(T a, T b)
{
    if constexpr (std::is_same_v<T, half>) return half(static_cast<float>(a) + static_cast<float>(b));
    else if constexpr (std::is_same_v<T, float>) return a + b;
    else return static_cast<T>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));  // wraps as the ALU does
}

template <typename T>
inline T ArithBase(T firstValue, T diffValue, int32_t i)
{
    if constexpr (std::is_same_v<T, half>) {
        return half(static_cast<float>(firstValue) + static_cast<float>(diffValue) * static_cast<float>(i));
    } else if constexpr (std::is_same_v<T, float>) {
        return firstValue + diffValue * static_cast<float>(i);
    } else {
        return static_cast<T>(static_cast<int64_t>(firstValue) + static_cast<int64_t>(diffValue) * i);
    }
}

template <typename T>
inline void ArithProgressionRun(const char* call, const LocalTensor<T>& dstLocal, const T firstValue,
                                const T diffValue, const int32_t count)
{
    static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, half> || std::is_same_v<T, int32_t> ||
                      std::is_same_v<T, float>,
                  "ArithProgression on A2 supports int16_t, half, int32_t and float");
    constexpr int32_t kBlock = 32 / sizeof(T);
    constexpr int32_t kRepeat = 256 / sizeof(T);
    const uint64_t written =
        CheckArithProgression(call, twin_detail::TwinData(dstLocal), static_cast<uint64_t>(dstLocal.GetSize()) * sizeof(T),
                              twin_detail::TwinPosition(dstLocal), sizeof(T), static_cast<double>(static_cast<float>(diffValue)),
                              count, GetTPipePtr() != nullptr);
    T* d = twin_detail::TwinData(dstLocal);
    const int32_t scalarCount = count > kBlock ? kBlock : count;
    ascend_twin::Instr(call, ascend_twin::Pipe::kS).Write("dstLocal", d, static_cast<uint64_t>(scalarCount) * sizeof(T));
    for (int32_t i = 0; i < scalarCount; ++i) d[i] = ArithBase(firstValue, diffValue, i);
    if (count <= kBlock) return;
    {
        ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
        instr.Read("dstLocal", d, kBlock * sizeof(T));
        instr.Write("dstLocal", d + kBlock, written - kBlock * sizeof(T));
    }
    uint64_t adds = 0;
    const T blockStep = ArithStep(diffValue, kBlock);
    if (count > kRepeat) {
        for (int32_t b = 1; b < kRepeat / kBlock; ++b, ++adds) {
            for (int32_t j = 0; j < kBlock; ++j) d[b * kBlock + j] = ArithAdd(d[(b - 1) * kBlock + j], blockStep);
        }
        const T repeatStep = ArithStep(diffValue, kRepeat);
        const int32_t repeats = count / kRepeat;
        const int32_t tail = count % kRepeat;
        for (int32_t r = 1; r < repeats; ++r, ++adds) {
            for (int32_t j = 0; j < kRepeat; ++j) d[r * kRepeat + j] = ArithAdd(d[(r - 1) * kRepeat + j], repeatStep);
        }
        if (tail > 0) {
            const int32_t tailAligned = (tail + kBlock - 1) / kBlock * kBlock;
            for (int32_t j = 0; j < tailAligned; ++j) {
                d[repeats * kRepeat + j] = ArithAdd(d[(repeats - 1) * kRepeat + j], repeatStep);
            }
            ++adds;
        }
    } else {
        const int32_t blocks = (count + kBlock - 1) / kBlock;
        for (int32_t b = 1; b < blocks; ++b, ++adds) {
            for (int32_t j = 0; j < kBlock; ++j) d[b * kBlock + j] = ArithAdd(d[(b - 1) * kBlock + j], blockStep);
        }
    }
    // The vector mask as A2's implementation leaves it: the first block's lanes when count fits one repeat,
    // else full, or the tail rounded up to a block when there is one.
    if (count <= kRepeat) {
        SetVectorMask<T>(0, (static_cast<uint64_t>(1) << kBlock) - 1);
    } else {
        ResetMask();
        if (count % kRepeat != 0) SetVectorMask<T>((count % kRepeat + kBlock - 1) / kBlock * kBlock);
    }
    ascend_twin::CountVec(ascend_twin::VecOp::kArithProgression, static_cast<uint64_t>(count - kBlock), adds);
}

}  // namespace twin_detail

template <typename T>
__aicore__ inline void ArithProgression(const LocalTensor<T>& dstLocal, const T firstValue, const T diffValue,
                                        const int32_t count)
{
    twin_detail::ArithProgressionRun<T>("ArithProgression", dstLocal, firstValue, diffValue, count);
}

template <typename T>
__aicore__ inline void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count)
{
    twin_detail::ArithProgressionRun<T>("Arange", dst, firstValue, diffValue, count);
}

}  // namespace AscendC
