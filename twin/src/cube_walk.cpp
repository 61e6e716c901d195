// The cube core's NORM walk over a TCubeTiling (Matmul::IterateAll).
//
// For each base block of C (baseM x baseN, in iterateOrder) the core accumulates over K in L0C: per base K
// step it makes sure the A group (stepM base rows x stepKa base K columns) and the B group (stepKb x stepN)
// it needs are in L1 (A1/B1 hold depthA1 / (stepM * stepKa) and depthB1 / (stepN * stepKb) groups, replaced
// first-in first-out; a miss is a GM -> L1 load, MTE2), moves one base tile of each to L0A/L0B (MTE1),
// and runs Mmad (M pipe) into L0C; at the end of K, Fixpipe writes the block to GM in C's type (FIX).
// The bias of a block is loaded from GM at its first K step and starts the L0C accumulation.
//
// Storage is the twin's own: L1 holds operands as float32 (double in the float64 build) in the micro-kernel's
// panel order, which L0A/L0B tiles are read from in place. Capacities are accounted in the
// operand's real type with the hardware's fractal-aligned base blocks, which is what the rules are about;
// the layouts are not observable through the Matmul API.
#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>
#include <utility>

#include "cube_internal.h"

namespace ascend_twin {

using cube_detail::ConvertRun;
using cube_detail::kMr;
using cube_detail::kNr;
using cube_detail::SizeOf;

namespace {

int64_t Ceil(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Whether the transposing panel loads take operands of type t into L1 of E: stored as E (float32 into float L1,
// float64 into double), or 16-bit floating ones into float, widened a run at a time first.
template <typename E>
bool GathersPanels(CubeType t)
{
    return cube_detail::SameRepr<E>(t) ||
           (std::is_same_v<E, float> && (t == CubeType::kFloat16 || t == CubeType::kBFloat16));
}

// `n` <= L GM runs of `count` elements of type t (GathersPanels), run i from src[i], side by side into the lanes
// of one panel, dst[c * L + i] = run i's element c. The panel is written in order and the runs read in order (a run
// per lane scattered `L` elements apart, one run at a time, wrote every element to another place of the slot: the
// transposing loads' cost). 16-bit runs are widened into float32 rows first (per thread, reused).
template <int L, typename E>
void GatherPanel(const uint8_t* const* src, int n, int64_t count, E* dst, CubeType t)
{
    if constexpr (std::is_same_v<E, float>) {  // an A panel, or a full B panel: cube_gemm.cpp's transposing copies
        if (L == kMr || n == L) {
            const float* rows[L];
            if (t == CubeType::kFloat32) {
                for (int i = 0; i < n; ++i) rows[i] = reinterpret_cast<const float*>(src[i]);
            } else {
                thread_local std::vector<float> wide;
                if (wide.size() < static_cast<size_t>(n * count)) wide.resize(n * count);
                for (int i = 0; i < n; ++i) {
                    cube_detail::ConvertRun(src[i], 1, t, wide.data() + i * count, 1, count);
                    rows[i] = wide.data() + i * count;
                }
            }
            if constexpr (L == kMr) {
                cube_detail::GatherPanelA(rows, n, count, dst);
            } else {
                static_assert(L == kNr, "panels of kMr or kNr runs");
                cube_detail::GatherPanelB(rows, count, dst);
            }
            return;
        }
    }
    if (!cube_detail::SameRepr<E>(t)) {  // a partial B panel of a 16-bit operand
        for (int i = 0; i < n; ++i) cube_detail::ConvertRun(src[i], 1, t, dst + i, L, count);
        return;
    }
    for (int64_t c = 0; c < count; ++c) {
        for (int i = 0; i < n; ++i) std::memcpy(dst + c * L + i, src[i] + c * sizeof(E), sizeof(E));
    }
}

// The GM reads of `count` runs of `len` elements, run i from element first + i * stride (span(first, len): a
// run's GM bytes; es: bytes an element, 0 for int4b_t, whose runs may share a byte and are checked one by one):
// one check when the runs continue each other (their records would join into that one range all the same), else
// one bounds check for all of them when they lie in one buffer, and each run counted and recorded.
template <typename SpanFn>
void CheckRuns(const char* call, uint32_t es, int64_t first, int64_t stride, int64_t len, int64_t count, SpanFn span)
{
    if (es != 0 && stride == len) {
        const auto [src, bytes] = span(first, len * count);
        CheckGmRead(call, src, bytes);
    } else if (es != 0) {
        CheckGmReadRuns(call, span(first, len).first, static_cast<uint64_t>(stride) * es, static_cast<uint64_t>(len) * es,
                        static_cast<uint64_t>(count));
    } else {
        for (int64_t i = 0; i < count; ++i) {
            const auto [src, bytes] = span(first + i * stride, len);
            CheckGmRead(call, src, bytes);
        }
    }
}

template <typename E>
struct Walk {
    CubeMatmul::State& s;
    cube_detail::CubeBuffers<E>& buf;  // L1/L0 in the element type of this build
    CoreContext& core;
    const AscendC::tiling::TCubeTiling& t;
    int64_t cm, cn, k;  // this core's block
    int64_t lda, ldb;
    int64_t aGroupRows, aGroupCols, bGroupRows, bGroupCols;  // one L1 group: [rows][cols], [k][n]
    int64_t kGroupsA, kGroupsB;

    // L1 holds each group already in the micro-kernel's panel order, so that a base tile is read in place
    // (the copy to L0A/L0B is counted, not repeated): A in kMr-row panels per base row block,
    // a[((b * panelsA + p) * aGroupCols + c) * kMr + lane] for row b * baseM + p * kMr + lane; B in kNr-column
    // panels, b[(q * bGroupRows + k) * kNr + lane] for column q * kNr + lane. Padding lanes are zero.
    int64_t panelsA = 0;  // kMr-row panels of one base row block
    int64_t panelsB = 0;  // kNr-column panels of one base column block

    // Where row r of an A group (or its K column's element) goes: its lane of its panel.
    E* LaneA(E* slot, int64_t r) const
    {
        const int64_t b = r / t.baseM, rr = r % t.baseM;
        return slot + (b * panelsA + rr / kMr) * aGroupCols * kMr + rr % kMr;
    }

    // GM -> L1 (MTE2): A rows [row0, row0 + rows) x K columns [col0, col0 + cols) of the group.
    void LoadA(int64_t mg, int64_t kg, E* slot)
    {
        const int64_t row0 = mg * aGroupRows, rows = std::min(aGroupRows, cm - row0);
        const int64_t col0 = kg * aGroupCols, cols = std::min(aGroupCols, k - col0);
        const uint32_t es = SizeOf(s.types.a);
        const bool s4 = s.types.a == CubeType::kInt4;  // elements two a byte: GM addressed by element index
        // Reads `count` elements from element `first` of A, `stride` apart, into dst[i * dstStride].
        auto Run = [&](int64_t first, int64_t stride, E* dst, int64_t dstStride, int64_t count) {
            if (s4) cube_detail::ConvertRunS4(s.a, first, stride, dst, dstStride, count);
            else ConvertRun(s.a + first * es, stride, s.types.a, dst, dstStride, count);
        };
        auto Span = [&](int64_t first, int64_t count) -> std::pair<const uint8_t*, int64_t> {  // its GM bytes
            if (s4) return {s.a + first / 2, (first + count + 1) / 2 - first / 2};
            return {s.a + first * es, count * es};
        };
        if (s.copyInA) {
            LoadAByCallback(row0, rows, col0, cols, slot);
            return;
        }
        for (int64_t b = 0; b * t.baseM < rows; ++b) {  // each block's last panel: its padding rows are zero
            const int64_t blockRows = std::min<int64_t>(rows - b * t.baseM, t.baseM);
            if (blockRows % kMr == 0) continue;
            E* panel = slot + (b * panelsA + blockRows / kMr) * aGroupCols * kMr;
            std::fill(panel, panel + cols * kMr, E{0});
        }
        if (s.aL1) {
            LoadAFromL1(row0, rows, col0, cols, slot);
            return;
        }
        if (!s.transA) {  // one GM run per row, into its lane of every K column
            CheckRuns("Matmul::IterateAll (A: GM->L1)", s4 ? 0 : es, row0 * lda + col0, lda, cols, rows, Span);
            if (!s4 && GathersPanels<E>(s.types.a)) {  // a panel's kMr rows side by side
                for (int64_t r = 0; r < rows;) {
                    const int64_t rr = r % t.baseM, n = std::min<int64_t>({kMr, t.baseM - rr, rows - r});
                    const uint8_t* src[kMr];
                    for (int64_t i = 0; i < n; ++i) src[i] = s.a + ((row0 + r + i) * lda + col0) * es;
                    GatherPanel<kMr>(src, static_cast<int>(n), cols, LaneA(slot, r), s.types.a);
                    r += n;
                }
            } else {
                for (int64_t r = 0; r < rows; ++r) Run((row0 + r) * lda + col0, 1, LaneA(slot, r), kMr, cols);
            }
        } else {  // A stored [K, M]: a panel's rows are side by side in each K column
            CheckRuns("Matmul::IterateAll (A: GM->L1)", s4 ? 0 : es, col0 * lda + row0, lda, rows, cols, Span);
            if (!s4 && cube_detail::SameRepr<E>(s.types.a)) {  // each K column's GM run once, in order
                for (int64_t b = 0; b * t.baseM < rows; ++b) {
                    const int64_t blockRows = std::min<int64_t>(rows - b * t.baseM, t.baseM), full = blockRows / kMr;
                    E* const panels = slot + b * panelsA * aGroupCols * kMr;
                    for (int64_t c = 0; c < cols; ++c) {
                        const uint8_t* src = s.a + ((col0 + c) * lda + row0 + b * t.baseM) * es;
                        for (int64_t p = 0; p < full; ++p) {
                            std::memcpy(panels + (p * aGroupCols + c) * kMr, src + p * kMr * es, kMr * sizeof(E));
                        }
                        if (blockRows > full * kMr) {
                            std::memcpy(panels + (full * aGroupCols + c) * kMr, src + full * kMr * es,
                                        (blockRows - full * kMr) * sizeof(E));
                        }
                    }
                }
            } else {
                for (int64_t b = 0; b * t.baseM < rows; ++b) {
                    const int64_t blockRows = std::min<int64_t>(rows - b * t.baseM, t.baseM);
                    for (int64_t p = 0; p * kMr < blockRows; ++p) {
                        const int64_t n = std::min<int64_t>(kMr, blockRows - p * kMr);
                        const int64_t first = col0 * lda + row0 + b * t.baseM + p * kMr;
                        E* panel = slot + (b * panelsA + p) * aGroupCols * kMr;
                        for (int64_t c = 0; c < cols; ++c) Run(first + c * lda, 1, panel + c * kMr, 1, n);
                    }
                }
            }
        }
        core.counters.cube.gmBytesA += s4 ? rows * cols / 2 : rows * cols * es;
        core.counters.cube.l1BytesLoaded += s4 ? rows * cols / 2 : rows * cols * es;
    }

    // GM -> L1: B K rows [k0, k0 + ks) x columns [n0, n0 + ns) of the group, kNr columns to a panel.
    void LoadB(int64_t ng, int64_t kg, E* slot)
    {
        const int64_t k0 = kg * bGroupRows, ks = std::min(bGroupRows, k - k0);
        const int64_t n0 = ng * bGroupCols, ns = std::min(bGroupCols, cn - n0);
        const uint32_t es = SizeOf(s.types.b);
        const bool s4 = s.types.b == CubeType::kInt4;
        auto Run = [&](int64_t first, int64_t stride, E* dst, int64_t dstStride, int64_t count) {
            if (s4) cube_detail::ConvertRunS4(s.b, first, stride, dst, dstStride, count);
            else ConvertRun(s.b + first * es, stride, s.types.b, dst, dstStride, count);
        };
        auto Span = [&](int64_t first, int64_t count) -> std::pair<const uint8_t*, int64_t> {
            if (s4) return {s.b + first / 2, (first + count + 1) / 2 - first / 2};
            return {s.b + first * es, count * es};
        };
        if (ns % kNr != 0) {  // the last panel's columns past the group's end are zero
            E* panel = slot + (ns / kNr) * bGroupRows * kNr;
            std::fill(panel, panel + ks * kNr, E{0});
        }
        if (s.copyInB) {
            LoadBByCallback(k0, ks, n0, ns, slot);
            return;
        }
        if (s.types.sparseB) {
            LoadSparseB(k0, ks, n0, ns, slot);
            return;
        }
        if (!s.transB) {  // one GM run per K row, kNr columns to a panel
            CheckRuns("Matmul::IterateAll (B: GM->L1)", s4 ? 0 : es, k0 * ldb + n0, ldb, ns, ks, Span);
            for (int64_t kk = 0; kk < ks; ++kk) {
                const int64_t first = (k0 + kk) * ldb + n0;
                for (int64_t j = 0; j < ns; j += kNr) {
                    Run(first + j, 1, slot + ((j / kNr) * bGroupRows + kk) * kNr, 1, std::min<int64_t>(kNr, ns - j));
                }
            }
        } else {  // B stored [N, K]: one GM run per column of C, into its lane of every K row
            CheckRuns("Matmul::IterateAll (B: GM->L1)", s4 ? 0 : es, n0 * ldb + k0, ldb, ks, ns, Span);
            if (!s4 && GathersPanels<E>(s.types.b)) {  // a panel's kNr columns side by side
                for (int64_t j = 0; j < ns; j += kNr) {
                    const int64_t n = std::min<int64_t>(kNr, ns - j);
                    const uint8_t* src[kNr];
                    for (int64_t i = 0; i < n; ++i) src[i] = s.b + ((n0 + j + i) * ldb + k0) * es;
                    GatherPanel<kNr>(src, static_cast<int>(n), ks, slot + (j / kNr) * bGroupRows * kNr, s.types.b);
                }
            } else {
                for (int64_t j = 0; j < ns; ++j) {
                    Run((n0 + j) * ldb + k0, 1, slot + (j / kNr) * bGroupRows * kNr + j % kNr, kNr, ks);
                }
            }
        }
        core.counters.cube.gmBytesB += s4 ? ks * ns / 2 : ks * ns * es;
        core.counters.cube.l1BytesLoaded += s4 ? ks * ns / 2 : ks * ns * es;
    }

    // A at TSCM (CubeMatmul::SetTensorAL1): the group's rows and K columns read from the single-core A in L1 (NZ), no
    // GM -> L1 copy. Not transposed: element (m, k) at ((k / C0) * H + m) * C0 + k % C0, H = Ceil(M, 16) * 16;
    // transposed (16-bit types), (m, k) at ((m / 16) * Hk + k) * 16 + m % 16, Hk = Ceil(K, 16) * 16.
    void LoadAFromL1(int64_t row0, int64_t rows, int64_t col0, int64_t cols, E* slot)
    {
        const uint32_t es = SizeOf(s.types.a);
        const int64_t c0 = 32 / es;
        if (!s.transA) {
            const int64_t h = Ceil(cm, 16) * 16;
            for (int64_t r = 0; r < rows; ++r) {
                for (int64_t c = 0; c < cols;) {  // a run stays in one fractal column
                    const int64_t kk = col0 + c, n = std::min<int64_t>(c0 - kk % c0, cols - c);
                    ConvertRun(s.a + (((kk / c0) * h + row0 + r) * c0 + kk % c0) * es, 1, s.types.a,
                               LaneA(slot, r) + c * kMr, kMr, n);
                    c += n;
                }
            }
        } else {
            const int64_t hk = Ceil(k, 16) * 16;
            for (int64_t r = 0; r < rows; ++r) {  // row m's K run: one element every c0
                const int64_t m = row0 + r;
                ConvertRun(s.a + (((m / c0) * hk + col0) * c0 + m % c0) * es, c0, s.types.a, LaneA(slot, r), kMr,
                           cols);
            }
        }
    }

    // MatmulCallBackFunc's CopyA1: each base tile of the A group (useM x useK at base-block indices row, col of
    // this core's block) comes from the user's function, which leaves it in L1 as [M, K] NZ (16-row-aligned
    // fractals of C0 = 32 / sizeof(A) columns); the walk reads it from there into its own layout.
    void LoadAByCallback(int64_t row0, int64_t rows, int64_t col0, int64_t cols, E* slot)
    {
        const uint32_t es = SizeOf(s.types.a);
        const int64_t c0 = 32 / es;
        for (int64_t b = 0; b * t.baseM < rows; ++b) {  // each block's last panel: its padding rows are zero
            const int64_t blockRows = std::min<int64_t>(rows - b * t.baseM, t.baseM);
            if (blockRows % kMr == 0) continue;
            E* panel = slot + (b * panelsA + blockRows / kMr) * aGroupCols * kMr;
            std::fill(panel, panel + cols * kMr, E{0});
        }
        for (int64_t r = 0; r < rows; r += t.baseM) {
            const int64_t h = std::min<int64_t>(t.baseM, rows - r), h16 = Ceil(h, 16) * 16;
            for (int64_t c = 0; c < cols; c += t.baseK) {
                const int64_t w = std::min<int64_t>(t.baseK, cols - c);
                const uint8_t* tile = s.copyIn(s.copyInCtx, false, static_cast<int>((row0 + r) / t.baseM),
                                               static_cast<int>((col0 + c) / t.baseK), static_cast<int>(h),
                                               static_cast<int>(w));
                for (int64_t i = 0; i < h; ++i) {
                    for (int64_t j = 0; j < w; j += c0) {
                        ConvertRun(tile + ((j / c0) * h16 + i) * c0 * es, 1, s.types.a,
                                   LaneA(slot, r + i) + (c + j) * kMr, kMr, std::min<int64_t>(c0, w - j));
                    }
                }
            }
        }
        core.counters.cube.l1BytesLoaded += rows * cols * es;
    }

    // CopyB1: each base tile of the B group (useK x useN at base-block indices row, col along K and N) as [K, N]
    // NZ: fractals of C0 = 32 / sizeof(B) columns, Ceil(useK, 16) rows each (32 for int8_t, whose K rows the API
    // aligns to C0).
    void LoadBByCallback(int64_t k0, int64_t ks, int64_t n0, int64_t ns, E* slot)
    {
        const uint32_t es = SizeOf(s.types.b);
        const int64_t c0 = 32 / es, align = es == 1 ? 32 : 16;
        for (int64_t r = 0; r < ks; r += t.baseK) {
            const int64_t h = std::min<int64_t>(t.baseK, ks - r), ha = Ceil(h, align) * align;
            for (int64_t c = 0; c < ns; c += t.baseN) {
                const int64_t w = std::min<int64_t>(t.baseN, ns - c);
                const uint8_t* tile = s.copyIn(s.copyInCtx, true, static_cast<int>((k0 + r) / t.baseK),
                                               static_cast<int>((n0 + c) / t.baseN), static_cast<int>(h),
                                               static_cast<int>(w));
                for (int64_t i = 0; i < h; ++i) {
                    for (int64_t j = 0; j < w; ++j) {
                        const int64_t col = c + j;
                        ConvertRun(tile + ((j / c0) * ha + i) * c0 * es + (j % c0) * es, 1, s.types.b,
                                   slot + ((col / kNr) * bGroupRows + r + i) * kNr + col % kNr, 1, 1);
                    }
                }
            }
        }
        core.counters.cube.l1BytesLoaded += ks * ns * es;
    }

    // SparseMatmulType B (stored [N, K / 2] dense, with its index matrix): the group's K rows [k0, k0 + ks) of
    // columns [n0, n0 + ns), each dense pair (d, d + 1) of a group of 4 K put where its 2-bit indices pick, as
    // MmadWithSparse selects A's columns: d even at 4 (d / 2) + idx, d odd at 4 (d / 2) + 1 + idx (within the base K
    // tile; two picks of one column add). Rows the index does not pick are zero.
    void LoadSparseB(int64_t k0, int64_t ks, int64_t n0, int64_t ns, E* slot)
    {
        if (s.sparseIndex == nullptr) {
            Fail("Matmul::IterateAll (B: GM->L1)", "a SparseMatmulType B needs its index matrix (SetSparseIndex)",
                 "SetSparseIndex was not called");
        }
        if (t.baseK % 64 != 0 || k % 64 != 0) {
            FailF("Matmul::IterateAll (SparseMatmulType B)",
                  "with a sparse B each K tile is a multiple of 64 (MmadWithSparse's k: whole groups of 4 for each "
                  "32-entry dense int8_t block; the host tiling's SetSparse aligns baseK to 64)",
                  "baseK %d, the core's K %lld", t.baseK, static_cast<long long>(k));
        }
        const int64_t dense = k / 2, ldDense = s.orgKb / 2, alignedN = Ceil(s.orgN, 16) * 16;
        for (int64_t j = 0; j < ns; ++j) {
            E* lane = slot + (j / kNr) * bGroupRows * kNr + j % kNr;
            for (int64_t kk = 0; kk < ks; ++kk) lane[kk * kNr] = E{0};
            const int64_t n = n0 + j;
            const uint8_t* src = s.b + n * ldDense + k0 / 2;
            CheckGmRead("Matmul::IterateAll (B: GM->L1)", src, ks / 2);
            for (int64_t d = k0 / 2; d < std::min<int64_t>(dense, (k0 + ks) / 2); ++d) {
                const int64_t kb = d / 4;
                const uint8_t* idx = s.sparseIndex + (kb / 8) * alignedN * 8 + n * 8 + kb % 8;
                CheckGmRead("Matmul::IterateAll (index: GM->L1)", idx, 1);
                const int64_t pick = (*idx >> (2 * (d % 4))) & 3;
                const int64_t kk = (d / 2) * 4 + (d % 2 == 0 ? pick : 1 + pick);
                const int64_t tileEnd = std::min<int64_t>(((d / 2) * 4 / t.baseK + 1) * t.baseK, k);
                if (kk >= tileEnd) continue;
                lane[(kk - k0) * kNr] += static_cast<E>(static_cast<int8_t>(s.b[n * ldDense + d]));
            }
        }
        core.counters.cube.gmBytesB += ks / 2 * ns;
        core.counters.cube.l1BytesLoaded += ks / 2 * ns;
    }

    // L1 -> L0A (MTE1): the mv x kv tile at base row block `rowBlock`, K offset colOff, as the micro-kernel
    // reads it in place: its first panel (panels aGroupCols * kMr elements apart).
    const E* TileA(const E* slot, int64_t rowBlock, int64_t colOff, int64_t mv, int64_t kv)
    {
        core.counters.cube.l0aBytesLoaded += s.types.a == CubeType::kInt4 ? mv * kv / 2 : mv * kv * SizeOf(s.types.a);
        return slot + rowBlock * panelsA * aGroupCols * kMr + colOff * kMr;
    }

    // L1 -> L0B: the kv x nv tile at K offset kOff, base column block `colBlock` (panels bGroupRows * kNr apart).
    const E* TileB(const E* slot, int64_t kOff, int64_t colBlock, int64_t kv, int64_t nv)
    {
        core.counters.cube.l0bBytesLoaded += s.types.b == CubeType::kInt4 ? kv * nv / 2 : kv * nv * SizeOf(s.types.b);
        return slot + colBlock * panelsB * bGroupRows * kNr + kOff * kNr;
    }

    // The bias of columns [n0, n0 + nv) starts every row of the L0C block (the rest of L0C is zeroed).
    void StartL0C(int64_t n0, int64_t mv, int64_t nv)
    {
        const int64_t rows = Ceil(mv, kMr) * kMr, ld = t.baseN;
        if (!s.biasOn) {
            std::fill(buf.l0c.begin(), buf.l0c.begin() + rows * ld, E{0});
            return;
        }
        const uint32_t es = SizeOf(s.types.bias);
        const uint8_t* src = s.bias + n0 * es;
        CheckGmRead("Matmul::IterateAll (bias: GM->L1)", src, nv * es);
        ConvertRun(src, 1, s.types.bias, buf.biasRow.data(), 1, nv);
        std::fill(buf.biasRow.begin() + nv, buf.biasRow.end(), E{0});
        for (int64_t r = 0; r < rows; ++r) std::copy(buf.biasRow.begin(), buf.biasRow.end(), buf.l0c.begin() + r * ld);
        core.counters.cube.gmBytesBias += nv * es;
        core.counters.cube.l1BytesLoaded += nv * es;
    }

    // One row of C into GM through the atomic unit: enAtomic 1 add, 2 max, 3 min, in C's type.
    void AtomicRow(uint8_t* dst, const uint8_t* src, uint64_t bytes)
    {
        const AtomicOp savedOp = core.atomicOp;
        const AtomicType savedType = core.atomicType;
        core.atomicOp = s.atomic == 1 ? AtomicOp::kAdd : (s.atomic == 2 ? AtomicOp::kMax : AtomicOp::kMin);
        core.atomicType = s.types.c == CubeType::kFloat16    ? AtomicType::kHalf
                          : s.types.c == CubeType::kBFloat16 ? AtomicType::kBFloat16
                          : s.types.c == CubeType::kInt32    ? AtomicType::kInt32
                                                             : AtomicType::kFloat;
        AtomicCopyToGm("Matmul::IterateAll/GetTensorC (Fixpipe L0C->GM, enAtomic)", dst, src, bytes);
        core.atomicOp = savedOp;
        core.atomicType = savedType;
    }

    int64_t vectorQuant(int64_t j) const { return s.quant == 2 ? j : 0; }

    // The dequantisation scales of the block's columns (SetQuantScalar: one; SetQuantVector: the block's nv words,
    // column c of this core's C at word c): the word's bits 0-31 as a float with bits 0-12 dropped (the API's
    // docs: the scale's top 19 bits), not inf, nan or a denormal.
    std::vector<double> DequantScales(int64_t nv)
    {
        constexpr const char* kCall = "Matmul::IterateAll/GetTensorC (Fixpipe L0C->GM, dequantisation)";
        std::vector<uint64_t> words(s.quant == 2 ? nv : 1, s.quantScalar);
        if (s.quant == 2) {
            const uint8_t* src = s.quantVector + s.blockN * t.baseN * 8;
            CheckGmRead("Matmul::SetQuantVector (quantTensor: GM->L1->Fixpipe)", src, nv * 8);
            std::memcpy(words.data(), src, nv * 8);
            core.counters.cube.l1BytesLoaded += nv * 8;
        }
        std::vector<double> out;
        for (size_t c = 0; c < words.size(); ++c) {
            const uint32_t bits = static_cast<uint32_t>(words[c]) & 0xFFFFE000u;
            const uint32_t exponent = (bits >> 23) & 0xFF;
            if (exponent == 0xFF || (exponent == 0 && (bits & 0x7FFFFFu) != 0)) {
                Fail(kCall, "the dequantisation scale (bits 0-31 of the quant word, top 19 bits) is not inf, nan or a "
                     "denormal", (s.quant == 2 ? "quantTensor[" + std::to_string(s.blockN * t.baseN + c) + "]"
                                               : std::string("quantScalar")) + " scale bits " + std::to_string(bits));
            }
            float f;
            std::memcpy(&f, &bits, 4);
            out.push_back(f);
        }
        return out;
    }

    // Fixpipe: the block in L0C to C's type, rows `ld` elements apart from dst (the block's first element).
    // checked: dst is the launch's GM (bounds, cross-core records); else the twin's staging of a LocalTensor
    // output (the system workspace area the Matmul API maps the UB tensor to), counted as GM all the same.
    void WriteC(uint8_t* dst, int64_t ld, int64_t mv, int64_t nv, bool checked)
    {
        const uint32_t es = SizeOf(s.types.c);
        if (s.types.cNzChannelSplit) {
            WriteNzSplit(dst, ld, mv, nv, checked);
            return;
        }
        // enAtomic: each row is converted to C's type, then combined with GM by the atomic unit (as SetAtomicAdd/
        // Max/Min before a Fixpipe), with the core's atomic setting restored after.
        const bool atomic = checked && s.atomic != 0;
        // A row to GM is made in `staged` and copied out by CopyToGm, which sums its bytes as it copies them (summing
        // them back from GM after the stores costs more: the loads wait on the stores); a row to a LocalTensor
        // (unchecked) is made in place.
        constexpr const char* kCall = "Matmul::IterateAll/GetTensorC (Fixpipe L0C->GM)";
        std::vector<uint8_t> staged(checked ? static_cast<size_t>(nv * es) : 0);
        const bool dequant = s.types.a == CubeType::kInt8 && s.types.c == CubeType::kFloat16;
        const std::vector<double> scales = dequant ? DequantScales(nv) : std::vector<double>();
        for (int64_t r = 0; r < mv; ++r) {
            uint8_t* const target = dst + r * ld * es;
            uint8_t* row = checked ? staged.data() : target;
            if (!checked) core.counters.gmBytesWritten += nv * es;
            const E* acc = buf.l0c.data() + r * t.baseN;
            if (dequant) {  // DEQF16 / VDEQF16: the int32_t times its column's scale, rounded to half
                for (int64_t j = 0; j < nv; ++j) {
                    cube_detail::StoreElem<double>(row + j * es, CubeType::kFloat16,
                                                   static_cast<double>(acc[j]) * scales[vectorQuant(j)]);
                }
            } else if (cube_detail::SameRepr<E>(s.types.c)) {
                if (checked && !atomic) {  // straight from L0C
                    CopyToGm(kCall, target, acc, nv * es);
                    continue;
                }
                std::memcpy(row, acc, nv * sizeof(E));
            } else if (s.types.c == CubeType::kBFloat16) {  // the type chosen once per row, not per element
                for (int64_t j = 0; j < nv; ++j) cube_detail::StoreElem<E>(row + j * es, CubeType::kBFloat16, acc[j]);
            } else if (s.types.c == CubeType::kFloat16) {
                for (int64_t j = 0; j < nv; ++j) cube_detail::StoreElem<E>(row + j * es, CubeType::kFloat16, acc[j]);
            } else {
                for (int64_t j = 0; j < nv; ++j) cube_detail::StoreElem<E>(row + j * es, s.types.c, acc[j]);
            }
            if (atomic) {
                AtomicRow(target, row, nv * es);
            } else if (checked) {
                CopyToGm(kCall, target, row, nv * es);  // running on into an allocation's padding: the inside only
            }
        }
        core.counters.cube.gmBytesC += mv * nv * es;
        core.counters.cube.l0cBytesOut += mv * nv * sizeof(E);
    }

    // C in NZ with channel split: `dst` is the block's first element, its 8-column fractals `alignM` * 8 elements
    // apart. The Fixpipe writes the block padded to 16 rows and 8 columns; the twin models whole fractals only.
    void WriteNzSplit(uint8_t* dst, int64_t alignM, int64_t mv, int64_t nv, bool checked)
    {
        constexpr const char* kCall = "Matmul::IterateAll (Fixpipe L0C->GM, NZ with channel split)";
        if (mv % 16 != 0 || nv % 8 != 0) {
            Fail(kCall, "the twin models C in NZ with channel split for blocks of whole fractals (16 rows, 8 columns)",
                 "a " + std::to_string(mv) + "x" + std::to_string(nv) +
                     " block (the Fixpipe would write its padding: not modelled)");
        }
        if (s.atomic != 0) {
            Fail(kCall, "the twin models C in NZ with channel split without enAtomic", "enAtomic set");
        }
        for (int64_t g = 0; g < nv / 8; ++g) {
            for (int64_t r = 0; r < mv; ++r) {
                uint8_t* out = dst + (g * alignM * 8 + r * 8) * 4;
                const E* acc = buf.l0c.data() + r * t.baseN + g * 8;
                float values[8];
                for (int j = 0; j < 8; ++j) values[j] = static_cast<float>(acc[j]);
                if (checked) {
                    CopyToGm(kCall, out, values, 32);  // the fractal row's inside (it may run on into the padding)
                } else {
                    core.counters.gmBytesWritten += 32;
                    std::memcpy(out, values, 32);
                }
            }
        }
        core.counters.cube.gmBytesC += mv * nv * 4;
        core.counters.cube.l0cBytesOut += mv * nv * sizeof(E);
    }

    // Where base block `index` of the walk (in iterateOrder) lies: base row and column block, K steps [kFirst, kEnd).
    void Place(int64_t index, int64_t& mi, int64_t& ni, int64_t& kFirst, int64_t& kEnd) const
    {
        const int64_t mIter = Ceil(cm, t.baseM), nIter = Ceil(cn, t.baseN), kIter = Ceil(k, t.baseK);
        // ORDER_N: along N first, outer loop over M; the MatmulConfig's iterateOrder, unless UNDEF, over the tiling's.
        const bool orderN = s.types.configOrder >= 0 ? s.types.configOrder == 1 : t.iterateOrder == 1;
        const int64_t inner = orderN ? nIter : mIter;
        // isPartialOutput: block `index` is base block index / kIter over the baseK slice index % kIter alone.
        kFirst = s.types.partialOutput ? index % kIter : 0;
        kEnd = s.types.partialOutput ? kFirst + 1 : kIter;
        if (s.types.partialOutput) index /= kIter;
        const int64_t o = index / inner, i = index % inner;
        mi = orderN ? o : i;
        ni = orderN ? i : o;
    }

    // The GM runs of an operand stored with rows `ld` elements apart: rows [p0, p0 + pLen), elements [q0, q0 + qLen)
    // of each.
    static cube_detail::GmPrefetch StoredRuns(const uint8_t* base, int64_t ld, int64_t es, int64_t p0, int64_t pLen,
                                              int64_t q0, int64_t qLen)
    {
        return cube_detail::GmPrefetch{base + (p0 * ld + q0) * es, ld * es, qLen * es, pLen};
    }

    // The GM runs of group (mg, kg) of A, or (ng, kg) of B: what LoadA / LoadB read. Only plain GM operands are
    // prefetched (not callbacks, sparse B or int4b_t): false for the others.
    bool GroupRuns(bool isA, int64_t g, int64_t kg, cube_detail::GmPrefetch& out) const
    {
        if (isA) {
            if (s.copyInA || s.types.a == CubeType::kInt4) return false;
            const int64_t row0 = g * aGroupRows, rows = std::min(aGroupRows, cm - row0);
            const int64_t col0 = kg * aGroupCols, cols = std::min(aGroupCols, k - col0);
            const int64_t es = SizeOf(s.types.a);  // A [M, K], or stored [K, M]
            out = s.transA ? StoredRuns(s.a, lda, es, col0, cols, row0, rows)
                           : StoredRuns(s.a, lda, es, row0, rows, col0, cols);
            return true;
        }
        if (s.copyInB || s.types.sparseB || s.types.b == CubeType::kInt4) return false;
        const int64_t k0 = kg * bGroupRows, ks = std::min(bGroupRows, k - k0);
        const int64_t n0 = g * bGroupCols, ns = std::min(bGroupCols, cn - n0);
        const int64_t es = SizeOf(s.types.b);  // B [K, N], or stored [N, K]
        out = s.transB ? StoredRuns(s.b, ldb, es, n0, ns, k0, ks) : StoredRuns(s.b, ldb, es, k0, ks, n0, ns);
        return true;
    }

    // Prefetch for K step kb of block `index` (K steps up to kEnd, `calls` micro-kernel calls): for A and B, the
    // next group the walk loads (later in this block, else at the next block's first step), its lines spread
    // over the calls of the steps until then. The cursors live in the State (s.prefetch[0] for A, [1] for B): a
    // group is touched once, across steps and blocks. Returns whether either has lines to touch at this step.
    bool PlanPrefetch(int64_t index, int64_t mi, int64_t ni, int64_t kb, int64_t kEnd, int64_t calls) const
    {
        int64_t nextMi = -1, nextNi = -1, nextK = 0;  // the next block's first step, when asked for
        bool any = false;
        for (int op = 0; op < 2; ++op) {
            const bool isA = op == 0;
            cube_detail::GmPrefetch& pf = s.prefetch[op];
            pf.perCall = 0;
            const int64_t step = isA ? t.stepKa : t.stepKb, groups = isA ? kGroupsA : kGroupsB;
            int64_t g = isA ? mi / t.stepM : ni / t.stepN, kg = kb / step + 1, until = kg * step - kb;
            if (kg * step >= kEnd) {  // none later in this block: the next block's first
                if (index + 1 >= CubeBlockCount(s)) continue;
                if (nextMi < 0) {
                    int64_t end = 0;
                    Place(index + 1, nextMi, nextNi, nextK, end);
                }
                g = isA ? nextMi / t.stepM : nextNi / t.stepN;
                kg = nextK / step;
                until = kEnd - kb;
            }
            const int64_t key = g * groups + kg;
            if ((isA ? buf.a1 : buf.b1).Has(key)) continue;
            if (s.prefetchKey[op] != key) {
                s.prefetchKey[op] = key;
                if (!GroupRuns(isA, g, kg, pf)) pf = cube_detail::GmPrefetch{};
            }
            if (pf.Done()) continue;
            const int64_t per = calls * until;
            pf.perCall = (pf.LinesLeft() + per - 1) / per;
            any = true;
        }
        return any;
    }

    // Base block `index` of the walk (in iterateOrder) into L0C: its place and size.
    void Block(int64_t index, int64_t& mi, int64_t& ni, int64_t& mv, int64_t& nv)
    {
        const int64_t bm = t.baseM, bn = t.baseN, bk = t.baseK;
        int64_t kFirst = 0, kEnd = 0;
        Place(index, mi, ni, kFirst, kEnd);
        const int64_t m0 = mi * bm, n0 = ni * bn;
        mv = std::min(bm, cm - m0);
        nv = std::min(bn, cn - n0);
        StartL0C(n0, mv, nv);
        for (int64_t kb = kFirst; kb < kEnd; ++kb) {
            const int64_t kv = std::min(bk, k - kb * bk);
            int64_t victim = 0;
            const int64_t mg = mi / t.stepM, kga = kb / t.stepKa;
            int64_t slotA = buf.a1.Find(mg * kGroupsA + kga, &victim);
            if (slotA < 0) LoadA(mg, kga, buf.a1.Slot(slotA = victim));
            const int64_t ng = ni / t.stepN, kgb = kb / t.stepKb;
            int64_t slotB = buf.b1.Find(ng * kGroupsB + kgb, &victim);
            if (slotB < 0) LoadB(ng, kgb, buf.b1.Slot(slotB = victim));
            const E* tileA = TileA(buf.a1.Slot(slotA), mi % t.stepM, (kb % t.stepKa) * bk, mv, kv);
            const E* tileB = TileB(buf.b1.Slot(slotB), (kb % t.stepKb) * bk, ni % t.stepN, kv, nv);
            const int64_t mp = Ceil(mv, kMr), np = Ceil(nv, kNr);
            const int parts = PlanPrefetch(index, mi, ni, kb, kEnd, mp * np) ? 2 : 0;
            cube_detail::PanelGemm(static_cast<int>(mp), static_cast<int>(np),
                                   static_cast<int>(kv), tileA, aGroupCols * kMr, tileB, bGroupRows * kNr,
                                   buf.l0c.data(), bn, s.prefetch, parts);
            core.counters.cubeMacs += static_cast<uint64_t>(mv * nv * kv);
            core.counters.cube.mmadCalls += 1;
        }
    }
};

template <typename E>
Walk<E> MakeWalk(CubeMatmul::State& s)
{
    const AscendC::tiling::TCubeTiling& t = s.t;
    Walk<E> w{s, s.Buffers<E>(), CurrentCore(), t, s.singleM, s.singleN, s.singleK,
              s.transA ? s.orgM : s.orgKa,  // A [M, Ka] or stored [Ka, M]
              s.transB ? s.orgKb : s.orgN,  // B [Kb, N] or stored [N, Kb]
              int64_t(t.stepM) * t.baseM, int64_t(t.stepKa) * t.baseK, int64_t(t.stepKb) * t.baseK,
              int64_t(t.stepN) * t.baseN, 0, 0};
    w.panelsA = Ceil(t.baseM, kMr);
    w.panelsB = Ceil(t.baseN, kNr);
    w.kGroupsA = Ceil(Ceil(w.k, t.baseK), t.stepKa);
    w.kGroupsB = Ceil(Ceil(w.k, t.baseK), t.stepKb);
    return w;
}

template <typename E>
void ComputeBlock(CubeMatmul::State& s, int64_t index)
{
    Walk<E> w = MakeWalk<E>(s);
    w.Block(index, s.blockM, s.blockN, s.blockRows, s.blockCols);
}

template <typename E>
void WriteBlock(CubeMatmul::State& s, uint8_t* dst, int64_t ld, bool checked)
{
    Walk<E> w = MakeWalk<E>(s);
    w.WriteC(dst, ld, s.blockRows, s.blockCols, checked);
}

}  // namespace

void CubeBeginIterate(CubeMatmul::State& s)
{
    // L1 starts empty for each walk: the tensors may have changed since the last one.
    if (cube_detail::UsesDouble(s.types.a)) {
        s.f64.a1.Empty();
        s.f64.b1.Empty();
    } else {
        s.f32.a1.Empty();
        s.f32.b1.Empty();
    }
    s.nextBlock = 0;
    s.blockInL0C = false;
    s.prefetchKey[0] = s.prefetchKey[1] = -1;  // the operands' addresses may have changed
}

int64_t CubeBlockCount(const CubeMatmul::State& s)
{
    return Ceil(s.singleM, s.t.baseM) * Ceil(s.singleN, s.t.baseN) *
           (s.types.partialOutput ? Ceil(s.singleK, s.t.baseK) : 1);
}

bool CubeIterateBlock(CubeMatmul::State& s)
{
    if (s.nextBlock >= CubeBlockCount(s)) return false;
    if (cube_detail::UsesDouble(s.types.a)) {
        ComputeBlock<double>(s, s.nextBlock);
    } else {
        ComputeBlock<float>(s, s.nextBlock);
    }
    ++s.nextBlock;
    s.blockInL0C = true;
    return true;
}

void CubeWriteBlock(CubeMatmul::State& s, uint8_t* dst, int64_t ld, bool checked)
{
    // The triangular policies: a block off their triangle leaves L0C unwritten (the API's IsInTrianMatmul).
    if ((s.types.trian == 1 && s.blockM > s.blockN) || (s.types.trian == 2 && s.blockM < s.blockN)) return;
    if (cube_detail::UsesDouble(s.types.a)) {
        WriteBlock<double>(s, dst, ld, checked);
    } else {
        WriteBlock<float>(s, dst, ld, checked);
    }
}

void CubeIterateAll(CubeMatmul::State& s, void* gm)
{
    CubeBeginIterate(s);
    const int64_t ldc = CRowStride(s);
    const uint32_t es = cube_detail::SizeOf(s.types.c);
    auto* c = static_cast<uint8_t*>(gm);
    while (CubeIterateBlock(s)) {
        CubeWriteBlock(s, c + CBlockOffset(s, ldc) * es, ldc, true);
    }
    s.blockInL0C = false;
}

}  // namespace ascend_twin
