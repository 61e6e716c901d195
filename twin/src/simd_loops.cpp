// AVX2 builds of the element loops of twin/simd_loops.h (and AVX-512 builds of the bfloat16 conversions). The
// loops are the portable ones, compiled with the AVX2 target so that the vectoriser uses 256-bit registers; no
// FMA target, so that a * b + c is never contracted. The vectoriser checks for overlapping operands at run time, as for the portable loops.
#include "twin/simd_loops.h"

#include "twin/kernel_types.h"

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
ASCEND_TWIN_AVX2 void Copy2(uint8_t* d, const uint8_t* s, uint64_t n)
{
    uint64_t i = 0;
    for (; i + 128 <= n; i += 128) {
        const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i));
        const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + 32));
        const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + 64));
        const __m256i e = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + 96));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), a);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i + 32), b);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i + 64), c);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i + 96), e);
    }
    for (; i + 32 <= n; i += 32) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i),
                            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i)));
    }
    if (i < n) std::memcpy(d + i, s + i, n - i);
}
#endif

}  // namespace

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

bool CopyToGm(void* d, const void* s, uint64_t n)
{
#if defined(__x86_64__)
    if (!HasAvx2()) return false;
    Copy2(static_cast<uint8_t*>(d), static_cast<const uint8_t*>(s), n);
    return true;
#else
    (void)d, (void)s, (void)n;
    return false;
#endif
}

}  // namespace ascend_twin::simd
