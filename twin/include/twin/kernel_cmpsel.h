// Compare, Compares/CompareScalar and Select (include/basic_api/kernel_operator_vec_cmpsel_intf.h,
// dav_c220/kernel_operator_vec_cmp_impl.h and kernel_operator_vec_cmpsel_impl.h, docs 比较与选择/Compare,
// Compares, Select), with the A2 rules:
//  - Compare/Compares write one bit per element into a uint8_t (int8_t) dst, little-endian bit order; the
//    bits of consecutive repeats are contiguous (256 / sizeof(T) / 8 bytes per repeat: the count form's own
//    repeat loop in dav_c220 relies on it), so dst strides do not move them. On A2 the mask arguments of
//    the mask/repeat forms are "reserved, no effect": every lane of every repeat is compared.
//  - The count forms need count * sizeof(T) to be a multiple of 256 bytes (docs: "需要保证count个元素所占
//    空间256字节对齐"); the twin stops otherwise.
//  - dtypes: T half/float (every CMPMODE) or int32_t (CMPMODE::EQ only, checked at run time since the mode
//    is a run-time value); U int8_t/uint8_t for Compare, uint8_t for Compares/CompareScalar.
//  - Select: bit 1 takes src0, bit 0 takes src1. Mode 0 (VSEL_CMPMASK_SPR) uses the first 256 / sizeof(T)
//    bits of selMask in every repeat; modes 1 (tensor, scalar) and 2 (tensor, tensor) consume the bits
//    repeat after repeat. Masked-off lanes keep dst. T half/float, U uint8_t/uint16_t/uint32_t/uint64_t.
//  - Select modes 1 and 2 on A2 write 32 bytes of scratch at TMP_UB_OFFSET = 184 KiB (the docs: "对于模式1和
//    模式2，使用时需要预留8KB的Unified Buffer空间"); the twin checks that the kernel left the top 8 KiB
//    of UB unallocated.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "twin/hazard.h"
#include "twin/kernel_reduce_repeat.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_vec_repeat.h"
#include "twin/runtime.h"

namespace AscendC {

enum class CMPMODE : uint8_t {
    LT = 0,
    GT,
    EQ,
    LE,
    GE,
    NE,
};

enum class SELMODE : uint8_t {
    VSEL_CMPMASK_SPR = 0,
    VSEL_TENSOR_SCALAR_MODE,
    VSEL_TENSOR_TENSOR_MODE,
};

namespace twin_detail {

void CheckCmpMode(const char* call, CMPMODE mode, bool isInt32);
void CheckCountWholeRepeats(const char* call, uint64_t count, uint32_t elemSize);
void CheckSelMode(const char* call, SELMODE mode);
// Select modes 1 and 2: the scratch block at TMP_UB_OFFSET must not be UB the kernel allocated.
uint8_t* SelectScratch(const char* call);

template <typename T>
inline bool CmpResult(CMPMODE mode, T a, T b)
{
    const Compute<T> x = static_cast<Compute<T>>(a), y = static_cast<Compute<T>>(b);
    switch (mode) {
        case CMPMODE::LT: return x < y;
        case CMPMODE::GT: return x > y;
        case CMPMODE::EQ: return x == y;
        case CMPMODE::LE: return x <= y;
        case CMPMODE::GE: return x >= y;
        default: return x != y;
    }
}

template <typename T>
inline constexpr bool kCmpType = kOneOf<T, half, float, int32_t>;

// Compares every lane of `repeats` repeats; src1 is a tensor (src1T) or a scalar.
template <typename T, typename U>
void CompareLanes(const char* call, ascend_twin::VecOp op, const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                  const LocalTensor<T>* src1T, T src1S, CMPMODE mode, uint32_t repeats, uint32_t blk0, uint32_t rep0,
                  uint32_t blk1, uint32_t rep1)
{
    CheckCmpMode(call, mode, std::is_same_v<T, int32_t>);
    ascend_twin::CheckUbAligned(call, "dst", dst.TwinData());
    ascend_twin::CheckUbAligned(call, "src0", src0.TwinData());
    if (src1T) ascend_twin::CheckUbAligned(call, "src1", src1T->TwinData());
    if (repeats == 0) return;
    constexpr uint32_t perRepeat = 256 / sizeof(T);
    const uint64_t dstBytes = static_cast<uint64_t>(repeats) * perRepeat / 8;
    CheckHolds(call, "dst (bytes)", static_cast<uint64_t>(dst.GetSize()) * sizeof(U), dstBytes);
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    uint8_t* bits = reinterpret_cast<uint8_t*>(dst.TwinData());
    uint8_t out[256 / 8 / 2] = {};
    for (uint32_t r = 0; r < repeats; ++r) {
        std::memset(out, 0, sizeof out);
        for (uint32_t j = 0; j < perRepeat; ++j) {
            const T* a = LaneAddr(call, "src0", src0, r, j, blk0, rep0);
            instr.Read("src0", a, sizeof(T));
            T b = src1S;
            if (src1T) {
                const T* p = LaneAddr(call, "src1", *src1T, r, j, blk1, rep1);
                instr.Read("src1", p, sizeof(T));
                b = *p;
            }
            if (CmpResult<T>(mode, *a, b)) out[j / 8] = static_cast<uint8_t>(out[j / 8] | (1u << (j % 8)));
        }
        instr.Write("dst", bits + r * (perRepeat / 8), perRepeat / 8);
        std::memcpy(bits + r * (perRepeat / 8), out, perRepeat / 8);
    }
    ascend_twin::CountVec(op, static_cast<uint64_t>(repeats) * perRepeat, repeats);
}

inline bool SelBit(const uint8_t* sel, uint64_t bit) { return (sel[bit / 8] >> (bit % 8)) & 1u; }

template <typename T, typename U>
void SelectLanes(const char* call, const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
                 const LocalTensor<T>& src0, const LocalTensor<T>* src1T, T src1S, SELMODE mode, const Lanes& lanes,
                 const BinaryRepeatParams& p)
{
    CheckSelMode(call, mode);
    ascend_twin::CheckUbAligned(call, "dst", dst.TwinData());
    ascend_twin::CheckUbAligned(call, "selMask", selMask.TwinData());
    ascend_twin::CheckUbAligned(call, "src0", src0.TwinData());
    if (src1T) ascend_twin::CheckUbAligned(call, "src1", src1T->TwinData());
    uint8_t* scratch = mode == SELMODE::VSEL_CMPMASK_SPR ? nullptr : SelectScratch(call);
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    if (scratch) {
        // The device first duplicates the scalar (mode 1) or selMask's address (mode 2) into the scratch block.
        instr.Write("scratch at TMP_UB_OFFSET", scratch, 32);
        std::memset(scratch, 0, 32);
    }
    const uint8_t* sel = reinterpret_cast<const uint8_t*>(selMask.TwinData());
    const uint64_t selBytes = static_cast<uint64_t>(selMask.GetSize()) * sizeof(U);
    const uint32_t repeats = static_cast<uint32_t>(LaneRepeats(lanes));
    uint64_t active = 0;
    for (uint32_t r = 0; r < repeats; ++r) {
        for (uint32_t j = 0; j < lanes.perRepeat; ++j) {
            if (!lanes.Active(r, j)) continue;
            const uint64_t bit =
                mode == SELMODE::VSEL_CMPMASK_SPR ? j : static_cast<uint64_t>(r) * lanes.perRepeat + j;
            CheckHolds(call, "selMask (bytes)", selBytes, bit / 8 + 1);
            instr.Read("selMask", sel + bit / 8, 1);
            const bool take0 = SelBit(sel, bit);
            T v = src1S;
            if (take0) {
                const T* a = LaneAddr(call, "src0", src0, r, j, p.src0BlkStride, p.src0RepStride);
                instr.Read("src0", a, sizeof(T));
                v = *a;
            } else if (src1T) {
                const T* b = LaneAddr(call, "src1", *src1T, r, j, p.src1BlkStride, p.src1RepStride);
                instr.Read("src1", b, sizeof(T));
                v = *b;
            }
            T* d = LaneAddr(call, "dst", dst, r, j, p.dstBlkStride, p.dstRepStride);
            instr.Write("dst", d, sizeof(T));
            *d = v;
            ++active;
        }
    }
    ascend_twin::CountVec(ascend_twin::VecOp::kSelect, active, repeats);
}

template <typename T, typename U>
inline void CheckSelectTypes()
{
    static_assert(kHalfFloat<T>, "Select on A2 supports half and float");
    static_assert(kOneOf<U, uint8_t, uint16_t, uint32_t, uint64_t>,
                  "Select's selMask on A2 is uint8_t, uint16_t, uint32_t or uint64_t");
}

template <typename T>
inline Lanes CountLanes(uint32_t count)
{
    Lanes lanes;
    lanes.perRepeat = 256 / sizeof(T);
    lanes.counter = true;
    lanes.count = count;
    return lanes;
}

}  // namespace twin_detail

// ---- Compare ---------------------------------------------------------------------------------------------

#define ASCEND_TWIN_CMP_TYPES(NAME, ...)                                                                    \
    static_assert(twin_detail::kCmpType<T>, NAME " on A2 compares half, float and int32_t (EQ only)");       \
    static_assert(twin_detail::kOneOf<U, __VA_ARGS__>, NAME " on A2 writes its bits to " #__VA_ARGS__)

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime,
                               const BinaryRepeatParams& repeatParams)
{
    ASCEND_TWIN_CMP_TYPES("Compare", int8_t, uint8_t);
    (void)mask;  // reserved on A2
    twin_detail::CompareLanes<T, U>("Compare", ascend_twin::VecOp::kCompare, dst, src0, &src1, T{}, cmpMode, repeatTime,
                                    repeatParams.src0BlkStride, repeatParams.src0RepStride, repeatParams.src1BlkStride,
                                    repeatParams.src1RepStride);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTime,
                               const BinaryRepeatParams& repeatParams)
{
    ASCEND_TWIN_CMP_TYPES("Compare", int8_t, uint8_t);
    (void)mask;  // reserved on A2
    twin_detail::CompareLanes<T, U>("Compare", ascend_twin::VecOp::kCompare, dst, src0, &src1, T{}, cmpMode, repeatTime,
                                    repeatParams.src0BlkStride, repeatParams.src0RepStride, repeatParams.src1BlkStride,
                                    repeatParams.src1RepStride);
}

template <typename T, typename U>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE cmpMode, uint32_t count)
{
    ASCEND_TWIN_CMP_TYPES("Compare", int8_t, uint8_t);
    twin_detail::CheckCount("Compare", count);
    twin_detail::CheckCountWholeRepeats("Compare", count, sizeof(T));
    twin_detail::CheckOperand("Compare", "src0", src0, count);
    twin_detail::CheckOperand("Compare", "src1", src1, count);
    twin_detail::CompareLanes<T, U>("Compare", ascend_twin::VecOp::kCompare, dst, src0, &src1, T{}, cmpMode,
                                    static_cast<uint32_t>(static_cast<uint64_t>(count) * sizeof(T) / 256), 1, 8, 1, 8);
}

#define ASCEND_TWIN_COMPARES(NAME)                                                                               \
    template <typename T, typename U, bool isSetMask = true>                                                    \
    __aicore__ inline void NAME(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,       \
                                CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime,                      \
                                const UnaryRepeatParams& repeatParams)                                           \
    {                                                                                                            \
        ASCEND_TWIN_CMP_TYPES(#NAME, uint8_t);                                                                   \
        (void)mask;                                                                                              \
        twin_detail::CompareLanes<T, U>(#NAME, ascend_twin::VecOp::kCompareScalar, dst, src0, nullptr, src1Scalar, \
                                        cmpMode, repeatTime, repeatParams.srcBlkStride, repeatParams.srcRepStride, 0, \
                                        0);                                                                      \
    }                                                                                                            \
    template <typename T, typename U, bool isSetMask = true>                                                    \
    __aicore__ inline void NAME(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,       \
                                CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTime,                        \
                                const UnaryRepeatParams& repeatParams)                                           \
    {                                                                                                            \
        ASCEND_TWIN_CMP_TYPES(#NAME, uint8_t);                                                                   \
        (void)mask;                                                                                              \
        twin_detail::CompareLanes<T, U>(#NAME, ascend_twin::VecOp::kCompareScalar, dst, src0, nullptr, src1Scalar, \
                                        cmpMode, repeatTime, repeatParams.srcBlkStride, repeatParams.srcRepStride, 0, \
                                        0);                                                                      \
    }                                                                                                            \
    template <typename T, typename U>                                                                            \
    __aicore__ inline void NAME(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,       \
                                CMPMODE cmpMode, uint32_t count)                                                 \
    {                                                                                                            \
        ASCEND_TWIN_CMP_TYPES(#NAME, uint8_t);                                                                   \
        twin_detail::CheckCount(#NAME, count);                                                                   \
        twin_detail::CheckCountWholeRepeats(#NAME, count, sizeof(T));                                            \
        twin_detail::CheckOperand(#NAME, "src0", src0, count);                                                   \
        twin_detail::CompareLanes<T, U>(#NAME, ascend_twin::VecOp::kCompareScalar, dst, src0, nullptr, src1Scalar, \
                                        cmpMode, static_cast<uint32_t>(static_cast<uint64_t>(count) * sizeof(T) / 256), \
                                        1, 8, 0, 0);                                                             \
    }

ASCEND_TWIN_COMPARES(Compares)
ASCEND_TWIN_COMPARES(CompareScalar)
#undef ASCEND_TWIN_COMPARES
#undef ASCEND_TWIN_CMP_TYPES

// ---- Select ----------------------------------------------------------------------------------------------

// Modes 0 and 2 (two tensors).
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams)
{
    twin_detail::CheckSelectTypes<T, U>();
    const twin_detail::Lanes lanes = twin_detail::MaskLanes("Select", sizeof(T), isSetMask, mask, true, repeatTime);
    twin_detail::SelectLanes<T, U>("Select", dst, selMask, src0, &src1, T{}, selMode, lanes, repeatParams);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams)
{
    twin_detail::CheckSelectTypes<T, U>();
    const uint64_t bits[2] = {mask, 0};
    const twin_detail::Lanes lanes = twin_detail::MaskLanes("Select", sizeof(T), isSetMask, bits, false, repeatTime);
    twin_detail::SelectLanes<T, U>("Select", dst, selMask, src0, &src1, T{}, selMode, lanes, repeatParams);
}

template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint32_t count)
{
    twin_detail::CheckSelectTypes<T, U>();
    twin_detail::CheckCount("Select", count);
    twin_detail::CheckOperand("Select", "dst", dst, count);
    twin_detail::CheckOperand("Select", "src0", src0, count);
    twin_detail::CheckOperand("Select", "src1", src1, count);
    if (count == 0) return;
    twin_detail::SelectLanes<T, U>("Select", dst, selMask, src0, &src1, T{}, selMode,
                                   twin_detail::CountLanes<T>(count), BinaryRepeatParams());
}

// Mode 1 (a tensor and a scalar).
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams)
{
    twin_detail::CheckSelectTypes<T, U>();
    const twin_detail::Lanes lanes = twin_detail::MaskLanes("Select", sizeof(T), isSetMask, mask, true, repeatTime);
    twin_detail::SelectLanes<T, U>("Select", dst, selMask, src0, nullptr, src1, selMode, lanes, repeatParams);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams)
{
    twin_detail::CheckSelectTypes<T, U>();
    const uint64_t bits[2] = {mask, 0};
    const twin_detail::Lanes lanes = twin_detail::MaskLanes("Select", sizeof(T), isSetMask, bits, false, repeatTime);
    twin_detail::SelectLanes<T, U>("Select", dst, selMask, src0, nullptr, src1, selMode, lanes, repeatParams);
}

template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE selMode, uint32_t count)
{
    twin_detail::CheckSelectTypes<T, U>();
    twin_detail::CheckCount("Select", count);
    twin_detail::CheckOperand("Select", "dst", dst, count);
    twin_detail::CheckOperand("Select", "src0", src0, count);
    if (count == 0) return;
    twin_detail::SelectLanes<T, U>("Select", dst, selMask, src0, nullptr, src1, selMode,
                                   twin_detail::CountLanes<T>(count), BinaryRepeatParams());
}

}  // namespace AscendC
