// DMA writes that run on past an output's end into the padding A2's runtime allocates after every GM buffer
// (AlignUp(n, 32) + 32 bytes). Every kernel takes (x, y, workspace, tiling) with tiling = {uint32 n, uint32
// extra}: x and y hold n floats.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

struct PaddingTiling {
    uint32_t n;
    uint32_t extra;  // scale_blocks_out: whole blocks written after the last one holding y's elements
};

constexpr uint32_t kTile = 64;  // floats: 256 bytes

}  // namespace

// y = 3 * x in tiles of whole 32-byte blocks, both ways: the last tile's blocks run past x's and y's ends (when
// n is no multiple of 8) into their padding, then `extra` blocks more are written after y's last one. On a
// fresh y with extra 0 or 1 (to the padding's end) the NPU writes the tail into y's padding; past a view of a
// larger tensor it would overwrite the next elements.
extern "C" __global__ __aicore__ void scale_blocks_out(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(PaddingTiling, t, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQue;
    TQue<TPosition::VECOUT, 1> outQue;
    pipe.InitBuffer(inQue, 1, kTile * sizeof(float));
    pipe.InitBuffer(outQue, 1, kTile * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
    for (uint32_t off = 0; off < t.n; off += kTile) {
        const uint32_t count = t.n - off < kTile ? t.n - off : kTile;
        const uint32_t whole = (count + 7) / 8 * 8;
        LocalTensor<float> in = inQue.AllocTensor<float>();
        DataCopy(in, xGm[off], whole);
        inQue.EnQue(in);
        in = inQue.DeQue<float>();
        LocalTensor<float> out = outQue.AllocTensor<float>();
        Muls(out, in, 3.0f, whole);
        inQue.FreeTensor(in);
        outQue.EnQue(out);
        out = outQue.DeQue<float>();
        DataCopy(yGm[off], out, whole);
        if (off + kTile >= t.n) {
            for (uint32_t b = 0; b < t.extra; ++b) DataCopy(yGm[off + whole + 8 * b], out, 8);
        }
        outQue.FreeTensor(out);
    }
}

// Planted: y = x with DataCopyPad (exact bytes), then a scalar store of y[n]: inside y's padding, but a scalar
// store is no DMA write (the twin refuses it; stricter than the NPU).
extern "C" __global__ __aicore__ void set_value_past_end(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(PaddingTiling, t, tiling);
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
    yGm.SetValue(t.n, 1.0f);
}
