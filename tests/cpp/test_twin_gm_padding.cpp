// The padding past a GM buffer's end. On A2 the runtime allocates every GM data buffer of n bytes as
// AlignUp(n, 32) + 32 bytes (aclrtMalloc with AICoreSpec.padding_size 32; torch-npu's caching allocator adds the
// same 32): a DMA read may run into it (a kernel copying whole 32-byte blocks at an unaligned tail), and what it
// reads there is undefined. The twin accepts such reads, fills the bytes with NaN, counts them
// (gmPaddingBytesRead), and still refuses reads past the allocation and scalar reads past the buffer (GetValue:
// stricter than the NPU). A DMA write may run into the padding too when the buffer ends its allocation (a fresh
// output): the NPU writes those bytes where nothing reads them; the twin counts them (gmPaddingBytesWritten) and
// does not write them to host memory. It refuses such a write past a buffer that does not end its allocation (a
// view ending before its storage: the NPU would overwrite the storage's next elements), past the padding, and
// scalar stores past the end.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "kernel_operator.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr uint32_t kN = 61;  // 244 bytes: the allocation holds 256 + 32

// Host memory for the buffers: `in` holds kN floats; `next`, another buffer of the launch, is elsewhere or (the
// adjacent layout) directly after `in` on the host; `out` and `probe` are the outputs. (The twin checks each
// block of a copy against the launch's buffers: a block past `in` that lands in an adjacent `next` on the host
// would be taken for a read of `next`, so only the test of that layout places them so.)
// `out` lies in gOutStorage: kN floats from kOutAt, then kSentinel floats the twin must never change (the storage's
// next elements when `out` is a view ending before it, host memory past the allocation otherwise).
constexpr uint32_t kSentinel = 16;
constexpr float kSentinelValue = -1234.5f;
std::vector<float> gHost(kN + 64), gNext(64), gOutStorage(1 + kN + kSentinel), gProbe(72);
bool gAdjacent = false;
uint32_t kOutAt = 0;  // 0 or 1 (a view starting one element into its storage)
float* Out() { return gOutStorage.data() + kOutAt; }
std::vector<float> gOutBefore(kN);  // `out` before the launch (random)

float* In() { return gHost.data(); }
float* Next() { return gAdjacent ? gHost.data() + kN : gNext.data(); }

// A GM argument bound as floats (no size: the twin checks the launch's buffers).
GlobalTensor<float> Floats(GM_ADDR p)
{
    GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(p));
    return g;
}

// Copies `blocks` whole 32-byte blocks from `in` (the last ones past its end), adds 1, writes the kN results
// with DataCopyPad and every lane read into `probe`.
template <uint16_t kBlocks>
void TailBlocks(GM_ADDR in, GM_ADDR, GM_ADDR out, GM_ADDR probe)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 320);
    GlobalTensor<float> inGm = Floats(in), outGm = Floats(out), probeGm = Floats(probe);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, inGm, DataCopyParams{kBlocks, 1, 0, 0});
    PipeBarrier<PIPE_ALL>();
    Adds(t, t, 1.0f, kBlocks * 8);
    PipeBarrier<PIPE_ALL>();
    DataCopyPad(outGm, t, DataCopyParams{1, kN * 4, 0, 0});
    DataCopy(probeGm, t, kBlocks * 8);
}

// in's first 64 floats (the last 3 past its end, in its padding) staged in UB, then written to `out` by `write`.
template <typename Write>
void StagedTail(GM_ADDR in, GM_ADDR out, Write write)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, Floats(in), 64);
    PipeBarrier<PIPE_ALL>();
    write(Floats(out), t);
}

// The last block written whole, 12 bytes past `out`: into its allocation's padding when `out` ends its allocation.
void TailWrite(GM_ADDR in, GM_ADDR, GM_ADDR out, GM_ADDR)
{
    StagedTail(in, out, [](const GlobalTensor<float>& o, const LocalTensor<float>& t) { DataCopy(o, t, 64); });
}

// `kBlocks` whole blocks (from `in`, read at most to its padding's end) written whole to `out`: 9 blocks end at
// offset 288, the end of the padding of a 244-byte allocation; 10 blocks run past it.
template <uint16_t kBlocks>
void BlocksWrite(GM_ADDR in, GM_ADDR, GM_ADDR out, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 320);
    GlobalTensor<float> inGm = Floats(in), outGm = Floats(out);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 0.0f, kBlocks * 8);
    PipeBarrier<PIPE_ALL>();
    DataCopy(t, inGm, DataCopyParams{kBlocks < 9 ? kBlocks : uint16_t(9), 1, 0, 0});  // at most to in's padding end
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, 3.0f, kBlocks * 8);
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm, t, DataCopyParams{kBlocks, 1, 0, 0});
}

// The same tail with DataCopyPad: 256 bytes (blockLen counts bytes) to the 244-byte `out`.
void PadTailWrite(GM_ADDR in, GM_ADDR, GM_ADDR out, GM_ADDR)
{
    StagedTail(in, out, [](const GlobalTensor<float>& o, const LocalTensor<float>& t) {
        DataCopyPad(o, t, DataCopyParams{1, 256, 0, 0});
    });
}

// The tail block accumulated into `out` (SetAtomicAdd): only the kN floats inside it are combined.
void AtomicTailWrite(GM_ADDR in, GM_ADDR, GM_ADDR out, GM_ADDR)
{
    StagedTail(in, out, [](const GlobalTensor<float>& o, const LocalTensor<float>& t) {
        SetAtomicAdd<float>();
        DataCopy(o, t, 64);
        SetAtomicNone();
    });
}

// L1 -> GM (the cube's MTE3 path): 8 blocks from `in` through L1 to `out`.
void L1TailWrite(GM_ADDR in, GM_ADDR, GM_ADDR out, GM_ADDR)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    LocalTensor<float> a1 = LocalMemAllocator<Hardware::L1>().Alloc<TPosition::A1, float, 128>();
    GlobalTensor<float> inGm = Floats(in), outGm = Floats(out);
    DataCopy(a1, inGm, DataCopyParams{8, 1, 0, 0});
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm, a1, DataCopyParams{8, 1, 0, 0});
}

// Two cores' tails in the padding: core 0 writes out's last block whole (20 bytes inside, 12 in the padding),
// core 1 only those 12 padding bytes (DataCopyPad at element kN). The padding is no buffer's bytes on the NPU:
// no two cores write the same bytes of a buffer.
void TwoCoresTail(GM_ADDR in, GM_ADDR, GM_ADDR out, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    GlobalTensor<float> inGm = Floats(in), outGm = Floats(out);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, inGm[56], 8);
    PipeBarrier<PIPE_ALL>();
    if (GetBlockIdx() == 0) {
        DataCopy(outGm[56], t, 8);
    } else {
        DataCopyPad(outGm[kN], t, DataCopyParams{1, 12, 0, 0});
    }
}

// InitGlobalMemory of 64 floats into the 61 of `out` (its DataCopyPad rounds write the last 3 into the padding).
void InitPastEnd(GM_ADDR, GM_ADDR, GM_ADDR out, GM_ADDR)
{
    GlobalTensor<float> outGm = Floats(out);
    InitGlobalMemory(outGm, 64, 0.25f);
}

// Planted: a scalar store of element kN (inside the padding; the twin is stricter than the NPU here).
void ScalarWritePastEnd(GM_ADDR, GM_ADDR, GM_ADDR out, GM_ADDR)
{
    Floats(out).SetValue(kN, 1.0f);
}

// Planted: a scalar read of element kN (inside the padding; the twin is stricter than the NPU here).
void ScalarPastEnd(GM_ADDR in, GM_ADDR, GM_ADDR out, GM_ADDR)
{
    GlobalTensor<float> inGm = Floats(in), outGm = Floats(out);
    outGm.SetValue(0, inGm.GetValue(kN));
}

// Two cores: core 0 reads `in`'s padding (on the host: `next`'s first bytes), core 1 writes `next`. On the NPU
// they are different bytes: no cross-core race, and core 0 reads undefined bytes, not core 1's.
void PaddingBesideWriter(GM_ADDR in, GM_ADDR next, GM_ADDR, GM_ADDR probe)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> t = buf.Get<float>();
    if (GetBlockIdx() == 0) {
        DataCopy(t, Floats(in), 64);
        PipeBarrier<PIPE_ALL>();
        DataCopy(Floats(probe), t, 64);
    } else {
        Duplicate(t, 7.0f, 64);
        PipeBarrier<PIPE_ALL>();
        DataCopy(Floats(next), t, 64);
    }
}

// The cube's GM -> L1 copy (MTE2) reads whole blocks too.
template <uint16_t kBlocks>
void L1TailBlocks(GM_ADDR in, GM_ADDR, GM_ADDR, GM_ADDR)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    LocalTensor<float> a1 = LocalMemAllocator<Hardware::L1>().Alloc<TPosition::A1, float, 128>();
    DataCopy(a1, Floats(in), DataCopyParams{kBlocks, 1, 0, 0});
}

struct Result {
    std::string rule;
    std::string detail;
    uint64_t paddingRead = 0;
    uint64_t paddingWritten = 0;
    uint64_t written = 0;
};

// Where `out` lies: a raw buffer (the default: not known to end its allocation), a whole allocation, a view of
// a larger storage (ending before it: the sentinels are its next elements), or a view starting one element into
// a storage whose end it reaches (its padding ends at AlignUp(4 + 244, 32) + 32 - 4 = 284 bytes from it).
enum class OutIs { kRaw, kWholeAllocation, kViewOfLarger, kViewToStorageEnd };

Result Run(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), uint32_t blockDim = 1, bool adjacent = false,
           OutIs outIs = OutIs::kRaw)
{
    gAdjacent = adjacent;
    kOutAt = outIs == OutIs::kViewToStorageEnd ? 1 : 0;
    std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
    for (float& v : gHost) v = dist(check::Rng());
    for (float& v : gNext) v = dist(check::Rng());
    std::fill(gOutStorage.begin(), gOutStorage.end(), kSentinelValue);
    for (uint32_t i = 0; i < kN; ++i) gOutBefore[i] = Out()[i] = dist(check::Rng());
    std::fill(gProbe.begin(), gProbe.end(), 0.0f);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "gm_padding";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(kernel);
    spec.blockDim = blockDim;
    ascend_twin::GmArg out{"out", Out(), kN * 4};
    out.endsAllocation = outIs == OutIs::kWholeAllocation || outIs == OutIs::kViewToStorageEnd;
    out.allocOffset = kOutAt * 4;
    spec.args = {{"in", In(), kN * 4}, {"next", Next(), 64 * 4}, out, {"probe", gProbe.data(), gProbe.size() * 4}};
    Result r;
    try {
        const ascend_twin::LaunchStats& stats = ascend_twin::Launch(spec);
        for (const auto& c : stats.cores) {
            r.paddingRead += c.gmPaddingBytesRead;
            r.paddingWritten += c.gmPaddingBytesWritten;
            r.written += c.gmBytesWritten;
        }
    } catch (const ascend_twin::RuleViolation& e) {
        r.rule = e.rule;
        r.detail = e.what();
    }
    return r;
}

bool Has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// The floats after `out` in its storage / host memory: never written.
bool SentinelsKept()
{
    for (uint32_t i = kOutAt + kN; i < gOutStorage.size(); ++i) {
        if (gOutStorage[i] != kSentinelValue) return false;
    }
    return true;
}

}  // namespace

// The clean counterpart: 8 blocks (256 bytes) from a 244-byte buffer; the results right, the 3 lanes read
// from the padding NaN, 12 padding bytes counted.
TEST_CASE("DMA reads into the padding: clean, NaN lanes, counted")
{
    Result r = Run(&TailBlocks<8>);
    CHECK(r.rule.empty());
    CHECK_EQ(r.paddingRead, 12ull);
    for (uint32_t i = 0; i < kN; ++i) CHECK(std::fabs(Out()[i] - (static_cast<double>(gHost[i]) + 1.0)) < 1e-6);
    for (uint32_t i = 0; i < kN; ++i) CHECK_EQ(gProbe[i], Out()[i]);
    for (uint32_t i = kN; i < 64; ++i) CHECK(std::isnan(gProbe[i]));  // not `next`'s values
}

// 9 blocks end at 288 = AlignUp(244, 32) + 32: the allocation's last byte; still clean.
TEST_CASE("DMA reads to the allocation's last byte")
{
    Result r = Run(&TailBlocks<9>);
    CHECK(r.rule.empty());
    CHECK_EQ(r.paddingRead, 44ull);
    for (uint32_t i = kN; i < 72; ++i) CHECK(std::isnan(gProbe[i]));
}

// Planted: 10 blocks end at 320, past the allocation.
TEST_CASE("planted: a DMA read past the allocation")
{
    Result r = Run(&TailBlocks<10>);
    CHECK(Has(r.rule, "GM reads stay inside the launch's buffers"));
    CHECK(Has(r.detail, "to offset 288"));
}

// Planted: a scalar read inside the padding (GetValue is no DMA read).
TEST_CASE("planted: a scalar read in the padding")
{
    Result r = Run(&ScalarPastEnd);
    CHECK(Has(r.rule, "GM reads stay inside the launch's buffers"));
    CHECK(Has(r.detail, "only DMA reads may run on into the padding"));
}

// The clean counterpart of the writes: `out` a whole allocation; the kN floats right, the 12 bytes past them
// counted and not written to host memory; DataCopy, DataCopyPad and L1 -> GM alike.
TEST_CASE("DMA writes into the padding of a buffer ending its allocation: clean, counted, not written")
{
    for (auto kernel : {&TailWrite, &PadTailWrite, &L1TailWrite}) {
        Result r = Run(kernel, 1, false, OutIs::kWholeAllocation);
        CHECK(r.rule.empty());
        CHECK_EQ(r.paddingWritten, 12ull);
        CHECK_EQ(r.written, 256ull);
        for (uint32_t i = 0; i < kN; ++i) CHECK_EQ(Out()[i], gHost[i]);
        CHECK(SentinelsKept());
    }
    // To the padding's last byte (offset 288): 44 bytes in the padding, the results 3 * in against float64.
    Result r = Run(&BlocksWrite<9>, 1, false, OutIs::kWholeAllocation);
    CHECK(r.rule.empty());
    CHECK_EQ(r.paddingWritten, 44ull);
    for (uint32_t i = 0; i < kN; ++i) CHECK(std::fabs(Out()[i] - 3.0 * static_cast<double>(gHost[i])) < 1e-5);
    CHECK(SentinelsKept());
}

// A view reaching its storage's end owns the padding after the storage: from a view 4 bytes in, it ends 284 bytes on.
TEST_CASE("a view reaching its storage's end: writes into the padding to the allocation's end")
{
    Result r = Run(&BlocksWrite<8>, 1, false, OutIs::kViewToStorageEnd);
    CHECK(r.rule.empty());
    CHECK_EQ(r.paddingWritten, 12ull);
    for (uint32_t i = 0; i < kN; ++i) CHECK(std::fabs(Out()[i] - 3.0 * static_cast<double>(gHost[i])) < 1e-5);
    CHECK(SentinelsKept());
    CHECK_EQ(gOutStorage[0], kSentinelValue);  // the storage's element before the view
    r = Run(&BlocksWrite<9>, 1, false, OutIs::kViewToStorageEnd);  // offset 288 > 284
    CHECK(Has(r.rule, "GM writes stay inside the launch's buffers"));
    CHECK(Has(r.detail, "only to offset 284"));
    CHECK(SentinelsKept());
}

// Planted: the same tail into a view of a larger storage (or a raw buffer, the default): on the NPU it would
// overwrite the storage's next elements. Refused; those elements unchanged.
TEST_CASE("planted: a DMA write past a view ending before its storage")
{
    for (OutIs outIs : {OutIs::kViewOfLarger, OutIs::kRaw}) {
        for (auto kernel : {&TailWrite, &PadTailWrite, &AtomicTailWrite, &L1TailWrite}) {
            Result r = Run(kernel, 1, false, outIs);
            CHECK(Has(r.rule, "GM writes stay inside the launch's buffers"));
            CHECK(Has(r.detail, "GM buffer 'out'") && Has(r.detail, "the access ends at offset 256"));
            CHECK(Has(r.detail, "does not end its allocation") && Has(r.detail, "would overwrite them"));
            CHECK(SentinelsKept());
        }
    }
}

// Planted: a DMA write past the padding (10 blocks end at 320 > 288).
TEST_CASE("planted: a DMA write past the allocation's padding")
{
    Result r = Run(&BlocksWrite<10>, 1, false, OutIs::kWholeAllocation);
    CHECK(Has(r.rule, "GM writes stay inside the launch's buffers"));
    CHECK(Has(r.detail, "the access ends at offset 320") && Has(r.detail, "only to offset 288"));
    CHECK(SentinelsKept());
}

// Atomic accumulation into a whole allocation: the kN floats inside combined, the padding's 12 bytes counted.
TEST_CASE("an atomic DMA write into the padding: only the inside combined")
{
    Result r = Run(&AtomicTailWrite, 1, false, OutIs::kWholeAllocation);
    CHECK(r.rule.empty());
    CHECK_EQ(r.paddingWritten, 12ull);
    for (uint32_t i = 0; i < kN; ++i) {
        CHECK(std::fabs(Out()[i] - (static_cast<double>(gOutBefore[i]) + static_cast<double>(gHost[i]))) < 1e-5);
    }
    CHECK(SentinelsKept());
}

// Padding bytes are kept out of the cross-core records; InitGlobalMemory writes into the padding as DataCopyPad does.
TEST_CASE("padding writes of two cores, and InitGlobalMemory's, into a buffer ending its allocation")
{
    Result r = Run(&TwoCoresTail, 2, false, OutIs::kWholeAllocation);
    CHECK(r.rule.empty());
    CHECK_EQ(r.paddingWritten, 24ull);
    for (uint32_t i = 56; i < kN; ++i) CHECK_EQ(Out()[i], gHost[i]);
    for (uint32_t i = 0; i < 56; ++i) CHECK_EQ(Out()[i], gOutBefore[i]);
    CHECK(SentinelsKept());
    r = Run(&InitPastEnd, 1, false, OutIs::kWholeAllocation);
    CHECK(r.rule.empty());
    CHECK_EQ(r.paddingWritten, 12ull);
    for (uint32_t i = 0; i < kN; ++i) CHECK_EQ(Out()[i], 0.25f);
    CHECK(SentinelsKept());
    // Planted: the same into a view of a larger tensor.
    r = Run(&InitPastEnd, 1, false, OutIs::kViewOfLarger);
    CHECK(Has(r.rule, "GM writes stay inside the launch's buffers"));
    CHECK(Has(r.detail, "InitGlobalMemory") && Has(r.detail, "does not end its allocation"));
    CHECK(SentinelsKept());
}

// Planted: a scalar store past the end, even of a buffer that ends its allocation (stricter than the NPU).
TEST_CASE("planted: a scalar store in the padding")
{
    Result r = Run(&ScalarWritePastEnd, 1, false, OutIs::kWholeAllocation);
    CHECK(Has(r.rule, "GM writes stay inside the launch's buffers"));
    CHECK(Has(r.detail, "stricter than the NPU") && Has(r.detail, "a scalar store (SetValue"));
    CHECK(SentinelsKept());
}

// A read of the padding is no access to the buffer the host placed after it.
TEST_CASE("a padding read is no access to the next buffer")
{
    Result r = Run(&PaddingBesideWriter, 2, true);
    CHECK(r.rule.empty());
    for (uint32_t i = kN; i < 64; ++i) CHECK(std::isnan(gProbe[i]));
    for (uint32_t i = 0; i < 64; ++i) CHECK_EQ(Next()[i], 7.0f);
}

// GM -> L1: into the padding accepted, past the allocation refused.
TEST_CASE("GM -> L1 reads into the padding")
{
    Result r = Run(&L1TailBlocks<9>);
    CHECK(r.rule.empty());
    CHECK_EQ(r.paddingRead, 44ull);
    r = Run(&L1TailBlocks<10>);
    CHECK(Has(r.rule, "GM reads stay inside the launch's buffers"));
}

TEST_MAIN()
