// Cast between element types: the A2 conversion table (dav_c220/kernel_operator_vec_vconv_impl.h,
// CheckCastDatatype; Cast docs, A2 table), each pair's round modes, and the docs' conversion rules
// (数据结构/precision_conversion.md): CAST_NONE rounds as CAST_RINT where the conversion loses precision;
// a value outside the destination's range saturates; half -> uint8_t of a negative value is an exception.
// Forms: the count form and the mask/repeat forms (bitwise and continuous mask, UnaryRepeatParams). One
// repeat covers 256 bytes of the wider type (docs: the mask counts in the larger sizeof), the narrower
// operand fills fewer blocks (e.g. half -> float: src 4 blocks, srcRepStride 4 for contiguous data).
// int32_t -> half (vconv_deq): dst = src * scale, the scale being the half in bits 0..15 of the DEQSCALE
// register that SetDeqScale(half) sets (SetDeqScale docs, table 1); the round mode is ignored (Cast docs:
// "roundMode不生效"); the product rounds to half with RINT and saturates (CastDequant docs, s322fp16: "采用
// RINT精度舍入模式", "对输出结果的溢出采用饱和处理"). The twin rounds the exact product once (it is exact
// in double: 31 + 11 significant bits). A Cast int32_t -> half with DEQSCALE unset, or set by the
// SetDeqScale(float, int16_t, bool) form of CastDequant's s162b8 case, is a violation.
// int4b_t (the A2 table: int4b_t -> half CAST_NONE; half -> int4b_t RINT/FLOOR/CEIL/ROUND/TRUNC/NONE): a
// repeat is 128 lanes (256 bytes of half); an int4b_t operand's 32-byte block holds 64 elements (the docs'
// example: dstRepStride 2 for 128 int4b_t). half -> int4b_t rounds, then saturates to [-8, 7]. The docs'
// rules: count and a continuous mask are even, and a bitwise mask sets the two bits of each pair (0-1,
// 2-3, ...) alike (one byte holds two elements); the twin also checks a counter-mode count is even.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "twin/kernel_int4.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_vec_repeat.h"
#include "twin/simd_loops.h"

namespace AscendC {

enum class RoundMode : uint8_t {
    CAST_NONE = 0,
    CAST_RINT,
    CAST_FLOOR,
    CAST_CEIL,
    CAST_ROUND,
    CAST_TRUNC,
    CAST_ODD,
    UNKNOWN = 0xFF,
};

namespace twin_detail {

const char* RoundModeName(RoundMode mode);

constexpr uint32_t CastModeBit(RoundMode m) { return 1u << static_cast<uint32_t>(m); }
constexpr uint32_t kCastNoneOnly = CastModeBit(RoundMode::CAST_NONE);
constexpr uint32_t kCastRounding = CastModeBit(RoundMode::CAST_RINT) | CastModeBit(RoundMode::CAST_FLOOR) |
                                   CastModeBit(RoundMode::CAST_CEIL) | CastModeBit(RoundMode::CAST_ROUND) |
                                   CastModeBit(RoundMode::CAST_TRUNC);

template <typename T, typename U, typename D, typename S>
inline constexpr bool kCastPair = std::is_same_v<T, D> && std::is_same_v<U, S>;

// The round modes A2 accepts for dst T <- src U, as a set of CastModeBit; 0: not an A2 conversion.
template <typename T, typename U>
constexpr uint32_t CastModes()
{
    if constexpr (kCastPair<T, U, half, int8_t> || kCastPair<T, U, half, uint8_t> || kCastPair<T, U, half, int4b_t> ||
                  kCastPair<T, U, float, int16_t> || kCastPair<T, U, float, half> ||
                  kCastPair<T, U, float, bfloat16_t> || kCastPair<T, U, int16_t, int32_t> ||
                  kCastPair<T, U, int64_t, int32_t> || kCastPair<T, U, int32_t, int64_t>) {
        return kCastNoneOnly;
    } else if constexpr (kCastPair<T, U, half, int16_t> || kCastPair<T, U, int8_t, half> ||
                         kCastPair<T, U, int4b_t, half> ||
                         kCastPair<T, U, uint8_t, half> || kCastPair<T, U, float, int32_t>) {
        return kCastRounding | kCastNoneOnly;
    } else if constexpr (kCastPair<T, U, half, float> || kCastPair<T, U, half, int32_t>) {
        // int32_t -> half ignores the round mode: every mode is accepted.
        return kCastRounding | kCastNoneOnly | CastModeBit(RoundMode::CAST_ODD);
    } else if constexpr (kCastPair<T, U, int16_t, half> || kCastPair<T, U, int32_t, half> ||
                         kCastPair<T, U, int32_t, bfloat16_t> || kCastPair<T, U, int16_t, float> ||
                         kCastPair<T, U, bfloat16_t, float> || kCastPair<T, U, int32_t, float> ||
                         kCastPair<T, U, float, float> || kCastPair<T, U, int64_t, float> ||
                         kCastPair<T, U, float, int64_t>) {
        return kCastRounding;
    } else {
        return 0;
    }
}

template <typename T>
constexpr const char* CastTypeName()
{
    if constexpr (std::is_same_v<T, half>) return "half";
    else if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16_t";
    else if constexpr (std::is_same_v<T, float>) return "float";
    else if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
    else if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
    else if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
    else if constexpr (std::is_same_v<T, int32_t>) return "int32_t";
    else if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
    else if constexpr (std::is_same_v<T, int4b_t>) return "int4b_t";
    else return "?";
}

[[noreturn]] void FailCastMode(const char* dstType, const char* srcType, RoundMode mode, uint32_t allowed);
[[noreturn]] void FailCastNaN(const char* dstType, const char* srcType);
[[noreturn]] void FailCastNegative(const char* dstType, const char* srcType, float value);
// int32_t/int64_t -> float under a round mode (exact integer arithmetic: int64_t does not fit a double).
float IntToFloat(int64_t v, RoundMode mode);

template <typename T, typename U>
inline void CheckCastMode(RoundMode mode)
{
    constexpr uint32_t allowed = CastModes<T, U>();
    const uint32_t m = static_cast<uint32_t>(mode);
    if (m >= 32 || (allowed & (1u << m)) == 0) FailCastMode(CastTypeName<T>(), CastTypeName<U>(), mode, allowed);
}

// float -> 16-bit float under a round mode: start from the round-to-nearest-even result and step one
// ulp when the mode wants the other neighbour.
template <typename N>
inline N NarrowFloat(float f, RoundMode mode)
{
    N r = ascend_twin::Narrow<N>(f);  // round to nearest even
    if (mode == RoundMode::CAST_RINT || mode == RoundMode::CAST_NONE || std::isnan(f)) return r;
    const float back = ascend_twin::Widen(r);
    if (back == f) return r;
    auto step = [](N v, bool awayFromZero) {
        // Magnitude +/- 1 ulp on the bit pattern (sign-magnitude encoding).
        v.bits = static_cast<uint16_t>(awayFromZero ? v.bits + 1 : v.bits - 1);
        return v;
    };
    const bool roundedAway = std::fabs(back) > std::fabs(f);
    N toward = roundedAway ? step(r, false) : r;  // the neighbour nearer zero
    N away = roundedAway ? r : step(r, true);
    switch (mode) {
        case RoundMode::CAST_TRUNC: return toward;
        case RoundMode::CAST_FLOOR: return f > 0 ? toward : away;
        case RoundMode::CAST_CEIL: return f > 0 ? away : toward;
        case RoundMode::CAST_ROUND: {
            const float lo = std::fabs(ascend_twin::Widen(toward));
            const float hi = std::fabs(ascend_twin::Widen(away));
            return std::fabs(f) - lo >= hi - std::fabs(f) ? away : toward;
        }
        case RoundMode::CAST_ODD: return (toward.bits & 1u) ? toward : away;
        default: return r;
    }
}

// x rounded to an integral value (CAST_NONE = CAST_RINT, as the docs define it for lossy conversions).
inline double RoundIntegral(double x, RoundMode mode)
{
    switch (mode) {
        case RoundMode::CAST_FLOOR: return std::floor(x);
        case RoundMode::CAST_CEIL: return std::ceil(x);
        case RoundMode::CAST_ROUND: return std::round(x);
        case RoundMode::CAST_TRUNC: return std::trunc(x);
        default: return std::nearbyint(x);  // ties to even in the default floating-point environment
    }
}

template <typename T>
inline constexpr bool kCastFloat = std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, float>;

// One element of dst T <- src U (the pair and the mode already checked).
template <typename T, typename U>
inline T CastElem(U v, RoundMode mode)
{
    if constexpr (std::is_same_v<U, float> && (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>)) {
        return NarrowFloat<T>(v, mode);
    } else if constexpr (std::is_same_v<T, float> && kCastFloat<U>) {
        if constexpr (std::is_same_v<U, float>) {
            return static_cast<float>(RoundIntegral(v, mode));
        } else {
            return ascend_twin::Widen(v);
        }
    } else if constexpr (kCastFloat<U>) {  // to an integer: round, then saturate
        const float x = ascend_twin::Widen(v);
        if (std::isnan(x)) FailCastNaN(CastTypeName<T>(), CastTypeName<U>());
        if constexpr (std::is_same_v<T, uint8_t>) {
            if (x < 0) FailCastNegative(CastTypeName<T>(), CastTypeName<U>(), x);
        }
        const double r = RoundIntegral(x, mode);
        // The limits as doubles: exact for every type (2^63 for int64_t's upper bound, which it cannot hold).
        const double lo = static_cast<double>(std::numeric_limits<T>::min());
        const double hi = static_cast<double>(std::numeric_limits<T>::max());
        if (r < lo) return std::numeric_limits<T>::min();
        if (r >= hi) return std::numeric_limits<T>::max();
        return static_cast<T>(r);
    } else if constexpr (std::is_same_v<T, half>) {  // from int8_t/uint8_t (exact) or int16_t
        return NarrowFloat<half>(static_cast<float>(v), mode);
    } else if constexpr (std::is_same_v<T, float>) {  // from int16_t (exact), int32_t, int64_t
        if constexpr (std::is_same_v<U, int16_t>) {
            return static_cast<float>(v);
        } else {
            return IntToFloat(v, mode);
        }
    } else {  // integer -> integer: saturate
        const int64_t w = v;  // every integer pair of the table is signed and at most 64 bits wide
        if (w < static_cast<int64_t>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
        if (w > static_cast<int64_t>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
        return static_cast<T>(w);
    }
}

// The scale of int32_t -> half: DEQSCALE's bits 0..15, which SetDeqScale(half) must have set.
inline float DeqScaleHalf()
{
    const ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    if (core.deqScaleForm != 1) {
        ascend_twin::FailF("Cast", "Cast int32_t -> half uses the scale SetDeqScale(half) set", "%s",
                           core.deqScaleForm == 0 ? "DEQSCALE was never set on this core"
                                                  : "DEQSCALE was last set by SetDeqScale(float, int16_t, bool), "
                                                    "the form for CastDequant's int16_t -> b8 case");
    }
    half h;
    h.bits = static_cast<uint16_t>(core.deqScale & 0xffffu);
    return static_cast<float>(h);
}

// src * scale rounded once to half (ties to even), saturated to +-65504.
inline half DeqToHalf(int32_t v, float scale)
{
    const double x = static_cast<double>(v) * static_cast<double>(scale);  // exact
    if (std::isnan(x)) return half(std::numeric_limits<float>::quiet_NaN());
    if (x >= 65504.0) return half(65504.0f);
    if (x <= -65504.0) return half(-65504.0f);
    if (x == 0) return half(static_cast<float>(x));
    int e = 0;
    std::frexp(x, &e);                      // |x| in [2^(e-1), 2^e)
    const int ulpExp = (e - 1 < -14 ? -14 : e - 1) - 10;  // half: 10 fraction bits, subnormals below 2^-14
    const double q = std::nearbyint(std::ldexp(x, -ulpExp));  // ties to even
    return half(static_cast<float>(std::ldexp(q, ulpExp)));   // exact in float and in half
}

// One element, given DEQSCALE's scale for int32_t -> half (unused otherwise).
template <typename T, typename U>
inline T CastOne(U v, RoundMode mode, float deq)
{
    if constexpr (std::is_same_v<T, half> && std::is_same_v<U, int32_t>) {
        (void)mode;
        return DeqToHalf(v, deq);
    } else {
        (void)deq;
        return CastElem<T, U>(v, mode);
    }
}

template <typename T, typename U>
inline float DeqScaleFor()
{
    if constexpr (std::is_same_v<T, half> && std::is_same_v<U, int32_t>) {
        return DeqScaleHalf();
    } else {
        return 0.0f;
    }
}

// ---- int4b_t ----

template <typename T>
inline constexpr bool kInt4 = std::is_same_v<T, int4b_t>;

inline int4b_t HalfToInt4(half v, RoundMode mode)
{
    const float x = static_cast<float>(v);
    if (std::isnan(x)) FailCastNaN("int4b_t", "half");
    const double r = RoundIntegral(x, mode);
    return int4b_t(static_cast<int32_t>(r < -8 ? -8 : (r > 7 ? 7 : r)));
}

// The element of an int4b_t operand lane j of repeat r reaches (64 elements to a 32-byte block).
inline uint64_t Int4Lane(const char* operand, const LocalTensor<int4b_t>& t, uint32_t r, uint32_t j, uint32_t blk,
                         uint32_t rep)
{
    const uint64_t elem = (static_cast<uint64_t>(r) * rep + j / 64 * blk) * 64 + j % 64;
    if (elem >= t.GetSize()) {
        ascend_twin::FailF("Cast", "UB accesses stay inside the LocalTensor",
                           "operand '%s': repeat %u, lane %u is int4b_t element %llu of a tensor of %u", operand, r, j,
                           static_cast<unsigned long long>(elem), t.GetSize());
    }
    return elem;
}

constexpr const char* kInt4EvenRule = "Cast with int4b_t: count and a continuous mask are even";

inline void CheckInt4Count(const char* what, uint64_t count)
{
    if (count % 2 != 0) {
        ascend_twin::FailF("Cast", kInt4EvenRule, "%s %llu", what, static_cast<unsigned long long>(count));
    }
}

// The lanes cover whole bytes of the int4b_t operand.
inline void CheckInt4Lanes(const Lanes& lanes)
{
    if (lanes.counter) {
        CheckInt4Count("counter-mode count", lanes.count);
        return;
    }
    for (uint32_t k = 0; k + 1 < lanes.perRepeat; k += 2) {
        if (lanes.Active(0, k) != lanes.Active(0, k + 1)) {
            ascend_twin::FailF("Cast",
                               "Cast with int4b_t: a bitwise mask sets the two bits of each pair (0-1, 2-3, ...) alike",
                               "mask bits %u and %u differ", k, k + 1);
        }
    }
}

template <typename T, typename U>
void CastLanesInt4(const LocalTensor<T>& dst, const LocalTensor<U>& src, RoundMode mode, const Lanes& lanes,
                   const UnaryRepeatParams& p)
{
    CheckCastMode<T, U>(mode);
    CheckInt4Lanes(lanes);
    ascend_twin::CheckUbAligned("Cast", "dst", twin_detail::TwinData(dst));
    ascend_twin::CheckUbAligned("Cast", "src", twin_detail::TwinData(src));
    ascend_twin::Instr instr("Cast", ascend_twin::Pipe::kV);
    uint64_t active = 0;
    for (uint32_t r = 0; r < lanes.repeats; ++r) {
        for (uint32_t j = 0; j < lanes.perRepeat; ++j) {
            if (!lanes.Active(r, j)) continue;
            if constexpr (kInt4<U>) {  // int4b_t -> half
                const uint64_t si = Int4Lane("src", src, r, j, p.srcBlkStride, p.srcRepStride);
                const uint8_t* sb = reinterpret_cast<const uint8_t*>(twin_detail::TwinData(src)) + si / 2;
                T* d = LaneAddr("Cast", "dst", dst, r, j, p.dstBlkStride, p.dstRepStride);
                instr.Read("src", sb, 1);
                instr.Write("dst", d, sizeof(T));
                *d = half(static_cast<float>(twin_detail::Int4Nibble(*sb, si)));
            } else {  // half -> int4b_t
                const U* s = LaneAddr("Cast", "src", src, r, j, p.srcBlkStride, p.srcRepStride);
                const uint64_t di = Int4Lane("dst", dst, r, j, p.dstBlkStride, p.dstRepStride);
                uint8_t* db = reinterpret_cast<uint8_t*>(twin_detail::TwinData(dst)) + di / 2;
                instr.Read("src", s, sizeof(U));
                instr.Write("dst", db, 1);
                *db = twin_detail::SetInt4Nibble(*db, di, HalfToInt4(*s, mode));
            }
            ++active;
        }
    }
    const uint64_t repeats =
        lanes.counter ? (lanes.count + lanes.perRepeat - 1) / lanes.perRepeat : static_cast<uint64_t>(lanes.repeats);
    ascend_twin::CountVec(ascend_twin::VecOp::kCast, active, repeats);
}

template <typename T, typename U>
void CastCountInt4(const LocalTensor<T>& dst, const LocalTensor<U>& src, RoundMode mode, uint32_t count)
{
    CheckInt4Count("count", count);
    ascend_twin::Instr instr("Cast", ascend_twin::Pipe::kV);
    if constexpr (kInt4<U>) {
        const uint8_t* s = reinterpret_cast<const uint8_t*>(twin_detail::TwinData(src));
        instr.Read("src", s, count / 2);
        instr.Write("dst", twin_detail::TwinData(dst), static_cast<uint64_t>(count) * sizeof(T));
        for (uint32_t i = 0; i < count; ++i) {
            twin_detail::TwinData(dst)[i] = half(static_cast<float>(twin_detail::Int4Nibble(s[i / 2], i)));
        }
    } else {
        uint8_t* d = reinterpret_cast<uint8_t*>(twin_detail::TwinData(dst));
        instr.Read("src", twin_detail::TwinData(src), static_cast<uint64_t>(count) * sizeof(U));
        instr.Write("dst", d, count / 2);
        for (uint32_t i = 0; i < count; ++i) {
            d[i / 2] = twin_detail::SetInt4Nibble(d[i / 2], i, HalfToInt4(twin_detail::TwinData(src)[i], mode));
        }
    }
    ascend_twin::CountVec(ascend_twin::VecOp::kCast, count, ascend_twin::CountFormRepeats(count, 2));
}

// A widening Cast (count form) over src and dst that share UB bytes. A repeat (256 bytes of dst) reads its sources
// before it writes, so a repeat may overwrite its own sources; a later repeat must not read bytes an earlier one
// wrote (the docs' 通用地址重叠约束 and Cast's own: a narrow-to-wide conversion over overlapping addresses can give
// wrong results). Returns false when src and dst do not overlap (the caller converts as usual); otherwise checks the
// repeats and converts them one by one from a copy of each repeat's sources.
[[noreturn]] void FailCastOverlap(uint32_t repeat, uint64_t srcBegin, uint64_t srcEnd, uint64_t dstEnd);

template <typename T, typename U>
bool CastOverlapping(T* d, const U* s, uint32_t count, RoundMode mode)
{
    if constexpr (sizeof(T) > sizeof(U)) {
        const auto db = reinterpret_cast<uintptr_t>(d), sb = reinterpret_cast<uintptr_t>(s);
        if (count == 0 || !(db < sb + count * sizeof(U) && sb < db + count * sizeof(T))) return false;
        constexpr uint32_t kLanes = 256 / sizeof(T);
        const uint32_t repeats = (count + kLanes - 1) / kLanes;
        for (uint32_t r = 1; r < repeats; ++r) {
            const uint64_t last = (r + 1ULL) * kLanes < count ? (r + 1ULL) * kLanes : count;
            const uint64_t srcBegin = sb + static_cast<uint64_t>(r) * kLanes * sizeof(U);
            const uint64_t srcEnd = sb + last * sizeof(U);
            const uint64_t dstEnd = db + static_cast<uint64_t>(r) * kLanes * sizeof(T);
            if (db < srcEnd && srcBegin < dstEnd) FailCastOverlap(r, srcBegin - db, srcEnd - db, dstEnd - db);
        }
        const float deq = DeqScaleFor<T, U>();
        U part[kLanes];
        for (uint32_t r = 0; r < repeats; ++r) {
            const uint32_t first = r * kLanes, n = count - first < kLanes ? count - first : kLanes;
            std::memcpy(part, s + first, n * sizeof(U));
            for (uint32_t j = 0; j < n; ++j) d[first + j] = CastOne<T, U>(part[j], mode, deq);
        }
        return true;
    }
    return false;
}

template <typename T, typename U>
inline constexpr uint32_t kCastRepeatLanes = 256 / (sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U));

template <typename T, typename U>
void CastLanesStd(const LocalTensor<T>& dst, const LocalTensor<U>& src, RoundMode mode, const Lanes& lanes,
                  const UnaryRepeatParams& p)
{
    CheckCastMode<T, U>(mode);
    ascend_twin::CheckUbAligned("Cast", "dst", twin_detail::TwinData(dst));
    ascend_twin::CheckUbAligned("Cast", "src", twin_detail::TwinData(src));
    const float deq = DeqScaleFor<T, U>();
    ascend_twin::Instr instr("Cast", ascend_twin::Pipe::kV);
    uint64_t active = 0;
    for (uint32_t r = 0; r < lanes.repeats; ++r) {
        for (uint32_t j = 0; j < lanes.perRepeat; ++j) {
            if (!lanes.Active(r, j)) continue;
            const U* s = LaneAddr("Cast", "src", src, r, j, p.srcBlkStride, p.srcRepStride);
            T* d = LaneAddr("Cast", "dst", dst, r, j, p.dstBlkStride, p.dstRepStride);
            instr.Read("src", s, sizeof(U));
            instr.Write("dst", d, sizeof(T));
            *d = CastOne<T, U>(*s, mode, deq);
            ++active;
        }
    }
    const uint64_t repeats =
        lanes.counter ? (lanes.count + lanes.perRepeat - 1) / lanes.perRepeat : static_cast<uint64_t>(lanes.repeats);
    ascend_twin::CountVec(ascend_twin::VecOp::kCast, active, repeats);
}

template <typename T, typename U>
void CastLanes(const LocalTensor<T>& dst, const LocalTensor<U>& src, RoundMode mode, const Lanes& lanes,
               const UnaryRepeatParams& p)
{
    if constexpr (kInt4<T> || kInt4<U>) {
        CastLanesInt4<T, U>(dst, src, mode, lanes, p);
    } else {
        CastLanesStd<T, U>(dst, src, mode, lanes, p);
    }
}

}  // namespace twin_detail

#define ASCEND_TWIN_CAST_TYPES                                                                                      \
    twin_detail::CastModes<T, U>() != 0,                                                                           \
        "Cast on A2 converts (src -> dst): half -> float/int32_t/int16_t/int8_t/uint8_t; float -> float/half/"     \
        "bfloat16_t/int16_t/int32_t/int64_t; bfloat16_t -> float/int32_t; int8_t/uint8_t -> half; int16_t -> "     \
        "half/float; int32_t -> float/int16_t/int64_t/half (SetDeqScale(half)); int64_t -> float/int32_t; "       \
        "int4b_t -> half; half -> int4b_t"

template <typename T, typename U>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                            const uint32_t count)
{
    static_assert(ASCEND_TWIN_CAST_TYPES);
    twin_detail::CheckCount("Cast", count);
    twin_detail::CheckOperand("Cast", "dst", dst, count);
    twin_detail::CheckOperand("Cast", "src", src, count);
    twin_detail::CheckCastMode<T, U>(roundMode);
    if constexpr (twin_detail::kInt4<T> || twin_detail::kInt4<U>) {
        twin_detail::CastCountInt4<T, U>(dst, src, roundMode, count);
    } else {
        ascend_twin::Instr instr("Cast", ascend_twin::Pipe::kV);
        instr.Read("src", twin_detail::TwinData(src), static_cast<uint64_t>(count) * sizeof(U));
        instr.Write("dst", twin_detail::TwinData(dst), static_cast<uint64_t>(count) * sizeof(T));
        T* d = twin_detail::TwinData(dst);
        const U* s = twin_detail::TwinData(src);
        constexpr bool kWidenFloat =
            std::is_same_v<T, float> && (std::is_same_v<U, half> || std::is_same_v<U, bfloat16_t>);
        constexpr bool kNarrowFloat =
            std::is_same_v<U, float> && (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>);
        if (twin_detail::CastOverlapping<T, U>(d, s, count, roundMode)) {
            // converted repeat by repeat (src and dst share bytes)
        } else if constexpr (kWidenFloat) {  // exact: the loop vectorises
            bool done = false;
            if constexpr (std::is_same_v<U, bfloat16_t>) {
                done = ascend_twin::simd::WidenBf16(d, reinterpret_cast<const uint16_t*>(s), count);
            }
            for (uint32_t i = 0; !done && i < count; ++i) d[i] = ascend_twin::Widen(s[i]);
        } else if constexpr (kNarrowFloat) {
            if (roundMode == RoundMode::CAST_RINT || roundMode == RoundMode::CAST_NONE) {
                bool done = false;
                if constexpr (std::is_same_v<T, bfloat16_t>) {
                    done = ascend_twin::simd::NarrowBf16(reinterpret_cast<uint16_t*>(d), s, count);
                }
                for (uint32_t i = 0; !done && i < count; ++i) d[i] = ascend_twin::Narrow<T>(s[i]);  // nearest even, as CastElem
            } else {
                for (uint32_t i = 0; i < count; ++i) d[i] = twin_detail::CastElem<T, U>(s[i], roundMode);
            }
        } else {
            const float deq = twin_detail::DeqScaleFor<T, U>();
            for (uint32_t i = 0; i < count; ++i) d[i] = twin_detail::CastOne<T, U>(s[i], roundMode, deq);
        }
        // A conversion's repeat holds 256 bytes of its wider side (64 float <-> half pairs).
        ascend_twin::CountVec(ascend_twin::VecOp::kCast, count,
                              ascend_twin::CountFormRepeats(count, sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U)));
    }
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                            const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams)
{
    static_assert(ASCEND_TWIN_CAST_TYPES);
    constexpr uint32_t wide = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
    const twin_detail::Lanes lanes = twin_detail::MaskLanes("Cast", wide, isSetMask, mask, true, repeatTime);
    twin_detail::CastLanes<T, U>(dst, src, roundMode, lanes, repeatParams);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                            const uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams)
{
    static_assert(ASCEND_TWIN_CAST_TYPES);
    constexpr uint32_t wide = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
    if constexpr (twin_detail::kInt4<T> || twin_detail::kInt4<U>) {
        if (isSetMask && !ascend_twin::CurrentCore().maskCounter) twin_detail::CheckInt4Count("continuous mask", mask);
    }
    const uint64_t bits[2] = {mask, 0};
    const twin_detail::Lanes lanes = twin_detail::MaskLanes("Cast", wide, isSetMask, bits, false, repeatTime);
    twin_detail::CastLanes<T, U>(dst, src, roundMode, lanes, repeatParams);
}
#undef ASCEND_TWIN_CAST_TYPES

// SetDeqScale (kernel_operator_vec_vconv_intf.h; dav_c220 SetDeqScaleImpl, MakeDeqScaleConfig): sets the
// 64-bit DEQSCALE register. The half form is Cast int32_t -> half's scale (bits 0..15); the (float, int16_t,
// bool) form packs scale (bits 0..31), offset (9 bits at 37) and signMode (bit 46) for CastDequant, which the
// twin lacks, as it lacks the vector form SetDeqScale(LocalTensor, VdeqInfo).
__aicore__ inline void SetDeqScale(half scale)
{
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    core.deqScale = scale.bits;
    core.deqScaleForm = 1;
}

__aicore__ inline void SetDeqScale(float scale, int16_t offset, bool signMode)
{
    uint32_t bits = 0;
    std::memcpy(&bits, &scale, sizeof bits);
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    core.deqScale = (static_cast<uint64_t>(signMode) << 46) |
                    ((static_cast<uint64_t>(static_cast<uint16_t>(offset)) & 0x1ffu) << 37) | bits;
    core.deqScaleForm = 2;
}

}  // namespace AscendC
