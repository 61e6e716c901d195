// The Mmad micro-kernel: a 6x48 or 6x64 C tile in AVX-512 registers, or 6x16 in 12 AVX2 registers (FMA), with a
// portable fallback (std::fma in float32), chosen at run time by what the CPU has. Each element of C gets the same fused
// multiply-adds in the same order on every path, so they give bit-equal results.
#include "twin/cube_gemm.h"
#include "twin/kernel_types.h"
#include "twin/simd_loops.h"
#include "twin/violation.h"

#include <cmath>
#include <type_traits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace ascend_twin::cube_detail {

namespace {

template <typename E>
void MicroGeneric(int kc, const E* a, const E* b, E* c, int64_t ldc)
{
    E acc[kMr][kNr] = {};
    for (int k = 0; k < kc; ++k) {
        for (int r = 0; r < kMr; ++r) {
            const E av = a[k * kMr + r];
            for (int j = 0; j < kNr; ++j) {
                if constexpr (std::is_same_v<E, float>) {
                    acc[r][j] = std::fma(av, b[k * kNr + j], acc[r][j]);  // as the vector paths
                } else {
                    acc[r][j] += av * b[k * kNr + j];  // the float64 build: gradient checks, not the NPU's values
                }
            }
        }
    }
    for (int r = 0; r < kMr; ++r) {
        for (int j = 0; j < kNr; ++j) c[r * ldc + j] += acc[r][j];
    }
}

template <typename E>
void PanelGemmGeneric(int mPanels, int nPanels, int kc, const E* a, int64_t aStride, const E* b, int64_t bStride, E* c,
                      int64_t ldc)
{
    for (int q = 0; q < nPanels; ++q) {
        for (int p = 0; p < mPanels; ++p) {
            MicroGeneric(kc, a + p * aStride, b + q * bStride, c + int64_t(p) * kMr * ldc + q * kNr, ldc);
        }
    }
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) inline void MicroAvx2(int kc, const float* a, const float* b, float* c,
                                                             int64_t ldc)
{
    __m256 c00 = _mm256_setzero_ps(), c01 = _mm256_setzero_ps(), c10 = _mm256_setzero_ps(),
           c11 = _mm256_setzero_ps(), c20 = _mm256_setzero_ps(), c21 = _mm256_setzero_ps(),
           c30 = _mm256_setzero_ps(), c31 = _mm256_setzero_ps(), c40 = _mm256_setzero_ps(),
           c41 = _mm256_setzero_ps(), c50 = _mm256_setzero_ps(), c51 = _mm256_setzero_ps();
    for (int k = 0; k < kc; ++k) {
        const __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
        __m256 av = _mm256_broadcast_ss(a + 0);
        c00 = _mm256_fmadd_ps(av, b0, c00);
        c01 = _mm256_fmadd_ps(av, b1, c01);
        av = _mm256_broadcast_ss(a + 1);
        c10 = _mm256_fmadd_ps(av, b0, c10);
        c11 = _mm256_fmadd_ps(av, b1, c11);
        av = _mm256_broadcast_ss(a + 2);
        c20 = _mm256_fmadd_ps(av, b0, c20);
        c21 = _mm256_fmadd_ps(av, b1, c21);
        av = _mm256_broadcast_ss(a + 3);
        c30 = _mm256_fmadd_ps(av, b0, c30);
        c31 = _mm256_fmadd_ps(av, b1, c31);
        av = _mm256_broadcast_ss(a + 4);
        c40 = _mm256_fmadd_ps(av, b0, c40);
        c41 = _mm256_fmadd_ps(av, b1, c41);
        av = _mm256_broadcast_ss(a + 5);
        c50 = _mm256_fmadd_ps(av, b0, c50);
        c51 = _mm256_fmadd_ps(av, b1, c51);
        a += kMr;
        b += kNr;
    }
    const __m256 rows[kMr][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}, {c40, c41}, {c50, c51}};
    for (int r = 0; r < kMr; ++r) {
        float* row = c + r * ldc;
        _mm256_storeu_ps(row, _mm256_add_ps(_mm256_loadu_ps(row), rows[r][0]));
        _mm256_storeu_ps(row + 8, _mm256_add_ps(_mm256_loadu_ps(row + 8), rows[r][1]));
    }
}

__attribute__((target("avx2,fma"))) void PanelGemmAvx2(int mPanels, int nPanels, int kc, const float* a,
                                                          int64_t aStride, const float* b, int64_t bStride, float* c,
                                                          int64_t ldc, GmPrefetch* prefetch, int parts)
{
    for (int q = 0; q < nPanels; ++q) {
        for (int p = 0; p < mPanels; ++p) {
            MicroAvx2(kc, a + p * aStride, b + q * bStride, c + int64_t(p) * kMr * ldc + q * kNr, ldc);
            for (int i = 0; i < parts; ++i) prefetch[i].Touch();
        }
    }
}

// NB B panels at once (6 x 16*NB C in 6*NB AVX-512 registers): the same FMAs in the same order per element of C
// as MicroAvx2, so the results are bit-equal to it; only the width differs.
template <int NB>
__attribute__((target("avx512f"))) inline void MicroAvx512(int kc, const float* a, const float* b, int64_t bStride,
                                                            float* c, int64_t ldc)
{
    __m512 acc[kMr][NB];
    for (int r = 0; r < kMr; ++r) {
        for (int j = 0; j < NB; ++j) acc[r][j] = _mm512_setzero_ps();
    }
    for (int k = 0; k < kc; ++k) {
        __m512 bv[NB];
        for (int j = 0; j < NB; ++j) bv[j] = _mm512_loadu_ps(b + j * bStride + k * kNr);
        for (int r = 0; r < kMr; ++r) {
            const __m512 av = _mm512_set1_ps(a[k * kMr + r]);
            for (int j = 0; j < NB; ++j) acc[r][j] = _mm512_fmadd_ps(av, bv[j], acc[r][j]);
        }
    }
    for (int r = 0; r < kMr; ++r) {
        float* row = c + r * ldc;
        for (int j = 0; j < NB; ++j) {
            _mm512_storeu_ps(row + j * kNr, _mm512_add_ps(_mm512_loadu_ps(row + j * kNr), acc[r][j]));
        }
    }
}

// B panels through MicroAvx512 three at a time, four together when four are left (a 64-column base block: 24
// accumulators, 4 B registers and the broadcast fit AVX-512's 32), the last one or two together.
__attribute__((target("avx512f"))) void PanelGemmAvx512(int mPanels, int nPanels, int kc, const float* a,
                                                        int64_t aStride, const float* b, int64_t bStride, float* c,
                                                        int64_t ldc, GmPrefetch* prefetch, int parts)
{
    static_assert(kNr == 16, "a B panel is one AVX-512 register wide");
    for (int q = 0; q < nPanels;) {
        const int left = nPanels - q, nb = left == 4 ? 4 : left >= 3 ? 3 : left;
        for (int p = 0; p < mPanels; ++p) {
            const float* ap = a + p * aStride;
            const float* bp = b + q * bStride;
            float* cp = c + int64_t(p) * kMr * ldc + q * kNr;
            if (nb == 4) {
                MicroAvx512<4>(kc, ap, bp, bStride, cp, ldc);
            } else if (nb == 3) {
                MicroAvx512<3>(kc, ap, bp, bStride, cp, ldc);
            } else if (nb == 2) {
                MicroAvx512<2>(kc, ap, bp, bStride, cp, ldc);
            } else {
                MicroAvx512<1>(kc, ap, bp, bStride, cp, ldc);
            }
            for (int i = 0; i < parts; ++i) prefetch[i].Touch();
        }
        q += nb;
    }
}

// Transposes 8 rows of 8 floats in registers: r[j] becomes column j.
__attribute__((target("avx2"))) inline void Transpose8(__m256 r[8])
{
    __m256 t[8];
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
    __m256 u[8];
    for (int i = 0; i < 8; i += 4) {
        u[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);
        u[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xEE);
        u[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
        u[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
    }
    for (int i = 0; i < 4; ++i) {
        r[i] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x20);
        r[i + 4] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x31);
    }
}

// A panel: 8 columns of the kMr runs a step, each column's kMr values stored with an 8-float store whose last
// two lanes the next column's store overwrites; the loop leaves at least one column to the scalar tail, so no
// store reaches past the panel's `count` columns.
__attribute__((target("avx2"))) void GatherPanelAAvx2(const float* const* rows, int n, int64_t count, float* dst)
{
    static_assert(kMr <= 8, "one 8x8 transpose holds an A panel's columns");
    int64_t c = 0;
    for (; c + 8 < count; c += 8) {
        __m256 r[8];
        for (int i = 0; i < n; ++i) r[i] = _mm256_loadu_ps(rows[i] + c);
        for (int i = n; i < 8; ++i) r[i] = _mm256_setzero_ps();
        Transpose8(r);
        for (int j = 0; j < 8; ++j) _mm256_storeu_ps(dst + (c + j) * kMr, r[j]);
    }
    for (; c < count; ++c) {
        for (int i = 0; i < kMr; ++i) dst[c * kMr + i] = i < n ? rows[i][c] : 0.0f;
    }
}

// B panel: two 8x8 transposes per 8 columns (runs 0-7 and 8-15).
__attribute__((target("avx2"))) void GatherPanelBAvx2(const float* const* rows, int64_t count, float* dst)
{
    static_assert(kNr == 16, "a B panel is two 8-run halves");
    int64_t c = 0;
    for (; c + 8 <= count; c += 8) {
        for (int h = 0; h < 2; ++h) {
            __m256 r[8];
            for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(rows[h * 8 + i] + c);
            Transpose8(r);
            for (int j = 0; j < 8; ++j) _mm256_storeu_ps(dst + (c + j) * kNr + h * 8, r[j]);
        }
    }
    for (; c < count; ++c) {
        for (int i = 0; i < kNr; ++i) dst[c * kNr + i] = rows[i][c];
    }
}

bool HasAvx2Fma()
{
    static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return has;
}

bool HasAvx512()
{
    static const bool has = HasAvx2Fma() && __builtin_cpu_supports("avx512f");
    return has;
}

__attribute__((target("avx512f"))) void WidenHalfRunAvx512(const uint16_t* src, int64_t count, float* dst)
{
    int64_t i = 0;
    for (; i + 16 <= count; i += 16) {
        const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i));
        _mm512_storeu_ps(dst + i, _mm512_maskz_cvtph_ps(0xffff, h));  // maskz: no gcc 12 -Wmaybe-uninitialized
    }
    for (; i < count; ++i) dst[i] = HalfBitsToFloat(src[i]);
}

#endif

}  // namespace

void GmPrefetch::Touch()
{
    constexpr int64_t kLine = 64;
    for (int64_t lines = perCall; lines > 0 && run < count; --lines) {
        const uint8_t* start = base + run * stride;
        const auto* line =
            reinterpret_cast<const uint8_t*>(reinterpret_cast<uintptr_t>(start) & ~uintptr_t(kLine - 1));
        __builtin_prefetch(line + offset, 0, 2);
        offset += kLine;
        if (line + offset >= start + bytes) {
            ++run;
            offset = 0;
        }
    }
}

void PanelGemm(int mPanels, int nPanels, int kc, const float* a, int64_t aStride, const float* b, int64_t bStride,
               float* c, int64_t ldc, GmPrefetch* prefetch, int prefetchParts)
{
#if defined(__x86_64__)
    if (HasAvx512()) {
        return PanelGemmAvx512(mPanels, nPanels, kc, a, aStride, b, bStride, c, ldc, prefetch, prefetchParts);
    }
    if (HasAvx2Fma()) {
        return PanelGemmAvx2(mPanels, nPanels, kc, a, aStride, b, bStride, c, ldc, prefetch, prefetchParts);
    }
#endif
    PanelGemmGeneric(mPanels, nPanels, kc, a, aStride, b, bStride, c, ldc);
}

template <int L>
void GatherPanelGeneric(const float* const* rows, int n, int64_t count, float* dst)
{
    for (int64_t c = 0; c < count; ++c) {
        for (int i = 0; i < L; ++i) dst[c * L + i] = i < n ? rows[i][c] : 0.0f;
    }
}

void GatherPanelA(const float* const* rows, int n, int64_t count, float* dst)
{
#if defined(__x86_64__)
    if (HasAvx2Fma()) return GatherPanelAAvx2(rows, n, count, dst);
#endif
    GatherPanelGeneric<kMr>(rows, n, count, dst);
}

void GatherPanelB(const float* const* rows, int64_t count, float* dst)
{
#if defined(__x86_64__)
    if (HasAvx2Fma()) return GatherPanelBAvx2(rows, count, dst);
#endif
    GatherPanelGeneric<kNr>(rows, kNr, count, dst);
}

void WidenHalfRun(const uint16_t* src, int64_t count, float* dst)
{
#if defined(__x86_64__)
    if (HasAvx512()) return WidenHalfRunAvx512(src, count, dst);
#endif
    for (int64_t i = 0; i < count; ++i) dst[i] = HalfBitsToFloat(src[i]);
}

void WidenBf16Run(const uint16_t* src, int64_t count, float* dst)
{
    if (simd::WidenBf16(dst, src, count)) return;  // the bfloat16 Cast's loops (AVX-512 BW or AVX2)
    for (int64_t i = 0; i < count; ++i) dst[i] = Bf16BitsToFloat(src[i]);
}

void PanelGemm(int mPanels, int nPanels, int kc, const double* a, int64_t aStride, const double* b, int64_t bStride,
               double* c, int64_t ldc, GmPrefetch*, int)
{
    PanelGemmGeneric(mPanels, nPanels, kc, a, aStride, b, bStride, c, ldc);
}

}  // namespace ascend_twin::cube_detail
