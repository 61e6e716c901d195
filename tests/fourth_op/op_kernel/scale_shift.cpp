// ScaleShift: y = x * a + b, elementwise. Each core streams its share of x through UB in tiles (CopyIn ->
// Compute -> CopyOut, double buffered); a tile that is not whole 32-byte blocks moves with DataCopyPad. a and
// b come in the tiling, as the op package passes no numbers to a kernel (its attrs reach the TilingFunc).
#include "kernel_operator.h"
#include "scale_shift_tiling_data.h"

using namespace AscendC;

namespace {

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelScaleShift {
public:
    __aicore__ inline KernelScaleShift() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ScaleShiftTilingData& tiling, TPipe* pipe)
    {
        t_ = tiling;
        const uint64_t start = GetBlockIdx() * t_.perCore;
        count_ = start >= t_.total ? 0 : (t_.total - start < t_.perCore ? t_.total - start : t_.perCore);
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + start, count_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + start, count_);
        pipe->InitBuffer(inQueue_, BUFFER_NUM, t_.tile * sizeof(T));
        pipe->InitBuffer(outQueue_, BUFFER_NUM, t_.tile * sizeof(T));
        if constexpr (sizeof(T) == sizeof(double)) {
            a_ = t_.a64;
            b_ = t_.b64;
        } else {
            a_ = static_cast<T>(t_.a);
            b_ = static_cast<T>(t_.b);
        }
    }

    __aicore__ inline void Process()
    {
        for (uint64_t offset = 0; offset < count_; offset += t_.tile) {
            const uint32_t n = static_cast<uint32_t>(count_ - offset < t_.tile ? count_ - offset : t_.tile);
            CopyIn(offset, n);
            Compute(n);
            CopyOut(offset, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t n)
    {
        LocalTensor<T> x = inQueue_.AllocTensor<T>();
        DataCopyPad(x, xGm_[offset], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQueue_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> x = inQueue_.DeQue<T>();
        LocalTensor<T> y = outQueue_.AllocTensor<T>();
        Muls(y, x, a_, static_cast<int32_t>(n));
        PipeBarrier<PIPE_V>();
        Adds(y, y, b_, static_cast<int32_t>(n));
        outQueue_.EnQue(y);
        inQueue_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t n)
    {
        LocalTensor<T> y = outQueue_.DeQue<T>();
        DataCopyPad(yGm_[offset], y, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
        outQueue_.FreeTensor(y);
    }

    TQue<TPosition::VECIN, BUFFER_NUM> inQueue_;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueue_;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> yGm_;
    ScaleShiftTilingData t_;
    uint64_t count_ = 0;
    T a_;
    T b_;
};

}  // namespace

extern "C" __global__ __aicore__ void scale_shift(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    REGISTER_TILING_DEFAULT(ScaleShiftTilingData);
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    TPipe pipe;
    KernelScaleShift<DTYPE_X> op;
    op.Init(x, y, tilingData, &pipe);
    op.Process();
}
