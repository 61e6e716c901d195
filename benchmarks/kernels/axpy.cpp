// out = alpha * x + y over `total` elements of DTYPE_X, split over cores in tiles; the last tile of a core
// may be partial (DataCopyPad). alpha comes by value. The kernel of the declared-op benchmark and of
// tests/test_library.py.
#include "kernel_operator.h"
#include "axpy_tiling.h"

using namespace AscendC;

namespace {

template <typename T>
class AxpyKernel {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR out, const AxpyTiling& t, float alpha)
    {
        const uint64_t start = static_cast<uint64_t>(GetBlockIdx()) * t.perCore;
        count_ = start >= t.total ? 0 : (t.total - start < t.perCore ? t.total - start : t.perCore);
        tile_ = t.tile;
        alpha_ = static_cast<T>(alpha);
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + start, count_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + start, count_);
        outGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out) + start, count_);
        pipe_.InitBuffer(inX_, 2, tile_ * sizeof(T));
        pipe_.InitBuffer(inY_, 2, tile_ * sizeof(T));
        pipe_.InitBuffer(out_, 2, tile_ * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t done = 0; done < count_; done += tile_) {
            const uint32_t n = static_cast<uint32_t>(count_ - done < tile_ ? count_ - done : tile_);
            CopyIn(done, n);
            Compute(n);
            CopyOut(done, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t at, uint32_t n)
    {
        LocalTensor<T> x = inX_.AllocTensor<T>();
        LocalTensor<T> y = inY_.AllocTensor<T>();
        const DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(x, xGm_[at], p, DataCopyPadExtParams<T>{false, 0, 0, 0});
        DataCopyPad(y, yGm_[at], p, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inX_.EnQue(x);
        inY_.EnQue(y);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> x = inX_.DeQue<T>();
        LocalTensor<T> y = inY_.DeQue<T>();
        LocalTensor<T> z = out_.AllocTensor<T>();
        Muls(z, x, alpha_, static_cast<int32_t>(n));
        Add(z, z, y, static_cast<int32_t>(n));
        out_.EnQue(z);
        inX_.FreeTensor(x);
        inY_.FreeTensor(y);
    }

    __aicore__ inline void CopyOut(uint64_t at, uint32_t n)
    {
        LocalTensor<T> z = out_.DeQue<T>();
        DataCopyPad(outGm_[at], z, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
        out_.FreeTensor(z);
    }

    TPipe pipe_;
    TQue<TPosition::VECIN, 2> inX_, inY_;
    TQue<TPosition::VECOUT, 2> out_;
    GlobalTensor<T> xGm_, yGm_, outGm_;
    uint64_t count_ = 0;
    uint32_t tile_ = 0;
    T alpha_;
};

}  // namespace

extern "C" __global__ __aicore__ void axpy(GM_ADDR x, GM_ADDR y, GM_ADDR out, float alpha, GM_ADDR workspace,
                                           GM_ADDR tiling)
{
    (void)workspace;
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    REGISTER_TILING_DEFAULT(AxpyTiling);
    GET_TILING_DATA(t, tiling);
    AxpyKernel<DTYPE_X> op;
    op.Init(x, y, out, t, alpha);
    op.Process();
}
