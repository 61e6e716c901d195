// DispersionCorrection, forward: per row of D elements, with mu = mean(row) and var = mean((row - mu)^2),
//   mode 0: y = mu + alpha * (x - mu)          mode 1: y = mu + alpha * (x - mu) / sqrt(var + eps)
//
// Each core owns a contiguous range of rows (op_host/dispersion_correction_tiling.h). Packed rows: a tile
// of tileRows whole rows is loaded by one DataCopyPad (each row at a 32-byte aligned pitch in UB), its row
// statistics are computed per row (RowSums, op_kernel/dispersion_correction_row_sum.h: Add folds, then one
// ReduceSum of at most a repeat), and the output tile leaves by one DataCopyPad: every element is read
// once and written once. Rows too long for UB are read twice in chunks: pass 1 computes
// each chunk's (count, mean, M2) in UB and merges them into the row's statistics by Chan's formula,
// pass 2 writes the output. When the tiling splits a long row across cores (coresPerRow > 1), each core
// runs pass 1 over its range of the row's chunks, leaves its partial statistics in its slot of the GM
// workspace, and after SyncAll merges the row's partials in slot order (bit-identical on every core of
// the row) before pass 2 over its range.
//
// Short float rows (at most one 256-byte repeat, DispersionShortRows): no instruction per row. Each step is one
// repeat-form instruction over up to kDispersionShortGroup rows, a row being a repeat (repeat stride: the
// row's pitch): WholeReduceSum gives the rows' sums, the per-row statistics and scales are computed by
// instructions over those sums, and a per-row value reaches its row's lanes through Brcb (one 32-byte block
// per row) read with a block stride of 0. No scalar reads of UB.
//
// Numerics: statistics are computed in float (double in the twin's float64 build) by the corrected
// two-pass method: mean0 = sum / n, the centred values xc = x - mean0, then c = sum(xc) and
// M2 = sum(xc^2) - c^2 / n; the row mean is mean0 + c / n. Rows with a large mean and a small spread
// (1e4 and 1e-2) lose nothing to cancellation. The output is y = s * xc + (mean0 + (1 - s) * c / n) with
// s = alpha or alpha / sqrt(var + eps), the same expression written so that the large mean is added last.
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

// A part of a row's statistics: its element count, its mean as ref + offset and its M2.
template <typename C>
struct Partial {
    uint64_t count = 0;
    C ref = 0;
    C offset = 0;
    C m2 = 0;
};

// T is the element type in GM, C the type of the arithmetic (float, or double in the twin's float64 build).
template <typename T, typename C>
class KernelDispersionCorrection {
    static constexpr bool kInFloat = !std::is_same_v<T, C>;
    static constexpr uint32_t kBlockElems = ONE_BLK_SIZE / sizeof(T);
    static constexpr bool kShortRowTypes = std::is_same_v<T, float> && std::is_same_v<C, float>;

public:
    __aicore__ inline KernelDispersionCorrection() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, const DispersionCorrectionTilingData& tiling,
                                TPipe* pipe)
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
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t_.rows * t_.rowLength);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), t_.rows * t_.rowLength);
        if (t_.coresPerRow > 1) {
            partials_.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(GetUserWorkspace(workspace)),
                                      GetBlockNum() * kSlotElems);
        }
        if constexpr (sizeof(C) == sizeof(double)) {
            alpha_ = t_.alpha64;
            eps_ = t_.eps64;
        } else {
            alpha_ = t_.alpha;
            eps_ = t_.eps;
        }

        pitch_ = t_.multiPass ? t_.chunkLen : AlignUp(t_.rowLength);
        const uint32_t tileElems = t_.tileRows * pitch_;
        pipe->InitBuffer(xQueue_, BUFFER_NUM, tileElems * sizeof(T));
        pipe->InitBuffer(yQueue_, BUFFER_NUM, tileElems * sizeof(T));
        pipe->InitBuffer(centred_, tileElems * sizeof(C));
        pipe->InitBuffer(squares_, tileElems * sizeof(C));
        const uint32_t statBytes = (t_.tileRows * sizeof(C) + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
        pipe->InitBuffer(sum_, statBytes);
        pipe->InitBuffer(corr_, statBytes);
        pipe->InitBuffer(scale_, statBytes);
        pipe->InitBuffer(alphas_, statBytes);
        pipe->InitBuffer(reduceTmp_, ONE_BLK_SIZE);
        Duplicate(alphas_.template Get<C>(), alpha_, static_cast<int32_t>(t_.tileRows));
        shortRows_ = DispersionShortRows(sizeof(T), sizeof(C), t_.rowLength, t_.multiPass);
        if (shortRows_) {
            // Brcb reads the statistics in groups of 8 rows: the lanes past a tile's last row hold a value.
            const uint32_t padded = (t_.tileRows + 7) / 8 * 8;
            pipe->InitBuffer(bcast_, padded * kDispersionShortBcastBytes);
            Duplicate(sum_.template Get<C>(), static_cast<C>(0), static_cast<int32_t>(padded));
            Duplicate(scale_.template Get<C>(), static_cast<C>(0), static_cast<int32_t>(padded));
        }
    }

    __aicore__ inline void Process()
    {
        if (t_.multiPass) {
            for (uint64_t r = rowStart_; r < rowStart_ + rowCount_; ++r) ProcessLongRow(r);
            return;
        }
        for (uint64_t r0 = rowStart_; r0 < rowStart_ + rowCount_; r0 += t_.tileRows) {
            const uint64_t left = rowStart_ + rowCount_ - r0;
            const uint32_t rows = static_cast<uint32_t>(left < t_.tileRows ? left : t_.tileRows);
            const uint32_t d = static_cast<uint32_t>(t_.rowLength);
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

    // The scalar unit reads what the vector unit wrote (ReduceSum results), or the reverse.
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

    __aicore__ inline void CopyIn(uint64_t offset, uint32_t rows, uint32_t len)
    {
        LocalTensor<T> x = xQueue_.template AllocTensor<T>();
        const bool dense = rows == 1 || len % kBlockElems == 0;
        if (dense && (static_cast<uint64_t>(rows) * len * sizeof(T)) % ONE_BLK_SIZE == 0) {
            DataCopy(x, xGm_[offset], rows * len);
        } else {
            DataCopyPad(x, xGm_[offset],
                        DataCopyExtParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0},
                        DataCopyPadExtParams<T>{false, 0, 0, 0});
        }
        xQueue_.EnQue(x);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t rows, uint32_t len)
    {
        LocalTensor<T> y = yQueue_.template DeQue<T>();
        const bool dense = rows == 1 || len % kBlockElems == 0;
        if (dense && (static_cast<uint64_t>(rows) * len * sizeof(T)) % ONE_BLK_SIZE == 0) {
            DataCopy(yGm_[offset], y, rows * len);
        } else {
            DataCopyPad(yGm_[offset], y,
                        DataCopyExtParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0});
        }
        yQueue_.FreeTensor(y);
    }

    // The input tile in the compute type: the queue's tensor itself, or its Cast into `centred_`, row by row
    // (the padding between rows in UB is never written, so no instruction reads it).
    __aicore__ inline LocalTensor<C> Widen(const LocalTensor<T>& x, uint32_t rows, uint32_t len)
    {
        PipeBarrier<PIPE_V>();  // the previous tile's instructions are done with the work tiles
        if constexpr (kInFloat) {
            LocalTensor<C> wide = centred_.template Get<C>();
            for (uint32_t i = 0; i < rows; ++i) Cast(wide[i * pitch_], x[i * pitch_], RoundMode::CAST_NONE, len);
            PipeBarrier<PIPE_V>();
            return wide;
        } else {
            return x;
        }
    }

    // Per row i of `rows` rows of `len` elements in `src`: sum_[i] = sum(x), centred_ = x - sum/len,
    // corr_[i] = sum(centred) and, for mode 1, scale_[i] = sum(centred^2). Ends with the results readable
    // by the scalar unit.
    __aicore__ inline void RowStatistics(const LocalTensor<C>& src, uint32_t rows, uint32_t len, bool withM2)
    {
        LocalTensor<C> sum = sum_.template Get<C>();
        LocalTensor<C> corr = corr_.template Get<C>();
        LocalTensor<C> m2 = scale_.template Get<C>();
        LocalTensor<C> tmp = reduceTmp_.template Get<C>();
        LocalTensor<C> xc = centred_.template Get<C>();
        LocalTensor<C> sq = squares_.template Get<C>();  // the folds' work tile (RowSums), then xc^2
        const C n = static_cast<C>(len);
        ScalarToVector();  // the scalar unit is done reading the previous tile's (or chunk's) statistics
        RowSums(sum, src, sq, tmp, rows, pitch_, len, false);
        VectorToScalar();
        for (uint32_t i = 0; i < rows; ++i) {
            Adds(xc[i * pitch_], src[i * pitch_], static_cast<C>(-(sum.GetValue(i) / n)), static_cast<int32_t>(len));
        }
        PipeBarrier<PIPE_V>();
        RowSums(corr, xc, sq, tmp, rows, pitch_, len, false);
        if (withM2) {
            PipeBarrier<PIPE_V>();  // the correction sum is done with sq
            for (uint32_t i = 0; i < rows; ++i) Mul(sq[i * pitch_], xc[i * pitch_], xc[i * pitch_], static_cast<int32_t>(len));
            PipeBarrier<PIPE_V>();
            RowSums(m2, sq, sq, tmp, rows, pitch_, len, true);
        }
        VectorToScalar();
    }

    // scale_[i] = alpha / sqrt(var[i] + eps) for the variances the scalar unit wrote into scale_.
    __aicore__ inline void NormalizeScales(uint32_t rows)
    {
        LocalTensor<C> scale = scale_.template Get<C>();
        ScalarToVector();
        Sqrt(scale, scale, static_cast<int32_t>(rows));
        PipeBarrier<PIPE_V>();
        Div(scale, alphas_.template Get<C>(), scale, static_cast<int32_t>(rows));
        VectorToScalar();
    }

    __aicore__ inline void ComputeTile(uint32_t rows, uint32_t len)
    {
        LocalTensor<T> x = xQueue_.template DeQue<T>();
        const LocalTensor<C> src = Widen(x, rows, len);
        const bool normalize = t_.mode == kDispersionNormalize;
        RowStatistics(src, rows, len, normalize);
        LocalTensor<C> sum = sum_.template Get<C>();
        LocalTensor<C> corr = corr_.template Get<C>();
        LocalTensor<C> scale = scale_.template Get<C>();
        const C n = static_cast<C>(len);
        if (normalize) {
            for (uint32_t i = 0; i < rows; ++i) {
                const C c = corr.GetValue(i);
                C m2 = scale.GetValue(i) - c * c / n;
                m2 = m2 > static_cast<C>(0) ? m2 : static_cast<C>(0);
                scale.SetValue(i, m2 / n + eps_);
            }
            NormalizeScales(rows);
        }
        LocalTensor<C> xc = centred_.template Get<C>();
        for (uint32_t i = 0; i < rows; ++i) {
            const C s = normalize ? scale.GetValue(i) : alpha_;
            Muls(xc[i * pitch_], xc[i * pitch_], s, static_cast<int32_t>(len));
        }
        PipeBarrier<PIPE_V>();
        LocalTensor<T> y = yQueue_.template AllocTensor<T>();
        for (uint32_t i = 0; i < rows; ++i) {
            const C s = normalize ? scale.GetValue(i) : alpha_;
            const C shift = sum.GetValue(i) / n + (static_cast<C>(1) - s) * (corr.GetValue(i) / n);
            if constexpr (kInFloat) {
                Adds(xc[i * pitch_], xc[i * pitch_], shift, static_cast<int32_t>(len));
            } else {
                Adds(y[i * pitch_], xc[i * pitch_], shift, static_cast<int32_t>(len));
            }
        }
        if constexpr (kInFloat) {
            PipeBarrier<PIPE_V>();
            for (uint32_t i = 0; i < rows; ++i) Cast(y[i * pitch_], xc[i * pitch_], RoundMode::CAST_RINT, len);
        }
        yQueue_.EnQue(y);
        xQueue_.FreeTensor(x);
    }

    // The packed tile of short rows (see the file's head): y = s * xc + shift per row, every step one
    // instruction over a group of rows.
    __aicore__ inline void ComputeShortTile(uint32_t rows, uint32_t len)
    {
        LocalTensor<C> x = xQueue_.template DeQue<C>();
        LocalTensor<C> y = yQueue_.template AllocTensor<C>();
        LocalTensor<C> xc = centred_.template Get<C>();
        LocalTensor<C> sq = squares_.template Get<C>();
        LocalTensor<C> bc = bcast_.template Get<C>();
        const bool normalize = t_.mode == kDispersionNormalize;
        const C inv = static_cast<C>(1) / static_cast<C>(len);
        for (uint32_t g0 = 0; g0 < rows; g0 += kDispersionShortGroup) {
            const ShortRowGroup g = MakeShortRowGroup<C>(g0, rows, len, pitch_);
            const int32_t n = g.count;
            LocalTensor<C> sum = sum_.template Get<C>()[g0];      // sum, then mean0, then the shift
            LocalTensor<C> corr = corr_.template Get<C>()[g0];    // sum(xc)
            LocalTensor<C> scale = scale_.template Get<C>()[g0];  // sum(xc^2), then s
            LocalTensor<C> alphas = alphas_.template Get<C>()[g0];
            LocalTensor<C> tmp = sq[g.at];  // the group's squares are summed before tmp is written
            PipeBarrier<PIPE_V>();  // the previous group's (or tile's) instructions are done with the buffers
            SumShortRows(sum, x, g);
            PipeBarrier<PIPE_V>();
            Muls(sum, sum, inv, n);
            PipeBarrier<PIPE_V>();
            Spread(bc, sum, g);
            PipeBarrier<PIPE_V>();
            Sub(xc[g.at], x[g.at], bc, g.mask, g.repeats, g.perRow);
            PipeBarrier<PIPE_V>();
            SumShortRows(corr, xc, g);
            if (normalize) {
                Mul(sq[g.at], xc[g.at], xc[g.at], g.mask, g.repeats, g.rowwise);
                PipeBarrier<PIPE_V>();
                SumShortRows(scale, sq, g);
                PipeBarrier<PIPE_V>();
                // var + eps = max(sum(xc^2) - c^2 / n, 0) / n + eps; s = alpha / sqrt(var + eps)
                Mul(tmp, corr, corr, n);
                PipeBarrier<PIPE_V>();
                Muls(tmp, tmp, inv, n);
                PipeBarrier<PIPE_V>();
                Sub(scale, scale, tmp, n);
                PipeBarrier<PIPE_V>();
                Maxs(scale, scale, static_cast<C>(0), n);
                PipeBarrier<PIPE_V>();
                Muls(scale, scale, inv, n);
                PipeBarrier<PIPE_V>();
                Adds(scale, scale, eps_, n);
                PipeBarrier<PIPE_V>();
                Sqrt(scale, scale, n);
                PipeBarrier<PIPE_V>();
                Div(scale, alphas, scale, n);
                PipeBarrier<PIPE_V>();
                // shift = mean0 + (1 - s) * c / n
                Muls(tmp, scale, static_cast<C>(-1), n);
                PipeBarrier<PIPE_V>();
                Adds(tmp, tmp, static_cast<C>(1), n);
                PipeBarrier<PIPE_V>();
                Mul(tmp, tmp, corr, n);
                PipeBarrier<PIPE_V>();
                Muls(tmp, tmp, inv, n);
                Spread(bc, scale, g);
                PipeBarrier<PIPE_V>();
                Add(sum, sum, tmp, n);
                Mul(xc[g.at], xc[g.at], bc, g.mask, g.repeats, g.perRow);
            } else {
                PipeBarrier<PIPE_V>();
                // shift = mean0 + (1 - alpha) * c / n
                Muls(corr, corr, inv, n);
                Muls(xc[g.at], xc[g.at], alpha_, g.mask, g.repeats, g.unary);
                PipeBarrier<PIPE_V>();
                Muls(corr, corr, static_cast<C>(1) - alpha_, n);
                PipeBarrier<PIPE_V>();
                Add(sum, sum, corr, n);
            }
            PipeBarrier<PIPE_V>();
            Spread(bc, sum, g);
            PipeBarrier<PIPE_V>();
            Add(y[g.at], xc[g.at], bc, g.mask, g.repeats, g.perRow);
        }
        yQueue_.EnQue(y);
        xQueue_.FreeTensor(x);
    }

    // Chan et al.: `a` merged with the disjoint part `b`, whose mean is taken relative to a.ref.
    __aicore__ inline static void Merge(Partial<C>& a, const Partial<C>& b)
    {
        if (a.count == 0) {
            a = b;
            return;
        }
        const uint64_t merged = a.count + b.count;
        const C delta = ((b.ref - a.ref) + b.offset) - a.offset;
        const C weight = static_cast<C>(b.count) / static_cast<C>(merged);
        a.offset = a.offset + delta * weight;
        a.m2 = a.m2 + b.m2 + delta * delta * static_cast<C>(a.count) * weight;
        a.count = merged;
    }

    // Pass 1 over the chunks starting at offsets [begin, end) of the row at `base`.
    __aicore__ inline Partial<C> ChunkStatistics(uint64_t base, uint64_t begin, uint64_t end)
    {
        const bool normalize = t_.mode == kDispersionNormalize;
        // The mean is carried as ref + offset: ref, the first chunk's rounded mean, is exact in the compute
        // type and x - ref is exact for values near it; the offset holds what ref misses. A mean rounded to
        // one number would be off by up to half an ulp of 1e4, which mode 1 multiplies by 1 - s.
        Partial<C> total;
        for (uint64_t off = begin; off < end; off += t_.chunkLen) {
            const uint32_t w = ChunkAt(off);
            CopyIn(base + off, 1, w);
            LocalTensor<T> x = xQueue_.template DeQue<T>();
            RowStatistics(Widen(x, 1, w), 1, w, normalize);
            xQueue_.FreeTensor(x);
            const C n = static_cast<C>(w);
            const C c = corr_.template Get<C>().GetValue(0);
            Partial<C> chunk;
            chunk.count = w;
            chunk.ref = sum_.template Get<C>().GetValue(0) / n;
            chunk.offset = c / n;
            const C m2 = normalize ? scale_.template Get<C>().GetValue(0) - c * c / n : static_cast<C>(0);
            chunk.m2 = m2 > static_cast<C>(0) ? m2 : static_cast<C>(0);
            if (total.count == 0) {
                total = chunk;
            } else {
                Merge(total, chunk);
            }
        }
        return total;
    }

    // Split rows: publish this core's partial in its workspace slot, wait for every core, and merge the
    // row's partials in slot order. The slots pass through squares_ (pass 2 does not use it).
    __aicore__ inline Partial<C> CombineAcrossCores(const Partial<C>& mine)
    {
        LocalTensor<C> slots = squares_.template Get<C>();
        slots.SetValue(0, mine.ref);
        slots.SetValue(1, mine.offset);
        slots.SetValue(2, mine.m2);
        for (uint32_t i = 3; i < kSlotElems; ++i) slots.SetValue(i, static_cast<C>(0));
        SetFlag<HardEvent::S_MTE3>(kScalarSyncEvent);
        WaitFlag<HardEvent::S_MTE3>(kScalarSyncEvent);
        DataCopy(partials_[GetBlockIdx() * kSlotElems], slots, kSlotElems);
        SyncAll();  // begins with PipeBarrier<PIPE_ALL>: the slot's copy-out is complete before the copy-in
        const uint64_t first = GetBlockIdx() - part_;
        DataCopy(slots, partials_[first * kSlotElems], t_.coresPerRow * kSlotElems);
        SetFlag<HardEvent::MTE2_S>(kScalarSyncEvent);
        WaitFlag<HardEvent::MTE2_S>(kScalarSyncEvent);
        Partial<C> total;
        for (uint32_t k = 0; k < t_.coresPerRow; ++k) {
            Partial<C> part;
            part.count = PartElements(k);
            part.ref = slots.GetValue(k * kSlotElems);
            part.offset = slots.GetValue(k * kSlotElems + 1);
            part.m2 = slots.GetValue(k * kSlotElems + 2);
            Merge(total, part);
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

    // A row longer than UB: pass 1 merges the chunks' statistics (over this core's part of the row when
    // the row is split, then across the row's cores), pass 2 writes y chunk by chunk.
    __aicore__ inline void ProcessLongRow(uint64_t row)
    {
        const uint64_t base = row * t_.rowLength;
        const bool normalize = t_.mode == kDispersionNormalize;
        const bool split = t_.coresPerRow > 1;
        const uint64_t begin = split ? PartFirstChunk(part_) * t_.chunkLen : 0;
        const uint64_t end = split ? PartEnd(part_) : t_.rowLength;
        Partial<C> stats = ChunkStatistics(base, begin, end);
        if (split) stats = CombineAcrossCores(stats);
        const C ref = stats.ref;
        const C offset = stats.offset;
        C s = alpha_;
        if (normalize) {
            LocalTensor<C> scale = scale_.template Get<C>();
            scale.SetValue(0, stats.m2 / static_cast<C>(stats.count) + eps_);
            NormalizeScales(1);
            s = scale.GetValue(0);
        }
        // y = mu + s * (x - mu) = s * (x - ref) + (ref + (1 - s) * offset)
        const C shift = ref + (static_cast<C>(1) - s) * offset;
        for (uint64_t off = begin; off < end; off += t_.chunkLen) {
            const uint32_t w = ChunkAt(off);
            CopyIn(base + off, 1, w);
            LocalTensor<T> x = xQueue_.template DeQue<T>();
            const LocalTensor<C> src = Widen(x, 1, w);
            LocalTensor<C> xc = centred_.template Get<C>();
            LocalTensor<T> y = yQueue_.template AllocTensor<T>();
            const int32_t n = static_cast<int32_t>(w);
            Adds(xc, src, static_cast<C>(-ref), n);
            PipeBarrier<PIPE_V>();
            Muls(xc, xc, s, n);
            PipeBarrier<PIPE_V>();
            if constexpr (kInFloat) {
                Adds(xc, xc, shift, n);
                PipeBarrier<PIPE_V>();
                Cast(y, xc, RoundMode::CAST_RINT, n);
            } else {
                Adds(y, xc, shift, n);
            }
            yQueue_.EnQue(y);
            xQueue_.FreeTensor(x);
            CopyOut(base + off, 1, w);
        }
    }

    __aicore__ inline uint32_t ChunkAt(uint64_t off) const
    {
        return static_cast<uint32_t>(t_.rowLength - off < t_.chunkLen ? t_.rowLength - off : t_.chunkLen);
    }

    DispersionCorrectionTilingData t_;
    TQue<TPosition::VECIN, BUFFER_NUM> xQueue_;
    TQue<TPosition::VECOUT, BUFFER_NUM> yQueue_;
    TBuf<TPosition::VECCALC> centred_;
    TBuf<TPosition::VECCALC> squares_;
    TBuf<TPosition::VECCALC> sum_;
    TBuf<TPosition::VECCALC> corr_;
    TBuf<TPosition::VECCALC> scale_;
    TBuf<TPosition::VECCALC> alphas_;
    TBuf<TPosition::VECCALC> reduceTmp_;
    TBuf<TPosition::VECCALC> bcast_;  // short rows: one 32-byte block per row
    bool shortRows_ = false;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> yGm_;
    GlobalTensor<C> partials_;  // split rows: one kDispersionPartialBytes slot per core
    uint32_t part_ = 0;         // this core's part of its row (split rows)
    uint64_t rowStart_ = 0;
    uint64_t rowCount_ = 0;
    uint32_t pitch_ = 0;
    C alpha_ = 1;
    C eps_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void dispersion_correction(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(DispersionCorrectionTilingData);
    GET_TILING_DATA(tilingData, tiling);
    // Vector cores only, but MIX: SyncAll (split rows) needs the scheduler a MIX kernel starts.
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    using T = DTYPE_X;
    using C = std::conditional_t<sizeof(T) == 8, T, float>;  // 16-bit inputs are computed in float
    TPipe pipe;
    KernelDispersionCorrection<T, C> op;
    op.Init(x, y, workspace, tilingData, &pipe);
    op.Process();
}
