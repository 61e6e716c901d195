// Device qualifiers and the 16-bit float types of Ascend C, as the twin defines them for g++.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

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
// The on-chip address spaces (UB, L1, L0A, L0B, L0C, BiasTable, Fixpipe Buffer), as CANN's CPU-debug build
// defines them: `(__ubuf__ T*)tensor.GetPhyAddr()` is a plain pointer into the core's UB.
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __cbuf__
#define __cbuf__
#endif
#ifndef __ca__
#define __ca__
#endif
#ifndef __cb__
#define __cb__
#endif
#ifndef __cc__
#define __cc__
#endif
#ifndef __biasbuf__
#define __biasbuf__
#endif
#ifndef __fbuf__
#define __fbuf__
#endif

#define GM_ADDR __gm__ uint8_t*

// The function qualifiers that give a kernel its type (SIMD-BuiltIn关键字: __cube__ = AIC only, __vector__
// = AIV only, __mix__(cube, vector) = that many AICs and AIVs per block; GetSubBlockNum docs, table 1).
// The twin places such an entry in a section of its own, from which twin/kernel_entry.h reads the type.
// __mix__ takes the four combinations the docs list; any other does not compile.
#define ASCEND_TWIN_MIX_SECTION_0_1 "ascend_twin_mix_0_1"
#define ASCEND_TWIN_MIX_SECTION_1_0 "ascend_twin_mix_1_0"
#define ASCEND_TWIN_MIX_SECTION_1_1 "ascend_twin_mix_1_1"
#define ASCEND_TWIN_MIX_SECTION_1_2 "ascend_twin_mix_1_2"
#ifndef __mix__
#define __mix__(cube, vector) __attribute__((section(ASCEND_TWIN_MIX_SECTION_##cube##_##vector)))
#endif
#ifndef __cube__
#define __cube__ __attribute__((section("ascend_twin_cube")))
#endif
#ifndef __vector__
#define __vector__ __attribute__((section("ascend_twin_vector")))
#endif
// The parameter that receives the system workspace in a kernel-launch (<<<>>>) kernel, and the scheduling
// mode qualifier: no meaning on the CPU (GetSysWorkSpacePtr returns the launch's "workspace" buffer).
#ifndef __kfc_workspace__
#define __kfc_workspace__
#endif
#ifndef __schedmode__
#define __schedmode__(mode)
#endif

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

// `half` and `bfloat16_t`: 16-bit storage types, bit-compatible with torch's, offering on a scalar exactly
// what the A2 (dav-2201) device compiler offers:
// - half converts to and from float, double and int (asc-devkit's own dav_c220 code does
//   static_cast<float>(half) and static_cast<half>(float)), but no arithmetic or comparison runs on it: the
//   device compiler rejects half scalar operations ("half precision operation is not allowed in aicore
//   function", also for float / half). Convert to float first.
// - bfloat16_t converts to no number, and is made at run time from none: the A2 backend has no scalar
//   bfloat16 conversion ("not support bf16 type cast"). A float or double CONSTANT converts: the compiler
//   folds the conversion of a constant before the backend sees it (SGLang's apply_token_bitmask, built for
//   A2, writes `static_cast<bfloat16_t>(-1.0f / 0.0f)`; the real headers' `T paddingValue = 0` is such a
//   constant). Under clang (the device's front end, which compiles kernels for the twin) the constructor
//   tells the two apart with __builtin_constant_p: a run-time value is an error, a constant is converted
//   with round-to-nearest-even as the compiler's folding does. The twin is stricter than the device where
//   the device folds only after inlining (a constant passed through a function parameter). Under g++ (the
//   twin's own C++ tests) every conversion but the literal 0 is refused. The docs (内置数据类型) list
//   bfloat16_t among the types that take no immediate; the twin accepts `bfloat16_t x = 1.0f` as it accepts
//   the explicit form, since both are the same folded constant to the compiler.
//   AscendC::Cast(const bfloat16_t&) / AscendC::Cast(const float&) (twin/kernel_scalar.h) convert through
//   the bits, as asc-devkit impl/basic_api/kernel_scalar_convert.h does on dav-2201. A runtime integer
//   does not convert either (no constructor matches, so no message of our own).
// Each forbidden form fails with a static_assert that says so. The twin's own code converts through
// ascend_twin::Widen / Narrow below.
namespace ascend_twin::detail {
template <class T>
inline constexpr bool kDependentFalse = false;
}  // namespace ascend_twin::detail

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
    // The literal 0 alone (a null pointer constant converts to this pointer): the real
    // DataCopyPadExtParams<T> defaults its padding value to it, a constant the device compiler folds.
    struct ZeroLiteral;
    bfloat16_t(ZeroLiteral*) : bits(0) {}
#if defined(__clang__)
    // A float or double constant: folded by the device compiler. A run-time value (or a half): refused.
    template <class U, std::enable_if_t<std::is_floating_point_v<U>, int> = 0>
    bfloat16_t(U value) __attribute__((diagnose_if(!__builtin_constant_p(value),
        "bfloat16_t is made from no run-time number on A2 (the backend has no scalar bf16 conversion; only the "
        "conversion of a constant is folded by the compiler): use AscendC::Cast(const float&)", "error")))
        : bits(ascend_twin::FloatToBf16Bits(static_cast<float>(value)))
    {
    }
    template <class U, std::enable_if_t<std::is_same_v<U, half>, int> = 0>
    bfloat16_t(U)
    {
        static_assert(ascend_twin::detail::kDependentFalse<U>,
                      "bfloat16_t is made from no number on A2 (no scalar bf16 conversion): use "
                      "AscendC::Cast(const float&) on the half converted to float");
    }
#else
    template <class U, std::enable_if_t<std::is_floating_point_v<U> || std::is_same_v<U, half>, int> = 0>
    bfloat16_t(U)
    {
        static_assert(ascend_twin::detail::kDependentFalse<U>,
                      "bfloat16_t is made from no number on A2 (no scalar bf16 conversion; no bf16 immediate): use "
                      "AscendC::Cast(const float&) (g++ builds of the twin also refuse the conversion of a "
                      "constant, which the device's clang front end folds)");
    }
#endif
    template <class U, std::enable_if_t<std::is_arithmetic_v<U> || std::is_same_v<U, half>, int> = 0>
    explicit operator U() const
    {
        static_assert(ascend_twin::detail::kDependentFalse<U>,
                      "bfloat16_t converts to no number on A2 (the backend rejects a scalar bf16 cast): use "
                      "AscendC::Cast(const bfloat16_t&) or AscendC::ToFloat");
        return U();
    }
};

namespace ascend_twin::detail {
template <class A, class B>
inline constexpr bool kScalar16Operands =
    (std::is_same_v<A, half> || std::is_same_v<A, bfloat16_t> || std::is_same_v<B, half> ||
     std::is_same_v<B, bfloat16_t>) &&
    (std::is_arithmetic_v<A> || std::is_same_v<A, half> || std::is_same_v<A, bfloat16_t>) &&
    (std::is_arithmetic_v<B> || std::is_same_v<B, half> || std::is_same_v<B, bfloat16_t>);
}  // namespace ascend_twin::detail

// half/bfloat16_t scalar arithmetic and comparisons: refused, as the A2 device compiler refuses them.
#define ASCEND_TWIN_NO_SCALAR16_OP(OP)                                                                        \
    template <class A, class B, std::enable_if_t<ascend_twin::detail::kScalar16Operands<A, B>, int> = 0>    \
    inline bool operator OP(const A&, const B&)                                                               \
    {                                                                                                         \
        static_assert(ascend_twin::detail::kDependentFalse<A>,                                                \
                      "half/bfloat16_t scalar arithmetic or comparison (" #OP "): the A2 device compiler "    \
                      "rejects it (half precision operation is not allowed in aicore function); convert to " \
                      "float first (static_cast<float>(h), AscendC::Cast(b)); the twin refuses comparisons " \
                      "too");                                                                                 \
        return false;                                                                                         \
    }
ASCEND_TWIN_NO_SCALAR16_OP(+)
ASCEND_TWIN_NO_SCALAR16_OP(-)
ASCEND_TWIN_NO_SCALAR16_OP(*)
ASCEND_TWIN_NO_SCALAR16_OP(/)
ASCEND_TWIN_NO_SCALAR16_OP(==)
ASCEND_TWIN_NO_SCALAR16_OP(!=)
ASCEND_TWIN_NO_SCALAR16_OP(<)
ASCEND_TWIN_NO_SCALAR16_OP(>)
ASCEND_TWIN_NO_SCALAR16_OP(<=)
ASCEND_TWIN_NO_SCALAR16_OP(>=)
#undef ASCEND_TWIN_NO_SCALAR16_OP

template <class A, std::enable_if_t<std::is_same_v<A, half> || std::is_same_v<A, bfloat16_t>, int> = 0>
inline A operator-(const A& a)
{
    static_assert(ascend_twin::detail::kDependentFalse<A>,
                  "half/bfloat16_t scalar negation: the A2 device compiler rejects half precision operations; "
                  "convert to float first");
    return a;
}

namespace ascend_twin {

// The twin's own conversions of element values (Cast, the cube, atomics): float for the 16-bit types.
inline float Widen(half v) { return HalfBitsToFloat(v.bits); }
inline float Widen(bfloat16_t v) { return Bf16BitsToFloat(v.bits); }
template <class T>
inline T Widen(T v) { return v; }

template <class T>
inline T Narrow(float v)
{
    if constexpr (std::is_same_v<T, bfloat16_t>) {
        bfloat16_t b;
        b.bits = FloatToBf16Bits(v);
        return b;
    } else {
        return static_cast<T>(v);
    }
}

}  // namespace ascend_twin

static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2, "16-bit float types must be 2 bytes");

// The device compiler's names of the A2 element types, which no public header declares:
// - `__bf16` is the device compiler's own bfloat16 type and bfloat16_t names it (asc-devkit's dav_c220
//   impl takes `__bf16` in SetL0SetValue; ops-transformer's CPU-debug build maps `__bf16` to bfloat16_t
//   under __CCE_KT_TEST__; ops-nn kernels test `std::is_same_v<DTYPE_X, __bf16>` for their bfloat16_t
//   instantiation). On the twin it is the same type as bfloat16_t, with the same scalar rules.
// - `float32_t` and `float16_t` name float and half on A2: vllm-ascend builds recurrent_gated_delta_rule
//   for ascend910b (csrc/build_aclnn.sh), whose A2 header tests `std::is_same<stateType, float32_t>`, and
//   its lightning_indexer kernel of arch22 (dav-2201) tests `float16_t`; asc-tools' CPU-debug stub_def.h
//   declares the pair the same way for the Kirin targets.
#ifndef __bf16
#define __bf16 bfloat16_t
#endif
using float32_t = float;
using float16_t = half;

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
