// Cores that exchange data through GM with SyncAll between the phases, and the faults of that pattern.
// Every core handles one chunk of 8 floats; `ws` is a GM workspace of 2 * blockDim chunks.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

constexpr uint32_t kChunk = 8;

class Chunks {
public:
    __aicore__ inline Chunks()
    {
        pipe_.InitBuffer(in_, 2, kChunk * sizeof(float));
        pipe_.InitBuffer(out_, 1, kChunk * sizeof(float));
    }
    __aicore__ inline LocalTensor<float> Load(GM_ADDR base, int64_t chunk)
    {
        GlobalTensor<float> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(base) + chunk * kChunk, kChunk);
        LocalTensor<float> t = in_.AllocTensor<float>();
        DataCopy(t, g, kChunk);
        in_.EnQue(t);
        return in_.DeQue<float>();
    }
    // dst chunk = a (+ b when given); frees a and b.
    __aicore__ inline void Store(GM_ADDR base, int64_t chunk, LocalTensor<float>& a, LocalTensor<float>* b = nullptr)
    {
        GlobalTensor<float> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(base) + chunk * kChunk, kChunk);
        LocalTensor<float> o = out_.AllocTensor<float>();
        if (b != nullptr) {
            Add(o, a, *b, kChunk);
            in_.FreeTensor(*b);
        } else {
            Adds(o, a, 0.0f, kChunk);
        }
        in_.FreeTensor(a);
        out_.EnQue(o);
        o = out_.DeQue<float>();
        DataCopy(g, o, kChunk);
        out_.FreeTensor(o);
    }

    __aicore__ inline TPipe& Pipe() { return pipe_; }

private:
    TPipe pipe_;
    TQue<TPosition::VECIN, 2> in_;
    TQue<TPosition::VECOUT, 1> out_;
};

enum class Form { kHard, kSoft };

template <Form form>
struct Sync {
    GM_ADDR gm;
    TPipe* pipe;
    __aicore__ inline void operator()(int32_t usedCores = 0) const
    {
        if constexpr (form == Form::kHard) {
            SyncAll();
        } else {
            TBuf<TPosition::VECCALC> buf;
            pipe->InitBuffer(buf, static_cast<uint32_t>(GetBlockNum() * 32));
            GlobalTensor<int32_t> g;
            g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(gm));
            SyncAll(g, buf.Get<int32_t>(), usedCores);
        }
    }
};

// Who zeroes the workspace form's gmWorkspace (blockDim 8-int32 slots): the host, or the kernel before
// its first InitBuffer (InitGlobalMemory uses UB as scratch). The SyncAll docs allow the host or every
// core zeroing all of it.
enum class Zeroing { kHost, kEveryCoreAll, kEveryCoreOwnSlot, kCoreZeroOnly };

template <Zeroing zeroing>
__aicore__ inline void ZeroSyncWorkspace(GM_ADDR sync)
{
    const int64_t n = GetBlockNum(), c = GetBlockIdx();
    GlobalTensor<int32_t> g;
    if constexpr (zeroing == Zeroing::kEveryCoreOwnSlot) {
        g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(sync) + c * 8, 8);  // bug: the others' slots stay
        InitGlobalMemory(g, 8, 0);
    } else if constexpr (zeroing != Zeroing::kHost) {
        if (zeroing == Zeroing::kEveryCoreAll || c == 0) {  // kCoreZeroOnly, a bug: cores 1.. do not
            g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(sync), n * 8);
            InitGlobalMemory(g, n * 8, 0);
        }
    }
}

// y[c] = x[c] + x[c + 1] + x[c + 2] (indices mod blockDim), in three phases through ws.
template <Form form, bool firstSync, bool secondSync, bool lastCoreSkipsSecond, Zeroing zeroing = Zeroing::kHost>
__aicore__ inline void Exchange(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR sync, int32_t usedCores)
{
    const int64_t n = GetBlockNum(), c = GetBlockIdx();
    ZeroSyncWorkspace<zeroing>(sync);
    Chunks chunks;
    Sync<form> syncAll{sync, &chunks.Pipe()};
    LocalTensor<float> a = chunks.Load(x, c);
    chunks.Store(ws, c, a);
    if (firstSync) syncAll(usedCores);
    a = chunks.Load(ws, (c + 1) % n);
    LocalTensor<float> b = chunks.Load(x, c);
    chunks.Store(ws, n + c, a, &b);
    if (lastCoreSkipsSecond && c == n - 1) return;
    if (secondSync) syncAll(usedCores);
    a = chunks.Load(ws, n + (c + 1) % n);
    b = chunks.Load(ws, c);  // the core's own phase-1 chunk: SyncAll's PipeBarrier<PIPE_ALL> orders the round trip
    chunks.Store(y, c, a, &b);
}

}  // namespace

extern "C" __global__ __aicore__ void exchange(GM_ADDR x, GM_ADDR y, GM_ADDR ws)
{
    Exchange<Form::kHard, true, true, false>(x, y, ws, nullptr, 0);
}

extern "C" __global__ __aicore__ void exchange_soft(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR sync, int32_t usedCores)
{
    Exchange<Form::kSoft, true, true, false>(x, y, ws, sync, usedCores);
}

// Every core zeroes the whole gmWorkspace, as the SyncAll docs prescribe for zeroing in the kernel.
extern "C" __global__ __aicore__ void exchange_soft_every_core_zeroes(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR sync)
{
    Exchange<Form::kSoft, true, true, false, Zeroing::kEveryCoreAll>(x, y, ws, sync, 0);
}

// Bug: each core zeroes only its own slot; another core's stale count can satisfy SyncAll early.
extern "C" __global__ __aicore__ void exchange_soft_own_slot_zeroed(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR sync)
{
    Exchange<Form::kSoft, true, true, false, Zeroing::kEveryCoreOwnSlot>(x, y, ws, sync, 0);
}

// Bug: only core 0 zeroes the workspace; a core arriving before that zeroing counts stale slots.
extern "C" __global__ __aicore__ void exchange_soft_core0_zeroes(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR sync)
{
    Exchange<Form::kSoft, true, true, false, Zeroing::kCoreZeroOnly>(x, y, ws, sync, 0);
}

// Bug: no SyncAll between writing the workspace and reading the neighbour's chunk.
extern "C" __global__ __aicore__ void exchange_without_first_sync(GM_ADDR x, GM_ADDR y, GM_ADDR ws)
{
    Exchange<Form::kHard, false, true, false>(x, y, ws, nullptr, 0);
}

// Bug: the last core returns while the others wait at the second SyncAll (the NPU hangs).
extern "C" __global__ __aicore__ void exchange_last_core_skips(GM_ADDR x, GM_ADDR y, GM_ADDR ws)
{
    Exchange<Form::kHard, true, true, true>(x, y, ws, nullptr, 0);
}

// Bug: core 0 breaks a rule before the first SyncAll while the others wait there.
extern "C" __global__ __aicore__ void fails_while_others_wait(GM_ADDR x, GM_ADDR y, GM_ADDR ws)
{
    if (GetBlockIdx() == 0) {
        Chunks chunks;
        LocalTensor<float> a = chunks.Load(x, 1 << 20);  // far outside x
        chunks.Store(ws, 0, a);
    }
    SyncAll();
}

// Bug: SyncAll<false> in a vector-only kernel waits for cube cores that never come.
extern "C" __global__ __aicore__ void sync_all_not_aiv_only(GM_ADDR x, GM_ADDR y, GM_ADDR ws) { SyncAll<false>(); }

// Each core sets its chunk of y to its index, then (after SyncAll) accumulates x's chunk into the next
// core's chunk: y[c] = c + x[c - 1].
extern "C" __global__ __aicore__ void init_then_accumulate(GM_ADDR x, GM_ADDR y)
{
    const int64_t n = GetBlockNum(), c = GetBlockIdx();
    GlobalTensor<float> own, next, src;
    own.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + c * kChunk, kChunk);
    next.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + ((c + 1) % n) * kChunk, kChunk);
    src.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + c * kChunk, kChunk);
    InitGlobalMemory(own, kChunk, static_cast<float>(c));
    SyncAll();
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> que;
    pipe.InitBuffer(que, 1, kChunk * sizeof(float));
    LocalTensor<float> t = que.AllocTensor<float>();
    DataCopy(t, src, kChunk);
    que.EnQue(t);
    t = que.DeQue<float>();
    SetAtomicAdd<float>();
    DataCopy(next, t, kChunk);
    SetAtomicNone();
    que.FreeTensor(t);
}

// Bug: InitGlobalMemory after InitBuffer (it needs the UB as scratch).
extern "C" __global__ __aicore__ void init_after_init_buffer(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> que;
    pipe.InitBuffer(que, 1, 32);
    GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), kChunk);
    InitGlobalMemory(g, kChunk, 0.0f);
}

// Core 0 writes y's first chunk, SyncAll, core 1 overwrites it: ordered, so legal (core 1's bytes stay).
extern "C" __global__ __aicore__ void overwrite_after_sync(GM_ADDR x, GM_ADDR y)
{
    Chunks chunks;
    if (GetBlockIdx() == 0) {
        LocalTensor<float> a = chunks.Load(x, 0);
        chunks.Store(y, 0, a);
    }
    SyncAll();
    if (GetBlockIdx() == 1) {
        LocalTensor<float> a = chunks.Load(x, 1);
        chunks.Store(y, 0, a);
    }
}

// Bug: a kernel declared AIV_ONLY does not start the hardware scheduler SyncAll needs.
extern "C" __global__ __aicore__ void sync_all_in_aiv_only_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR ws)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    SyncAll();
}

// IBSet/IBWait: a running sum passed from core to core. Core i waits for core i - 1 (IBWait with blockIdx
// i - 1), reads its partial sum from ws chunk i - 1, adds x chunk i, writes ws chunk i and sets its own slot
// (IBSet with blockIdx i); the last core sets nothing (every IBSet has its IBWait). waitEvent is the eventID
// of the IBWait (setEvent of the IBSet: equal in a correct kernel); withWait = 0 leaves the IBWait out.
extern "C" __global__ __aicore__ void ib_chain(GM_ADDR x, GM_ADDR ws, GM_ADDR sync, int32_t setEvent,
                                               int32_t waitEvent, int32_t withWait)
{
    Chunks chunks;
    TBuf<TPosition::VECCALC> flagBuf;
    chunks.Pipe().InitBuffer(flagBuf, 32);
    LocalTensor<int32_t> flag = flagBuf.Get<int32_t>();
    GlobalTensor<int32_t> syncGm;
    syncGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(sync));
    const int32_t idx = static_cast<int32_t>(GetBlockIdx());
    const int32_t num = static_cast<int32_t>(GetBlockNum());
    LocalTensor<float> mine = chunks.Load(x, idx);
    if (idx == 0) {
        chunks.Store(ws, idx, mine);
    } else {
        if (withWait != 0) IBWait(syncGm, flag, idx - 1, waitEvent);
        LocalTensor<float> before = chunks.Load(ws, idx - 1);
        chunks.Store(ws, idx, mine, &before);
    }
    if (idx != num - 1) IBSet(syncGm, flag, idx, setEvent);
}

// SyncAll in a MIX kernel: SyncAll<true>() meets the AIVs, SyncAll<false>() every AIC and AIV. fault 0: every
// core calls SyncAll<false>(); fault 1: the AIC calls SyncAll<true>(); fault 2: the AIVs call SyncAll<true>()
// while the AIC calls SyncAll<false>(), so the cores at the barrier disagree on how many meet there.
extern "C" __global__ __aicore__ void mix_sync_all(GM_ADDR x, GM_ADDR y, GM_ADDR ws, int32_t fault)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIC {
        if (fault == 1) {
            SyncAll<true>();
        } else {
            SyncAll<false>();
        }
    } else {
        if (fault == 2) {
            SyncAll<true>();
        } else {
            SyncAll<false>();
        }
    }
}

// The workspace form of SyncAll in a MIX kernel: A2's implementation returns at once on the AIC (fault 0: only
// the AIC calls it); the twin does not model it between the AIVs of a MIX kernel (fault 1).
extern "C" __global__ __aicore__ void mix_soft_sync_all(GM_ADDR sync, int32_t fault)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GlobalTensor<int32_t> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(sync), 8 * 8);
    if ASCEND_IS_AIC {
        if (fault == 0) SyncAll(gm, LocalTensor<int32_t>());
    } else if (fault == 1) {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 8 * 32);
        SyncAll(gm, buf.Get<int32_t>());
    }
}

// Core 0 copies x's chunk 0 into ws's chunk 0; after a SyncAll (sync) core 1 reads it into y's chunk 1 while core 0
// writes ws's chunk 0 again, nothing ordering that second write and core 1's read: with the same bytes (x's chunk 0
// again, same) the read finds them whichever lands first; with other bytes (x's chunk 1) it depends on timing, and
// without the SyncAll no write is ordered before the read, which may then find ws's old bytes.
template <bool sync, bool same>
__aicore__ inline void RewriteWhileRead(GM_ADDR x, GM_ADDR y, GM_ADDR ws)
{
    Chunks chunks;
    if (GetBlockIdx() == 0) {
        LocalTensor<float> a = chunks.Load(x, 0);
        chunks.Store(ws, 0, a);
    }
    if constexpr (sync) SyncAll();
    if (GetBlockIdx() == 0) {
        LocalTensor<float> a = chunks.Load(x, same ? 0 : 1);
        chunks.Store(ws, 0, a);
    } else if (GetBlockIdx() == 1) {
        LocalTensor<float> a = chunks.Load(ws, 0);
        chunks.Store(y, 1, a);
    }
}

extern "C" __global__ __aicore__ void rewrite_same_while_read(GM_ADDR x, GM_ADDR y, GM_ADDR ws)
{
    RewriteWhileRead<true, true>(x, y, ws);
}

// Bug: the second write puts other bytes there.
extern "C" __global__ __aicore__ void rewrite_other_while_read(GM_ADDR x, GM_ADDR y, GM_ADDR ws)
{
    RewriteWhileRead<true, false>(x, y, ws);
}

// Bug: no write is ordered before the read (it may find ws's old bytes), though both write the same ones.
extern "C" __global__ __aicore__ void rewrite_same_unsynced(GM_ADDR x, GM_ADDR y, GM_ADDR ws)
{
    RewriteWhileRead<false, true>(x, y, ws);
}
