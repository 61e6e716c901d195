// Device qualifiers and the 16-bit float types of Ascend C, as the twin defines them for g++.
#pragma once

#include <cstdint>
#include <cstring>

// Function and address-space qualifiers mean nothing on the CPU.
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __gm__
#define __gm__
#endif

#define GM_ADDR __gm__ uint8_t*

namespace ascend_twin {

inline float BitsToFloat(uint32_t bits)
{
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

inline uint32_t FloatToBits(float f)
{
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    return bits;
}

// IEEE binary16 <-> binary32, round to nearest even (the conversion rule of Cast with CAST_RINT and of
// the scalar conversions).
inline float HalfBitsToFloat(uint16_t h)
{
    const uint32_t sign = (h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0x1f) {
        return BitsToFloat(sign | 0x7f800000u | (mant << 13));
    }
    if (exp == 0) {
        if (mant == 0) {
            return BitsToFloat(sign);
        }
        // Subnormal half: value = mant * 2^-24, exact in float.
        const float v = static_cast<float>(mant) * 5.9604644775390625e-08f;
        return sign ? -v : v;
    }
    return BitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

inline uint16_t FloatToHalfBits(float f)
{
    const uint32_t x = FloatToBits(f);
    const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    const uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) {  // inf or nan
        return sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u);
    }
    if (absx >= 0x477ff000u) {  // rounds to >= 65520: overflow to inf
        return sign | 0x7c00u;
    }
    if (absx < 0x38800000u) {  // below the smallest normal half: subnormal or zero
        // Adding 0.5 shifts the value so that float's own rounding produces the half subnormal bits.
        const float shifted = BitsToFloat(absx) + 0.5f;
        return sign | static_cast<uint16_t>(FloatToBits(shifted) - FloatToBits(0.5f));
    }
    const uint32_t mantOdd = (absx >> 13) & 1u;
    const uint32_t rounded = absx + 0xc8000fffu + mantOdd;  // rebias exponent (-112 << 23) and round half to even
    return sign | static_cast<uint16_t>(rounded >> 13);
}

inline float Bf16BitsToFloat(uint16_t b) { return BitsToFloat(static_cast<uint32_t>(b) << 16); }

inline uint16_t FloatToBf16Bits(float f)
{
    const uint32_t x = FloatToBits(f);
    const uint32_t quietNan = (x >> 16) | 0x40u;  // keep nan quiet
    const uint32_t rounded = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
    // A select rather than a branch, so that loops of conversions vectorise.
    return static_cast<uint16_t>((x & 0x7fffffffu) > 0x7f800000u ? quietNan : rounded);
}

}  // namespace ascend_twin

// `half` and `bfloat16_t` are storage types with float conversions, bit-compatible with torch's.
struct half {
    uint16_t bits;
    half() = default;
    half(float f) : bits(ascend_twin::FloatToHalfBits(f)) {}
    half(double d) : half(static_cast<float>(d)) {}
    half(int i) : half(static_cast<float>(i)) {}
    operator float() const { return ascend_twin::HalfBitsToFloat(bits); }
};

struct bfloat16_t {
    uint16_t bits;
    bfloat16_t() = default;
    bfloat16_t(float f) : bits(ascend_twin::FloatToBf16Bits(f)) {}
    bfloat16_t(double d) : bfloat16_t(static_cast<float>(d)) {}
    bfloat16_t(int i) : bfloat16_t(static_cast<float>(i)) {}
    operator float() const { return ascend_twin::Bf16BitsToFloat(bits); }
};

static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2, "16-bit float types must be 2 bytes");

namespace AscendC {

// int4b_t: a signed 4-bit integer (impl/basic_api/utils/kernel_utils_constants.h: IntegerSubType<4, true>):
// a byte of storage whose low 4 bits hold the value; converts to int8_t with sign extension. In a
// LocalTensor<int4b_t> two elements share a byte, element 2k in the low nibble (twin/kernel_int4.h).
struct int4b_t {
    uint8_t storage;
    int4b_t() = default;
    int4b_t(int32_t value) : storage(static_cast<uint8_t>(static_cast<uint32_t>(value) & 0xfu)) {}
    int4b_t(uint32_t value) : storage(static_cast<uint8_t>(value & 0xfu)) {}
    operator int8_t() const { return static_cast<int8_t>((storage & 0x8u) ? (storage | 0xf0u) : storage); }
    bool operator==(const int4b_t& o) const { return storage == o.storage; }
    bool operator!=(const int4b_t& o) const { return storage != o.storage; }
    bool operator<(const int4b_t& o) const { return static_cast<int8_t>(*this) < static_cast<int8_t>(o); }
    bool operator>(const int4b_t& o) const { return static_cast<int8_t>(*this) > static_cast<int8_t>(o); }
    bool operator<=(const int4b_t& o) const { return !(*this > o); }
    bool operator>=(const int4b_t& o) const { return !(*this < o); }
};

}  // namespace AscendC
