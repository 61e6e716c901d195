// Cores accumulating into the same GM bytes: y[0..8) += x[8 * core .. 8 * core + 8) on every core.
#include "kernel_operator.h"

using namespace AscendC;

template <bool atomic, bool plainOnCoreZero>
__aicore__ inline void Accumulate(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> que;
    pipe.InitBuffer(que, 1, 8 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + 8 * GetBlockIdx(), 8);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), 8);
    LocalTensor<float> t = que.AllocTensor<float>();
    DataCopy(t, xGm, 8);
    que.EnQue(t);
    t = que.DeQue<float>();
    if (atomic && !(plainOnCoreZero && GetBlockIdx() == 0)) {
        SetAtomicAdd<float>();
    }
    DataCopy(yGm, t, 8);
    SetAtomicNone();
    que.FreeTensor(t);
}

extern "C" __global__ __aicore__ void atomic_accumulate(GM_ADDR x, GM_ADDR y) { Accumulate<true, false>(x, y); }

// Bug: every core writes y without atomic accumulation.
extern "C" __global__ __aicore__ void plain_accumulate(GM_ADDR x, GM_ADDR y) { Accumulate<false, false>(x, y); }

// Bug: core 0 overwrites the bytes the other cores accumulate into.
extern "C" __global__ __aicore__ void mixed_accumulate(GM_ADDR x, GM_ADDR y) { Accumulate<true, true>(x, y); }
