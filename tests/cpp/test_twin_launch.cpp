// The launcher: the worker pool, UB kept across launches but poisoned where InitBuffer hands it out,
// statistics and recordings per calling thread.
#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "check.h"
#include "kernel_operator.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

ascend_twin::LaunchStats Run(void (*kernel)(GM_ADDR, GM_ADDR), std::vector<float>& in, std::vector<float>& out,
                             uint32_t blockDim = 1)
{
    ascend_twin::LaunchSpec spec;
    spec.kernel = "launch_test";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(kernel);
    spec.blockDim = blockDim;
    spec.args = {{"in", in.data(), in.size() * sizeof(float)}, {"out", out.data(), out.size() * sizeof(float)}};
    return ascend_twin::Launch(spec);
}

// Fills its 8-float buffer with `in` and copies it out.
void WriteUb(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> local = buf.Get<float>();
    DataCopy(local, inGm, 8);
    PipeBarrier<PIPE_ALL>();  // orders the copy with the pipes before it
    DataCopy(outGm, local, 8);
}

// Copies out its 8-float buffer without writing it first (a bug: it reads what nobody wrote).
void ReadUnwrittenUb(GM_ADDR in, GM_ADDR out)
{
    (void)in;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    GlobalTensor<float> outGm;
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    DataCopy(outGm, buf.Get<float>(), 8);
}

// Looks at the raw UB bytes InitBuffer handed out (twin-internal access, not the API).
void PeekUb(GM_ADDR in, GM_ADDR out)
{
    (void)in;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    const float* raw = AscendC::twin_detail::TwinData(buf.Get<float>());
    for (int i = 0; i < 8; ++i) reinterpret_cast<float*>(out)[i] = raw[i];
}

// Core i copies element block i of in to out: every core writes its own 32 bytes.
void CopyOwnBlock(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in) + 8 * GetBlockIdx());
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out) + 8 * GetBlockIdx());
    LocalTensor<float> local = buf.Get<float>();
    DataCopy(local, inGm, 8);
    PipeBarrier<PIPE_ALL>();  // orders the copy with the pipes before it
    DataCopy(outGm, local, 8);
}

}  // namespace

TEST_CASE("UB handed out by InitBuffer is poisoned at every launch, not left from the previous one")
{
    std::vector<float> in(8, 5.0f), out(8, 0.0f);
    Run(&WriteUb, in, out);
    CHECK_EQ(out[0], 5.0f);
    Run(&PeekUb, in, out);
    for (float v : out) CHECK(std::isnan(v));
}

TEST_CASE("initcheck: copying out UB bytes nothing in this launch wrote is a violation")
{
    std::vector<float> in(8, 5.0f), out(8, 0.0f);
    Run(&WriteUb, in, out);
    std::string rule;
    try {
        Run(&ReadUnwrittenUb, in, out);
    } catch (const ascend_twin::RuleViolation& e) {
        rule = e.rule;
    }
    CHECK(rule.find("initcheck") != std::string::npos);
}

TEST_CASE("many cores on the pool: every core runs once, results in place, repeated launches agree")
{
    const uint32_t cores = 40;
    std::vector<float> in(8 * cores), out(8 * cores);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
    for (int round = 0; round < 50; ++round) {
        std::fill(out.begin(), out.end(), -1.0f);
        const ascend_twin::LaunchStats stats = Run(&CopyOwnBlock, in, out, cores);
        CHECK(out == in);
        CHECK_EQ(stats.cores.size(), static_cast<size_t>(cores));
        for (const ascend_twin::CoreCounters& c : stats.cores) CHECK_EQ(c.gmBytesWritten, 32ull);
    }
}

TEST_CASE("launches from several threads at once each get their own results and statistics")
{
    std::vector<std::thread> threads;
    std::vector<int> ok(4, 0);
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([t, &ok] {
            const uint32_t cores = 3 + t;
            std::vector<float> in(8 * cores, static_cast<float>(t)), out(8 * cores, -1.0f);
            bool good = ascend_twin::LastLaunch() == nullptr;  // nothing launched on this thread yet
            for (int round = 0; round < 30; ++round) {
                Run(&CopyOwnBlock, in, out, cores);
                good = good && out == in && ascend_twin::LastLaunch()->blockDim == cores;
            }
            ok[t] = good;
        });
    }
    for (std::thread& th : threads) th.join();
    for (int v : ok) CHECK_EQ(v, 1);
}

TEST_CASE("recordings nest: the outer one keeps its launches and sees the inner ones")
{
    std::vector<float> in(16, 1.0f), out(16);
    ascend_twin::StartRecording();
    Run(&CopyOwnBlock, in, out, 1);
    ascend_twin::StartRecording();
    Run(&CopyOwnBlock, in, out, 2);
    const std::vector<ascend_twin::LaunchStats> inner = ascend_twin::StopRecording();
    Run(&CopyOwnBlock, in, out, 1);
    const std::vector<ascend_twin::LaunchStats> outer = ascend_twin::StopRecording();
    CHECK_EQ(inner.size(), 1ul);
    CHECK_EQ(outer.size(), 3ul);
    CHECK_EQ(outer[1].blockDim, 2u);
}

TEST_MAIN()
