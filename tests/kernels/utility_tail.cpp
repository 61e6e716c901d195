// The basic API's utility and form tail: scalar helpers and constants, AscendC::Std, static tensors and the
// LocalTensor operator forms, GatherMask, Copy (UB -> UB) and TBufPool. Each kernel takes its variable
// parts from a tiling struct so that the tests can plant faults.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

template <typename T>
__aicore__ inline void Wait(HardEvent)
{
}

__aicore__ inline void Mte2ToV()
{
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
}

__aicore__ inline void VToMte3()
{
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
}

}  // namespace

// out[0..16): the helpers' and constants' values, computed on the core.
extern "C" __global__ __aicore__ void utils_values(GM_ADDR out)
{
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out), 16);
    const int32_t values[16] = {
        static_cast<int32_t>(DivCeil(10, 3)),
        static_cast<int32_t>(AlignUp(33, 32)),
        static_cast<int32_t>(Ceil(7, 2)),
        static_cast<int32_t>(ConstCeil(9, 4)),
        CeilDivision(5, 0),
        Std::min(3, -2),
        static_cast<int32_t>(Std::max(3u, 7u)),
        Std::ceil_division(17, 8),
        Std::ceil_align(17, 8),
        static_cast<int32_t>(TOTAL_L1_SIZE),
        static_cast<int32_t>(TOTAL_UB_SIZE),
        DEFAULT_C0_SIZE,
        static_cast<int32_t>(TOTAL_L0C_SIZE),
        Std::is_one_of_v<half, float, half> ? 1 : 0,
        Std::abs(-5),
        static_cast<int32_t>(Std::get<1>(Std::make_tuple(1, 64, 3))),
    };
    for (int32_t i = 0; i < 16; ++i) o.SetValue(i, values[i]);
    (void)GetTPipePtr();  // global, as in kernel_common.h
}

// DivCeil by a divisor from the tiling (0: the planted fault).
extern "C" __global__ __aicore__ void div_ceil_by(GM_ADDR out, GM_ADDR tiling)
{
    GlobalTensor<uint32_t> t, o;
    t.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(tiling), 2);
    o.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(out), 1);
    // the tiling, read by the scalar unit: its lines invalidated first (GetValue docs)
    DataCacheCleanAndInvalid<uint32_t, CacheLine::ENTIRE_DATA_CACHE>(t);
    o.SetValue(0, DivCeil(t.GetValue(0), t.GetValue(1)));
}

struct StaticTiling {
    uint32_t n;
    uint32_t addrA, addrB, addrC, addrMask;
};

// Static tensors at the tiling's UB addresses: c = (a + b) * a - b / a ... and mask = a < b, with the
// operator forms.
extern "C" __global__ __aicore__ void static_operators(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR mask, GM_ADDR tiling)
{
    GlobalTensor<StaticTiling> tg;
    tg.SetGlobalBuffer(reinterpret_cast<__gm__ StaticTiling*>(tiling), 1);
    // the tiling, read by the scalar unit: its lines invalidated first (GetValue docs)
    DataCacheCleanAndInvalid<StaticTiling, CacheLine::ENTIRE_DATA_CACHE>(tg);
    const StaticTiling t = tg.GetValue(0);
    GlobalTensor<float> aGm, bGm, cGm;
    GlobalTensor<uint8_t> mGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a), t.n);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(b), t.n);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.n);
    mGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(mask), t.n / 8);
    LocalTensor<float> la(TPosition::VECIN, t.addrA, t.n);
    LocalTensor<float> lb(TPosition::VECIN, t.addrB, t.n);
    LocalTensor<float> lc(TPosition::VECOUT, t.addrC, t.n);
    LocalTensor<uint8_t> lm(TPosition::VECOUT, t.addrMask, t.n / 8 < 32 ? 32 : t.n / 8);
    DataCopy(la, aGm, t.n);
    DataCopy(lb, bGm, t.n);
    Mte2ToV();
    lc = la + lb;
    lc = lc * la;
    lc = lc - lb;
    lc = lc / la;
    lm = la < lb;
    VToMte3();
    DataCopy(cGm, lc, t.n);
    DataCopy(mGm, lm, t.n / 8);
}

struct GatherTiling {
    uint32_t n;           // src0 elements
    uint32_t builtin;     // 0: the pattern tensor, else the built-in pattern
    uint32_t reduceMode;  // 1: counter mode
    uint32_t mask;
    uint32_t repeatTimes;
    uint32_t src0BlockStride, src0RepeatStride, src1RepeatStride;
    uint32_t dstElems;  // the dst tensor's size
};

// out = GatherMask(src, pattern) over floats; count[0] = rsvdCnt, count[1] = GetGatherMaskRemainCount().
extern "C" __global__ __aicore__ void gather_mask_f32(GM_ADDR src, GM_ADDR pattern, GM_ADDR out, GM_ADDR count,
                                                      GM_ADDR tiling)
{
    GlobalTensor<GatherTiling> tg;
    tg.SetGlobalBuffer(reinterpret_cast<__gm__ GatherTiling*>(tiling), 1);
    // the tiling, read by the scalar unit: its lines invalidated first (GetValue docs)
    DataCacheCleanAndInvalid<GatherTiling, CacheLine::ENTIRE_DATA_CACHE>(tg);
    const GatherTiling t = tg.GetValue(0);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bs, bp, bd;
    pipe.InitBuffer(bs, t.n * sizeof(float));
    pipe.InitBuffer(bp, 256);
    pipe.InitBuffer(bd, t.dstElems * sizeof(float));
    GlobalTensor<float> sGm, oGm;
    GlobalTensor<uint32_t> pGm;
    GlobalTensor<int64_t> cGm;
    sGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(src), t.n);
    pGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(pattern), 64);
    oGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), t.dstElems);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(count), 2);
    LocalTensor<float> s = bs.Get<float>();
    LocalTensor<uint32_t> p = bp.Get<uint32_t>();
    LocalTensor<float> d = bd.Get<float>();
    DataCopy(s, sGm, t.n);
    DataCopy(p, pGm, 64);
    Duplicate(d, 0.0f, static_cast<int32_t>(t.dstElems));
    Mte2ToV();
    uint64_t kept = 0;
    const GatherMaskParams params(static_cast<uint8_t>(t.src0BlockStride), static_cast<uint16_t>(t.repeatTimes),
                                  static_cast<uint16_t>(t.src0RepeatStride), static_cast<uint8_t>(t.src1RepeatStride));
    if (t.builtin != 0) {
        GatherMask(d, s, static_cast<uint8_t>(t.builtin), t.reduceMode != 0, t.mask, params, kept);
    } else {
        GatherMask(d, s, p, t.reduceMode != 0, t.mask, params, kept);
    }
    VToMte3();
    DataCopy(oGm, d, t.dstElems);
    cGm.SetValue(0, static_cast<int64_t>(kept));
    cGm.SetValue(1, GetGatherMaskRemainCount());
}

struct CopyTiling {
    uint32_t n;  // elements of src and dst
    uint32_t mask;
    uint32_t repeatTime;
    uint32_t dstStride, srcStride, dstRepeatSize, srcRepeatSize;
};

// dst = Copy(src) with the tiling's mask and strides (dst starts as zeros).
extern "C" __global__ __aicore__ void copy_half(GM_ADDR src, GM_ADDR dst, GM_ADDR tiling)
{
    GlobalTensor<CopyTiling> tg;
    tg.SetGlobalBuffer(reinterpret_cast<__gm__ CopyTiling*>(tiling), 1);
    // the tiling, read by the scalar unit: its lines invalidated first (GetValue docs)
    DataCacheCleanAndInvalid<CopyTiling, CacheLine::ENTIRE_DATA_CACHE>(tg);
    const CopyTiling t = tg.GetValue(0);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bs, bd;
    pipe.InitBuffer(bs, t.n * sizeof(half));
    pipe.InitBuffer(bd, t.n * sizeof(half));
    GlobalTensor<half> sGm, dGm;
    sGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(src), t.n);
    dGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(dst), t.n);
    LocalTensor<half> s = bs.Get<half>();
    LocalTensor<half> d = bd.Get<half>();
    DataCopy(s, sGm, t.n);
    Duplicate(d, static_cast<half>(0), static_cast<int32_t>(t.n));
    Mte2ToV();
    Copy(d, s, static_cast<uint64_t>(t.mask), static_cast<uint8_t>(t.repeatTime),
         {static_cast<uint16_t>(t.dstStride), static_cast<uint16_t>(t.srcStride), static_cast<uint16_t>(t.dstRepeatSize),
          static_cast<uint16_t>(t.srcRepeatSize)});
    VToMte3();
    DataCopy(dGm, d, t.n);
}

struct PoolTiling {
    uint32_t resetBetweenStages;  // 0: the planted fault, the pools' shared bytes race
    uint32_t queueBytes;          // each stage queue's buffer
    uint32_t sharedPoolBytes;     // the second pool's length (at most the first's)
    uint32_t poolFault;           // 0: none; 1: a pool handed more buffers than its bufIDSize; 2: a sub-pool
                                  // past its parent pool; 3: a pool used before InitBufPool set it up
};

// Two stages in two pools over the same UB: out[0:256) = a + b, out[256:512) = a - b.
extern "C" __global__ __aicore__ void pool_stages(GM_ADDR a, GM_ADDR b, GM_ADDR out, GM_ADDR tiling)
{
    GlobalTensor<PoolTiling> tg;
    tg.SetGlobalBuffer(reinterpret_cast<__gm__ PoolTiling*>(tiling), 1);
    // the tiling, read by the scalar unit: its lines invalidated first (GetValue docs)
    DataCacheCleanAndInvalid<PoolTiling, CacheLine::ENTIRE_DATA_CACHE>(tg);
    const PoolTiling t = tg.GetValue(0);
    constexpr uint32_t n = 256;
    TPipe pipe;
    TBufPool<TPosition::VECCALC> outer;
    TBufPool<TPosition::VECCALC> first, second;
    TQue<TPosition::VECIN, 1> inA, inB1, inB2;
    TQue<TPosition::VECOUT, 1> out1, out2;
    pipe.InitBufPool(outer, 8 * 1024);
    outer.InitBuffer(inA, 1, n * sizeof(float));
    outer.InitBufPool(first, 2 * n * sizeof(float));
    outer.InitBufPool(second, t.sharedPoolBytes, first);
    TBufPool<TPosition::VECCALC, 1> single, extra, unset;
    TBuf<TPosition::VECCALC> spare1, spare2;
    if (t.poolFault == 1) {
        outer.InitBufPool(single, 256);
        single.InitBuffer(spare1, 32);
        single.InitBuffer(spare2, 32);  // bufIDSize is 1
    } else if (t.poolFault == 2) {
        outer.InitBufPool(extra, 6 * 1024);  // 3 KiB of the outer pool's 8 are handed out
    } else if (t.poolFault == 3) {
        unset.InitBuffer(spare1, 32);
    }
    first.InitBuffer(inB1, 1, t.queueBytes);
    first.InitBuffer(out1, 1, t.queueBytes);
    second.InitBuffer(inB2, 1, t.queueBytes);
    second.InitBuffer(out2, 1, t.queueBytes);
    GlobalTensor<float> aGm, bGm, oGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a), 2 * n);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(b), 2 * n);
    oGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 2 * n);
    for (uint32_t stage = 0; stage < 2; ++stage) {
        TQue<TPosition::VECIN, 1>& inB = stage == 0 ? inB1 : inB2;
        TQue<TPosition::VECOUT, 1>& outQ = stage == 0 ? out1 : out2;
        LocalTensor<float> x = inA.AllocTensor<float>();
        LocalTensor<float> y = inB.AllocTensor<float>();
        DataCopy(x, aGm[stage * n], n);
        DataCopy(y, bGm[stage * n], n);
        inA.EnQue(x);
        inB.EnQue(y);
        x = inA.DeQue<float>();
        y = inB.DeQue<float>();
        LocalTensor<float> z = outQ.AllocTensor<float>();
        if (stage == 0) Add(z, x, y, n);
        else Sub(z, x, y, n);
        outQ.EnQue(z);
        inA.FreeTensor(x);
        inB.FreeTensor(y);
        z = outQ.DeQue<float>();
        DataCopy(oGm[stage * n], z, n);
        outQ.FreeTensor(z);
        if (stage == 0 && t.resetBetweenStages != 0) first.Reset();
    }
    second.Reset();
    outer.Reset();
}
