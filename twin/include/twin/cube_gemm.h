// The twin's Mmad: a register-blocked float32 micro-kernel over packed L0A/L0B tiles, accumulating into
// L0C. The cube unit multiplies fractals with float32 accumulation; products of half/bf16 inputs are exact
// in float32, so computing them as float32 FMAs gives the hardware's values up to summation order.
#pragma once

#include <cstdint>

namespace ascend_twin::cube_detail {

inline constexpr int kMr = 6;   // rows of C per micro-kernel call (rows of one packed A panel)
inline constexpr int kNr = 16;  // columns of C per call (columns of one packed B panel)

// GM runs a later load will read (`count` runs of `bytes`, run i at base + i * stride), touched `perCall` cache
// lines at a time between micro-kernel calls so that the load finds them in the CPU's cache: the copy's memory
// latency overlaps the multiplications instead of following them. A hint to the CPU only: no value, check or
// counter depends on it (the load reads, checks and counts its runs as without it), and a prefetch of an
// address outside every buffer does not fault (the load then fails its bounds check as without it).
struct GmPrefetch {
    const uint8_t* base = nullptr;
    int64_t stride = 0, bytes = 0, count = 0;
    int64_t run = 0, offset = 0;  // the next line: run `run`, bytes from its line-aligned start
    int64_t perCall = 0;
    bool Done() const { return run >= count; }
    int64_t LinesLeft() const { return (count - run) * (bytes / 64 + 2); }  // an upper bound
    void Touch();  // up to perCall more lines, in order
};

// Packed layouts: A panel p holds rows [p*kMr, p*kMr + kMr) as a[p*aStride + k*kMr + r]; B panel q holds
// columns [q*kNr, q*kNr + kNr) as b[q*bStride + k*kNr + j] (strides of at least kc*kMr and kc*kNr: the
// panels may be parts of longer ones). Padding rows/columns are zero.
// c[(p*kMr + r) * ldc + q*kNr + j] += sum_k a(p, k, r) * b(q, k, j), for all panels. With `prefetch`, each of
// its parts touches its perCall lines after each micro-kernel call (the same results: a hint).
void PanelGemm(int mPanels, int nPanels, int kc, const float* a, int64_t aStride, const float* b, int64_t bStride,
               float* c, int64_t ldc, GmPrefetch* prefetch = nullptr, int prefetchParts = 0);
// The same in double, for the twin's float64 build (portable loops: it serves gradient checks, not speed; no
// prefetch).
void PanelGemm(int mPanels, int nPanels, int kc, const double* a, int64_t aStride, const double* b, int64_t bStride,
               double* c, int64_t ldc, GmPrefetch* prefetch = nullptr, int prefetchParts = 0);

// Panels from GM runs (float32 operands): dst[c * kMr + i] = rows[i][c] for the n <= kMr runs of an A panel
// (A not transposed; its lanes from n on zero: a base block's last panel), dst[c * kNr + i] = rows[i][c] for the
// kNr runs of a full B panel (B transposed), c < count. The runs are read in order and the panel written in order
// (8 columns at a time where AVX2 is there).
void GatherPanelA(const float* const* rows, int n, int64_t count, float* dst);
void GatherPanelB(const float* const* rows, int64_t count, float* dst);

// 16-bit floating elements into float32, `count` contiguous ones (exact: every half and bfloat16 value is a float).
// Where the CPU has F16C/AVX-512 the half form converts 16 at a time; its one difference from HalfBitsToFloat, a
// signalling NaN arriving quiet, is not observable: L1/L0 operands are read only by the micro-kernel, whose FMA
// quiets it the same way.
void WidenHalfRun(const uint16_t* src, int64_t count, float* dst);
void WidenBf16Run(const uint16_t* src, int64_t count, float* dst);

}  // namespace ascend_twin::cube_detail
