// UB from LocalMemAllocator instead of TPipe, ordered with explicit flags: y = relu(x) * scale in tiles
// of kTile floats. The tiling must split n evenly into tiles (checked with ascendc_assert).
#include "kernel_operator.h"

using namespace AscendC;

namespace {

constexpr uint32_t kTile = 64;

struct ScaleTiling {
    uint32_t n;
    float scale;
};

}  // namespace

template <uint32_t tiles>
__aicore__ inline void ReluScale(GM_ADDR x, GM_ADDR y, const ScaleTiling& t)
{
    ascendc_assert(t.n % kTile == 0, "n must be a multiple of the tile\n");
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), t.n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), t.n);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> in = ub.Alloc<float, kTile>();
    LocalTensor<float> out = ub.Alloc<float, kTile * tiles>();  // tiles > 1: more UB than A2 has
    SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
    SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
    for (uint32_t off = 0; off < t.n; off += kTile) {
        WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
        DataCopy(in, xGm[off], kTile);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
        Relu(out, in, kTile);
        Muls(out, out, t.scale, kTile);
        SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(yGm[off], out, kTile);
        SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
    }
    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
}

extern "C" __global__ __aicore__ void relu_scale(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    InitSocState();
    GET_TILING_DATA_WITH_STRUCT(ScaleTiling, t, tiling);
    ReluScale<1>(x, y, t);
}

// Bug: asks LocalMemAllocator for 64 + 64 * 1024 floats (256 KiB + 256 bytes) of UB.
extern "C" __global__ __aicore__ void relu_scale_too_big(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(ScaleTiling, t, tiling);
    ReluScale<1024>(x, y, t);
}

// The cube core's memories from LocalMemAllocator: C[16, 16] = A[16, 16] x B[16, 16] (half in, float out), A and
// B carved from L1 (A at the default position A1, B at B1), loaded into L0A/L0B tensors carved by their own
// allocators, multiplied into a CO1 tensor from the L0C allocator and written back NZ -> ND. `fault` 1: 600 KiB
// of L1 (past A2's 512 KiB); 2: an 8-half (16-byte) L1 tile first, which leaves A 16 bytes into L1.
struct CubeAllocTiling {
    uint32_t fault;
};

extern "C" __global__ __aicore__ void cube_alloc(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA_WITH_STRUCT(CubeAllocTiling, t, tiling);
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), 256);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), 256);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), 256);
    LocalMemAllocator<Hardware::L1> l1;
    if (t.fault == 1) l1.Alloc<half>(600 * 1024 / 2);
    if (t.fault == 2) l1.Alloc<TPosition::C1, half, 8>();
    LocalTensor<half> a1 = l1.Alloc<half, 256>();
    LocalTensor<half> b1 = l1.Alloc<TPosition::B1, half>(256);
    const Nd2NzParams nd(1, 16, 16, 0, 16, 16, 1, 0);
    DataCopy(a1, aGm, nd);
    DataCopy(b1, bGm, nd);
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    LocalTensor<half> a2 = LocalMemAllocator<Hardware::L0A>().Alloc<half, 256>();
    LocalTensor<half> b2 = LocalMemAllocator<Hardware::L0B>().Alloc<TPosition::B2, half, 256>();
    LoadData(a2, a1, LoadData2DParams(0, 1, 0, 0, 0, false, 0));
    LoadData(b2, b1, LoadData2DParams(0, 1, 0, 0, 0, true, 0));
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    LocalTensor<float> c1 = LocalMemAllocator<Hardware::L0C>().Alloc<float>(256);
    MmadParams mp;
    mp.m = 16;
    mp.n = 16;
    mp.k = 16;
    Mmad(c1, a2, b2, mp);
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    FixpipeParamsV220 fp(16, 16, 16, 16, false);
    Fixpipe(cGm, c1, fp);
}
