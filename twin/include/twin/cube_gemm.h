// The twin's Mmad: a register-blocked float32 micro-kernel over packed L0A/L0B tiles, accumulating into
// L0C. The cube unit multiplies fractals with float32 accumulation; products of half/bf16 inputs are exact
// in float32, so computing them as float32 FMAs gives the hardware's values up to summation order.
#pragma once

#include <cstdint>

namespace ascend_twin::cube_detail {

inline constexpr int kMr = 6;   // rows of C per micro-kernel call (rows of one packed A panel)
inline constexpr int kNr = 16;  // columns of C per call (columns of one packed B panel)

// Packed layouts: A panel p holds rows [p*kMr, p*kMr + kMr) as a[p*aStride + k*kMr + r]; B panel q holds
// columns [q*kNr, q*kNr + kNr) as b[q*bStride + k*kNr + j] (strides of at least kc*kMr and kc*kNr: the
// panels may be parts of longer ones). Padding rows/columns are zero.
// c[(p*kMr + r) * ldc + q*kNr + j] += sum_k a(p, k, r) * b(q, k, j), for all panels.
void PanelGemm(int mPanels, int nPanels, int kc, const float* a, int64_t aStride, const float* b, int64_t bStride,
               float* c, int64_t ldc);
// The same in double, for the twin's float64 build (portable loops: it serves gradient checks, not speed).
void PanelGemm(int mPanels, int nPanels, int kc, const double* a, int64_t aStride, const double* b, int64_t bStride,
               double* c, int64_t ldc);

// Full panels from GM runs (float32 operands): dst[c * kMr + i] = rows[i][c] for the kMr runs of an A panel
// (A not transposed), dst[c * kNr + i] = rows[i][c] for the kNr runs of a B panel (B transposed), c < count.
// The runs are read in order and the panel written in order (8 columns at a time where AVX2 is there).
void GatherPanelA(const float* const* rows, int64_t count, float* dst);
void GatherPanelB(const float* const* rows, int64_t count, float* dst);

}  // namespace ascend_twin::cube_detail
