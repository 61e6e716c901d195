// RMSNorm over the last dimension of x (D = cols elements per row), forward and backward, in Ascend C.
//   forward:  rstd = 1 / sqrt(mean(x^2) + eps) per row;   y = x * rstd * gamma
//   backward: xhat = x * rstd, gg = grad_y * gamma, k = (sum(gg * xhat) + grad_rstd * rstd) / D per row;
//             grad_x = rstd * (gg - xhat * k)
//             grad_gamma_parts[g] = sum of grad_y * xhat over the rows of group g (rms_norm.py sums the groups)
//   (grad_rstd: the gradient reaching the rstd output, zeros when only y is used)
// T is x's element type, C the type of the arithmetic and of rstd (DTYPE_RSTD: float for float16, bfloat16
// and float32; double in the CPU twin's float64 build): 16-bit rows are Cast to float in UB, computed and
// Cast back, as A2 has no bfloat16 vector arithmetic.
//
// Layout: the rows are split into `groups` contiguous ranges (rms_norm_tiling.h), group g on core
// g % block_dim. A core streams its rows through UB in tiles of tileRows whole rows: one DataCopyPad
// moves a tile, each row landing at a 32-byte aligned pitch in UB, so a row of any length (a "tail" of
// less than a block included) is one count-form vector instruction per step. A row must fit in UB
// (rms_norm.py refuses longer rows before the launch). Row sums are count-form ReduceSums; a tile's
// grad_y * xhat rows are summed pairwise, then added to the group's row.
#include "kernel_operator.h"
#include "rms_norm_tiling.h"

#include <type_traits>

using namespace AscendC;

namespace {

constexpr int32_t kBuffers = 2;  // double buffering of the GM <-> UB queues
constexpr int32_t kEvent = 0;

// The rows of group g: [first, first + count), the groups as even as can be.
struct RowRange {
    uint64_t first;
    uint64_t count;
};

__aicore__ inline RowRange GroupRows(const MyRmsNormTiling& t, uint32_t g)
{
    const uint64_t base = t.rows / t.groups;
    const uint64_t extra = t.rows % t.groups;
    return {g * base + (g < extra ? g : extra), base + (g < extra ? 1 : 0)};
}

// What both kernels share: the UB row layout, the copies of row tiles, the widening to C.
template <typename T, typename C>
class RmsNormTile {
protected:
    static constexpr bool kWiden = !std::is_same_v<T, C>;

    __aicore__ inline void InitLayout(const MyRmsNormTiling& t)
    {
        t_ = t;
        constexpr uint32_t block = ONE_BLK_SIZE / sizeof(T);
        pitch_ = (t.cols + block - 1) / block * block;  // a row in UB: whole 32-byte blocks
        statBytes_ = (t.tileRows * sizeof(C) + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
        invCols_ = static_cast<C>(1) / static_cast<C>(t.cols);
    }

    __aicore__ inline void LoadRows(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint64_t row, uint32_t rows)
    {
        const DataCopyExtParams p{static_cast<uint16_t>(rows), static_cast<uint32_t>(t_.cols * sizeof(T)), 0, 0, 0};
        DataCopyPad(dst, src[row * t_.cols], p, DataCopyPadExtParams<T>{false, 0, 0, 0});
    }

    __aicore__ inline void StoreRows(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint64_t row, uint32_t rows)
    {
        const DataCopyExtParams p{static_cast<uint16_t>(rows), static_cast<uint32_t>(t_.cols * sizeof(T)), 0, 0, 0};
        DataCopyPad(dst[row * t_.cols], src, p);
    }

    // The rows in C: the tile itself, or its Cast into `wide` row by row (the padding is never read).
    __aicore__ inline LocalTensor<C> Widen(const LocalTensor<T>& src, TBuf<TPosition::VECCALC>& wide, uint32_t rows)
    {
        if constexpr (kWiden) {
            LocalTensor<C> w = wide.template Get<C>();
            for (uint32_t i = 0; i < rows; ++i) Cast(w[i * pitch_], src[i * pitch_], RoundMode::CAST_NONE, t_.cols);
            return w;
        } else {
            return src;
        }
    }

    // Where a result in C is written: the work tile for 16-bit rows (Narrow then Casts it into the output),
    // the output tile itself for float rows.
    __aicore__ inline static LocalTensor<C> ResultIn(const LocalTensor<T>& out, const LocalTensor<C>& work)
    {
        if constexpr (kWiden) {
            return work;
        } else {
            return out;
        }
    }

    __aicore__ inline void Narrow(const LocalTensor<T>& out, const LocalTensor<C>& result, uint32_t rows)
    {
        if constexpr (kWiden) {
            PipeBarrier<PIPE_V>();
            for (uint32_t i = 0; i < rows; ++i) {
                Cast(out[i * pitch_], result[i * pitch_], RoundMode::CAST_RINT, t_.cols);
            }
        }
    }

    // gamma in C, loaded once per core and kept in `gammaQ_` until Finish.
    __aicore__ inline void LoadGamma(GM_ADDR gamma, TPipe* pipe)
    {
        gammaGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gamma), t_.cols);
        pipe->InitBuffer(gammaQ_, 1, pitch_ * sizeof(T));
        LocalTensor<T> g = gammaQ_.template AllocTensor<T>();
        DataCopyPad(g, gammaGm_, DataCopyExtParams{1, static_cast<uint32_t>(t_.cols * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        gammaQ_.EnQue(g);
        gammaIn_ = gammaQ_.template DeQue<T>();
        if constexpr (kWiden) {
            pipe->InitBuffer(gammaWide_, pitch_ * sizeof(C));
            gamma_ = gammaWide_.template Get<C>();
            Cast(gamma_, gammaIn_, RoundMode::CAST_NONE, t_.cols);
        } else {
            gamma_ = gammaIn_;
        }
    }

    __aicore__ inline void Finish() { gammaQ_.FreeTensor(gammaIn_); }

    // The scalar unit reads what the vector unit wrote, or the vector unit rewrites what the scalar unit read.
    __aicore__ inline static void VectorToScalar()
    {
        SetFlag<HardEvent::V_S>(kEvent);
        WaitFlag<HardEvent::V_S>(kEvent);
    }
    __aicore__ inline static void ScalarToVector()
    {
        SetFlag<HardEvent::S_V>(kEvent);
        WaitFlag<HardEvent::S_V>(kEvent);
    }

    MyRmsNormTiling t_;
    uint32_t pitch_ = 0;
    uint32_t statBytes_ = 0;  // one C per row of a tile, in whole blocks
    C invCols_ = 0;
    GlobalTensor<T> gammaGm_;
    TQue<TPosition::VECIN, 1> gammaQ_;
    TBuf<TPosition::VECCALC> gammaWide_;
    LocalTensor<T> gammaIn_;
    LocalTensor<C> gamma_;
};

template <typename T, typename C>
class RmsNormForward : public RmsNormTile<T, C> {
    using Base = RmsNormTile<T, C>;
    using Base::kWiden;
    using Base::pitch_;
    using Base::t_;

public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd, const MyRmsNormTiling& t,
                                TPipe* pipe)
    {
        this->InitLayout(t);
        if constexpr (sizeof(C) == sizeof(double)) {
            eps_ = t.eps64;
        } else {
            eps_ = t.eps;
        }
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t.rows * t.cols);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), t.rows * t.cols);
        rstdGm_.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(rstd), t.rows);
        const uint32_t tile = t.tileRows * pitch_;
        pipe->InitBuffer(xQ_, kBuffers, tile * sizeof(T));
        pipe->InitBuffer(yQ_, kBuffers, tile * sizeof(T));
        pipe->InitBuffer(rstdQ_, kBuffers, this->statBytes_);
        pipe->InitBuffer(squares_, tile * sizeof(C));
        if constexpr (kWiden) pipe->InitBuffer(wide_, tile * sizeof(C));
        pipe->InitBuffer(sums_, this->statBytes_);
        pipe->InitBuffer(ones_, this->statBytes_);
        pipe->InitBuffer(reduceTmp_, ONE_BLK_SIZE);
        this->LoadGamma(gamma, pipe);
        Duplicate(ones_.template Get<C>(), static_cast<C>(1), static_cast<int32_t>(t.tileRows));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t g = GetBlockIdx(); g < t_.groups; g += GetBlockNum()) {
            const RowRange range = GroupRows(t_, g);
            for (uint64_t done = 0; done < range.count; done += t_.tileRows) {
                const uint64_t left = range.count - done;
                const uint32_t rows = static_cast<uint32_t>(left < t_.tileRows ? left : t_.tileRows);
                LocalTensor<T> x = xQ_.template AllocTensor<T>();
                this->LoadRows(x, xGm_, range.first + done, rows);
                xQ_.EnQue(x);
                Compute(rows);
                CopyOut(range.first + done, rows);
            }
        }
        this->Finish();
    }

private:
    __aicore__ inline void Compute(uint32_t rows)
    {
        const int32_t cols = static_cast<int32_t>(t_.cols);
        const int32_t n = static_cast<int32_t>(rows);
        LocalTensor<T> x = xQ_.template DeQue<T>();
        LocalTensor<C> xc = this->Widen(x, wide_, rows);
        LocalTensor<C> sq = squares_.template Get<C>();
        LocalTensor<C> sums = sums_.template Get<C>();
        PipeBarrier<PIPE_V>();
        for (uint32_t i = 0; i < rows; ++i) Mul(sq[i * pitch_], xc[i * pitch_], xc[i * pitch_], cols);
        PipeBarrier<PIPE_V>();
        LocalTensor<C> tmp = reduceTmp_.template Get<C>();
        for (uint32_t i = 0; i < rows; ++i) ReduceSum(sums[i], sq[i * pitch_], tmp, cols);
        PipeBarrier<PIPE_V>();
        // rstd = 1 / sqrt(sum / D + eps) for the tile's rows at once
        Muls(sums, sums, this->invCols_, n);
        PipeBarrier<PIPE_V>();
        Adds(sums, sums, eps_, n);
        PipeBarrier<PIPE_V>();
        Sqrt(sums, sums, n);
        PipeBarrier<PIPE_V>();
        LocalTensor<C> rstd = rstdQ_.template AllocTensor<C>();
        Div(rstd, ones_.template Get<C>(), sums, n);
        this->VectorToScalar();
        LocalTensor<T> y = yQ_.template AllocTensor<T>();
        const LocalTensor<C> out = this->ResultIn(y, xc);  // y = x * rstd * gamma
        for (uint32_t i = 0; i < rows; ++i) Muls(out[i * pitch_], xc[i * pitch_], rstd.GetValue(i), cols);
        PipeBarrier<PIPE_V>();
        for (uint32_t i = 0; i < rows; ++i) Mul(out[i * pitch_], out[i * pitch_], this->gamma_, cols);
        this->Narrow(y, out, rows);
        this->ScalarToVector();  // the scalar reads of rstd are done before the next tile rewrites it
        rstdQ_.EnQue(rstd);
        yQ_.EnQue(y);
        xQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint64_t row, uint32_t rows)
    {
        LocalTensor<T> y = yQ_.template DeQue<T>();
        this->StoreRows(yGm_, y, row, rows);
        yQ_.FreeTensor(y);
        LocalTensor<C> rstd = rstdQ_.template DeQue<C>();
        DataCopyPad(rstdGm_[row], rstd, DataCopyExtParams{1, static_cast<uint32_t>(rows * sizeof(C)), 0, 0, 0});
        rstdQ_.FreeTensor(rstd);
    }

    C eps_ = 0;
    GlobalTensor<T> xGm_, yGm_;
    GlobalTensor<C> rstdGm_;
    TQue<TPosition::VECIN, kBuffers> xQ_;
    TQue<TPosition::VECOUT, kBuffers> yQ_, rstdQ_;
    TBuf<TPosition::VECCALC> squares_, wide_, sums_, ones_, reduceTmp_;
};

template <typename T, typename C>
class RmsNormBackward : public RmsNormTile<T, C> {
    using Base = RmsNormTile<T, C>;
    using Base::kWiden;
    using Base::pitch_;
    using Base::t_;

public:
    __aicore__ inline void Init(GM_ADDR gradY, GM_ADDR gradRstd, GM_ADDR x, GM_ADDR gamma, GM_ADDR rstd, GM_ADDR gradX,
                                GM_ADDR gradGammaParts, const MyRmsNormTiling& t, TPipe* pipe)
    {
        this->InitLayout(t);
        gyGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gradY), t.rows * t.cols);
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t.rows * t.cols);
        gxGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gradX), t.rows * t.cols);
        rstdGm_.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(rstd), t.rows);
        grstdGm_.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(gradRstd), t.rows);
        partsGm_.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(gradGammaParts), static_cast<uint64_t>(t.groups) * t.cols);
        const uint32_t tile = t.tileRows * pitch_;
        pipe->InitBuffer(gyQ_, kBuffers, tile * sizeof(T));
        pipe->InitBuffer(xQ_, kBuffers, tile * sizeof(T));
        pipe->InitBuffer(statQ_, kBuffers, 2 * this->statBytes_);  // rstd, then grad_rstd
        pipe->InitBuffer(gxQ_, kBuffers, tile * sizeof(T));
        pipe->InitBuffer(partQ_, 1, pitch_ * sizeof(C));
        pipe->InitBuffer(prod_, tile * sizeof(C));
        if constexpr (kWiden) {
            pipe->InitBuffer(wideX_, tile * sizeof(C));
            pipe->InitBuffer(wideG_, tile * sizeof(C));
        }
        pipe->InitBuffer(sums_, this->statBytes_);
        pipe->InitBuffer(reduceTmp_, ONE_BLK_SIZE);
        this->LoadGamma(gamma, pipe);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t g = GetBlockIdx(); g < t_.groups; g += GetBlockNum()) {
            const RowRange range = GroupRows(t_, g);
            LocalTensor<C> acc = partQ_.template AllocTensor<C>();
            Duplicate(acc, static_cast<C>(0), static_cast<int32_t>(t_.cols));
            for (uint64_t done = 0; done < range.count; done += t_.tileRows) {
                const uint64_t left = range.count - done;
                const uint32_t rows = static_cast<uint32_t>(left < t_.tileRows ? left : t_.tileRows);
                CopyIn(range.first + done, rows);
                Compute(rows, acc);
                LocalTensor<T> gx = gxQ_.template DeQue<T>();
                this->StoreRows(gxGm_, gx, range.first + done, rows);
                gxQ_.FreeTensor(gx);
            }
            partQ_.EnQue(acc);
            acc = partQ_.template DeQue<C>();
            DataCopyPad(partsGm_[static_cast<uint64_t>(g) * t_.cols], acc,
                        DataCopyExtParams{1, static_cast<uint32_t>(t_.cols * sizeof(C)), 0, 0, 0});
            partQ_.FreeTensor(acc);
        }
        this->Finish();
    }

private:
    __aicore__ inline void CopyIn(uint64_t row, uint32_t rows)
    {
        LocalTensor<T> gy = gyQ_.template AllocTensor<T>();
        LocalTensor<T> x = xQ_.template AllocTensor<T>();
        LocalTensor<C> stat = statQ_.template AllocTensor<C>();
        this->LoadRows(gy, gyGm_, row, rows);
        this->LoadRows(x, xGm_, row, rows);
        const DataCopyExtParams p{1, static_cast<uint32_t>(rows * sizeof(C)), 0, 0, 0};
        DataCopyPad(stat, rstdGm_[row], p, DataCopyPadExtParams<C>{false, 0, 0, 0});
        DataCopyPad(stat[this->statBytes_ / sizeof(C)], grstdGm_[row], p, DataCopyPadExtParams<C>{false, 0, 0, 0});
        gyQ_.EnQue(gy);
        xQ_.EnQue(x);
        statQ_.EnQue(stat);
    }

    __aicore__ inline void Compute(uint32_t rows, const LocalTensor<C>& acc)
    {
        const int32_t cols = static_cast<int32_t>(t_.cols);
        LocalTensor<T> gyIn = gyQ_.template DeQue<T>();
        LocalTensor<T> xIn = xQ_.template DeQue<T>();
        LocalTensor<C> stat = statQ_.template DeQue<C>();
        const LocalTensor<C> rstd = stat;
        const LocalTensor<C> grstd = stat[this->statBytes_ / sizeof(C)];
        SetFlag<HardEvent::MTE2_S>(kEvent);  // the scalar unit reads rstd and grad_rstd
        WaitFlag<HardEvent::MTE2_S>(kEvent);
        LocalTensor<C> x = this->Widen(xIn, wideX_, rows);
        LocalTensor<C> g = this->Widen(gyIn, wideG_, rows);
        LocalTensor<C> p = prod_.template Get<C>();
        PipeBarrier<PIPE_V>();
        for (uint32_t i = 0; i < rows; ++i) Muls(x[i * pitch_], x[i * pitch_], rstd.GetValue(i), cols);  // xhat
        PipeBarrier<PIPE_V>();
        for (uint32_t i = 0; i < rows; ++i) Mul(p[i * pitch_], g[i * pitch_], x[i * pitch_], cols);  // grad_y * xhat
        PipeBarrier<PIPE_V>();
        // acc += the tile's rows of grad_y * xhat, summed pairwise (one barrier per level)
        for (uint32_t step = 1; step < rows; step *= 2) {
            for (uint32_t i = 0; i + step < rows; i += 2 * step) {
                Add(p[i * pitch_], p[i * pitch_], p[(i + step) * pitch_], cols);
            }
            PipeBarrier<PIPE_V>();
        }
        Add(acc, acc, p, cols);
        for (uint32_t i = 0; i < rows; ++i) Mul(g[i * pitch_], g[i * pitch_], this->gamma_, cols);  // gg
        PipeBarrier<PIPE_V>();
        for (uint32_t i = 0; i < rows; ++i) Mul(p[i * pitch_], g[i * pitch_], x[i * pitch_], cols);  // gg * xhat
        PipeBarrier<PIPE_V>();
        LocalTensor<C> sums = sums_.template Get<C>();
        LocalTensor<C> tmp = reduceTmp_.template Get<C>();
        for (uint32_t i = 0; i < rows; ++i) ReduceSum(sums[i], p[i * pitch_], tmp, cols);
        this->VectorToScalar();
        for (uint32_t i = 0; i < rows; ++i) {
            const C k = (sums.GetValue(i) + grstd.GetValue(i) * rstd.GetValue(i)) * this->invCols_;
            Muls(p[i * pitch_], x[i * pitch_], -k, cols);  // -xhat * k
        }
        PipeBarrier<PIPE_V>();
        for (uint32_t i = 0; i < rows; ++i) Add(p[i * pitch_], p[i * pitch_], g[i * pitch_], cols);  // gg - xhat * k
        PipeBarrier<PIPE_V>();
        LocalTensor<T> gx = gxQ_.template AllocTensor<T>();
        const LocalTensor<C> out = this->ResultIn(gx, p);  // grad_x = rstd * (gg - xhat * k)
        for (uint32_t i = 0; i < rows; ++i) Muls(out[i * pitch_], p[i * pitch_], rstd.GetValue(i), cols);
        this->Narrow(gx, out, rows);
        this->ScalarToVector();  // the scalar reads of this tile's statistics are done
        gxQ_.EnQue(gx);
        gyQ_.FreeTensor(gyIn);
        xQ_.FreeTensor(xIn);
        statQ_.FreeTensor(stat);
    }

    GlobalTensor<T> gyGm_, xGm_, gxGm_;
    GlobalTensor<C> rstdGm_, grstdGm_, partsGm_;
    TQue<TPosition::VECIN, kBuffers> gyQ_, xQ_, statQ_;
    TQue<TPosition::VECOUT, kBuffers> gxQ_;
    TQue<TPosition::VECOUT, 1> partQ_;
    TBuf<TPosition::VECCALC> prod_, wideX_, wideG_, sums_, reduceTmp_;
};

}  // namespace

extern "C" __global__ __aicore__ void rms_norm(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    REGISTER_TILING_DEFAULT(MyRmsNormTiling);
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    RmsNormForward<DTYPE_X, DTYPE_RSTD> op;
    op.Init(x, gamma, y, rstd, t, &pipe);
    op.Process();
}

extern "C" __global__ __aicore__ void rms_norm_backward(GM_ADDR grad_y, GM_ADDR grad_rstd, GM_ADDR x, GM_ADDR gamma,
                                                        GM_ADDR rstd, GM_ADDR grad_x, GM_ADDR grad_gamma_parts,
                                                        GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    REGISTER_TILING_DEFAULT(MyRmsNormTiling);
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    RmsNormBackward<DTYPE_X, DTYPE_RSTD> op;
    op.Init(grad_y, grad_rstd, x, gamma, rstd, grad_x, grad_gamma_parts, t, &pipe);
    op.Process();
}
