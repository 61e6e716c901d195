// ShiftLeft (count, mask-continuous), ShiftRight (mask-bit with roundEn) and TQueSync in one small kernel: it
// runs on the twin (tests/test_twin_shift_sync.py) and is syntax-checked against the real headers (ascchk).
// x: 3 x 64 int32_t; y[0:64] = x << 3, y[64:128] = x[64:128] << 30 on the first 40 lanes (x elsewhere),
// y[128:192] = x[128:192] >> 4 rounded.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void shift_sync(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by;
    pipe.InitBuffer(bx, 192 * sizeof(int32_t));
    pipe.InitBuffer(by, 192 * sizeof(int32_t));
    LocalTensor<int32_t> a = bx.Get<int32_t>(), b = by.Get<int32_t>();
    GlobalTensor<int32_t> xg, yg;
    xg.SetGlobalBuffer((__gm__ int32_t*)x);
    yg.SetGlobalBuffer((__gm__ int32_t*)y);
    DataCopy(a, xg, 192);
    DataCopy(b, xg, 192);
    TQueSync<PIPE_MTE2, PIPE_V> toV;
    toV.SetFlag(0);
    toV.WaitFlag(0);
    ShiftLeft(b, a, 3, 64);
    const UnaryRepeatParams rp;
    ShiftLeft(b[64], a[64], 30, static_cast<uint64_t>(40), 1, rp);
    uint64_t bits[2] = {~0ull, 0};
    ShiftRight(b[128], a[128], 4, bits, 1, rp, true);
    TQueSync<PIPE_V, PIPE_MTE3> toMte3;
    toMte3.SetFlag(0);
    toMte3.WaitFlag(0);
    DataCopy(yg, b, 192);
}
