// DispersionCorrection, backward: grad_x from grad_y (g) and x, per row of D elements, with gm = mean(g):
//   mode 0: grad_x = alpha * g + (1 - alpha) * gm                       (x is not read)
//   mode 1: with s = sqrt(var + eps), xh = (x - mu) / s:
//           grad_x = gm + (alpha / s) * (g - gm - xh * mean(g * xh))
//
// Same tiling as the forward kernel (op_host/dispersion_correction_tiling.h): packed whole rows per tile,
// row sums by RowSums (op_kernel/dispersion_correction_row_sum.h: Add folds, then one short ReduceSum),
// or, for rows longer than UB, pass 1 merging per-chunk statistics and pass 2 writing grad_x. A long row
// split across cores (coresPerRow > 1): each core's pass 1 covers its range of the row's chunks and
// leaves its moments in its GM workspace slot; after SyncAll every core of the row merges the row's
// moments in slot order (bit-identical on every core) and writes grad_x for its range.
//
// Short float rows (at most one 256-byte repeat, DispersionShortRows): as in the forward kernel, every step is
// one repeat-form instruction over a group of rows (a row per repeat), the coefficients A, B and K are
// computed by instructions over the rows' sums, and reach their rows through Brcb; no scalar reads of UB.
//
// Numerics (mode 1): x's statistics by the corrected two-pass method (xc = x - mean0, c = sum(xc),
// M2 = sum(xc^2) - c^2 / n) and the co-moment cov = sum(g * (x - mu)) = sum(g * xc) - c / n * sum(g). Chunks
// merge (count, mean x, M2, mean g, cov) by Chan's formulas. Then with A = alpha / s and
// B = -A * cov / (n * s^2): grad_x = A * g + B * (x - mu) + gm * (1 - A).
#include "kernel_operator.h"
#include "dispersion_correction_row_sum.h"
#include "dispersion_correction_tiling_data.h"

#include <type_traits>

using namespace AscendC;
using dispersion_reduce::RowSums;
using dispersion_reduce::ShortRowGroup;
using dispersion_reduce::MakeShortRowGroup;
using dispersion_reduce::SumShortRows;
using dispersion_reduce::Spread;

namespace {

constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t kScalarSyncEvent = 0;

// A row's (or chunk's) statistics; the mean of x as an offset from a reference value near it (see
// ProcessLongRow).
template <typename C>
struct Moments {
    uint64_t count = 0;
    C meanX = 0;  // mean(x) - ref
    C m2 = 0;
    C meanG = 0;
    C cov = 0;
};

template <typename T, typename C>
class KernelDispersionCorrectionBackward {
    static constexpr bool kInFloat = !std::is_same_v<T, C>;
    static constexpr uint32_t kBlockElems = ONE_BLK_SIZE / sizeof(T);
    static constexpr bool kShortRowTypes = std::is_same_v<T, float> && std::is_same_v<C, float>;

public:
    __aicore__ inline KernelDispersionCorrectionBackward() {}

    __aicore__ inline void Init(GM_ADDR grad, GM_ADDR x, GM_ADDR gradX, GM_ADDR workspace,
                                const DispersionCorrectionTilingData& tiling, TPipe* pipe)
    {
        t_ = tiling;
        // A row group is the coresPerRow cores sharing the group's rows (one core per group unless split).
        const uint64_t core = GetBlockIdx();
        const uint64_t group = core / t_.coresPerRow;
        part_ = static_cast<uint32_t>(core % t_.coresPerRow);
        rowStart_ = group < t_.rowFormerNum
                        ? group * t_.rowsFormer
                        : t_.rowFormerNum * t_.rowsFormer + (group - t_.rowFormerNum) * (t_.rowsFormer - 1);
        rowCount_ = group < t_.rowFormerNum ? t_.rowsFormer : t_.rowsFormer - 1;
        if (t_.coresPerRow > 1) {
            partials_.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(GetUserWorkspace(workspace)),
                                      GetBlockNum() * kSlotElems);
        }
        const uint64_t n = t_.rows * t_.rowLength;
        gGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(grad), n);
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), n);
        outGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gradX), n);
        if constexpr (sizeof(C) == sizeof(double)) {
            alpha_ = t_.alpha64;
            eps_ = t_.eps64;
        } else {
            alpha_ = t_.alpha;
            eps_ = t_.eps;
        }
        normalize_ = t_.mode == kDispersionNormalize;

        pitch_ = t_.multiPass ? t_.chunkLen : AlignUp(t_.rowLength);
        const uint32_t tileElems = t_.tileRows * pitch_;
        pipe->InitBuffer(gQueue_, BUFFER_NUM, tileElems * sizeof(T));
        if (t_.readX) pipe->InitBuffer(xQueue_, BUFFER_NUM, tileElems * sizeof(T));
        pipe->InitBuffer(outQueue_, BUFFER_NUM, tileElems * sizeof(T));
        pipe->InitBuffer(gWork_, tileElems * sizeof(C));
        pipe->InitBuffer(xWork_, tileElems * sizeof(C));
        pipe->InitBuffer(products_, tileElems * sizeof(C));
        const uint32_t statBytes = (t_.tileRows * sizeof(C) + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
        pipe->InitBuffer(sumG_, statBytes);
        pipe->InitBuffer(sumX_, statBytes);
        pipe->InitBuffer(corr_, statBytes);
        pipe->InitBuffer(m2_, statBytes);
        pipe->InitBuffer(sumGX_, statBytes);
        pipe->InitBuffer(scale_, statBytes);
        pipe->InitBuffer(alphas_, statBytes);
        pipe->InitBuffer(reduceTmp_, ONE_BLK_SIZE);
        Duplicate(alphas_.template Get<C>(), alpha_, static_cast<int32_t>(t_.tileRows));
        shortRows_ = DispersionShortRows(sizeof(T), sizeof(C), t_.rowLength, t_.multiPass);
        if (shortRows_) {
            // Brcb reads the coefficients in groups of 8 rows: the lanes past a tile's last row hold a value.
            const uint32_t padded = (t_.tileRows + 7) / 8 * 8;
            pipe->InitBuffer(bcast_, padded * kDispersionShortBcastBytes);
            Duplicate(sumG_.template Get<C>(), static_cast<C>(0), static_cast<int32_t>(padded));
            Duplicate(sumX_.template Get<C>(), static_cast<C>(0), static_cast<int32_t>(padded));
            Duplicate(m2_.template Get<C>(), static_cast<C>(0), static_cast<int32_t>(padded));
            Duplicate(scale_.template Get<C>(), static_cast<C>(0), static_cast<int32_t>(padded));
        }
    }

    __aicore__ inline void Process()
    {
        if (t_.multiPass) {
            for (uint64_t r = rowStart_; r < rowStart_ + rowCount_; ++r) ProcessLongRow(r);
            return;
        }
        const uint32_t d = static_cast<uint32_t>(t_.rowLength);
        for (uint64_t r0 = rowStart_; r0 < rowStart_ + rowCount_; r0 += t_.tileRows) {
            const uint64_t left = rowStart_ + rowCount_ - r0;
            const uint32_t rows = static_cast<uint32_t>(left < t_.tileRows ? left : t_.tileRows);
            CopyIn(r0 * t_.rowLength, rows, d);
            if constexpr (kShortRowTypes) {
                if (shortRows_) {
                    ComputeShortTile(rows, d);
                    CopyOut(r0 * t_.rowLength, rows, d);
                    continue;
                }
            }
            ComputeTile(rows, d);
            CopyOut(r0 * t_.rowLength, rows, d);
        }
    }

private:
    static constexpr uint32_t kSlotElems = kDispersionPartialBytes / sizeof(C);

    __aicore__ inline static uint32_t AlignUp(uint64_t n)
    {
        return static_cast<uint32_t>((n + kBlockElems - 1) / kBlockElems * kBlockElems);
    }
    __aicore__ inline static void VectorToScalar()
    {
        SetFlag<HardEvent::V_S>(kScalarSyncEvent);
        WaitFlag<HardEvent::V_S>(kScalarSyncEvent);
    }
    __aicore__ inline static void ScalarToVector()
    {
        SetFlag<HardEvent::S_V>(kScalarSyncEvent);
        WaitFlag<HardEvent::S_V>(kScalarSyncEvent);
    }
    __aicore__ inline void Load(TQue<TPosition::VECIN, BUFFER_NUM>& queue, const GlobalTensor<T>& gm, uint64_t offset,
                                uint32_t rows, uint32_t len)
    {
        LocalTensor<T> t = queue.template AllocTensor<T>();
        const bool dense = rows == 1 || len % kBlockElems == 0;
        if (dense && (static_cast<uint64_t>(rows) * len * sizeof(T)) % ONE_BLK_SIZE == 0) {
            DataCopy(t, gm[offset], rows * len);
        } else {
            DataCopyPad(t, gm[offset],
                        DataCopyExtParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0},
                        DataCopyPadExtParams<T>{false, 0, 0, 0});
        }
        queue.EnQue(t);
    }

    __aicore__ inline void CopyIn(uint64_t offset, uint32_t rows, uint32_t len)
    {
        Load(gQueue_, gGm_, offset, rows, len);
        if (t_.readX) Load(xQueue_, xGm_, offset, rows, len);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t rows, uint32_t len)
    {
        LocalTensor<T> out = outQueue_.template DeQue<T>();
        const bool dense = rows == 1 || len % kBlockElems == 0;
        if (dense && (static_cast<uint64_t>(rows) * len * sizeof(T)) % ONE_BLK_SIZE == 0) {
            DataCopy(outGm_[offset], out, rows * len);
        } else {
            DataCopyPad(outGm_[offset], out,
                        DataCopyExtParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0});
        }
        outQueue_.FreeTensor(out);
    }

    // An input tile in the compute type: the queue's tensor itself, or its Cast into the work tile, row by
    // row (the padding between rows in UB is never written, so no instruction reads it).
    __aicore__ inline LocalTensor<C> Widen(const LocalTensor<T>& in, TBuf<TPosition::VECCALC>& work, uint32_t rows,
                                           uint32_t len)
    {
        if constexpr (kInFloat) {
            LocalTensor<C> wide = work.template Get<C>();
            for (uint32_t i = 0; i < rows; ++i) Cast(wide[i * pitch_], in[i * pitch_], RoundMode::CAST_NONE, len);
            return wide;
        } else {
            return in;
        }
    }

    // Per row i: sumG_[i] = sum(g); mode 1 also sumX_[i] = sum(x), xWork_ = x - sumX/len, corr_[i] = sum(xWork_),
    // m2_[i] = sum(xWork_^2), sumGX_[i] = sum(g * xWork_). Ends with the results readable by the scalar unit.
    __aicore__ inline void RowStatistics(const LocalTensor<C>& g, const LocalTensor<C>& x, uint32_t rows, uint32_t len)
    {
        LocalTensor<C> tmp = reduceTmp_.template Get<C>();
        LocalTensor<C> sumG = sumG_.template Get<C>();
        const int32_t n = static_cast<int32_t>(len);
        LocalTensor<C> prod = products_.template Get<C>();  // the folds' work tile (RowSums), then products
        ScalarToVector();  // the scalar unit is done reading the previous tile's (or chunk's) statistics
        RowSums(sumG, g, prod, tmp, rows, pitch_, len, false);
        if (normalize_) {
            LocalTensor<C> sumX = sumX_.template Get<C>();
            LocalTensor<C> corr = corr_.template Get<C>();
            LocalTensor<C> m2 = m2_.template Get<C>();
            LocalTensor<C> sumGX = sumGX_.template Get<C>();
            LocalTensor<C> xc = xWork_.template Get<C>();
            PipeBarrier<PIPE_V>();  // the sum of g is done with prod
            RowSums(sumX, x, prod, tmp, rows, pitch_, len, false);
            VectorToScalar();
            for (uint32_t i = 0; i < rows; ++i) {
                Adds(xc[i * pitch_], x[i * pitch_], static_cast<C>(-(sumX.GetValue(i) / static_cast<C>(len))), n);
            }
            PipeBarrier<PIPE_V>();
            RowSums(corr, xc, prod, tmp, rows, pitch_, len, false);
            PipeBarrier<PIPE_V>();
            for (uint32_t i = 0; i < rows; ++i) Mul(prod[i * pitch_], xc[i * pitch_], xc[i * pitch_], n);
            PipeBarrier<PIPE_V>();
            RowSums(m2, prod, prod, tmp, rows, pitch_, len, true);
            PipeBarrier<PIPE_V>();
            for (uint32_t i = 0; i < rows; ++i) Mul(prod[i * pitch_], g[i * pitch_], xc[i * pitch_], n);
            PipeBarrier<PIPE_V>();
            RowSums(sumGX, prod, prod, tmp, rows, pitch_, len, true);
        }
        VectorToScalar();
    }

    // Row (or chunk) i's moments from the statistics RowStatistics left, its mean relative to `ref`.
    __aicore__ inline Moments<C> MomentsOf(uint32_t i, uint32_t len, C ref = 0)
    {
        Moments<C> m;
        const C n = static_cast<C>(len);
        m.count = len;
        const C sumG = sumG_.template Get<C>().GetValue(i);
        m.meanG = sumG / n;
        if (normalize_) {
            const C c = corr_.template Get<C>().GetValue(i);
            m.meanX = (sumX_.template Get<C>().GetValue(i) / n - ref) + c / n;
            const C m2 = m2_.template Get<C>().GetValue(i) - c * c / n;
            m.m2 = m2 > static_cast<C>(0) ? m2 : static_cast<C>(0);
            m.cov = sumGX_.template Get<C>().GetValue(i) - c / n * sumG;
        }
        return m;
    }

    // Chan et al.: the moments of the union of two disjoint parts of a row.
    __aicore__ inline static Moments<C> Merge(const Moments<C>& a, const Moments<C>& b)
    {
        if (a.count == 0) return b;
        Moments<C> m;
        m.count = a.count + b.count;
        const C wb = static_cast<C>(b.count) / static_cast<C>(m.count);
        const C dx = b.meanX - a.meanX;
        const C dg = b.meanG - a.meanG;
        m.meanX = a.meanX + dx * wb;
        m.meanG = a.meanG + dg * wb;
        m.m2 = a.m2 + b.m2 + dx * dx * static_cast<C>(a.count) * wb;
        m.cov = a.cov + b.cov + dx * dg * static_cast<C>(a.count) * wb;
        return m;
    }

    // grad_x = A * g + B * (x - mu) + K; `inverseScale` is alpha / s (mode 1).
    struct Coefficients {
        C a;
        C b;
        C k;
    };
    __aicore__ inline Coefficients CoefficientsOf(const Moments<C>& m, C inverseScale) const
    {
        if (!normalize_) return {alpha_, static_cast<C>(0), (static_cast<C>(1) - alpha_) * m.meanG};
        const C n = static_cast<C>(m.count);
        const C a = inverseScale;
        return {a, -a * m.cov / (n * (m.m2 / n + eps_)), (static_cast<C>(1) - a) * m.meanG};
    }

    // scale_[i] = alpha / sqrt(var_i + eps) from the values var_i + eps the scalar unit wrote into scale_.
    __aicore__ inline void InverseScales(uint32_t rows)
    {
        LocalTensor<C> scale = scale_.template Get<C>();
        ScalarToVector();
        Sqrt(scale, scale, static_cast<int32_t>(rows));
        PipeBarrier<PIPE_V>();
        Div(scale, alphas_.template Get<C>(), scale, static_cast<int32_t>(rows));
        VectorToScalar();
    }

    // The coefficients of row i of a packed tile, with K shifted by -B * c / n because xWork_ holds
    // x - mean0 = (x - mu) + c / n.
    __aicore__ inline Coefficients TileCoefficients(uint32_t i, uint32_t len)
    {
        const Moments<C> m = MomentsOf(i, len);
        Coefficients co = CoefficientsOf(m, normalize_ ? scale_.template Get<C>().GetValue(i) : alpha_);
        if (normalize_) co.k = co.k - co.b * (corr_.template Get<C>().GetValue(i) / static_cast<C>(len));
        return co;
    }

    __aicore__ inline void ComputeTile(uint32_t rows, uint32_t len)
    {
        LocalTensor<T> gIn = gQueue_.template DeQue<T>();
        LocalTensor<T> xIn;
        PipeBarrier<PIPE_V>();  // the previous tile's instructions are done with the work tiles
        const LocalTensor<C> g = Widen(gIn, gWork_, rows, len);
        LocalTensor<C> x;
        if (t_.readX) {
            xIn = xQueue_.template DeQue<T>();
            x = Widen(xIn, xWork_, rows, len);
        }
        PipeBarrier<PIPE_V>();
        RowStatistics(g, x, rows, len);
        if (normalize_) {
            LocalTensor<C> scale = scale_.template Get<C>();
            for (uint32_t i = 0; i < rows; ++i) {
                const Moments<C> m = MomentsOf(i, len);
                scale.SetValue(i, m.m2 / static_cast<C>(m.count) + eps_);
            }
            InverseScales(rows);
        }
        LocalTensor<T> out = outQueue_.template AllocTensor<T>();
        LocalTensor<C> acc = gWork_.template Get<C>();
        LocalTensor<C> xc = xWork_.template Get<C>();
        const int32_t n = static_cast<int32_t>(len);
        for (uint32_t i = 0; i < rows; ++i) {
            const Coefficients co = TileCoefficients(i, len);
            Muls(acc[i * pitch_], g[i * pitch_], co.a, n);
            if (normalize_) Muls(xc[i * pitch_], xc[i * pitch_], co.b, n);
        }
        PipeBarrier<PIPE_V>();
        if (normalize_) {
            for (uint32_t i = 0; i < rows; ++i) Add(acc[i * pitch_], acc[i * pitch_], xc[i * pitch_], n);
            PipeBarrier<PIPE_V>();
        }
        for (uint32_t i = 0; i < rows; ++i) {
            const C k = TileCoefficients(i, len).k;
            if constexpr (kInFloat) {
                Adds(acc[i * pitch_], acc[i * pitch_], k, n);
            } else {
                Adds(out[i * pitch_], acc[i * pitch_], k, n);
            }
        }
        if constexpr (kInFloat) {
            PipeBarrier<PIPE_V>();
            for (uint32_t i = 0; i < rows; ++i) Cast(out[i * pitch_], acc[i * pitch_], RoundMode::CAST_RINT, len);
        }
        outQueue_.EnQue(out);
        gQueue_.FreeTensor(gIn);
        if (t_.readX) xQueue_.FreeTensor(xIn);
    }

    // The packed tile of short rows (see the file's head): grad_x = A * g + B * xc + K per row, with xc =
    // x - mean0 (K absorbs the difference to x - mu), every step one instruction over a group of rows.
    __aicore__ inline void ComputeShortTile(uint32_t rows, uint32_t len)
    {
        LocalTensor<C> g = gQueue_.template DeQue<C>();
        LocalTensor<C> x;
        if (t_.readX) x = xQueue_.template DeQue<C>();
        LocalTensor<C> out = outQueue_.template AllocTensor<C>();
        LocalTensor<C> xc = xWork_.template Get<C>();
        LocalTensor<C> prod = products_.template Get<C>();
        LocalTensor<C> bc = bcast_.template Get<C>();
        const C inv = static_cast<C>(1) / static_cast<C>(len);
        for (uint32_t g0 = 0; g0 < rows; g0 += kDispersionShortGroup) {
            const ShortRowGroup grp = MakeShortRowGroup<C>(g0, rows, len, pitch_);
            const int32_t n = grp.count;
            const uint32_t at = grp.at;
            LocalTensor<C> sumG = sumG_.template Get<C>()[g0];  // sum(g), then mean(g)
            PipeBarrier<PIPE_V>();  // the previous group's (or tile's) instructions are done with the buffers
            SumShortRows(sumG, g, grp);
            if (!normalize_) {
                // grad_x = alpha * g + (1 - alpha) * mean(g)
                Muls(out[at], g[at], alpha_, grp.mask, grp.repeats, grp.unary);
                PipeBarrier<PIPE_V>();
                Muls(sumG, sumG, inv, n);
                PipeBarrier<PIPE_V>();
                Muls(sumG, sumG, static_cast<C>(1) - alpha_, n);
                PipeBarrier<PIPE_V>();
                Spread(bc, sumG, grp);
                PipeBarrier<PIPE_V>();
                Add(out[at], out[at], bc, grp.mask, grp.repeats, grp.perRow);
                continue;
            }
            LocalTensor<C> sumX = sumX_.template Get<C>()[g0];    // sum(x), then mean0, then B
            LocalTensor<C> corr = corr_.template Get<C>()[g0];    // c = sum(xc)
            LocalTensor<C> m2 = m2_.template Get<C>()[g0];        // sum(xc^2), then M2, then K
            LocalTensor<C> cov = sumGX_.template Get<C>()[g0];    // sum(g * xc), then cov
            LocalTensor<C> scale = scale_.template Get<C>()[g0];  // A = alpha / s
            LocalTensor<C> alphas = alphas_.template Get<C>()[g0];
            LocalTensor<C> var = prod[at];  // var + eps, once the group's products are summed
            LocalTensor<C> tmp = gWork_.template Get<C>()[at];
            SumShortRows(sumX, x, grp);
            PipeBarrier<PIPE_V>();
            Muls(sumX, sumX, inv, n);
            PipeBarrier<PIPE_V>();
            Spread(bc, sumX, grp);
            PipeBarrier<PIPE_V>();
            Sub(xc[at], x[at], bc, grp.mask, grp.repeats, grp.perRow);
            PipeBarrier<PIPE_V>();
            SumShortRows(corr, xc, grp);
            Mul(prod[at], xc[at], xc[at], grp.mask, grp.repeats, grp.rowwise);
            PipeBarrier<PIPE_V>();
            SumShortRows(m2, prod, grp);
            PipeBarrier<PIPE_V>();
            Mul(prod[at], g[at], xc[at], grp.mask, grp.repeats, grp.rowwise);
            PipeBarrier<PIPE_V>();
            SumShortRows(cov, prod, grp);
            // mean(g); M2 = max(sum(xc^2) - c^2 / n, 0); cov = sum(g * xc) - c * mean(g)
            Muls(sumG, sumG, inv, n);
            Mul(tmp, corr, corr, n);
            PipeBarrier<PIPE_V>();
            Muls(tmp, tmp, inv, n);
            PipeBarrier<PIPE_V>();
            Sub(m2, m2, tmp, n);
            PipeBarrier<PIPE_V>();
            Maxs(m2, m2, static_cast<C>(0), n);
            Mul(tmp, corr, sumG, n);
            PipeBarrier<PIPE_V>();
            Sub(cov, cov, tmp, n);
            Muls(var, m2, inv, n);
            PipeBarrier<PIPE_V>();
            Adds(var, var, eps_, n);
            PipeBarrier<PIPE_V>();
            // A = alpha / sqrt(var + eps); B = -A * cov / (n * (var + eps))
            Sqrt(scale, var, n);
            Muls(sumX, cov, -inv, n);
            PipeBarrier<PIPE_V>();
            Div(scale, alphas, scale, n);
            Div(sumX, sumX, var, n);
            PipeBarrier<PIPE_V>();
            Mul(sumX, sumX, scale, n);
            // K = (1 - A) * mean(g) - B * c / n
            Muls(tmp, scale, static_cast<C>(-1), n);
            PipeBarrier<PIPE_V>();
            Adds(tmp, tmp, static_cast<C>(1), n);
            PipeBarrier<PIPE_V>();
            Mul(m2, tmp, sumG, n);
            PipeBarrier<PIPE_V>();
            Mul(tmp, sumX, corr, n);
            PipeBarrier<PIPE_V>();
            Muls(tmp, tmp, inv, n);
            Spread(bc, scale, grp);
            PipeBarrier<PIPE_V>();
            Sub(m2, m2, tmp, n);
            Mul(out[at], g[at], bc, grp.mask, grp.repeats, grp.perRow);
            PipeBarrier<PIPE_V>();
            Spread(bc, sumX, grp);
            PipeBarrier<PIPE_V>();
            Mul(xc[at], xc[at], bc, grp.mask, grp.repeats, grp.perRow);
            PipeBarrier<PIPE_V>();
            Add(out[at], out[at], xc[at], grp.mask, grp.repeats, grp.rowwise);
            Spread(bc, m2, grp);
            PipeBarrier<PIPE_V>();
            Add(out[at], out[at], bc, grp.mask, grp.repeats, grp.perRow);
        }
        outQueue_.EnQue(out);
        gQueue_.FreeTensor(g);
        if (t_.readX) xQueue_.FreeTensor(x);
    }

    // Pass 1 over the chunks starting at offsets [begin, end) of the row at `base`: the moments, the mean of
    // x relative to `ref`, the first chunk's rounded mean (x - ref is exact for values near it, and the
    // offset keeps what one rounded number would lose).
    __aicore__ inline Moments<C> ChunkMoments(uint64_t base, uint64_t begin, uint64_t end, C& ref)
    {
        Moments<C> total;
        ref = 0;
        for (uint64_t off = begin; off < end; off += t_.chunkLen) {
            const uint32_t w = ChunkAt(off);
            CopyIn(base + off, 1, w);
            LocalTensor<T> gIn = gQueue_.template DeQue<T>();
            LocalTensor<T> xIn;
            PipeBarrier<PIPE_V>();
            const LocalTensor<C> g = Widen(gIn, gWork_, 1, w);
            LocalTensor<C> x;
            if (t_.readX) {
                xIn = xQueue_.template DeQue<T>();
                x = Widen(xIn, xWork_, 1, w);
            }
            PipeBarrier<PIPE_V>();
            RowStatistics(g, x, 1, w);
            gQueue_.FreeTensor(gIn);
            if (t_.readX) xQueue_.FreeTensor(xIn);
            if (off == begin && normalize_) ref = sumX_.template Get<C>().GetValue(0) / static_cast<C>(w);
            total = Merge(total, MomentsOf(0, w, ref));
        }
        return total;
    }

    // Split rows: publish this core's moments in its workspace slot, wait for every core, and merge the
    // row's moments in slot order, relative to the first part's ref. The slots pass through products_
    // (pass 2 does not use it).
    __aicore__ inline Moments<C> CombineAcrossCores(const Moments<C>& mine, C& ref)
    {
        LocalTensor<C> slots = products_.template Get<C>();
        slots.SetValue(0, ref);
        slots.SetValue(1, mine.meanX);
        slots.SetValue(2, mine.m2);
        slots.SetValue(3, mine.meanG);
        slots.SetValue(4, mine.cov);
        for (uint32_t i = 5; i < kSlotElems; ++i) slots.SetValue(i, static_cast<C>(0));
        SetFlag<HardEvent::S_MTE3>(kScalarSyncEvent);
        WaitFlag<HardEvent::S_MTE3>(kScalarSyncEvent);
        DataCopy(partials_[GetBlockIdx() * kSlotElems], slots, kSlotElems);
        SyncAll();  // begins with PipeBarrier<PIPE_ALL>: the slot's copy-out is complete before the copy-in
        const uint64_t first = GetBlockIdx() - part_;
        DataCopy(slots, partials_[first * kSlotElems], t_.coresPerRow * kSlotElems);
        SetFlag<HardEvent::MTE2_S>(kScalarSyncEvent);
        WaitFlag<HardEvent::MTE2_S>(kScalarSyncEvent);
        Moments<C> total;
        ref = slots.GetValue(0);
        for (uint32_t k = 0; k < t_.coresPerRow; ++k) {
            Moments<C> part;
            part.count = PartElements(k);
            part.meanX = (slots.GetValue(k * kSlotElems) - ref) + slots.GetValue(k * kSlotElems + 1);
            part.m2 = slots.GetValue(k * kSlotElems + 2);
            part.meanG = slots.GetValue(k * kSlotElems + 3);
            part.cov = slots.GetValue(k * kSlotElems + 4);
            total = Merge(total, part);
        }
        return total;
    }

    // The chunks of part k of a split row: [first, first + count).
    __aicore__ inline uint64_t PartFirstChunk(uint32_t k) const
    {
        return k < t_.partFormerNum ? static_cast<uint64_t>(k) * t_.partChunks
                                    : static_cast<uint64_t>(t_.partFormerNum) * t_.partChunks +
                                          static_cast<uint64_t>(k - t_.partFormerNum) * (t_.partChunks - 1);
    }
    __aicore__ inline uint64_t PartEnd(uint32_t k) const
    {
        const uint64_t chunks = k < t_.partFormerNum ? t_.partChunks : t_.partChunks - 1;
        const uint64_t end = (PartFirstChunk(k) + chunks) * t_.chunkLen;
        return end < t_.rowLength ? end : t_.rowLength;
    }
    __aicore__ inline uint64_t PartElements(uint32_t k) const { return PartEnd(k) - PartFirstChunk(k) * t_.chunkLen; }

    __aicore__ inline void ProcessLongRow(uint64_t row)
    {
        const uint64_t base = row * t_.rowLength;
        const bool split = t_.coresPerRow > 1;
        const uint64_t begin = split ? PartFirstChunk(part_) * t_.chunkLen : 0;
        const uint64_t end = split ? PartEnd(part_) : t_.rowLength;
        C ref = 0;
        Moments<C> total = ChunkMoments(base, begin, end, ref);
        if (split) total = CombineAcrossCores(total, ref);
        C inverseScale = alpha_;
        if (normalize_) {
            scale_.template Get<C>().SetValue(0, total.m2 / static_cast<C>(total.count) + eps_);
            InverseScales(1);
            inverseScale = scale_.template Get<C>().GetValue(0);
        }
        Coefficients co = CoefficientsOf(total, inverseScale);
        co.k = co.k - co.b * total.meanX;  // B * (x - mu) = B * (x - ref) - B * offset
        for (uint64_t off = begin; off < end; off += t_.chunkLen) {
            const uint32_t w = ChunkAt(off);
            const int32_t n = static_cast<int32_t>(w);
            CopyIn(base + off, 1, w);
            LocalTensor<T> gIn = gQueue_.template DeQue<T>();
            LocalTensor<T> xIn;
            PipeBarrier<PIPE_V>();
            const LocalTensor<C> g = Widen(gIn, gWork_, 1, w);
            LocalTensor<C> acc = gWork_.template Get<C>();
            LocalTensor<C> xc = xWork_.template Get<C>();
            if (t_.readX) {
                xIn = xQueue_.template DeQue<T>();
                const LocalTensor<C> x = Widen(xIn, xWork_, 1, w);
                PipeBarrier<PIPE_V>();
                Adds(xc, x, static_cast<C>(-ref), n);
            }
            PipeBarrier<PIPE_V>();
            Muls(acc, g, co.a, n);
            if (normalize_) {
                Muls(xc, xc, co.b, n);
                PipeBarrier<PIPE_V>();
                Add(acc, acc, xc, n);
            }
            PipeBarrier<PIPE_V>();
            LocalTensor<T> out = outQueue_.template AllocTensor<T>();
            if constexpr (kInFloat) {
                Adds(acc, acc, co.k, n);
                PipeBarrier<PIPE_V>();
                Cast(out, acc, RoundMode::CAST_RINT, n);
            } else {
                Adds(out, acc, co.k, n);
            }
            outQueue_.EnQue(out);
            gQueue_.FreeTensor(gIn);
            if (t_.readX) xQueue_.FreeTensor(xIn);
            CopyOut(base + off, 1, w);
        }
    }

    __aicore__ inline uint32_t ChunkAt(uint64_t off) const
    {
        return static_cast<uint32_t>(t_.rowLength - off < t_.chunkLen ? t_.rowLength - off : t_.chunkLen);
    }

    DispersionCorrectionTilingData t_;
    TQue<TPosition::VECIN, BUFFER_NUM> gQueue_;
    TQue<TPosition::VECIN, BUFFER_NUM> xQueue_;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueue_;
    TBuf<TPosition::VECCALC> gWork_;
    TBuf<TPosition::VECCALC> xWork_;
    TBuf<TPosition::VECCALC> products_;
    TBuf<TPosition::VECCALC> sumG_;
    TBuf<TPosition::VECCALC> sumX_;
    TBuf<TPosition::VECCALC> corr_;
    TBuf<TPosition::VECCALC> m2_;
    TBuf<TPosition::VECCALC> sumGX_;
    TBuf<TPosition::VECCALC> scale_;
    TBuf<TPosition::VECCALC> alphas_;
    TBuf<TPosition::VECCALC> reduceTmp_;
    TBuf<TPosition::VECCALC> bcast_;  // short rows: one 32-byte block per row
    bool shortRows_ = false;
    GlobalTensor<T> gGm_;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> outGm_;
    GlobalTensor<C> partials_;  // split rows: one kDispersionPartialBytes slot per core
    uint32_t part_ = 0;         // this core's part of its row (split rows)
    uint64_t rowStart_ = 0;
    uint64_t rowCount_ = 0;
    uint32_t pitch_ = 0;
    bool normalize_ = false;
    C alpha_ = 1;
    C eps_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void dispersion_correction_backward(GM_ADDR grad, GM_ADDR x, GM_ADDR grad_x,
                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(DispersionCorrectionTilingData);
    GET_TILING_DATA(tilingData, tiling);
    // Vector cores only, but MIX: SyncAll (split rows) needs the scheduler a MIX kernel starts.
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    using T = DTYPE_GRAD;
    using C = std::conditional_t<sizeof(T) == 8, T, float>;  // 16-bit inputs are computed in float
    TPipe pipe;
    KernelDispersionCorrectionBackward<T, C> op;
    op.Init(grad, x, grad_x, workspace, tilingData, &pipe);
    op.Process();
}
