// The early-start pair (WaitPreTaskEnd/SetNextTaskStart), DisableDmaAtomic, widening Casts whose source shares UB
// bytes with their destination, and GetReduceRepeatSumSpr after a count-form ReduceSum. `fault` in the tiling plants one broken rule at a time (0: none).
#include "kernel_operator.h"

using namespace AscendC;

namespace {

struct Tiling {
    uint32_t n;       // elements
    uint32_t srcOff;  // cast_u8_overlap: byte offset of the uint8_t source inside the half destination's buffer
    uint32_t fault;
};

}  // namespace

// y = x (n floats) between WaitPreTaskEnd and SetNextTaskStart, on every core (its own n floats).
// fault 1: WaitPreTaskEnd twice; 2: SetNextTaskStart twice.
extern "C" __global__ __aicore__ void early_start_copy(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    const Tiling t = *reinterpret_cast<__gm__ Tiling*>(tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + GetBlockIdx() * t.n, t.n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + GetBlockIdx() * t.n, t.n);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> buf = ub.Alloc<float>(t.n);
    WaitPreTaskEnd();
    if (t.fault == 1) WaitPreTaskEnd();
    DataCopy(buf, xGm, t.n);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(yGm, buf, t.n);
    SetNextTaskStart();
    if (t.fault == 2) SetNextTaskStart<PIPE_MTE3, PIPE_FIX, true>();
}

// y += x under SetAtomicAdd<float>, DisableDmaAtomic, then z = x (a plain copy again).
extern "C" __global__ __aicore__ void atomic_then_plain(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling)
{
    const Tiling t = *reinterpret_cast<__gm__ Tiling*>(tiling);
    GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), t.n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), t.n);
    zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), t.n);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> buf = ub.Alloc<float>(t.n);
    DataCopy(buf, xGm, t.n);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    SetAtomicAdd<float>();
    DataCopy(yGm, buf, t.n);
    DisableDmaAtomic();
    DataCopy(zGm, buf, t.n);
}

// y = Cast<half>(x) for n uint8_t, the source copied to byte srcOff of the 2n-byte buffer the halves go to.
extern "C" __global__ __aicore__ void cast_u8_overlap(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    const Tiling t = *reinterpret_cast<__gm__ Tiling*>(tiling);
    GlobalTensor<uint8_t> xGm;
    GlobalTensor<half> yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(x), t.n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y), t.n);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<half> dst = ub.Alloc<half>(t.n);
    LocalTensor<uint8_t> src = dst.ReinterpretCast<uint8_t>()[t.srcOff];
    DataCopy(src, xGm, t.n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Cast(dst, src, RoundMode::CAST_NONE, t.n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, dst, t.n);
}

// y[0] = ReduceSum of n floats (count form), y[1] = GetReduceRepeatSumSpr<float>() read back by the scalar unit.
// fault 1: the read before any ReduceSum; 2: read as half.
extern "C" __global__ __aicore__ void reduce_sum_spr(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    const Tiling t = *reinterpret_cast<__gm__ Tiling*>(tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), t.n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> in, work, out;
    pipe.InitBuffer(in, t.n * sizeof(float));
    pipe.InitBuffer(work, 256);
    pipe.InitBuffer(out, 32);
    LocalTensor<float> src = in.Get<float>(), tmp = work.Get<float>(), dst = out.Get<float>();
    if (t.fault == 1) (void)GetReduceRepeatSumSpr<float>();
    DataCopy(src, xGm, t.n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Duplicate(dst, 0.0f, 8);
    ReduceSum(dst, src, tmp, static_cast<int32_t>(t.n));
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    if (t.fault == 2) (void)GetReduceRepeatSumSpr<half>();
    dst.SetValue(1, GetReduceRepeatSumSpr<float>());
    SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
    DataCopy(yGm, dst, 8);
}

// In blockIdx order (InitDetermineComputeWorkspace, WaitPreBlock, NotifyNextBlock), `n`-float y = 2 * y + (i + 1)
// on core i: plain GM read-modify-writes that only the notify -> wait edges order. srcOff is the number of rounds.
// fault 1: WaitPreBlock without InitDetermineComputeWorkspace; 2: ubWorkspace 32 bytes short; 3: core 1 never
// calls NotifyNextBlock (core 2 waits forever); 4: gmWorkspace 32 bytes short.
extern "C" __global__ __aicore__ void ordered_update(GM_ADDR y, GM_ADDR ws, GM_ADDR tiling)
{
    const Tiling t = *reinterpret_cast<__gm__ Tiling*>(tiling);
    const uint32_t blocks = GetBlockNum();
    GlobalTensor<float> yGm;
    GlobalTensor<int32_t> wsGm;
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), t.n);
    wsGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(ws), t.fault == 4 ? blocks * 8 - 8 : blocks * 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> wsBuf, dataBuf;
    pipe.InitBuffer(wsBuf, blocks * 32 + 32);
    pipe.InitBuffer(dataBuf, t.n * sizeof(float));
    LocalTensor<int32_t> ubWs = wsBuf.Get<int32_t>(t.fault == 2 ? blocks * 8 : blocks * 8 + 8);
    LocalTensor<float> data = dataBuf.Get<float>();
    if (t.fault != 1) InitDetermineComputeWorkspace(wsGm, ubWs);
    for (uint32_t round = 0; round < t.srcOff; ++round) {
        WaitPreBlock(wsGm, ubWs);
        DataCopy(data, yGm, t.n);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        Muls(data, data, 2.0f, t.n);
        PipeBarrier<PIPE_V>();
        Adds(data, data, static_cast<float>(GetBlockIdx() + 1), t.n);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(yGm, data, t.n);
        if (!(t.fault == 3 && GetBlockIdx() == 1)) NotifyNextBlock(wsGm, ubWs);
    }
}
