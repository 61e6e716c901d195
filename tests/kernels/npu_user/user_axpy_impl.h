// z = x + alpha * y over the elements of one core's chunk, in tiles through UB (the user_axpy kernels).
#pragma once

#include "kernel_operator.h"
#include "user_axpy_tiling.h"

namespace axpy_impl {

template <typename T>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR y, GM_ADDR z, float alpha, const UserAxpyTiling& t)
{
    using namespace AscendC;
    const uint64_t start = static_cast<uint64_t>(GetBlockIdx()) * t.perCore;
    if (start >= t.total) return;
    const uint64_t count = start + t.perCore < t.total ? t.perCore : t.total - start;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> xQueue;
    TQue<TPosition::VECIN, 1> yQueue;
    TQue<TPosition::VECOUT, 1> zQueue;
    const uint32_t tileBytes = (t.tile * static_cast<uint32_t>(sizeof(T)) + 31) / 32 * 32;
    pipe.InitBuffer(xQueue, 1, tileBytes);
    pipe.InitBuffer(yQueue, 1, tileBytes);
    pipe.InitBuffer(zQueue, 1, tileBytes);
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    GlobalTensor<T> zGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + start, count);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + start, count);
    zGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(z) + start, count);
    const T scale = static_cast<T>(alpha);
    for (uint64_t offset = 0; offset < count; offset += t.tile) {
        const uint32_t n = static_cast<uint32_t>(count - offset < t.tile ? count - offset : t.tile);
        const DataCopyExtParams params{1, n * static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
        LocalTensor<T> a = xQueue.AllocTensor<T>();
        LocalTensor<T> b = yQueue.AllocTensor<T>();
        DataCopyPad(a, xGm[offset], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
        DataCopyPad(b, yGm[offset], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
        xQueue.EnQue(a);
        yQueue.EnQue(b);
        a = xQueue.DeQue<T>();
        b = yQueue.DeQue<T>();
        LocalTensor<T> c = zQueue.AllocTensor<T>();
        Muls(b, b, scale, static_cast<int32_t>(n));
        Add(c, a, b, static_cast<int32_t>(n));
        zQueue.EnQue(c);
        xQueue.FreeTensor(a);
        yQueue.FreeTensor(b);
        c = zQueue.DeQue<T>();
        DataCopyPad(zGm[offset], c, params);
        zQueue.FreeTensor(c);
    }
}

}  // namespace axpy_impl
