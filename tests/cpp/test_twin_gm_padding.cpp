// The padding past a GM buffer's end. On A2 the runtime allocates every GM data buffer of n bytes as
// AlignUp(n, 32) + 32 bytes (aclrtMalloc with AICoreSpec.padding_size 32; torch-npu's caching allocator adds the
// same 32): a DMA read may run into it (a kernel copying whole 32-byte blocks at an unaligned tail), and what it
// reads there is undefined. The twin accepts such reads, fills the bytes with NaN, counts them
// (gmPaddingBytesRead), and still refuses reads past the allocation, writes past the buffer, and scalar reads
// past it (GetValue: stricter than the NPU).
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
std::vector<float> gHost(kN + 64), gNext(64), gOut(kN), gProbe(72);
bool gAdjacent = false;

float* In() { return gHost.data(); }
float* Next() { return gAdjacent ? gHost.data() + kN : gNext.data(); }

// Copies `blocks` whole 32-byte blocks from `in` (the last ones past its end), adds 1, writes the kN results
// with DataCopyPad and every lane read into `probe`.
template <uint16_t kBlocks>
void TailBlocks(GM_ADDR in, GM_ADDR, GM_ADDR out, GM_ADDR probe)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 320);
    GlobalTensor<float> inGm, outGm, probeGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    probeGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(probe));
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, inGm, DataCopyParams{kBlocks, 1, 0, 0});
    PipeBarrier<PIPE_ALL>();
    Adds(t, t, 1.0f, kBlocks * 8);
    PipeBarrier<PIPE_ALL>();
    DataCopyPad(outGm, t, DataCopyParams{1, kN * 4, 0, 0});
    DataCopy(probeGm, t, kBlocks * 8);
}

// Planted: the last block written whole, 12 bytes past `out` (the NPU would write them into its padding).
void TailWrite(GM_ADDR in, GM_ADDR, GM_ADDR out, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, inGm, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm, t, 64);
}

// Planted: a scalar read of element kN (inside the padding; the twin is stricter than the NPU here).
void ScalarPastEnd(GM_ADDR in, GM_ADDR, GM_ADDR out, GM_ADDR)
{
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
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
    GlobalTensor<float> gm;
    if (GetBlockIdx() == 0) {
        gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
        DataCopy(t, gm, 64);
        PipeBarrier<PIPE_ALL>();
        gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(probe));
        DataCopy(gm, t, 64);
    } else {
        Duplicate(t, 7.0f, 64);
        PipeBarrier<PIPE_ALL>();
        gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(next));
        DataCopy(gm, t, 64);
    }
}

// The cube's GM -> L1 copy (MTE2) reads whole blocks too.
template <uint16_t kBlocks>
void L1TailBlocks(GM_ADDR in, GM_ADDR, GM_ADDR, GM_ADDR)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    LocalTensor<float> a1 = LocalMemAllocator<Hardware::L1>().Alloc<TPosition::A1, float, 128>();
    GlobalTensor<float> inGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    DataCopy(a1, inGm, DataCopyParams{kBlocks, 1, 0, 0});
}

struct Result {
    std::string rule;
    std::string detail;
    uint64_t paddingRead = 0;
};

Result Run(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), uint32_t blockDim = 1, bool adjacent = false)
{
    gAdjacent = adjacent;
    std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
    for (float& v : gHost) v = dist(check::Rng());
    for (float& v : gNext) v = dist(check::Rng());
    std::fill(gOut.begin(), gOut.end(), 0.0f);
    std::fill(gProbe.begin(), gProbe.end(), 0.0f);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "gm_padding";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(kernel);
    spec.blockDim = blockDim;
    spec.args = {{"in", In(), kN * 4}, {"next", Next(), 64 * 4}, {"out", gOut.data(), kN * 4},
                 {"probe", gProbe.data(), gProbe.size() * 4}};
    Result r;
    try {
        const ascend_twin::LaunchStats& stats = ascend_twin::Launch(spec);
        for (const auto& c : stats.cores) r.paddingRead += c.gmPaddingBytesRead;
    } catch (const ascend_twin::RuleViolation& e) {
        r.rule = e.rule;
        r.detail = e.what();
    }
    return r;
}

bool Has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

}  // namespace

// The clean counterpart: 8 blocks (256 bytes) from a 244-byte buffer; the results right, the 3 lanes read
// from the padding NaN, 12 padding bytes counted.
TEST_CASE("DMA reads into the padding: clean, NaN lanes, counted")
{
    Result r = Run(&TailBlocks<8>);
    CHECK(r.rule.empty());
    CHECK_EQ(r.paddingRead, 12ull);
    for (uint32_t i = 0; i < kN; ++i) CHECK(std::fabs(gOut[i] - (static_cast<double>(gHost[i]) + 1.0)) < 1e-6);
    for (uint32_t i = 0; i < kN; ++i) CHECK_EQ(gProbe[i], gOut[i]);
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

// Planted: a DMA write past the buffer's end, and a scalar read inside the padding.
TEST_CASE("planted: a write past the buffer, a scalar read in the padding")
{
    Result r = Run(&TailWrite);
    CHECK(Has(r.rule, "GM writes stay inside the launch's buffers"));
    CHECK(Has(r.detail, "stricter than the NPU") && Has(r.detail, "write the tail with DataCopyPad"));
    r = Run(&ScalarPastEnd);
    CHECK(Has(r.rule, "GM reads stay inside the launch's buffers"));
    CHECK(Has(r.detail, "only DMA reads may run on into the padding"));
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
