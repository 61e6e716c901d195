// VectorAdd: z = scaleFull * x + scaleBcast * y (torch.add with alpha), reading a broadcast y in place.
//
// x ("F") is the operand with the output's R x D elements; y ("B") is either a row of D elements added to every row
// (R = 1 when the shapes are equal), one element in GM, or a number in the tiling. Each core owns a block
// of rows x columns (the tiling's grid) and streams it through UB in tiles: CopyIn -> Compute -> CopyOut,
// F and z double buffered, so the copy of tile i+1 overlaps the add of tile i on the NPU. B is read once
// per column chunk of a core; when several short rows share a tile, B is replicated once in UB so that a
// whole tile is one vector instruction. Rows and chunks that are not whole 32-byte blocks move with
// DataCopyPad (each row lands on a 32-byte boundary in UB). bfloat16, and float16 whenever a scale or a
// float scalar is involved, are computed in float and rounded once (CAST_RINT), as torch computes them.
#include "kernel_operator.h"
#include "vector_add_tiling_data.h"

#include <type_traits>

using namespace AscendC;

namespace {

constexpr int32_t BUFFER_NUM = 2;

// T is the element type in GM, C the type the arithmetic runs in (float for 16-bit inputs computed in float).
template <typename T, typename C>
class KernelVectorAdd {
    static constexpr bool kInFloat = !std::is_same_v<T, C>;
    static constexpr uint32_t kBlockElems = ONE_BLK_SIZE / sizeof(T);

public:
    __aicore__ inline KernelVectorAdd() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const VectorAddTilingData& tiling, TPipe* pipe)
    {
        t_ = tiling;
        const uint64_t core = GetBlockIdx();
        const uint64_t rowGroup = core / t_.colGroups;
        const uint64_t colGroup = core % t_.colGroups;
        rowStart_ = rowGroup < t_.rowFormerNum
                        ? rowGroup * t_.rowsFormer
                        : t_.rowFormerNum * t_.rowsFormer + (rowGroup - t_.rowFormerNum) * (t_.rowsFormer - 1);
        rowCount_ = rowGroup < t_.rowFormerNum ? t_.rowsFormer : t_.rowsFormer - 1;
        colStart_ = colGroup < t_.colFormerNum
                        ? colGroup * t_.colsFormer
                        : t_.colFormerNum * t_.colsFormer + (colGroup - t_.colFormerNum) * t_.colsTail;
        const uint64_t share = colGroup < t_.colFormerNum ? t_.colsFormer : t_.colsTail;
        colEnd_ = colStart_ + share < t_.rowLength ? colStart_ + share : t_.rowLength;  // the last group stops at D

        fGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t_.rows * t_.rowLength);
        zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(z), t_.rows * t_.rowLength);
        if (t_.mode != kVectorAddScalarTiling) {
            bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), t_.mode == kVectorAddRows ? t_.rowLength : 1);
        }
        scaleFull_ = Pick(t_.scaleFull, t_.scaleFull64);
        scaleBcast_ = Pick(t_.scaleBcast, t_.scaleBcast64);

        pitch_ = AlignUp(t_.tileCols);
        tileElems_ = t_.tileRows * pitch_;
        pipe->InitBuffer(fQueue_, BUFFER_NUM, tileElems_ * sizeof(T));
        pipe->InitBuffer(zQueue_, BUFFER_NUM, tileElems_ * sizeof(T));
        if (t_.mode == kVectorAddRows) {
            pipe->InitBuffer(bQueue_, 1, pitch_ * sizeof(T));
            replicate_ = t_.tileRows > 1 || kInFloat || !BcastScaleIsOne();
            if (replicate_) pipe->InitBuffer(bRep_, tileElems_ * sizeof(C));
        }
        if constexpr (kInFloat) {
            pipe->InitBuffer(work_, tileElems_ * sizeof(C));
        }
    }

    __aicore__ inline void Process()
    {
        if (t_.mode == kVectorAddRows) {
            ProcessRows();
        } else {
            ProcessScalar();
        }
    }

private:
    __aicore__ inline static uint32_t AlignUp(uint64_t n) { return (n + kBlockElems - 1) / kBlockElems * kBlockElems; }

    __aicore__ inline static C Pick(float f, double d)
    {
        if constexpr (sizeof(C) == sizeof(double)) {
            return d;
        } else {
            return static_cast<C>(f);
        }
    }

    // Decided on the tiling's float (double) rather than on scaleBcast_: a half scalar takes no comparison.
    __aicore__ inline bool BcastScaleIsOne() const
    {
        if constexpr (sizeof(C) == sizeof(double)) {
            return t_.scaleBcast64 == 1.0;
        } else {
            return t_.scaleBcast == 1.0f;
        }
    }

    // The number B stands for, times its scale, in C. A scalar B in GM is a tensor an earlier kernel wrote:
    // this core's data cache may hold a stale line of it, so the line is dropped before the scalar read
    // (GetValue docs, 约束说明). The arithmetic runs in float: the A2 scalar unit has no half or bfloat16_t
    // arithmetic, and bfloat16_t converts only through AscendC::Cast.
    __aicore__ inline C ScalarOperand()
    {
        if (t_.mode == kVectorAddScalarTiling) return Pick(t_.scalar, t_.scalar64);
        DataCacheCleanAndInvalid<T, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(bGm_);
        const T raw = bGm_.GetValue(0);
        if constexpr (std::is_same_v<T, bfloat16_t>) {
            return static_cast<C>(AscendC::Cast(raw) * t_.scaleBcast);
        } else if constexpr (std::is_same_v<T, half>) {
            return static_cast<C>(static_cast<float>(raw) * t_.scaleBcast);
        } else {
            return raw * scaleBcast_;
        }
    }

    __aicore__ inline void ProcessRows()
    {
        for (uint64_t c0 = colStart_; c0 < colEnd_; c0 += t_.tileCols) {
            const uint32_t w = static_cast<uint32_t>(colEnd_ - c0 < t_.tileCols ? colEnd_ - c0 : t_.tileCols);
            LocalTensor<T> bRaw = LoadBroadcastChunk(c0, w);
            for (uint64_t r0 = rowStart_; r0 < rowStart_ + rowCount_; r0 += t_.tileRows) {
                const uint64_t left = rowStart_ + rowCount_ - r0;
                const uint32_t rows = static_cast<uint32_t>(left < t_.tileRows ? left : t_.tileRows);
                CopyIn(r0, rows, c0, w);
                ComputeRows(rows, w, bRaw);
                CopyOut(r0, rows, c0, w);
            }
            bQueue_.FreeTensor(bRaw);
        }
    }

    __aicore__ inline void ProcessScalar()
    {
        const C scalar = ScalarOperand();
        for (uint64_t c0 = colStart_; c0 < colEnd_; c0 += t_.tileCols) {
            const uint32_t w = static_cast<uint32_t>(colEnd_ - c0 < t_.tileCols ? colEnd_ - c0 : t_.tileCols);
            CopyIn(0, 1, c0, w);
            ComputeScalar(w, scalar);
            CopyOut(0, 1, c0, w);
        }
    }

    // B[c0, c0 + w) into UB; when needed, scaled (and cast) into bRep_ and replicated for every tile row.
    __aicore__ inline LocalTensor<T> LoadBroadcastChunk(uint64_t c0, uint32_t w)
    {
        LocalTensor<T> raw = bQueue_.template AllocTensor<T>();
        if ((w * sizeof(T)) % ONE_BLK_SIZE == 0) {
            DataCopy(raw, bGm_[c0], w);
        } else {
            DataCopyPad(raw, bGm_[c0], DataCopyExtParams{1, static_cast<uint32_t>(w * sizeof(T)), 0, 0, 0},
                        DataCopyPadExtParams<T>{false, 0, 0, 0});
        }
        bQueue_.EnQue(raw);
        raw = bQueue_.template DeQue<T>();
        if (!replicate_) return raw;

        // Several rows per tile: the padded row (pw elements) is replicated, so the padding lanes are
        // computed too; one row per tile: exactly w elements.
        const uint32_t pw = AlignUp(w);
        const uint32_t first = t_.tileRows > 1 ? pw : w;
        LocalTensor<C> rep = bRep_.template Get<C>();
        PipeBarrier<PIPE_V>();  // the previous chunk's tiles are done reading bRep_
        if constexpr (kInFloat) {
            Cast(rep, raw, RoundMode::CAST_NONE, first);
            if (!BcastScaleIsOne()) {
                PipeBarrier<PIPE_V>();
                Muls(rep, rep, scaleBcast_, static_cast<int32_t>(first));
            }
        } else {
            Muls(rep, raw, scaleBcast_, static_cast<int32_t>(first));
        }
        // Doubling: rows [0, m) are copied to [m, 2m) by one exact multiplication by 1 per step.
        for (uint32_t m = 1; m < t_.tileRows; m *= 2) {
            const uint32_t count = m < t_.tileRows - m ? m : t_.tileRows - m;
            PipeBarrier<PIPE_V>();
            Muls(rep[m * pw], rep, static_cast<C>(1), static_cast<int32_t>(count * pw));
        }
        PipeBarrier<PIPE_V>();
        return raw;
    }

    __aicore__ inline void CopyIn(uint64_t row, uint32_t rows, uint64_t c0, uint32_t w)
    {
        LocalTensor<T> f = fQueue_.template AllocTensor<T>();
        const uint64_t offset = row * t_.rowLength + c0;
        const bool dense = rows == 1 || w == AlignUp(w);  // rows follow each other without padding in UB
        if (dense && (static_cast<uint64_t>(rows) * w * sizeof(T)) % ONE_BLK_SIZE == 0) {
            DataCopy(f, fGm_[offset], rows * w);
        } else {
            // Multi-row tiles span whole rows (w == D), so the rows are consecutive in GM: no source gap.
            DataCopyPad(f, fGm_[offset],
                        DataCopyExtParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(w * sizeof(T)), 0, 0, 0},
                        DataCopyPadExtParams<T>{false, 0, 0, 0});
        }
        fQueue_.EnQue(f);
    }

    // Elements a tile's vector instructions cover: one row's w, or whole padded rows.
    __aicore__ inline int32_t TileCount(uint32_t rows, uint32_t w) const
    {
        return static_cast<int32_t>(rows == 1 ? w : rows * AlignUp(w));
    }

    __aicore__ inline void ComputeRows(uint32_t rows, uint32_t w, const LocalTensor<T>& bRaw)
    {
        const int32_t n = TileCount(rows, w);
        LocalTensor<T> f = fQueue_.template DeQue<T>();
        LocalTensor<T> z = zQueue_.template AllocTensor<T>();
        if constexpr (kInFloat) {
            LocalTensor<C> acc = work_.template Get<C>();
            LocalTensor<C> rep = bRep_.template Get<C>();
            Cast(acc, f, RoundMode::CAST_NONE, n);
            PipeBarrier<PIPE_V>();
            if (!t_.scaleFullIsOne) {
                Muls(acc, acc, scaleFull_, n);
                PipeBarrier<PIPE_V>();
            }
            Add(acc, acc, rep, n);
            PipeBarrier<PIPE_V>();
            Cast(z, acc, RoundMode::CAST_RINT, n);
        } else {
            LocalTensor<C> b = replicate_ ? bRep_.template Get<C>() : bRaw;
            if (!t_.scaleFullIsOne) {
                Muls(z, f, scaleFull_, n);
                PipeBarrier<PIPE_V>();
                Add(z, z, b, n);
            } else {
                Add(z, f, b, n);
            }
        }
        zQueue_.EnQue(z);
        fQueue_.FreeTensor(f);
    }

    __aicore__ inline void ComputeScalar(uint32_t w, C scalar)
    {
        const int32_t n = static_cast<int32_t>(w);
        LocalTensor<T> f = fQueue_.template DeQue<T>();
        LocalTensor<T> z = zQueue_.template AllocTensor<T>();
        if constexpr (kInFloat) {
            LocalTensor<C> acc = work_.template Get<C>();
            Cast(acc, f, RoundMode::CAST_NONE, n);
            PipeBarrier<PIPE_V>();
            if (!t_.scaleFullIsOne) {
                Muls(acc, acc, scaleFull_, n);
                PipeBarrier<PIPE_V>();
            }
            Adds(acc, acc, scalar, n);
            PipeBarrier<PIPE_V>();
            Cast(z, acc, RoundMode::CAST_RINT, n);
        } else {
            if (!t_.scaleFullIsOne) {
                Muls(z, f, scaleFull_, n);
                PipeBarrier<PIPE_V>();
                Adds(z, z, scalar, n);
            } else {
                Adds(z, f, scalar, n);
            }
        }
        zQueue_.EnQue(z);
        fQueue_.FreeTensor(f);
    }

    __aicore__ inline void CopyOut(uint64_t row, uint32_t rows, uint64_t c0, uint32_t w)
    {
        LocalTensor<T> z = zQueue_.template DeQue<T>();
        const uint64_t offset = row * t_.rowLength + c0;
        const bool dense = rows == 1 || w == AlignUp(w);
        if (dense && (static_cast<uint64_t>(rows) * w * sizeof(T)) % ONE_BLK_SIZE == 0) {
            DataCopy(zGm_[offset], z, rows * w);
        } else {
            DataCopyPad(zGm_[offset], z,
                        DataCopyExtParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(w * sizeof(T)), 0, 0, 0});
        }
        zQueue_.FreeTensor(z);
    }

    VectorAddTilingData t_;
    TQue<TPosition::VECIN, BUFFER_NUM> fQueue_;
    TQue<TPosition::VECIN, 1> bQueue_;
    TQue<TPosition::VECOUT, BUFFER_NUM> zQueue_;
    TBuf<TPosition::VECCALC> bRep_;
    TBuf<TPosition::VECCALC> work_;
    GlobalTensor<T> fGm_;
    GlobalTensor<T> bGm_;
    GlobalTensor<T> zGm_;
    uint64_t rowStart_ = 0;
    uint64_t rowCount_ = 0;
    uint64_t colStart_ = 0;
    uint64_t colEnd_ = 0;
    uint32_t pitch_ = 0;
    uint32_t tileElems_ = 0;
    bool replicate_ = false;
    C scaleFull_ = 1;
    C scaleBcast_ = 1;
};

template <typename T, typename C>
__aicore__ inline void RunVectorAdd(GM_ADDR x, GM_ADDR y, GM_ADDR z, const VectorAddTilingData& tiling)
{
    TPipe pipe;
    KernelVectorAdd<T, C> op;
    op.Init(x, y, z, tiling, &pipe);
    op.Process();
}

}  // namespace

extern "C" __global__ __aicore__ void vector_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    REGISTER_TILING_DEFAULT(VectorAddTilingData);
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    using T = DTYPE_X;
    if constexpr (std::is_same_v<T, bfloat16_t>) {
        RunVectorAdd<T, float>(x, y, z, tilingData);  // the A2 vector unit has no bfloat16 arithmetic
    } else if constexpr (std::is_same_v<T, half>) {
        if (tilingData.computeInFloat) {
            RunVectorAdd<T, float>(x, y, z, tilingData);
        } else {
            RunVectorAdd<T, T>(x, y, z, tilingData);
        }
    } else {
        RunVectorAdd<T, T>(x, y, z, tilingData);
    }
}
