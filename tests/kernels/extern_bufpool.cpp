// A custom TBufPool written with EXTERN_IMPL_BUFPOOL (docs: 自定义TBufPool): its own InitBuffer hands a TQue of
// two buffers, a TBuf and a TQue their handles (GetBufHandle) and UB addresses (GetCurAddr) through
// InitStartBufHandle and InitBufHandle. Two such pools share one range of UB (TPipe::InitBufPool with shareBuf) and
// take turns: out[0:256) = a + 2 b in the first, out[256:512) = a - b in the second after the first's Reset. The
// tiling's fault plants one broken set-up or use (tests/test_twin_extern_bufpool.py).
#include "kernel_operator.h"

using namespace AscendC;

struct CustomPoolTiling {
    uint32_t fault;  // 0: none; see CustomPool and the kernel
    uint32_t reset;  // 1: the first pool's Reset before the second pool takes the range over
};

class CustomPool {
public:
    __aicore__ inline CustomPool() { Init(); }

    template <class T>
    __aicore__ inline bool InitBuffer(T& que, uint8_t num, uint32_t len)
    {
        len = (len + 31) / 32 * 32;
        uint8_t first = GetCurBufSize();
        if (fault == 4) first = 0;  // fault 4: the handle of an earlier queue again (GetCurBufSize not advanced)
        const uint8_t h0 = fault == 9 ? kHandles : first;  // fault 9: handles past the pool's BUFID_SIZE
        auto start = GetBufHandle(h0);
        uint32_t addr = GetCurAddr();
        if (fault == 3) addr += 7 * 1024;  // fault 3: the queue's second buffer past the pool's 8 KiB
        if (fault != 7) que.InitStartBufHandle(start, num, len);  // fault 7: no InitStartBufHandle
        for (uint32_t i = 0; i < num; ++i) {
            // fault 1: a handle that is not the queue's; fault 2: one handle for every buffer (buffer 1 has none)
            auto handle = fault == 1 ? GetBufHandle(kHandles) : fault == 2 ? start : GetBufHandle(h0 + i);
            que.InitBufHandle(this, i, handle, addr + i * len, fault == 8 ? 0 : len);  // fault 8: len 0
        }
        SetCurAddr(addr + num * len);
        SetCurBufSize(first + num);
        return true;
    }

    template <TPosition bufPos>
    __aicore__ inline bool InitBuffer(TBuf<bufPos>& buf, uint32_t len)
    {
        len = (len + 31) / 32 * 32;
        auto handle = GetBufHandle(GetCurBufSize());
        buf.InitStartBufHandle(handle, fault == 5 ? 2 : 1, len);  // fault 5: two handles for a TBuf
        buf.InitBufHandle(this, 0, handle, GetCurAddr(), len);
        SetCurAddr(GetCurAddr() + len);
        SetCurBufSize(GetCurBufSize() + 1);
        return true;
    }

    uint32_t fault = 0;
    static constexpr uint8_t kHandles = 4;
    EXTERN_IMPL_BUFPOOL(CustomPool, TPosition::VECCALC, kHandles);
};

extern "C" __global__ __aicore__ void custom_pool_stages(GM_ADDR a, GM_ADDR b, GM_ADDR out, GM_ADDR tiling)
{
    GlobalTensor<CustomPoolTiling> tg;
    tg.SetGlobalBuffer(reinterpret_cast<__gm__ CustomPoolTiling*>(tiling), 1);
    DataCacheCleanAndInvalid<CustomPoolTiling, CacheLine::ENTIRE_DATA_CACHE>(tg);
    const CustomPoolTiling t = tg.GetValue(0);
    constexpr uint32_t n = 256;
    TPipe pipe;
    CustomPool first, second;
    first.fault = t.fault;
    TQue<TPosition::VECIN, 2> in1, in2;  // depth 2: both inputs enqueued before the DeQues
    TQue<TPosition::VECOUT, 1> out1, out2;
    TBuf<TPosition::VECCALC> tmp;
    if (t.fault != 6) pipe.InitBufPool(first, 8 * 1024);  // fault 6: the pool used without InitBufPool
    if (t.fault != 6) pipe.InitBufPool(second, 8 * 1024, first);  // the same bytes, for after the first's Reset
    first.InitBuffer(in1, 2, n * sizeof(float));
    first.InitBuffer(tmp, n * sizeof(float));
    first.InitBuffer(out1, 1, n * sizeof(float));
    GlobalTensor<float> aGm, bGm, oGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a), 2 * n);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(b), 2 * n);
    oGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 2 * n);

    // first pool: out[0:256) = a + 2 b, both inputs in the two buffers of in1
    LocalTensor<float> x = in1.AllocTensor<float>();
    LocalTensor<float> y = in1.AllocTensor<float>();
    DataCopy(x, aGm, n);
    DataCopy(y, bGm, n);
    in1.EnQue(x);
    in1.EnQue(y);
    x = in1.DeQue<float>();
    y = in1.DeQue<float>();
    LocalTensor<float> w = tmp.Get<float>();
    Muls(w, y, 2.0f, n);
    LocalTensor<float> z = out1.AllocTensor<float>();
    Add(z, x, w, n);
    out1.EnQue(z);
    in1.FreeTensor(x);
    in1.FreeTensor(y);
    z = out1.DeQue<float>();
    DataCopy(oGm, z, n);
    out1.FreeTensor(z);
    if (t.reset != 0) first.Reset();

    // second pool (set up over the first's bytes): out[256:512) = a - b; its output buffer is where the first
    // pool's was
    second.InitBuffer(in2, 2, n * sizeof(float));
    second.SetCurAddr(second.GetCurAddr() + n * sizeof(float));
    second.InitBuffer(out2, 1, n * sizeof(float));
    x = in2.AllocTensor<float>();
    y = in2.AllocTensor<float>();
    DataCopy(x, aGm[n], n);
    DataCopy(y, bGm[n], n);
    in2.EnQue(x);
    in2.EnQue(y);
    x = in2.DeQue<float>();
    y = in2.DeQue<float>();
    z = out2.AllocTensor<float>();
    Sub(z, x, y, n);
    out2.EnQue(z);
    in2.FreeTensor(x);
    in2.FreeTensor(y);
    z = out2.DeQue<float>();
    DataCopy(oGm[n], z, n);
    out2.FreeTensor(z);
    second.Reset();
}
