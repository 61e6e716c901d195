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
