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
