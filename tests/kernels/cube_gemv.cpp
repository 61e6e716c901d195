// GEMV on the cube with static tensors: c[1, n] = a[1, k] x B with B given as bt[n, k] (row n of bt is column n
// of B). A2 runs Mmad with m = 1 as GEMV: L0A holds a as one ND row of k halves (Mmad docs), so a is copied to
// L1 with the ND -> NZ conversion at C0 stride 1 (one row, chunks side by side) and loaded to L0A as whole
// fractals. Every buffer is a static LocalTensor(pos, addr, size) in L1, L0A, L0B and L0C; the pipes are ordered
// with flags. With `bias`, a float bias goes GM -> L1 (C1) -> BiasTable (C2) through the same-type DataCopy
// (the form that also copies UB -> UB) and Mmad adds it. `fault` in the tiling plants one broken rule (0: none).
#include "kernel_operator.h"

using namespace AscendC;

struct GemvTiling {
    uint32_t n;
    uint32_t k;
    uint32_t bias;
    uint32_t fault;
};

extern "C" __global__ __cube__ __aicore__ void cube_gemv(GM_ADDR a, GM_ADDR bt, GM_ADDR bias, GM_ADDR c,
                                                          GM_ADDR tiling)
{
    const GemvTiling t = *reinterpret_cast<__gm__ const GemvTiling*>(tiling);
    const uint32_t nAlign = (t.n + 15) / 16 * 16;
    const uint32_t aElems = (t.k + 255) / 256 * 256;  // whole 512-byte fractals of halves
    GlobalTensor<half> aGm;
    GlobalTensor<half> btGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.k);
    btGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(bt), t.n * t.k);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.n);

    // fault 1: an L1 tensor placed past the end of L1
    const uint32_t l1Base = t.fault == 1 ? 512 * 1024 : 0;
    LocalTensor<half> a1(TPosition::A1, l1Base, aElems);
    LocalTensor<half> b1(TPosition::B1, l1Base + aElems * 2, nAlign * t.k);
    DataCopy(a1, aGm, Nd2NzParams(1, 1, t.k, 0, t.k, 1, 1, 0));
    DataCopy(b1, btGm, Nd2NzParams(1, t.n, t.k, 0, t.k, nAlign, 1, 0));
    LocalTensor<float> bias1(TPosition::C1, l1Base + aElems * 2 + nAlign * t.k * 2, nAlign);
    if (t.bias != 0) {
        GlobalTensor<float> biasGm;
        biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), t.n);
        DataCopy(bias1, biasGm, Nd2NzParams(1, 1, t.n, 0, t.n, 1, 1, 0));
    }
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);

    LocalTensor<half> a2(TPosition::A2, 0, aElems);
    LocalTensor<half> b2(TPosition::B2, 0, nAlign * t.k);
    LoadData2DParams pa;
    pa.repeatTimes = static_cast<uint8_t>(aElems / 256);
    pa.srcStride = 1;
    LoadData(a2, a1, pa);
    LoadData2DParams pb;
    pb.repeatTimes = static_cast<uint8_t>(nAlign / 16 * t.k / 16);
    pb.srcStride = 1;
    LoadData(b2, b1, pb);
    LocalTensor<float> bias2(TPosition::C2, 0, nAlign);
    if (t.bias != 0) {
        // fault 4: the same-type DataCopy from L1 into L1 (only UB -> UB and C1 -> C2 exist)
        LocalTensor<float> into = t.fault == 4 ? LocalTensor<float>(TPosition::A1, 0, nAlign) : bias2;
        DataCopy(into, bias1, DataCopyParams(1, static_cast<uint16_t>(nAlign * 4 / 64), 0, 0));
    }
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);

    LocalTensor<float> c1(TPosition::CO1, 0, 16 * nAlign);
    MmadParams mp;
    mp.m = 1;
    mp.n = static_cast<uint16_t>(t.n);
    mp.k = static_cast<uint16_t>(t.k);
    // fault 2: the row of A in L0A is shorter than k (GEMV reads k halves of it)
    LocalTensor<half> fm = t.fault == 2 ? LocalTensor<half>(TPosition::A2, 0, t.k / 2) : a2;
    if (t.bias != 0) {
        Mmad(c1, fm, b2, bias2, mp);
    } else {
        Mmad(c1, fm, b2, mp);
    }
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);

    FixpipeParamsV220 fp;
    fp.nSize = static_cast<uint16_t>(nAlign);
    fp.mSize = 1;
    fp.srcStride = 16;
    fp.dstStride = t.n;
    fp.isChannelSplit = t.fault == 5;  // fault 5: channel split with NZ2ND (it writes NZ only)
    Fixpipe(cGm, c1, fp);
}

// fault 3: a vector-only kernel places a static tensor in L1
extern "C" __global__ __vector__ __aicore__ void vector_static_l1(GM_ADDR x)
{
    LocalTensor<half> a1(TPosition::A1, 0, 256);
    (void)x;
    (void)a1;
}

// The same DataCopy(LocalTensor, LocalTensor, DataCopyParams) between UB tensors of any type stays UB -> UB
// (32-byte blocks): half and float rows of 64 elements, every other block.
extern "C" __global__ __vector__ __aicore__ void ub_copies(GM_ADDR xh, GM_ADDR yh, GM_ADDR xf, GM_ADDR yf)
{
    GlobalTensor<half> xhGm;
    GlobalTensor<half> yhGm;
    GlobalTensor<float> xfGm;
    GlobalTensor<float> yfGm;
    xhGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(xh), 64);
    yhGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(yh), 64);
    xfGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(xf), 64);
    yfGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(yf), 64);
    LocalTensor<half> ah(TPosition::VECIN, 0, 64);
    LocalTensor<half> bh(TPosition::VECOUT, 128, 64);
    LocalTensor<float> af(TPosition::VECIN, 256, 64);
    LocalTensor<float> bf(TPosition::VECOUT, 512, 64);
    DataCopy(ah, xhGm, 64);
    DataCopy(af, xfGm, 64);
    DataCopy(bh, yhGm, 64);  // the skipped blocks keep y's values
    DataCopy(bf, yfGm, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(bh, ah, DataCopyParams(2, 1, 1, 1));  // blocks 0 and 2 of 4
    DataCopy(bf, af, DataCopyParams(4, 1, 1, 1));  // blocks 0, 2, 4, 6 of 8
    PipeBarrier<PIPE_ALL>();
    DataCopy(yhGm, bh, 64);
    DataCopy(yfGm, bf, 64);
}
