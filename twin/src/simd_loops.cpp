// AVX2 builds of the element loops of twin/simd_loops.h (and AVX-512 builds of the bfloat16 conversions). The
// loops are the portable ones, compiled with the AVX2 target so that the vectoriser uses 256-bit registers; no
// FMA target, so that a * b + c is never contracted. The vectoriser checks for overlapping operands at run time,
// as for the portable loops.
#include "twin/simd_loops.h"

#include "twin/kernel_types.h"

#include <algorithm>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace ascend_twin::simd {

namespace {

#if defined(__x86_64__)
bool HasAvx2()
{
    static const bool has = __builtin_cpu_supports("avx2");
    return has;
}

#define ASCEND_TWIN_AVX2 __attribute__((target("avx2")))


ASCEND_TWIN_AVX2 void Add2(float* d, const float* a, const float* b, int64_t n)
{
    for (int64_t i = 0; i < n; ++i) d[i] = a[i] + b[i];
}
ASCEND_TWIN_AVX2 void Sub2(float* d, const float* a, const float* b, int64_t n)
{
    for (int64_t i = 0; i < n; ++i) d[i] = a[i] - b[i];
}
ASCEND_TWIN_AVX2 void Mul2(float* d, const float* a, const float* b, int64_t n)
{
    for (int64_t i = 0; i < n; ++i) d[i] = a[i] * b[i];
}
ASCEND_TWIN_AVX2 void Div2(float* d, const float* a, const float* b, int64_t n)
{
    for (int64_t i = 0; i < n; ++i) d[i] = a[i] / b[i];
}
ASCEND_TWIN_AVX2 void Adds2(float* d, const float* a, float s, int64_t n)
{
    for (int64_t i = 0; i < n; ++i) d[i] = a[i] + s;
}
ASCEND_TWIN_AVX2 void Muls2(float* d, const float* a, float s, int64_t n)
{
    for (int64_t i = 0; i < n; ++i) d[i] = a[i] * s;
}
ASCEND_TWIN_AVX2 void Widen2(float* d, const uint16_t* s, int64_t n)
{
    for (int64_t i = 0; i < n; ++i) d[i] = Bf16BitsToFloat(s[i]);
}
ASCEND_TWIN_AVX2 void Narrow2(uint16_t* d, const float* s, int64_t n)
{
    for (int64_t i = 0; i < n; ++i) d[i] = FloatToBf16Bits(s[i]);
}
// AVX-512 (F and BW) builds of the bfloat16 conversions: the narrowing's 32 -> 16-bit step is one truncating
// move (vpmovdw) there, against packs and a lane permute in AVX2.
bool HasAvx512Bw()
{
    static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    return has;
}

#define ASCEND_TWIN_AVX512 __attribute__((target("avx2,avx512f,avx512bw")))

ASCEND_TWIN_AVX512 void Widen512(float* d, const uint16_t* s, int64_t n)
{
    for (int64_t i = 0; i < n; ++i) d[i] = Bf16BitsToFloat(s[i]);
}
ASCEND_TWIN_AVX512 void Narrow512(uint16_t* d, const float* s, int64_t n)
{
    for (int64_t i = 0; i < n; ++i) d[i] = FloatToBf16Bits(s[i]);
}
#endif

// The key of the 4-byte word at address 4 * w (WriteChecksum): a mixed key of w's low 8 bits (a table of 1 KiB)
// xor a mixed value of its other 24 bits, made even so that the key stays odd.
constexpr uint32_t Mix(uint32_t x)
{
    x *= 0x9E3779B1u;
    x ^= x >> 15;
    x *= 0x85EBCA77u;
    x ^= x >> 13;
    return x;
}
constexpr uint32_t kKeyBits = 8;
struct KeyTableData {
    uint32_t keys[1u << kKeyBits];
};
constexpr KeyTableData MakeKeyTable()
{
    KeyTableData t{};
    for (uint32_t i = 0; i < (1u << kKeyBits); ++i) t.keys[i] = Mix(i) | 1u;
    return t;
}
constexpr KeyTableData kKeyTable = MakeKeyTable();
inline const uint32_t* KeyTable() { return kKeyTable.keys; }
inline uint32_t WindowKey(uint32_t w) { return Mix((w >> kKeyBits) + 0x632BE5ABu) & ~1u; }
inline uint32_t WordKey(uint32_t w) { return KeyTable()[w & ((1u << kKeyBits) - 1)] ^ WindowKey(w); }

// Sum over the n words at p from word index w0 (the after-launch comparison's: not on a hot path).
uint64_t WordSum(const uint8_t* p, uint32_t w0, uint64_t n)
{
    uint64_t sum = 0;
    for (uint64_t i = 0; i < n; ++i) {
        uint32_t w;
        std::memcpy(&w, p + 4 * i, 4);
        sum += static_cast<uint64_t>(w) * WordKey(w0 + static_cast<uint32_t>(i));
    }
    return sum;
}

#if defined(__x86_64__)
// Copies n bytes from s to d with 32-byte vector stores and returns WriteChecksum(d, n), summed as it goes.
ASCEND_TWIN_AVX2 uint64_t CopySum2(uint8_t* d, const uint8_t* s, uint64_t n)
{
    uint64_t sum = 0, i = 0;
    const uint64_t base = reinterpret_cast<uintptr_t>(d);
    auto byteAt = [&](uint64_t k) {
        d[k] = s[k];
        const uint64_t a = base + k;
        sum += (static_cast<uint64_t>(s[k]) << (8 * (a & 3))) * WordKey(static_cast<uint32_t>(a >> 2));
    };
    for (; i < n && ((base + i) & 3) != 0; ++i) byteAt(i);
    const uint32_t* table = KeyTable();
    constexpr uint32_t kMask = (1u << kKeyBits) - 1;
    __m256i acc = _mm256_setzero_si256();
    while (n - i >= 4) {
        // The whole words up to the end of this key window (or of the copy): 8 at a time, then one at a time.
        const uint32_t w = static_cast<uint32_t>((base + i) >> 2);
        const uint64_t words = std::min<uint64_t>((n - i) / 4, (kMask + 1) - (w & kMask));
        const uint64_t vec = words / 8 * 8;
        const uint32_t windowKey = WindowKey(w);
        const __m256i window = _mm256_set1_epi32(static_cast<int>(windowKey));
        const uint32_t* keys = table + (w & kMask);
        for (uint64_t j = 0; j < vec; j += 8, i += 32) {
            const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i));
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), v);
            const __m256i k = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(keys + j)), window);
            acc = _mm256_add_epi64(acc, _mm256_mul_epu32(v, k));
            acc = _mm256_add_epi64(acc, _mm256_mul_epu32(_mm256_srli_epi64(v, 32), _mm256_srli_epi64(k, 32)));
        }
        for (uint64_t j = vec; j < words; ++j, i += 4) {
            uint32_t v;
            std::memcpy(&v, s + i, 4);
            std::memcpy(d + i, &v, 4);
            sum += static_cast<uint64_t>(v) * (keys[j] ^ windowKey);
        }
    }
    for (; i < n; ++i) byteAt(i);
    alignas(32) uint64_t lanes[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), acc);
    return sum + lanes[0] + lanes[1] + lanes[2] + lanes[3];
}
#endif

}  // namespace

uint64_t WriteChecksum(const void* p, uint64_t n)
{
    const auto* b = static_cast<const uint8_t*>(p);
    uint64_t a = reinterpret_cast<uintptr_t>(p);
    const uint64_t end = a + n;
    uint64_t sum = 0;
    // Bytes before the first whole word and after the last: each its byte lane of the word, the rest 0.
    auto byteAt = [&](uint64_t addr) {
        sum += (static_cast<uint64_t>(b[addr - reinterpret_cast<uintptr_t>(p)]) << (8 * (addr & 3))) *
               WordKey(static_cast<uint32_t>(addr >> 2));
    };
    for (; a < end && (a & 3) != 0; ++a) byteAt(a);
    const uint64_t whole = (end - a) / 4;
    sum += WordSum(b + (a - reinterpret_cast<uintptr_t>(p)), static_cast<uint32_t>(a >> 2), whole);
    a += whole * 4;
    for (; a < end; ++a) byteAt(a);
    return sum;
}

#if defined(__x86_64__)
namespace {

// hadd gives the pair sums of x's and y's halves interleaved by 128-bit lane (pairs 0 1 4 5 2 3 6 7 of the 16
// floats); the 64-bit permute puts them back in order.
ASCEND_TWIN_AVX2 inline __m256 PairSums(__m256 x, __m256 y)
{
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_hadd_ps(x, y)), 0xD8));
}

ASCEND_TWIN_AVX2 float PairTreeSum64Avx2(const float* a)
{
    __m256 v[8];
    for (int i = 0; i < 8; ++i) v[i] = _mm256_loadu_ps(a + 8 * i);
    for (int n = 8; n > 1; n /= 2) {
        for (int i = 0; i < n / 2; ++i) v[i] = PairSums(v[2 * i], v[2 * i + 1]);
    }
    float l[8];
    _mm256_storeu_ps(l, v[0]);
    for (int width = 8; width > 1; width /= 2) {
        for (int i = 0; i < width / 2; ++i) l[i] = l[2 * i] + l[2 * i + 1];
    }
    return l[0];
}

}  // namespace
#endif

bool PairTreeSum64F32(const float* a, float* out)
{
#if defined(__x86_64__)
    if (!HasAvx2()) return false;
    *out = PairTreeSum64Avx2(a);
    return true;
#else
    (void)a, (void)out;
    return false;
#endif
}

bool BinaryF32(VecOp op, float* d, const float* a, const float* b, int64_t n)
{
#if defined(__x86_64__)
    if (!HasAvx2()) return false;
    switch (op) {
        case VecOp::kAdd: Add2(d, a, b, n); return true;
        case VecOp::kSub: Sub2(d, a, b, n); return true;
        case VecOp::kMul: Mul2(d, a, b, n); return true;
        case VecOp::kDiv: Div2(d, a, b, n); return true;
        default: return false;
    }
#else
    (void)op, (void)d, (void)a, (void)b, (void)n;
    return false;
#endif
}

bool ScalarF32(VecOp op, float* d, const float* a, float s, int64_t n)
{
#if defined(__x86_64__)
    if (!HasAvx2()) return false;
    switch (op) {
        case VecOp::kAdds: Adds2(d, a, s, n); return true;
        case VecOp::kMuls: Muls2(d, a, s, n); return true;
        default: return false;
    }
#else
    (void)op, (void)d, (void)a, (void)s, (void)n;
    return false;
#endif
}

bool WidenBf16(float* d, const uint16_t* s, int64_t n)
{
#if defined(__x86_64__)
    if (!HasAvx2()) return false;
    if (HasAvx512Bw()) {
        Widen512(d, s, n);
        return true;
    }
    Widen2(d, s, n);
    return true;
#else
    (void)d, (void)s, (void)n;
    return false;
#endif
}

bool NarrowBf16(uint16_t* d, const float* s, int64_t n)
{
#if defined(__x86_64__)
    if (!HasAvx2()) return false;
    if (HasAvx512Bw()) {
        Narrow512(d, s, n);
        return true;
    }
    Narrow2(d, s, n);
    return true;
#else
    (void)d, (void)s, (void)n;
    return false;
#endif
}

uint64_t CopyToGmSummed(void* d, const void* s, uint64_t n)
{
#if defined(__x86_64__)
    if (HasAvx2()) return CopySum2(static_cast<uint8_t*>(d), static_cast<const uint8_t*>(s), n);
#endif
    std::memcpy(d, s, n);
    return WriteChecksum(d, n);
}

}  // namespace ascend_twin::simd
