// Cast between element types, with the round modes and the conversion table of A2.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "twin/kernel_tensor.h"
#include "twin/kernel_vec.h"

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
[[noreturn]] void FailCastMode(const char* conversion, RoundMode mode, const char* allowed);

// float -> 16-bit float under a round mode: start from the round-to-nearest-even result and step one
// ulp when the mode wants the other neighbour.
template <typename Narrow>
inline Narrow NarrowFloat(float f, RoundMode mode)
{
    Narrow r(f);  // round to nearest even
    if (mode == RoundMode::CAST_RINT || mode == RoundMode::CAST_NONE || std::isnan(f)) return r;
    const float back = static_cast<float>(r);
    if (back == f) return r;
    auto step = [](Narrow v, bool awayFromZero) {
        // Magnitude +/- 1 ulp on the bit pattern (sign-magnitude encoding).
        v.bits = static_cast<uint16_t>(awayFromZero ? v.bits + 1 : v.bits - 1);
        return v;
    };
    const bool roundedAway = std::fabs(back) > std::fabs(f);
    Narrow toward = roundedAway ? step(r, false) : r;  // the neighbour nearer zero
    Narrow away = roundedAway ? r : step(r, true);
    switch (mode) {
        case RoundMode::CAST_TRUNC: return toward;
        case RoundMode::CAST_FLOOR: return f > 0 ? toward : away;
        case RoundMode::CAST_CEIL: return f > 0 ? away : toward;
        case RoundMode::CAST_ROUND: {
            const float lo = std::fabs(static_cast<float>(toward));
            const float hi = std::fabs(static_cast<float>(away));
            return std::fabs(f) - lo >= hi - std::fabs(f) ? away : toward;
        }
        case RoundMode::CAST_ODD: return (toward.bits & 1u) ? toward : away;
        default: return r;
    }
}

template <typename To, typename From>
inline void CheckCastMode(RoundMode mode)
{
    constexpr bool toFloatFrom16 =
        std::is_same_v<To, float> && (std::is_same_v<From, half> || std::is_same_v<From, bfloat16_t>);
    if constexpr (toFloatFrom16) {
        if (mode != RoundMode::CAST_NONE) {
            FailCastMode(std::is_same_v<From, half> ? "half->float" : "bfloat16_t->float", mode, "CAST_NONE");
        }
    } else if constexpr (std::is_same_v<To, bfloat16_t> && std::is_same_v<From, float>) {
        if (mode == RoundMode::CAST_NONE || mode == RoundMode::CAST_ODD || mode == RoundMode::UNKNOWN) {
            FailCastMode("float->bfloat16_t", mode, "CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC");
        }
    } else if constexpr (std::is_same_v<To, half> && std::is_same_v<From, float>) {
        if (mode == RoundMode::UNKNOWN) FailCastMode("float->half", mode, "CAST_NONE..CAST_ODD");
    }
}

}  // namespace twin_detail

template <typename T, typename U>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                            const uint32_t count)
{
    static_assert((std::is_same_v<T, float> && (std::is_same_v<U, half> || std::is_same_v<U, bfloat16_t>)) ||
                      ((std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) && std::is_same_v<U, float>),
                  "the twin implements the float <-> half/bfloat16_t conversions of Cast");
    twin_detail::CheckCount("Cast", count);
    twin_detail::CheckOperand("Cast", "dst", dst, count);
    twin_detail::CheckOperand("Cast", "src", src, count);
    twin_detail::CheckCastMode<T, U>(roundMode);
    ascend_twin::Instr instr("Cast", ascend_twin::Pipe::kV);
    instr.Read("src", src.TwinData(), static_cast<uint64_t>(count) * sizeof(U));
    instr.Write("dst", dst.TwinData(), static_cast<uint64_t>(count) * sizeof(T));
    T* d = dst.TwinData();
    const U* s = src.TwinData();
    if constexpr (std::is_same_v<T, float>) {
        for (uint32_t i = 0; i < count; ++i) d[i] = static_cast<float>(s[i]);
    } else {
        if (roundMode == RoundMode::CAST_RINT || roundMode == RoundMode::CAST_NONE) {
            for (uint32_t i = 0; i < count; ++i) d[i] = T(static_cast<float>(s[i]));  // NarrowFloat's nearest-even case
        } else {
            for (uint32_t i = 0; i < count; ++i) d[i] = twin_detail::NarrowFloat<T>(s[i], roundMode);
        }
    }
    // A conversion's repeat holds 256 bytes of its wider side (64 float <-> half pairs).
    ascend_twin::CountVec(ascend_twin::VecOp::kCast, count,
                          ascend_twin::CountFormRepeats(count, sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U)));
}

}  // namespace AscendC
