// Reductions: ReduceSum in its "first count elements" form (Level 2), with the A2 semantics.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "twin/hazard.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_vec.h"
#include "twin/runtime.h"

namespace AscendC {
namespace twin_detail {

// The element types ReduceSum supports on A2: half and float (double only in the float64 twin variant).
template <typename T>
inline constexpr bool kReduceType = std::is_same_v<T, half> || std::is_same_v<T, float>
#if defined(ASCEND_TWIN_ALLOW_FP64)
                                    || std::is_same_v<T, double>
#endif
    ;

// One repeat (256 bytes) summed as a binary tree: pairs of neighbours, then pairs of pairs, ...
template <typename T>
inline Compute<T> RepeatTreeSum(const T* src, uint32_t n)
{
    constexpr uint32_t kRepeat = 256 / sizeof(T);
    // Two buffers, each level reading one and writing the other, so that the pairwise sums vectorise
    // (an in-place level looks to the vectoriser like a dependence).
    Compute<T> lane[kRepeat], half[kRepeat / 2];
    for (uint32_t i = 0; i < kRepeat; ++i) lane[i] = i < n ? static_cast<Compute<T>>(src[i]) : Compute<T>(0);
    Compute<T>* in = lane;
    Compute<T>* out = half;
    for (uint32_t width = kRepeat; width > 1; width /= 2) {
        for (uint32_t i = 0; i < width / 2; ++i) out[i] = static_cast<Compute<T>>(static_cast<T>(in[2 * i] + in[2 * i + 1]));
        Compute<T>* t = in;
        in = out;
        out = t;
    }
    return in[0];
}

}  // namespace twin_detail

// dst[0] = sum of src[0, count). A2 computes the count form as "mode 1" of the API documentation: each
// 256-byte repeat is summed as a binary tree, and the repeats' sums are accumulated in order; the shared
// temporary buffer is not used (any size is accepted) but must be a 32-byte aligned UB tensor. dst needs
// only element alignment. count 0 is a no-op, as on A2.
template <typename T, bool isSetMask = true>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count)
{
    static_assert(twin_detail::kReduceType<T>, "ReduceSum on A2 supports half and float");
    twin_detail::CheckCount("ReduceSum", count);
    twin_detail::CheckOperand("ReduceSum", "src", src, count);
    ascend_twin::CheckUbAligned("ReduceSum", "sharedTmpBuffer", twin_detail::TwinData(sharedTmpBuffer));
    if (dst.GetSize() < 1) ascend_twin::Fail("ReduceSum", "vector operands hold count elements", "dst holds no element");
    if (count == 0) return;
    ascend_twin::Instr instr("ReduceSum", ascend_twin::Pipe::kV);
    instr.Read("src", twin_detail::TwinData(src), static_cast<uint64_t>(count) * sizeof(T));
    instr.Write("dst", twin_detail::TwinData(dst), sizeof(T));
    constexpr uint32_t kRepeat = 256 / sizeof(T);
    const T* s = twin_detail::TwinData(src);
    T acc{};
    for (int64_t i = 0; i < count; i += kRepeat) {
        const uint32_t n = static_cast<uint32_t>(count - i < kRepeat ? count - i : kRepeat);
        const T part = static_cast<T>(twin_detail::RepeatTreeSum(s + i, n));
        acc = i == 0 ? part : static_cast<T>(static_cast<twin_detail::Compute<T>>(acc) +
                                             static_cast<twin_detail::Compute<T>>(part));
    }
    *twin_detail::TwinData(dst) = acc;
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();  // A2: vcadd into ACC_VAL, read back into dst
    core.accVal = 0;
    std::memcpy(&core.accVal, &acc, sizeof(T));
    core.accValBytes = sizeof(T);
    ascend_twin::CountVec(ascend_twin::VecOp::kReduceSum, static_cast<uint64_t>(count),
                          ascend_twin::CountFormRepeats(static_cast<uint64_t>(count), sizeof(T)));
}

// The sum of the core's last count-form ReduceSum (its ACC_VAL register, as the T it was computed in). The docs
// allow it only after that form (约束说明); the twin stops a read before any, or as another type than it summed.
template <typename T>
__aicore__ inline T GetReduceRepeatSumSpr()
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "GetReduceRepeatSumSpr on A2 supports half and float");
    const ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    if (core.accValBytes == 0) {
        ascend_twin::Fail("GetReduceRepeatSumSpr", "reads the sum of a count-form ReduceSum (ReduceSum(dst, src, "
                          "sharedTmpBuffer, count)) run before it on the core", "no such ReduceSum ran on this core");
    }
    if (core.accValBytes != sizeof(T)) {
        ascend_twin::FailF("GetReduceRepeatSumSpr", "T is the type the count-form ReduceSum summed in",
                           "T has %zu bytes, the ReduceSum's %u", sizeof(T), static_cast<unsigned>(core.accValBytes));
    }
    T v;
    std::memcpy(&v, &core.accVal, sizeof(T));
    return v;
}

// GetAccVal has been updated, please use GetReduceRepeatSumSpr instead (its older name).
template <typename T>
__aicore__ inline T GetAccVal()
{
    return GetReduceRepeatSumSpr<T>();
}

}  // namespace AscendC
