// Pipe synchronisation: y = x + x over n floats in tiles of 64, one UB buffer computed in place.
// sync_ok orders every hand-off between pipes; each other kernel leaves out or breaks one of them.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

constexpr uint32_t kTile = 64;

enum Fault : uint32_t {
    kNone,
    kNoMte2ToV,   // Add reads the tile before the copy-in is known complete
    kNoVToMte3,   // the copy-out reads the tile before Add is known complete
    kNoMte3ToMte2,  // the next tile's copy-in overwrites UB the copy-out may still be reading
    kQueueIds,    // correct, with event ids from the TPipe (AllocEventID/ReleaseEventID)
};

template <Fault fault>
__aicore__ inline void Doubled(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), n);
    LocalTensor<float> t = buf.Get<float>();
    event_t toV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
    event_t toMte3 = EVENT_ID1;
    event_t toMte2 = EVENT_ID2;
    if constexpr (fault == kQueueIds) {
        toMte3 = static_cast<event_t>(GetTPipePtr()->AllocEventID<HardEvent::V_MTE3>());
        toMte2 = static_cast<event_t>(GetTPipePtr()->AllocEventID<HardEvent::MTE3_MTE2>());
    }
    for (uint32_t off = 0; off < n; off += kTile) {
        const uint32_t count = n - off < kTile ? n - off : kTile;
        DataCopy(t, xGm[off], kTile);
        if constexpr (fault != kNoMte2ToV) {
            SetFlag<HardEvent::MTE2_V>(toV);
            WaitFlag<HardEvent::MTE2_V>(toV);
        }
        Add(t, t, t, static_cast<int32_t>(count));
        if constexpr (fault != kNoVToMte3) {
            SetFlag<HardEvent::V_MTE3>(toMte3);
            WaitFlag<HardEvent::V_MTE3>(toMte3);
        }
        DataCopy(yGm[off], t, kTile);
        if constexpr (fault != kNoMte3ToMte2) {
            SetFlag<HardEvent::MTE3_MTE2>(toMte2);
            WaitFlag<HardEvent::MTE3_MTE2>(toMte2);
        }
    }
    if constexpr (fault == kQueueIds) {
        GetTPipePtr()->ReleaseEventID<HardEvent::V_MTE3>(toMte3);
        GetTPipePtr()->ReleaseEventID<HardEvent::MTE3_MTE2>(toMte2);
    }
}

}  // namespace

extern "C" __global__ __aicore__ void sync_ok(GM_ADDR x, GM_ADDR y, uint32_t n) { Doubled<kNone>(x, y, n); }
extern "C" __global__ __aicore__ void sync_event_ids(GM_ADDR x, GM_ADDR y, uint32_t n) { Doubled<kQueueIds>(x, y, n); }
extern "C" __global__ __aicore__ void no_mte2_v_wait(GM_ADDR x, GM_ADDR y, uint32_t n) { Doubled<kNoMte2ToV>(x, y, n); }
extern "C" __global__ __aicore__ void no_v_mte3_wait(GM_ADDR x, GM_ADDR y, uint32_t n) { Doubled<kNoVToMte3>(x, y, n); }
extern "C" __global__ __aicore__ void no_mte3_mte2_wait(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    Doubled<kNoMte3ToMte2>(x, y, n);
}

// A flag set twice before anything waits for it.
extern "C" __global__ __aicore__ void flag_set_twice(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
}

// A flag still set when the kernel returns.
extern "C" __global__ __aicore__ void flag_never_waited(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    SetFlag<HardEvent::V_MTE3>(EVENT_ID3);
}

// A wait no SetFlag before it will release.
extern "C" __global__ __aicore__ void wait_without_set(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
}

// Two copy-ins to the same UB: MTE2 copies with overlapping destinations need a PipeBarrier<PIPE_MTE2>.
template <bool barrier>
__aicore__ inline void TwoCopyIns(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), 2 * kTile);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), kTile);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, kTile);
    if constexpr (barrier) {
        PipeBarrier<PIPE_MTE2>();
    }
    DataCopy(t, xGm[kTile], kTile);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(yGm, t, kTile);
}

extern "C" __global__ __aicore__ void copy_ins_with_barrier(GM_ADDR x, GM_ADDR y, uint32_t n) { TwoCopyIns<true>(x, y); }
extern "C" __global__ __aicore__ void copy_ins_overlapping(GM_ADDR x, GM_ADDR y, uint32_t n) { TwoCopyIns<false>(x, y); }

// Adds 64 floats of which only the first 32 were copied in (initcheck).
extern "C" __global__ __aicore__ void reads_unwritten(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), kTile);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, kTile / 2);
    PipeBarrier<PIPE_ALL>();
    Add(t, t, t, static_cast<int32_t>(kTile));
}

// A VECIN queue orders MTE2 -> V only: copying its tensor straight out (MTE3) needs TQueBind<VECIN, VECOUT>.
template <typename Que>
__aicore__ inline void CopyThrough(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    Que que;
    pipe.InitBuffer(que, 1, kTile * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), kTile);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), kTile);
    LocalTensor<float> t = que.template AllocTensor<float>();
    DataCopy(t, xGm, kTile);
    que.EnQue(t);
    t = que.template DeQue<float>();
    DataCopy(yGm, t, kTile);
    que.FreeTensor(t);
}

extern "C" __global__ __aicore__ void copy_through_bind(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    CopyThrough<TQueBind<TPosition::VECIN, TPosition::VECOUT, 1>>(x, y);
}
extern "C" __global__ __aicore__ void copy_through_vecin(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    CopyThrough<TQue<TPosition::VECIN, 1>>(x, y);
}

// GM round trip inside one core: x -> UB -> y[0, 64) -> UB -> y[64, 128). Reading back what MTE3 wrote
// needs MTE3 -> MTE2 synchronisation.
template <bool flag>
__aicore__ inline void RoundTrip(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, kTile * sizeof(float));
    pipe.InitBuffer(b, kTile * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), kTile);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), 2 * kTile);
    DataCopy(a.Get<float>(), xGm, kTile);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(yGm, a.Get<float>(), kTile);
    if constexpr (flag) {
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    }
    DataCopy(b.Get<float>(), yGm, kTile);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
    DataCopy(yGm[kTile], b.Get<float>(), kTile);
}

extern "C" __global__ __aicore__ void gm_round_trip(GM_ADDR x, GM_ADDR y, uint32_t n) { RoundTrip<true>(x, y); }
extern "C" __global__ __aicore__ void gm_round_trip_no_wait(GM_ADDR x, GM_ADDR y, uint32_t n) { RoundTrip<false>(x, y); }

// Two copies out to the same GM bytes: MTE3 copies with overlapping destinations need PipeBarrier<PIPE_MTE3>.
template <bool barrier>
__aicore__ inline void TwoCopyOuts(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, kTile * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), kTile);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), kTile);
    DataCopy(a.Get<float>(), xGm, kTile);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(yGm, a.Get<float>(), kTile);
    if constexpr (barrier) {
        PipeBarrier<PIPE_MTE3>();
    }
    DataCopy(yGm, a.Get<float>(), kTile);
}

extern "C" __global__ __aicore__ void copy_outs_with_barrier(GM_ADDR x, GM_ADDR y, uint32_t n) { TwoCopyOuts<true>(x, y); }
extern "C" __global__ __aicore__ void copy_outs_overlapping(GM_ADDR x, GM_ADDR y, uint32_t n) { TwoCopyOuts<false>(x, y); }
