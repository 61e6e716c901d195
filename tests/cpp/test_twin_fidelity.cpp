// Limits and semantics checked against the real asc-devkit headers and docs (A2, dav-2201): UB size
// and buffer budgets of TPipe::InitBuffer, depth-0 queues, buffer handles of sub-views, GetPhyAddr and raw
// UB pointers,
// DataCopyPad's GM alignment, dummy elements and ranges, the older DataCopyPad overloads.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "kernel_operator.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

std::vector<float> gIn(64), gOut(64);

// Runs kernel on one core over gIn/gOut; returns "" or the broken rule.
std::string Run(void (*kernel)(GM_ADDR, GM_ADDR))
{
    ascend_twin::LaunchSpec spec;
    spec.kernel = "fidelity";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(kernel);
    spec.blockDim = 1;
    spec.args = {{"in", gIn.data(), gIn.size() * 4}, {"out", gOut.data(), gOut.size() * 4}};
    try {
        ascend_twin::Launch(spec);
    } catch (const ascend_twin::RuleViolation& e) {
        return e.rule;
    }
    return "";
}

bool Has(const std::string& rule, const char* part) { return rule.find(part) != std::string::npos; }

#define CHECK_OK(rule)                                                                  \
    do {                                                                                \
        const std::string broken = (rule);                                              \
        if (!broken.empty()) std::printf("  unexpected violation: %s\n", broken.c_str()); \
        CHECK(broken.empty());                                                          \
    } while (0)

template <uint32_t kBytes>
void UbOfSize(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 96 * 1024);
    pipe.InitBuffer(b, kBytes - 96 * 1024);
}

void ZeroLength(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, 0);
}

// One round of a queue: AllocTensor, EnQue, DeQue, FreeTensor. Afterwards the freed buffer holds a
// V_MTE2 event id (VECIN) until its next AllocTensor.
template <class Q>
void Round(Q& que)
{
    LocalTensor<float> t = que.template AllocTensor<float>();
    que.EnQue(t);
    t = que.template DeQue<float>();
    que.FreeTensor(t);
}

// kQueues VECIN queues of 2 buffers, each buffer used once: 2 * kQueues freed buffers hold V_MTE2 ids at
// once, unless FreeAllEvent gives a queue's back after its rounds (TQue docs, TQue Buffer限制). VECOUT
// queues take their ids from other HardEvents (V_MTE3, MTE3_V).
template <int kQueues, bool kFreeAllEvent>
void QueuesAtVecin(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q[kQueues];
    for (auto& que : q) pipe.InitBuffer(que, 2, 64);
    TQue<TPosition::VECOUT, 1> out[4];
    for (auto& que : out) pipe.InitBuffer(que, 2, 64);
    for (auto& que : q) {
        Round(que);
        Round(que);
        if (kFreeAllEvent) que.FreeAllEvent();
    }
    for (auto& que : out) {
        Round(que);
        Round(que);
    }
}

// AllocEventID takes from the same pool as the queues: 7 kernel ids of V_MTE2 leave one for the queue.
template <int kKernelIds>
void KernelIdsAndQueue(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> que;
    pipe.InitBuffer(que, 2, 64);
    for (int i = 0; i < kKernelIds; ++i) pipe.AllocEventID<HardEvent::V_MTE2>();
    Round(que);
}

// A hand-picked SetFlag id while a queue holds it (EnQue set MTE2_V id 0, DeQue has not waited yet).
void HandPickedIdWhileQueued(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> que;
    pipe.InitBuffer(que, 1, 64);
    LocalTensor<float> t = que.AllocTensor<float>();
    que.EnQue(t);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    t = que.DeQue<float>();
    que.FreeTensor(t);
}

// A kernel flag set before the queue takes an id: with a hand-picked id 0 the queue's FreeTensor takes
// V_MTE2 id 0 as well; with AllocEventID the pool gives the queue id 1.
template <bool kFromPool>
void KernelFlagAcrossFreeTensor(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> que;
    pipe.InitBuffer(que, 1, 64);
    const int8_t id = kFromPool ? pipe.AllocEventID<HardEvent::V_MTE2>() : int8_t(0);
    SetFlag<HardEvent::V_MTE2>(id);
    Round(que);
    WaitFlag<HardEvent::V_MTE2>(id);
    if (kFromPool) pipe.ReleaseEventID<HardEvent::V_MTE2>(id);
}

// FetchEventID hands out the lowest id no queue holds: a SetFlag/WaitFlag pair with it is fine.
void FetchedIdWhileQueued(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> que;
    pipe.InitBuffer(que, 1, 64);
    LocalTensor<float> t = que.AllocTensor<float>();
    que.EnQue(t);
    const int8_t id = pipe.FetchEventID(HardEvent::MTE2_V);
    SetFlag<HardEvent::MTE2_V>(id);
    WaitFlag<HardEvent::MTE2_V>(id);
    t = que.DeQue<float>();
    que.FreeTensor(t);
}

// ReleaseEventID of the V_MTE2 id the freed buffer holds (its next AllocTensor waits on it).
void ReleaseQueueId(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> que;
    pipe.InitBuffer(que, 1, 64);
    Round(que);
    pipe.ReleaseEventID<HardEvent::V_MTE2>(0);
}

void FreeAllEventWhileQueued(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> que;
    pipe.InitBuffer(que, 1, 64);
    LocalTensor<float> t = que.AllocTensor<float>();
    que.EnQue(t);
    que.FreeAllEvent();
}

// TPipe::Reset: the same queue and TBuf are given buffers again (Reset docs' loop); kReuseWithoutInit
// uses the queue after the Reset without InitBuffer.
template <bool kReuseWithoutInit>
void ResetAndInitAgain(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> que;
    TBuf<TPosition::VECCALC> buf;
    for (int i = 0; i < 2; ++i) {
        if (i == 0 || !kReuseWithoutInit) {
            pipe.InitBuffer(que, 2, 192 * 1024 / 4);
            pipe.InitBuffer(buf, 192 * 1024 / 2);
        }
        Round(que);
        Round(que);
        Duplicate(buf.Get<float>(), 1.0f, 64);
        pipe.Reset();
    }
}

// Select mode 1 needs the top 8 KiB free now, not at the peak: after Reset the earlier full-UB buffers are
// gone. kReset false keeps them (the planted fault).
template <bool kReset>
void SelectAfterReset(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> all;
    pipe.InitBuffer(all, 192 * 1024 - 288);  // room for the 288 bytes below at the very top
    Duplicate(all.Get<float>(), 0.0f, 64);
    if (kReset) pipe.Reset();
    TBuf<TPosition::VECCALC> xb, selb;
    pipe.InitBuffer(xb, 256);
    pipe.InitBuffer(selb, 32);
    LocalTensor<float> x = xb.Get<float>();
    LocalTensor<uint8_t> sel = selb.Get<uint8_t>();
    Duplicate(x, 1.0f, 64);
    Duplicate(sel.ReinterpretCast<uint16_t>(), uint16_t(0x5555), 16);
    PipeBarrier<PIPE_V>();
    Select(x, sel, x, 2.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
}

template <int kBufs>
void ManyTBufs(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b[kBufs];
    for (auto& buf : b) pipe.InitBuffer(buf, 32);
}

// Depth 0: in-place AllocTensor/DeQue; any number of EnQues up to the buffers. DeQue(t) waits for t's own
// buffer (no FIFO at depth 0): dequeued in the other order, each tensor keeps its data.
void DepthZero(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 0> que;
    pipe.InitBuffer(que, 2, 32);
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> a, b;
    que.AllocTensor<float>(a);
    que.AllocTensor<float>(b);
    DataCopy(a, inGm, 8);
    DataCopy(b, inGm[8], 8);
    que.EnQue(a);
    que.EnQue(b);
    que.DeQue<float>(b);
    que.DeQue<float>(a);
    PipeBarrier<PIPE_ALL>();  // orders the copy with the pipes before it
    DataCopy(outGm, a, 8);
    DataCopy(outGm[8], b, 8);
    que.FreeTensor(a);
    que.FreeTensor(b);
}

// EnQue and FreeTensor of a sub-view act on its buffer; GetPhyAddr's low 32 bits are the UB address.
void SubView(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> que;
    TQue<TPosition::VECOUT, 1> second;
    pipe.InitBuffer(que, 1, 64);
    pipe.InitBuffer(second, 1, 64);
    GlobalTensor<float> outGm;
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> t = second.AllocTensor<float>();
    const uint32_t addr = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(t.GetPhyAddr()));
    const int32_t pos = t.GetPosition();
    LocalTensor<float> view = t[8];
    second.EnQue(view);
    view = second.DeQue<float>();
    LocalTensor<float> view2 = view[8];
    second.FreeTensor(view2);
    outGm.SetValue(0, static_cast<float>(addr));
    outGm.SetValue(1, static_cast<float>(pos == static_cast<int32_t>(TPosition::VECOUT)));
}

// DataCopyPad from a GM address 1 byte past a float: allowed (GM side needs byte alignment only).
void PadByteAligned(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in + 1));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out + 1));
    LocalTensor<float> t = buf.Get<float>();
    DataCopyPad(t, inGm, DataCopyExtParams{1, 12, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    PipeBarrier<PIPE_ALL>();  // orders the copy with the pipes before it
    DataCopyPad(outGm, t, DataCopyExtParams{1, 12, 0, 0, 0});
}

void CopyByteAligned(GM_ADDR in, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    GlobalTensor<float> inGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in + 1));
    DataCopy(buf.Get<float>(), inGm, 8);
}

// 3 floats per block, no padding: the 5 dummy floats of each 32-byte slot repeat the block's first.
void PadDummy(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> t = buf.Get<float>();
    DataCopyPad(t, inGm, DataCopyExtParams{2, 12, 4, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    PipeBarrier<PIPE_ALL>();  // orders the copy with the pipes before it
    DataCopy(outGm, t, 16);
}

// The older overloads: DataCopyParams (blockLen in bytes) and DataCopyPadParams (pad bit pattern).
void PadOlderForm(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> t = buf.Get<float>();
    uint32_t minusOne;
    const float m = -1.0f;
    std::memcpy(&minusOne, &m, 4);
    DataCopyParams params{1, 8, 0, 0};
    params.srcGap = 0;  // the documented names of the gaps
    params.dstGap = 0;
    DataCopyPad(t, inGm, params, DataCopyPadParams{true, 0, 2, minusOne});
    PipeBarrier<PIPE_ALL>();  // orders the copy with the pipes before it
    DataCopyPad(outGm, t, DataCopyParams{1, 16, 0, 0});
}

void PadTooManyBlocks(GM_ADDR in, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    GlobalTensor<float> inGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    DataCopyPad(buf.Get<float>(), inGm, DataCopyExtParams{4096, 4, 0, 0, 0},
                DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
}

// blockCount (or blockLen) 0: a no-op on A2, in both directions; the GM address is never touched, so
// one past the end of the buffers is fine too.
void CopyZeroBlocks(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, inGm[64], DataCopyParams{0, 1, 0, 0});
    DataCopy(t, inGm, DataCopyParams{1, 0, 0, 0});
    DataCopy(outGm[64], t, DataCopyParams{0, 1, 0, 0});
}

template <uint16_t kBlocks>
void CopyBlocks(GM_ADDR in, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    GlobalTensor<float> inGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    DataCopy(buf.Get<float>(), inGm, DataCopyParams{kBlocks, 1, 0, 0});
}

// DataCopyPad of int64_t with isPad: the pad value must be 0 (A2 pads 64-bit data as 32-bit halves).
template <int64_t kPad, bool kIsPad>
void PadInt64(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    GlobalTensor<int64_t> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(out));
    LocalTensor<int64_t> t = buf.Get<int64_t>();
    DataCopyPad(t, inGm, DataCopyExtParams{1, 8, 0, 0, 0}, DataCopyPadExtParams<int64_t>{kIsPad, 0, 3, kPad});
    PipeBarrier<PIPE_ALL>();  // orders the copy with the pipes before it
    DataCopy(outGm, t, 4);
}

// The tensors of a TQueBind<VECIN, VECOUT> are at VECOUT, from AllocTensor and from DeQue alike
// (GetPosition(VECIN, VECOUT) of the real API); out[0..2) = the two positions.
void BindPositions(GM_ADDR, GM_ADDR out)
{
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> bind;
    pipe.InitBuffer(bind, 1, 32);
    GlobalTensor<float> outGm;
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> t = bind.AllocTensor<float>();
    const int32_t allocated = t.GetPosition();
    bind.EnQue(t);
    t = bind.DeQue<float>();
    const int32_t dequeued = t.GetPosition();
    bind.FreeTensor(t);
    outGm.SetValue(0, static_cast<float>(allocated));
    outGm.SetValue(1, static_cast<float>(dequeued));
}

// TBuf: GetWithOffset views, and the queue calls that only hand out its memory.
void TBufViews(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> whole = buf.AllocTensor<float>();
    DataCopy(whole, inGm, 64);
    buf.EnQue(whole);
    LocalTensor<float> second = buf.GetWithOffset<float>(32, 32 * sizeof(float));
    PipeBarrier<PIPE_ALL>();  // orders the copy with the pipes before it
    DataCopy(outGm, second, 32);
    buf.FreeTensor(whole);
}

template <uint32_t kOffset>
void TBufWithOffset(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    buf.GetWithOffset<float>(8, kOffset);
}

void TBufGetPartialBlock(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    buf.Get<float>(12);
}

static_assert(sizeof(KERNEL_TYPE_MIX_AICORE) == 1, "KernelMetaType is global, as in the real headers");
static_assert(std::is_same_v<decltype(ONE_REPEAT_BYTE_SIZE), const int32_t>, "ONE_REPEAT_BYTE_SIZE is int32_t");


// Raw UB pointers, as kernels take them: `(__ubuf__ T*)tensor.GetPhyAddr()`, then scalar reads and writes
// through the pointers. mode 0: out[i] = in[63 - i] for all 64 floats, out's address cast to uint32_t kept in
// gRawOutAddr; mode 1: the pointer taken from element 32, only out[32..63] written, all 64 copied out (initcheck
// sees out[0..31] never written); mode 2: GetPhyAddr(64) of a 64-float tensor; mode 3: GetPhyAddr of a tensor never
// bound to UB.
int gRawMode = 0;
uint32_t gRawOutAddr = 0;
void RawPointers(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQue;
    TQue<TPosition::VECOUT, 1> outQue;
    pipe.InitBuffer(inQue, 1, 256);
    pipe.InitBuffer(outQue, 1, 256);
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in), 64);
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 64);
    LocalTensor<float> x = inQue.AllocTensor<float>();
    DataCopy(x, inGm, 64);
    inQue.EnQue(x);
    x = inQue.DeQue<float>();
    LocalTensor<float> y = outQue.AllocTensor<float>();
    if (gRawMode == 2) (void)y.GetPhyAddr(64);
    if (gRawMode == 3) (void)LocalTensor<float>().GetPhyAddr();
    const uint32_t first = gRawMode == 1 ? 32 : 0;
    __ubuf__ float* src = (__ubuf__ float*)x.GetPhyAddr();
    __ubuf__ float* dst = reinterpret_cast<__ubuf__ float*>(y.GetPhyAddr(first));
    gRawOutAddr = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(dst)) - first * sizeof(float);
    for (uint32_t i = 0; i < 64 - first; ++i) dst[i] = src[63 - first - i];
    inQue.FreeTensor(x);
    outQue.EnQue(y);
    y = outQue.DeQue<float>();
    DataCopy(outGm, y, 64);
    outQue.FreeTensor(y);
}

}  // namespace

TEST_CASE("InitBuffer hands out the whole 192 KiB UB of A2, not a byte more, and no empty buffer")
{
    CHECK_OK(Run(&UbOfSize<192 * 1024>));
    CHECK(Has(Run(&UbOfSize<192 * 1024 + 32>), "UB allocations fit in the UB"));
    CHECK(Has(Run(&ZeroLength), "more than 0 bytes"));
}

TEST_CASE("queue event ids come from the TPipe's 8 per HardEvent: 9 freed VECIN buffers need FreeAllEvent")
{
    constexpr const char* kExhausted = "at most 8 event ids per HardEvent are taken at a time on A2";
    CHECK_OK(Run(&QueuesAtVecin<4, false>));  // 8 buffers at VECIN, 8 at VECOUT
    CHECK(Has(Run(&QueuesAtVecin<5, false>), kExhausted));
    CHECK_OK(Run(&QueuesAtVecin<5, true>));
    CHECK_OK(Run(&QueuesAtVecin<12, true>));
    CHECK_OK(Run(&KernelIdsAndQueue<7>));
    CHECK(Has(Run(&KernelIdsAndQueue<8>), kExhausted));
    CHECK(Has(Run(&FreeAllEventWhileQueued), "FreeAllEvent runs with no tensor in the queue"));
    CHECK_OK(Run(&ManyTBufs<64>));
    CHECK(Has(Run(&ManyTBufs<65>), "at most 64 buffers"));
}

TEST_CASE("a kernel's SetFlag/WaitFlag ids collide with a queue's unless they come from the TPipe")
{
    CHECK(Has(Run(&HandPickedIdWhileQueued), "under TPipe, SetFlag/WaitFlag ids come from AllocEventID or "
                                             "FetchEventID"));
    CHECK_OK(Run(&FetchedIdWhileQueued));
    CHECK(Has(Run(&KernelFlagAcrossFreeTensor<false>), "a queue's event id is not set by the kernel's own SetFlag"));
    CHECK_OK(Run(&KernelFlagAcrossFreeTensor<true>));  // which also releases its own id
    CHECK(Has(Run(&ReleaseQueueId), "ReleaseEventID gives back ids from AllocEventID"));
}

TEST_CASE("TPipe::Reset: queues and TBufs take InitBuffer again; Select's scratch rule sees the UB in use now")
{
    CHECK_OK(Run(&ResetAndInitAgain<false>));
    CHECK(Has(Run(&ResetAndInitAgain<true>), "InitBuffer again after TPipe::Reset"));
    CHECK_OK(Run(&SelectAfterReset<true>));
    CHECK(Has(Run(&SelectAfterReset<false>), "Select modes 1 and 2 need the top 8 KiB of UB free"));
}

TEST_CASE("depth-0 queues: in-place AllocTensor/DeQue and consecutive EnQues")
{
    for (int i = 0; i < 16; ++i) gIn[i] = static_cast<float>(i * 3 + 1);
    CHECK_OK(Run(&DepthZero));
    for (int i = 0; i < 16; ++i) CHECK_EQ(gOut[i], static_cast<float>(i * 3 + 1));
}

TEST_CASE("EnQue/FreeTensor of a sub-view act on its buffer; GetPhyAddr's low 32 bits are the UB address")
{
    CHECK_OK(Run(&SubView));
    CHECK_EQ(gOut[0], 64.0f);  // the second queue's buffer starts after the first one's 64 bytes
    CHECK_EQ(gOut[1], 1.0f);
}

TEST_CASE("DataCopyPad takes any GM address; DataCopy needs element alignment")
{
    for (int i = 0; i < 64; ++i) gIn[i] = static_cast<float>(i + 1);
    std::vector<uint8_t> expect(12);
    std::memcpy(expect.data(), reinterpret_cast<uint8_t*>(gIn.data()) + 1, 12);
    CHECK_OK(Run(&PadByteAligned));
    CHECK(std::memcmp(reinterpret_cast<uint8_t*>(gOut.data()) + 1, expect.data(), 12) == 0);
    CHECK(Has(Run(&CopyByteAligned), "aligned to the element size"));
}

TEST_CASE("DataCopyPad without padding fills each block's dummy elements with its first element")
{
    for (int i = 0; i < 64; ++i) gIn[i] = static_cast<float>(i + 1);
    CHECK_OK(Run(&PadDummy));
    for (int b = 0; b < 2; ++b) {
        for (int e = 0; e < 3; ++e) CHECK_EQ(gOut[b * 8 + e], static_cast<float>(b * 4 + e + 1));
        for (int e = 3; e < 8; ++e) CHECK_EQ(gOut[b * 8 + e], static_cast<float>(b * 4 + 1));
    }
}

TEST_CASE("the older DataCopyPad overloads, srcGap/dstGap")
{
    for (int i = 0; i < 64; ++i) gIn[i] = static_cast<float>(i + 1);
    CHECK_OK(Run(&PadOlderForm));
    CHECK_EQ(gOut[0], 1.0f);
    CHECK_EQ(gOut[1], 2.0f);
    CHECK_EQ(gOut[2], -1.0f);
    CHECK_EQ(gOut[3], -1.0f);
}

TEST_CASE("blockCount ranges: 0 to 4095; DataCopy with blockCount or blockLen 0 is a no-op (A2)")
{
    CHECK(Has(Run(&PadTooManyBlocks), "blockCount is within the instruction's range"));
    CHECK(Has(Run(&CopyBlocks<4096>), "blockCount is within the instruction's range"));
    for (int i = 0; i < 64; ++i) gOut[i] = static_cast<float>(-i);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "fidelity";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&CopyZeroBlocks);
    spec.blockDim = 1;
    spec.args = {{"in", gIn.data(), gIn.size() * 4}, {"out", gOut.data(), gOut.size() * 4}};
    const ascend_twin::LaunchStats& stats = ascend_twin::Launch(spec);
    CHECK_EQ(stats.cores[0].gmBytesRead, 0ull);
    CHECK_EQ(stats.cores[0].gmBytesWritten, 0ull);
    CHECK_EQ(stats.cores[0].dataCopyCalls, 0ull);
    for (int i = 0; i < 64; ++i) CHECK_EQ(gOut[i], static_cast<float>(-i));
}

TEST_CASE("DataCopyPad of a 64-bit type: isPad with a pad value other than 0 is refused, 0 is fine")
{
    std::vector<int64_t> values(8);
    for (int i = 0; i < 8; ++i) values[i] = (int64_t{1} << 40) * (i + 1) - i;
    std::memcpy(gIn.data(), values.data(), sizeof(int64_t) * values.size());
    CHECK(Has(Run(&PadInt64<7, true>), "DataCopyPad of a 64-bit type pads with paddingValue 0 only"));
    CHECK_OK(Run(&PadInt64<7, false>));  // paddingValue unused without isPad
    CHECK_OK(Run(&PadInt64<0, true>));
    int64_t got[4];
    std::memcpy(got, gOut.data(), sizeof got);
    CHECK_EQ(got[0], values[0]);
    for (int i = 1; i < 4; ++i) CHECK_EQ(got[i], int64_t{0});
}

TEST_CASE("TPosition has C2PIPE2GM and C2PIPE2LOCAL; a TQueBind<VECIN, VECOUT>'s tensors are at VECOUT")
{
    static_assert(static_cast<int>(TPosition::C2PIPE2GM) == static_cast<int>(TPosition::TSCM) + 1);
    static_assert(static_cast<int>(TPosition::C2PIPE2LOCAL) == static_cast<int>(TPosition::TSCM) + 2);
    static_assert(static_cast<int>(TPosition::MAX) == static_cast<int>(TPosition::TSCM) + 3);
    CHECK_OK(Run(&BindPositions));
    CHECK_EQ(gOut[0], static_cast<float>(TPosition::VECOUT));
    CHECK_EQ(gOut[1], static_cast<float>(TPosition::VECOUT));
}

TEST_CASE("TBuf: GetWithOffset (32-byte offsets), queue calls, Get(len) in whole 32-byte blocks")
{
    for (int i = 0; i < 64; ++i) gIn[i] = static_cast<float>(i);
    CHECK_OK(Run(&TBufViews));
    CHECK_EQ(gOut[0], 32.0f);
    CHECK_EQ(gOut[31], 63.0f);
    CHECK_OK(Run(&TBufWithOffset<224>));
    CHECK(Has(Run(&TBufWithOffset<256>), "GetWithOffset stays inside the TBuf"));
    CHECK(Has(Run(&TBufWithOffset<132>), "GetWithOffset's bufOffset is a multiple of 32 bytes"));
    CHECK(Has(Run(&TBufGetPartialBlock), "positive whole number of 32-byte blocks"));
}

TEST_CASE("raw UB pointers from GetPhyAddr: scalar accesses through them run; the low 32 bits are the UB address")
{
    std::uniform_real_distribution<float> u(-4.0f, 4.0f);
    for (float& v : gIn) v = u(check::Rng());
    gRawMode = 0;
    CHECK_OK(Run(&RawPointers));
    for (int i = 0; i < 64; ++i) CHECK_EQ(gOut[i], gIn[63 - i]);
    CHECK_EQ(gRawOutAddr, 256u);  // the VECOUT queue's buffer follows the VECIN queue's 256 bytes
}

TEST_CASE("planted: GetPhyAddr past the tensor or of an unbound tensor; initcheck before the pointer's offset")
{
    for (float& v : gIn) v = static_cast<float>(std::rand() % 100 + 1);
    gRawMode = 1;  // only out[32..63] written through the pointer, all 64 copied out
    CHECK(Has(Run(&RawPointers), "initcheck"));
    gRawMode = 2;
    CHECK(Has(Run(&RawPointers), "LocalTensor indices stay inside the tensor"));
    gRawMode = 3;
    CHECK(Has(Run(&RawPointers), "LocalTensors come from TQue::AllocTensor/DeQue or TBuf::Get"));
    gRawMode = 0;
}

TEST_MAIN()
