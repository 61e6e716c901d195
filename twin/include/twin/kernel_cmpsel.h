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
//  - Select's mask/repeat forms set the mask register from their mask argument whatever isSetMask says:
//    dav_c220's VselImpl calls AscendCUtils::SetMask<T>(mask) without passing isSetMask on (the flag only
//    reaches the CPU debug build's MaskSetter), so isSetMask = false does not keep the register's mask on A2.
//  - Select modes 1 and 2 on A2 write 32 bytes of scratch at TMP_UB_OFFSET = 184 KiB (the docs: "对于模式1和
//    模式2，使用时需要预留8KB的Unified Buffer空间"); the twin checks that the kernel left the top 8 KiB
//    of UB unallocated.
//  - The CMPMASK register (128 bits, per core; docs GetCmpMask(ISASI), SetCmpMask(ISASI), Compare（结果存入寄存
//    器）): SetCmpMask loads 16 bytes of UB into it; the register-result Compare (no dst, no repeatTime: one
//    repeat, half/float, the mask applies) writes bit j for lane j; GetCmpMask stores the 16 bytes. The
//    Select forms without selMask read it: Select<T, SELMODE::VSEL_CMPMASK_SPR> takes the selection bits
//    from it (the first 256 / sizeof(T) in every repeat), Select<T, SELMODE::VSEL_TENSOR_TENSOR_MODE> takes
//    the UB address of selMask from its low 32 bits, and Select<T, U>(dst, selMask, src0, ...) (mode 1)
//    takes the scalar src1 from its first sizeof(T) bytes (the docs load the scalar replicated); their lanes
//    come from the mask register (SetVectorMask). The Select forms with selMask load the register
//    themselves, as dav_c220 does (set_cmpmask): mode 0 with selMask's first 16 bytes, mode 1 with the
//    scalar, mode 2 with selMask's UB address. The twin tracks which bits an instruction defined: lanes a
//    register Compare masked off, bits 64..127 after a float Compare, bytes past a shorter SetCmpMask
//    source and those of its source the launch never wrote are undefined, and a read of them is a violation
//    (the load itself is none: A2's LayerNorm loads a float with the 12 unwritten bytes after it).
//  - SetCmpMask/GetCmpMask operands: 16-byte aligned (docs); SetCmpMask b8/b16/b32/b64, GetCmpMask b8/b16/b32;
//    GetCmpMask writes 16 bytes (the docs' "不能少于128字节" counts the register's 128 bits: their own Compare
//    sample stores it into a 32-byte tensor).
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
    ascend_twin::CheckUbAligned(call, "dst", twin_detail::TwinData(dst));
    ascend_twin::CheckUbAligned(call, "src0", twin_detail::TwinData(src0));
    if (src1T) ascend_twin::CheckUbAligned(call, "src1", twin_detail::TwinData(*src1T));
    if (repeats == 0) return;
    constexpr uint32_t perRepeat = 256 / sizeof(T);
    const uint64_t dstBytes = static_cast<uint64_t>(repeats) * perRepeat / 8;
    CheckHolds(call, "dst (bytes)", static_cast<uint64_t>(dst.GetSize()) * sizeof(U), dstBytes);
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    uint8_t* bits = reinterpret_cast<uint8_t*>(twin_detail::TwinData(dst));
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

// ---- the CMPMASK register ----

inline bool CmpMaskDefined(const ascend_twin::CoreContext& core, uint32_t bit)
{
    return (core.cmpMaskDefined[bit / 64] >> (bit % 64)) & 1u;
}

// Loads bytes[0, n) (n <= 16) into the register; the bits past them, and those of a byte whose bit in `written` is
// clear (a UB byte the launch never wrote), are undefined.
inline void CmpMaskLoad(const uint8_t* bytes, uint32_t n, uint32_t written = 0xffffu)
{
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    std::memset(core.cmpMask, 0, sizeof core.cmpMask);
    std::memcpy(core.cmpMask, bytes, n);
    core.cmpMaskDefined[0] = core.cmpMaskDefined[1] = 0;
    for (uint32_t i = 0; i < n; ++i) {
        if (((written >> i) & 1u) != 0) core.cmpMaskDefined[i / 8] |= 0xffull << (i % 8 * 8);
    }
}

// The register's bit `bit`, which an instruction must have defined.
inline bool CmpMaskBit(const char* call, uint32_t bit)
{
    const ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    if (!CmpMaskDefined(core, bit)) {
        ascend_twin::FailF(call, "the CMPMASK register is read only where an instruction set it",
                           "bit %u of CMPMASK: no SetCmpMask, register-result Compare or Select defined it (a "
                           "Compare lane its mask left out, bits past 256 / sizeof(T), or past a short SetCmpMask "
                           "source)",
                           bit);
    }
    return (core.cmpMask[bit / 8] >> (bit % 8)) & 1u;
}

// The register's first `n` bytes (the scalar of mode 1, the selMask address of mode 2), all defined.
inline const uint8_t* CmpMaskBytes(const char* call, uint32_t n, const char* what)
{
    const ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    for (uint32_t bit = 0; bit < n * 8; ++bit) {
        if (!CmpMaskDefined(core, bit)) {
            ascend_twin::FailF(call, "the CMPMASK register is read only where an instruction set it",
                               "%s is CMPMASK's first %u bytes, and bit %u of them was never set", what, n, bit);
        }
    }
    return core.cmpMask;
}

inline void CheckCmpMaskAligned(const char* call, const char* operand, const void* addr)
{
    const uint64_t off = ascend_twin::UbOffset(addr);
    if (off % 16 != 0) {
        ascend_twin::FailF(call, "SetCmpMask/GetCmpMask operands are 16-byte aligned",
                           "operand '%s' at UB offset %llu", operand, static_cast<unsigned long long>(off));
    }
}

inline bool SelBit(const uint8_t* sel, uint64_t bit) { return (sel[bit / 8] >> (bit % 8)) & 1u; }

// The selection loop: bitOf(instr, r, j) is lane j of repeat r's selection bit (1: src0, 0: src1).
template <typename T, typename BitOf>
void SelectCore(const char* call, ascend_twin::Instr& instr, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                const LocalTensor<T>* src1T, T src1S, const Lanes& lanes, const BinaryRepeatParams& p, BitOf bitOf)
{
    const uint32_t repeats = static_cast<uint32_t>(LaneRepeats(lanes));
    uint64_t active = 0;
    for (uint32_t r = 0; r < repeats; ++r) {
        for (uint32_t j = 0; j < lanes.perRepeat; ++j) {
            if (!lanes.Active(r, j)) continue;
            const bool take0 = bitOf(instr, r, j);
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

// The Select forms with a selMask tensor (modes 0, 1, 2).
template <typename T, typename U>
void SelectLanes(const char* call, const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
                 const LocalTensor<T>& src0, const LocalTensor<T>* src1T, T src1S, SELMODE mode, const Lanes& lanes,
                 const BinaryRepeatParams& p)
{
    CheckSelMode(call, mode);
    ascend_twin::CheckUbAligned(call, "dst", twin_detail::TwinData(dst));
    ascend_twin::CheckUbAligned(call, "selMask", twin_detail::TwinData(selMask));
    ascend_twin::CheckUbAligned(call, "src0", twin_detail::TwinData(src0));
    if (src1T) ascend_twin::CheckUbAligned(call, "src1", twin_detail::TwinData(*src1T));
    uint8_t* scratch = mode == SELMODE::VSEL_CMPMASK_SPR ? nullptr : SelectScratch(call);
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    if (scratch) {
        // The device first duplicates the scalar (mode 1) or selMask's address (mode 2) into the scratch block.
        instr.Write("scratch at TMP_UB_OFFSET", scratch, 32);
        std::memset(scratch, 0, 32);
    }
    const uint8_t* sel = reinterpret_cast<const uint8_t*>(twin_detail::TwinData(selMask));
    const uint64_t selBytes = static_cast<uint64_t>(selMask.GetSize()) * sizeof(U);
    // What the device loads into CMPMASK (set_cmpmask) before the selection.
    uint8_t reg[16] = {};
    if (mode == SELMODE::VSEL_CMPMASK_SPR) {
        const uint32_t n = selBytes < 16 ? static_cast<uint32_t>(selBytes) : 16;
        std::memcpy(reg, sel, n);
        CmpMaskLoad(reg, n);
    } else if (mode == SELMODE::VSEL_TENSOR_SCALAR_MODE) {
        for (uint32_t i = 0; i < 16 / sizeof(T); ++i) std::memcpy(reg + i * sizeof(T), &src1S, sizeof(T));
        CmpMaskLoad(reg, 16);
    } else {
        const uint32_t addr = static_cast<uint32_t>(ascend_twin::UbOffset(sel));
        for (uint32_t i = 0; i < 4; ++i) std::memcpy(reg + i * 4, &addr, 4);
        CmpMaskLoad(reg, 16);
    }
    const uint32_t perRepeat = lanes.perRepeat;
    SelectCore<T>(call, instr, dst, src0, src1T, src1S, lanes, p,
                  [&](ascend_twin::Instr& in, uint32_t r, uint32_t j) {
                      const uint64_t bit =
                          mode == SELMODE::VSEL_CMPMASK_SPR ? j : static_cast<uint64_t>(r) * perRepeat + j;
                      CheckHolds(call, "selMask (bytes)", selBytes, bit / 8 + 1);
                      in.Read("selMask", sel + bit / 8, 1);
                      return SelBit(sel, bit);
                  });
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

// The register-result form: one repeat (256 bytes) of src0 and src1 under the mask, the result in CMPMASK.
namespace twin_detail {
template <typename T>
void CompareToCmpMask(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const Lanes& lanes,
                      const BinaryRepeatParams& p)
{
    CheckCmpMode("Compare", cmpMode, false);
    ascend_twin::CheckUbAligned("Compare", "src0", twin_detail::TwinData(src0));
    ascend_twin::CheckUbAligned("Compare", "src1", twin_detail::TwinData(src1));
    if (lanes.counter && lanes.count > lanes.perRepeat) {
        ascend_twin::FailF("Compare", "the register-result Compare covers one repeat (256 / sizeof(T) elements)",
                           "counter mode with %llu elements of %u bytes; CMPMASK holds %u lanes' bits",
                           static_cast<unsigned long long>(lanes.count), static_cast<uint32_t>(sizeof(T)),
                           lanes.perRepeat);
    }
    ascend_twin::Instr instr("Compare", ascend_twin::Pipe::kV);
    uint8_t bits[16] = {};
    uint64_t defined[2] = {0, 0};
    uint64_t active = 0;
    for (uint32_t j = 0; j < lanes.perRepeat; ++j) {
        if (!lanes.Active(0, j)) continue;
        const T* a = LaneAddr("Compare", "src0", src0, 0, j, p.src0BlkStride, p.src0RepStride);
        const T* b = LaneAddr("Compare", "src1", src1, 0, j, p.src1BlkStride, p.src1RepStride);
        instr.Read("src0", a, sizeof(T));
        instr.Read("src1", b, sizeof(T));
        if (CmpResult<T>(cmpMode, *a, *b)) bits[j / 8] = static_cast<uint8_t>(bits[j / 8] | (1u << (j % 8)));
        defined[j / 64] |= 1ull << (j % 64);
        ++active;
    }
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    std::memcpy(core.cmpMask, bits, sizeof bits);
    core.cmpMaskDefined[0] = defined[0];
    core.cmpMaskDefined[1] = defined[1];
    ascend_twin::CountVec(ascend_twin::VecOp::kCompare, active, 1);
}
}  // namespace twin_detail

#define ASCEND_TWIN_CMP_REG_TYPES                                                                                \
    static_assert(twin_detail::kHalfFloat<T>, "Compare with its result in CMPMASK on A2 compares half and float")

template <typename T, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                               const uint64_t mask[], const BinaryRepeatParams& repeatParams)
{
    ASCEND_TWIN_CMP_REG_TYPES;
    const twin_detail::Lanes lanes = twin_detail::MaskLanes("Compare", sizeof(T), isSetMask, mask, true, 1);
    twin_detail::CompareToCmpMask<T>(src0, src1, cmpMode, lanes, repeatParams);
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                               const uint64_t mask, const BinaryRepeatParams& repeatParams)
{
    ASCEND_TWIN_CMP_REG_TYPES;
    const uint64_t bits[2] = {mask, 0};
    const twin_detail::Lanes lanes = twin_detail::MaskLanes("Compare", sizeof(T), isSetMask, bits, false, 1);
    twin_detail::CompareToCmpMask<T>(src0, src1, cmpMode, lanes, repeatParams);
}
#undef ASCEND_TWIN_CMP_REG_TYPES

// GetCmpMask/SetCmpMask: the CMPMASK register to and from 16 bytes of UB (V pipe).
template <typename T>
__aicore__ inline void GetCmpMask(const LocalTensor<T>& dst)
{
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "GetCmpMask on A2 takes b8, b16 or b32 tensors");
    twin_detail::CheckCmpMaskAligned("GetCmpMask", "dst", twin_detail::TwinData(dst));
    const uint64_t bytes = static_cast<uint64_t>(dst.GetSize()) * sizeof(T);
    if (bytes < 16) {
        ascend_twin::FailF("GetCmpMask", "GetCmpMask writes the 16 bytes of CMPMASK: dst holds at least 16 bytes",
                           "dst holds %llu bytes", static_cast<unsigned long long>(bytes));
    }
    const ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    if (core.cmpMaskDefined[0] == 0 && core.cmpMaskDefined[1] == 0) {
        ascend_twin::FailF("GetCmpMask", "the CMPMASK register is read only where an instruction set it",
                           "no SetCmpMask, register-result Compare or Select ran on this core before");
    }
    ascend_twin::Instr instr("GetCmpMask", ascend_twin::Pipe::kV);
    instr.Write("dst", twin_detail::TwinData(dst), 16);
    std::memcpy(twin_detail::TwinData(dst), core.cmpMask, 16);  // bits no instruction defined read as 0
    ascend_twin::CountVec(ascend_twin::VecOp::kGetCmpMask, 1, 1);
}

template <typename T>
__aicore__ inline void SetCmpMask(const LocalTensor<T>& src)
{
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                  "SetCmpMask on A2 takes b8, b16, b32 or b64 tensors");
    twin_detail::CheckCmpMaskAligned("SetCmpMask", "src", twin_detail::TwinData(src));
    const uint64_t bytes = static_cast<uint64_t>(src.GetSize()) * sizeof(T);
    // The device loads 16 bytes; those past src, and those the launch never wrote, are undefined (a read of their
    // bits is the violation, not the load: A2's LayerNorm loads a row's float value with 12 bytes after it).
    const uint32_t n = bytes < 16 ? static_cast<uint32_t>(bytes) : 16;
    ascend_twin::Instr instr("SetCmpMask", ascend_twin::Pipe::kV);
    const uint32_t written = n > 0 ? instr.ReadWrittenMask("src", twin_detail::TwinData(src), n) : 0;
    twin_detail::CmpMaskLoad(reinterpret_cast<const uint8_t*>(twin_detail::TwinData(src)), n, written);
    ascend_twin::CountVec(ascend_twin::VecOp::kSetCmpMask, 1, 1);
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

namespace twin_detail {
// A2 ignores Select's isSetMask: its mask forms always load the mask argument into the register.
constexpr bool kSelectSetsMask = true;
}  // namespace twin_detail

// Modes 0 and 2 (two tensors).
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams)
{
    twin_detail::CheckSelectTypes<T, U>();
    const twin_detail::Lanes lanes =
        twin_detail::MaskLanes("Select", sizeof(T), twin_detail::kSelectSetsMask, mask, true, repeatTime);
    twin_detail::SelectLanes<T, U>("Select", dst, selMask, src0, &src1, T{}, selMode, lanes, repeatParams);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams)
{
    twin_detail::CheckSelectTypes<T, U>();
    const uint64_t bits[2] = {mask, 0};
    const twin_detail::Lanes lanes =
        twin_detail::MaskLanes("Select", sizeof(T), twin_detail::kSelectSetsMask, bits, false, repeatTime);
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

// Modes 0 and 2 without selMask: mode 0 selects by CMPMASK's bits, mode 2 by the selMask whose UB address
// CMPMASK holds (both set by SetCmpMask, a register-result Compare or an earlier Select). The lanes come
// from the mask register (SetVectorMask).
namespace twin_detail {
inline uint32_t CmpMaskSelAddr(const char* call, uint32_t perRepeat, uint32_t repeats)
{
    uint32_t addr = 0;
    std::memcpy(&addr, CmpMaskBytes(call, 4, "mode 2's selMask address"), 4);
    const uint64_t ub = ascend_twin::CurrentCore().platform->ubSize;
    const uint64_t need = (static_cast<uint64_t>(repeats) * perRepeat + 7) / 8;
    if (addr % 32 != 0 || addr + need > ub) {
        ascend_twin::FailF(call,
                           "Select mode 2 from CMPMASK: the register holds a 32-byte-aligned UB address of selMask",
                           "CMPMASK's low 32 bits are %u; %llu bytes of selMask from there, UB holds %llu", addr,
                           static_cast<unsigned long long>(need), static_cast<unsigned long long>(ub));
    }
    return addr;
}
}  // namespace twin_detail

template <typename T, SELMODE selMode>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                              uint8_t repeatTime, const BinaryRepeatParams& repeatParams)
{
    static_assert(twin_detail::kHalfFloat<T>, "Select on A2 supports half and float");
    static_assert(selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE,
                  "Select<T, selMode>(dst, src0, src1, ...) takes modes 0 and 2; mode 1 without a mask argument is "
                  "Select(dst, selMask, src0, repeatTime, repeatParams) (on A2 this form issues nothing in mode 1)");
    const uint64_t unused[2] = {0, 0};
    const twin_detail::Lanes lanes = twin_detail::MaskLanes("Select", sizeof(T), false, unused, true, repeatTime);
    ascend_twin::CheckUbAligned("Select", "dst", twin_detail::TwinData(dst));
    ascend_twin::CheckUbAligned("Select", "src0", twin_detail::TwinData(src0));
    ascend_twin::CheckUbAligned("Select", "src1", twin_detail::TwinData(src1));
    ascend_twin::Instr instr("Select", ascend_twin::Pipe::kV);
    if constexpr (selMode == SELMODE::VSEL_CMPMASK_SPR) {
        twin_detail::SelectCore<T>("Select", instr, dst, src0, &src1, T{}, lanes, repeatParams,
                                   [](ascend_twin::Instr&, uint32_t, uint32_t j) {
                                       return twin_detail::CmpMaskBit("Select", j);
                                   });
    } else {
        const uint32_t repeats = static_cast<uint32_t>(twin_detail::LaneRepeats(lanes));
        const uint32_t addr = twin_detail::CmpMaskSelAddr("Select", lanes.perRepeat, repeats);
        const uint8_t* sel = ascend_twin::CurrentCore().ub + addr;
        const uint32_t perRepeat = lanes.perRepeat;
        twin_detail::SelectCore<T>("Select", instr, dst, src0, &src1, T{}, lanes, repeatParams,
                                   [sel, perRepeat](ascend_twin::Instr& in, uint32_t r, uint32_t j) {
                                       const uint64_t bit = static_cast<uint64_t>(r) * perRepeat + j;
                                       in.Read("selMask", sel + bit / 8, 1);
                                       return twin_detail::SelBit(sel, bit);
                                   });
    }
}

// Mode 1 without a mask argument: src1 is the scalar in CMPMASK (SetCmpMask of a tensor holding it).
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              uint8_t repeatTime, const BinaryRepeatParams& repeatParams)
{
    twin_detail::CheckSelectTypes<T, U>();
    const uint64_t unused[2] = {0, 0};
    const twin_detail::Lanes lanes = twin_detail::MaskLanes("Select", sizeof(T), false, unused, true, repeatTime);
    ascend_twin::CheckUbAligned("Select", "dst", twin_detail::TwinData(dst));
    ascend_twin::CheckUbAligned("Select", "selMask", twin_detail::TwinData(selMask));
    ascend_twin::CheckUbAligned("Select", "src0", twin_detail::TwinData(src0));
    T src1;
    std::memcpy(&src1, twin_detail::CmpMaskBytes("Select", sizeof(T), "mode 1's scalar src1"), sizeof(T));
    ascend_twin::Instr instr("Select", ascend_twin::Pipe::kV);
    const uint8_t* sel = reinterpret_cast<const uint8_t*>(twin_detail::TwinData(selMask));
    const uint64_t selBytes = static_cast<uint64_t>(selMask.GetSize()) * sizeof(U);
    const uint32_t perRepeat = lanes.perRepeat;
    twin_detail::SelectCore<T>("Select", instr, dst, src0, nullptr, src1, lanes, repeatParams,
                               [&](ascend_twin::Instr& in, uint32_t r, uint32_t j) {
                                   const uint64_t bit = static_cast<uint64_t>(r) * perRepeat + j;
                                   twin_detail::CheckHolds("Select", "selMask (bytes)", selBytes, bit / 8 + 1);
                                   in.Read("selMask", sel + bit / 8, 1);
                                   return twin_detail::SelBit(sel, bit);
                               });
}

// Mode 1 (a tensor and a scalar).
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams)
{
    twin_detail::CheckSelectTypes<T, U>();
    const twin_detail::Lanes lanes =
        twin_detail::MaskLanes("Select", sizeof(T), twin_detail::kSelectSetsMask, mask, true, repeatTime);
    twin_detail::SelectLanes<T, U>("Select", dst, selMask, src0, nullptr, src1, selMode, lanes, repeatParams);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams)
{
    twin_detail::CheckSelectTypes<T, U>();
    const uint64_t bits[2] = {mask, 0};
    const twin_detail::Lanes lanes =
        twin_detail::MaskLanes("Select", sizeof(T), twin_detail::kSelectSetsMask, bits, false, repeatTime);
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
