// Kernels with one deliberate bug each, and one correct control kernel. The twin must stop each buggy
// kernel with an error naming the kernel, the core, the call and the rule.
// Every kernel takes (x, y, workspace, tiling) with tiling = {uint32 n}: x holds n floats, y n floats.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

struct PlantedTiling {
    uint32_t n;
};

constexpr uint32_t kTile = 64;  // floats: 256 bytes

}  // namespace

// Control: copies x to y in aligned tiles, the last tile with DataCopyPad. Must pass.
extern "C" __global__ __aicore__ void copy_ok(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(PlantedTiling, t, tiling);
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> que;  // MTE2 -> MTE3: a copy straight through UB
    pipe.InitBuffer(que, 1, kTile * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), t.n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), t.n);
    for (uint32_t off = 0; off < t.n; off += kTile) {
        const uint32_t count = t.n - off < kTile ? t.n - off : kTile;
        LocalTensor<float> buf = que.AllocTensor<float>();
        const DataCopyExtParams params{1, count * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(buf, xGm[off], params, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        que.EnQue(buf);
        buf = que.DeQue<float>();
        DataCopyPad(yGm[off], buf, params);
        que.FreeTensor(buf);
    }
}

// Control: as copy_ok, but x copied in whole 32-byte blocks, the last running past x's end into the padding the
// runtime allocates after it (AlignUp(n, 32) + 32 bytes on A2); y written with DataCopyPad. Must pass.
extern "C" __global__ __aicore__ void copy_tail_blocks_ok(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(PlantedTiling, t, tiling);
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> que;
    pipe.InitBuffer(que, 1, kTile * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), t.n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), t.n);
    for (uint32_t off = 0; off < t.n; off += kTile) {
        const uint32_t count = t.n - off < kTile ? t.n - off : kTile;
        LocalTensor<float> buf = que.AllocTensor<float>();
        DataCopy(buf, xGm[off], (count + 7) / 8 * 8);
        que.EnQue(buf);
        buf = que.DeQue<float>();
        DataCopyPad(yGm[off], buf, DataCopyExtParams{1, count * static_cast<uint32_t>(sizeof(float)), 0, 0, 0});
        que.FreeTensor(buf);
    }
}

// Bug: DataCopy of a length that is not a whole number of 32-byte blocks (n = 31 floats).
extern "C" __global__ __aicore__ void unaligned_copy(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(PlantedTiling, t, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), t.n);
    LocalTensor<float> local = buf.Get<float>();
    DataCopy(local, xGm, t.n);
}

// Bug: two double-buffered queues of 64 KiB tiles need 256 KiB of UB.
extern "C" __global__ __aicore__ void ub_overflow(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> in;
    TQue<TPosition::VECOUT, 2> out;
    pipe.InitBuffer(in, 2, 64 * 1024);
    pipe.InitBuffer(out, 2, 64 * 1024);
}

// Bug: each core reads one tile starting at its own offset, but the last core's tile runs past x.
extern "C" __global__ __aicore__ void gm_overread(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(PlantedTiling, t, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), t.n);
    const uint32_t share = t.n / GetBlockNum();
    DataCopy(buf.Get<float>(), xGm[share * GetBlockIdx()], kTile);
}

// Every core writes kTile values `value(core)` to y from element `start(core)`, with nothing ordering the cores.
template <typename Value, typename Start>
__aicore__ inline void WriteFromEveryCore(GM_ADDR y, GM_ADDR tiling, Value value, Start start)
{
    GET_TILING_DATA_WITH_STRUCT(PlantedTiling, t, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), t.n);
    LocalTensor<float> local = buf.Get<float>();
    Duplicate(local, value(GetBlockIdx()), static_cast<int32_t>(kTile));
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm[start(GetBlockIdx())], local, kTile);
}

// Bug: every core writes the whole of y, each its own value: what y holds depends on which core writes last.
extern "C" __global__ __aicore__ void overlapping_writes(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    WriteFromEveryCore(y, tiling, [](int64_t core) { return 1.0f + static_cast<float>(core); },
                       [](int64_t) { return 0; });
}

// Not a bug: every core writes the same values over the same bytes (the order does not change what y holds).
extern "C" __global__ __aicore__ void overlapping_equal_writes(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    WriteFromEveryCore(y, tiling, [](int64_t) { return 1.0f; }, [](int64_t) { return 0; });
}

// Not a bug either: the same values from each core, over ranges shifted by 8 elements a core.
extern "C" __global__ __aicore__ void shifted_equal_writes(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    WriteFromEveryCore(y, tiling, [](int64_t) { return 2.5f; }, [](int64_t core) { return 8 * core; });
}

// Bug: the same shifted ranges, each core its own value where they overlap.
extern "C" __global__ __aicore__ void shifted_unequal_writes(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    WriteFromEveryCore(y, tiling, [](int64_t core) { return 2.5f + static_cast<float>(core); },
                       [](int64_t core) { return 8 * core; });
}

// Bug: the tensor from AllocTensor is never freed.
extern "C" __global__ __aicore__ void leaked_tensor(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> que;
    pipe.InitBuffer(que, 1, kTile * sizeof(float));
    LocalTensor<float> local = que.AllocTensor<float>();
    Duplicate(local, 0.5f, static_cast<int32_t>(kTile));
}

// Bug: DeQue without a matching EnQue.
extern "C" __global__ __aicore__ void dequeue_empty(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> que;
    pipe.InitBuffer(que, 1, kTile * sizeof(float));
    LocalTensor<float> local = que.DeQue<float>();
    que.FreeTensor(local);
}

// Bug: FreeTensor twice.
extern "C" __global__ __aicore__ void double_free(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> que;
    pipe.InitBuffer(que, 1, kTile * sizeof(float));
    LocalTensor<float> local = que.AllocTensor<float>();
    que.FreeTensor(local);
    que.FreeTensor(local);
}

// Bug: a vector operand that starts 3 floats (12 bytes) into a buffer.
extern "C" __global__ __aicore__ void unaligned_operand(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    LocalTensor<float> local = buf.Get<float>();
    Duplicate(local, 1.0f, static_cast<int32_t>(kTile));
    Add(local, local[3], local, 16);
}

// Bug: float -> bfloat16_t with CAST_NONE, which A2 does not accept.
extern "C" __global__ __aicore__ void bad_round_mode(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> f32, b16;
    pipe.InitBuffer(f32, kTile * sizeof(float));
    pipe.InitBuffer(b16, kTile * sizeof(bfloat16_t));
    LocalTensor<float> src = f32.Get<float>();
    Duplicate(src, 1.0f, static_cast<int32_t>(kTile));
    Cast(b16.Get<bfloat16_t>(), src, RoundMode::CAST_NONE, kTile);
}

// Core 0 copies x's first block to y's first block; core 1 reads y's first block. Bug on 2 cores: core 1
// reads GM core 0 writes in the same launch, with no SyncAll between them.
template <bool crossCore>
__aicore__ inline void ReadBackBlock(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> que;
    pipe.InitBuffer(que, 1, 8 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    const int64_t block = crossCore ? 0 : GetBlockIdx();
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + 8 * block, 8);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + 8 * block, 8);
    LocalTensor<float> t = que.AllocTensor<float>();
    if (!crossCore || GetBlockIdx() == 0) {
        DataCopy(t, xGm, 8);
        que.EnQue(t);
        t = que.DeQue<float>();
        DataCopy(yGm, t, 8);
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);  // the read-back below overwrites UB the copy-out reads
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    }
    if (crossCore ? GetBlockIdx() == 1 : true) {
        DataCopy(t, yGm, 8);  // reads what a core wrote: its own (fine) or another's (a race)
    }
    que.FreeTensor(t);
}

extern "C" __global__ __aicore__ void read_own_writes(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    ReadBackBlock<false>(x, y);
}

extern "C" __global__ __aicore__ void read_other_core_writes(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    ReadBackBlock<true>(x, y);
}
