// Test kernels of ascend_ext.library with two entry points in one source and a second element type:
// scale_widen: out = x * s, shift_widen: out = x + s, over n elements in one UB tile on one core, where s
// and out have the dtype x is computed in (DTYPE_S: float for half/bfloat16/float x, double for double x).
#include "kernel_operator.h"

#include <type_traits>

using namespace AscendC;

struct WidenTiling {
    uint32_t n;  // elements of x, s and out: one UB tile
    uint32_t reserved;
};

namespace {

template <typename T, typename A, bool kMul>
__aicore__ inline void Widen(GM_ADDR x, GM_ADDR s, GM_ADDR out, uint32_t n)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inX, inS;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inX, 1, (n * sizeof(T) + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE);
    pipe.InitBuffer(inS, 1, (n * sizeof(A) + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE);
    pipe.InitBuffer(outQ, 1, (n * sizeof(A) + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE);
    GlobalTensor<T> xGm;
    GlobalTensor<A> sGm, outGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), n);
    sGm.SetGlobalBuffer(reinterpret_cast<__gm__ A*>(s), n);
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ A*>(out), n);

    LocalTensor<T> xl = inX.AllocTensor<T>();
    LocalTensor<A> sl = inS.AllocTensor<A>();
    DataCopyPad(xl, xGm, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, 0});
    DataCopyPad(sl, sGm, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(A)), 0, 0, 0},
                DataCopyPadExtParams<A>{false, 0, 0, 0});
    inX.EnQue(xl);
    inS.EnQue(sl);
    xl = inX.DeQue<T>();
    sl = inS.DeQue<A>();
    LocalTensor<A> ol = outQ.AllocTensor<A>();
    const int32_t count = static_cast<int32_t>(n);
    if constexpr (std::is_same_v<T, A>) {
        if constexpr (kMul) {
            Mul(ol, xl, sl, count);
        } else {
            Add(ol, xl, sl, count);
        }
    } else {
        Cast(ol, xl, RoundMode::CAST_NONE, n);
        PipeBarrier<PIPE_V>();
        if constexpr (kMul) {
            Mul(ol, ol, sl, count);
        } else {
            Add(ol, ol, sl, count);
        }
    }
    outQ.EnQue(ol);
    inX.FreeTensor(xl);
    inS.FreeTensor(sl);
    ol = outQ.DeQue<A>();
    DataCopyPad(outGm, ol, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(A)), 0, 0, 0});
    outQ.FreeTensor(ol);
}

}  // namespace

extern "C" __global__ __aicore__ void scale_widen(GM_ADDR x, GM_ADDR s, GM_ADDR out, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    REGISTER_TILING_DEFAULT(WidenTiling);
    GET_TILING_DATA(t, tiling);
    Widen<DTYPE_X, DTYPE_S, true>(x, s, out, t.n);
}

extern "C" __global__ __aicore__ void shift_widen(GM_ADDR x, GM_ADDR s, GM_ADDR out, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    REGISTER_TILING_DEFAULT(WidenTiling);
    GET_TILING_DATA(t, tiling);
    Widen<DTYPE_X, DTYPE_S, false>(x, s, out, t.n);
}
