// int4b_t on the raw cube path, written as the basic API's samples do, with static tensors in the cube
// memories: C[m, n] (int32_t) = A[m, k] x B, A and B int4b_t in GM (two a byte, low nibble first), copied
// GM -> L1 with the ND -> NZ conversion (counted in bytes: two int4b_t as one int8_t; 16 x 64-element fractals),
// loaded into L0A/L0B, multiplied by Mmad (int4b_t x int4b_t -> int32_t) and written back by Fixpipe NZ -> ND.
// `mode` 0: B given [n, k]; A and B through LoadData2D. 1: B given [k, n] and loaded into L0B with
// LoadDataWithTranspose (64 x 64 squares), A through LoadData with LoadData3DParamsV2 (a 1 x m feature map, a
// 1 x 1 filter). `fault` plants one broken rule at a time (0: none).
// int4_gm_scalar: out[i] = x[n - 1 - i] through GlobalTensor<int4b_t>::GetValue/SetValue and views.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

struct Int4Tiling {
    uint32_t m, n, k;
    uint32_t mode, fault;
};

constexpr uint32_t Align(uint32_t x, uint32_t a) { return (x + a - 1) / a * a; }

}  // namespace

extern "C" __global__ __aicore__ void cube_int4(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    const Int4Tiling t = *reinterpret_cast<__gm__ Int4Tiling*>(tiling);
    const uint32_t m16 = Align(t.m, 16), k64 = Align(t.k, 64);
    const bool bTransposed = t.mode == 1;  // B given [k, n]
    // B in L1: [n, k] as NZ (n16 rows, k64 columns), or [k, n] (k rows in whole 64 x 64 squares, n64 columns).
    const uint32_t nL0 = bTransposed ? Align(t.n, 64) : Align(t.n, 16);
    const uint32_t bL1 = bTransposed ? k64 * nL0 : nL0 * k64;

    GlobalTensor<int4b_t> aGm, bGm;
    GlobalTensor<int32_t> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t*>(a), t.m * t.k);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t*>(b), t.k * t.n);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(c), t.m * t.n);

    // fault 6: an odd tile size (half a byte); fault 7: A's L1 tensor sized for m x k unpadded (too small for
    // the 16 x 64 fractals the ND -> NZ copy writes).
    const uint32_t aL1 = t.fault == 6 ? m16 * k64 + 1 : t.fault == 7 ? t.m * t.k : m16 * k64;
    LocalTensor<int4b_t> a1(TPosition::A1, 0, aL1);
    LocalTensor<int4b_t> b1(TPosition::B1, m16 * k64 / 2, bL1);
    // fault 2: A read from an odd element offset of GM (half a byte in).
    DataCopy(a1, t.fault == 2 ? aGm[1] : aGm, Nd2NzParams(1, t.m, t.k / 2, 0, t.k / 2, m16, 1, 0));
    if (bTransposed) {
        DataCopy(b1, bGm, Nd2NzParams(1, t.k, t.n / 2, 0, t.n / 2, k64, 1, 0));
    } else {
        DataCopy(b1, bGm, Nd2NzParams(1, t.n, t.k / 2, 0, t.k / 2, nL0, 1, 0));
    }
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);

    LocalTensor<int4b_t> a2(TPosition::A2, 0, m16 * k64);
    LocalTensor<int4b_t> b2(TPosition::B2, 0, k64 * nL0);
    if (!bTransposed) {
        for (uint32_t i = 0; i < m16 / 16; ++i) {  // NZ -> ZZ: one row of fractals at a time
            LoadData2DParams p;
            p.repeatTimes = static_cast<uint8_t>(k64 / 64);
            p.srcStride = static_cast<uint16_t>(m16 / 16);
            p.ifTranspose = t.fault == 4;  // fault 4: A2 has no int4b_t transpose in LoadData2D
            LoadData(a2[i * k64 * 16], a1[i * 16 * 64], p);
        }
        LoadData2DParams p;  // B [n, k] as NZ is already ZN: fractals in order
        p.repeatTimes = static_cast<uint8_t>(nL0 / 16 * (k64 / 64));
        p.srcStride = 1;
        LoadData(b2, b1, p);
    } else {
        LoadData3DParamsV2<int4b_t> p;
        p.l1H = 1;
        p.l1W = static_cast<uint16_t>(m16);
        p.channelSize = static_cast<uint16_t>(t.fault == 5 ? 4 : k64);  // fault 5: 4 is no int4b_t channel size
        p.kExtension = static_cast<uint16_t>(k64);
        p.mExtension = static_cast<uint16_t>(m16);
        p.enTranspose = t.fault == 9;  // fault 9: A2 does not transpose 4-bit data into L0A with Load3Dv2
        LoadData(t.fault == 8 ? b2 : a2, a1, p);  // fault 8: into L0B (A2's form does nothing for b4)
        for (uint32_t kb = 0; kb < k64 / 64; ++kb) {  // square (kb, column block j) -> L0B fractals of row kb
            LoadData2dTransposeParams q;
            q.repeatTimes = static_cast<uint8_t>(nL0 / 64);
            q.srcStride = static_cast<uint16_t>(k64 / 64);
            q.dstGap = 3;  // the next square's four fractals follow this one's
            // fault 3: into L0A (A2 transposes int4b_t into L0B only)
            LoadDataWithTranspose(t.fault == 3 ? a2 : b2[kb * nL0 * 64], b1[kb * 64 * 64], q);
        }
    }
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);

    LocalTensor<int32_t> c1(TPosition::CO1, 0, m16 * nL0);
    MmadParams mp;
    mp.m = static_cast<uint16_t>(t.m);
    mp.n = static_cast<uint16_t>(nL0);
    mp.k = static_cast<uint16_t>(t.fault == 1 ? t.k - 1 : t.k);  // fault 1: an odd k
    Mmad(c1, a2, b2, mp);
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);

    FixpipeParamsV220 f;
    f.nSize = static_cast<uint16_t>(t.n);
    f.mSize = static_cast<uint16_t>(t.m);
    f.srcStride = static_cast<uint16_t>(m16);
    f.dstStride = t.n;
    Fixpipe(cGm, c1, f);
}

extern "C" __global__ __aicore__ void int4_gm_scalar(GM_ADDR x, GM_ADDR out, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    const Int4Tiling t = *reinterpret_cast<__gm__ Int4Tiling*>(tiling);
    GlobalTensor<int4b_t> xGm, outGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t*>(x), t.n);
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t*>(out), t.n);
    const uint32_t half = t.n / 4 * 2;  // even: a view starts on a whole byte
    const GlobalTensor<int4b_t> tail = outGm[half];
    for (uint32_t i = 0; i < t.n; ++i) {
        const int4b_t v = xGm.GetValue(t.n - 1 - i);
        if (i < half) {
            outGm.SetValue(i, v);
        } else {
            tail.GetPhyAddr(t.fault == 1 ? 1 : 0);  // fault 1: an odd element offset
            GlobalTensor<int4b_t> w = tail;
            w.SetValue(i - half, v);
        }
    }
}
