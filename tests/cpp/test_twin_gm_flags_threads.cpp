// GM flags raised with SetValue + DataCacheCleanAndInvalid and polled with DataCacheCleanAndInvalid + GetValue,
// with the cores on two threads at once, so the interleaving changes from launch to launch. On the NPU a SetValue
// stays in the writer's data cache until its write-back; a poller sees the flag only after it. The twin's verdict
// must not depend on the interleaving: a poller reading a flag stored and not yet written back waits for the
// write-back, and GetValue reads its bytes together with the checks.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "check.h"
#include "kernel_operator.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

const bool kTwoThreads = [] { return setenv("ASCEND_TWIN_THREADS", "2", 1) == 0; }();

constexpr uint32_t kCores = 4;
constexpr uint32_t kTile = 64;  // floats per core
constexpr uint32_t kFlagInts = 16;  // one 64-byte line per core's flag

// Each core copies its tile of x into its part of the workspace and raises its flag (its index + 1); core 0
// waits for every flag and then sums the workspace into z[0]. writeBack false: the writers never write their
// flag back (the poller sees it only when they end, and nothing orders their data before its read).
template <bool writeBack>
void GatherTiles(GM_ADDR x, GM_ADDR workspace, GM_ADDR z)
{
    const uint32_t idx = GetBlockIdx();
    GlobalTensor<float> xGm, partGm, zGm;
    GlobalTensor<int32_t> flags;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + idx * kTile);
    partGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(workspace));
    flags.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(workspace) + kCores * kTile);
    zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z));
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kCores * kTile * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, kTile);
    PipeBarrier<PIPE_ALL>();
    DataCopy(partGm[idx * kTile], t, kTile);
    SetFlag<HardEvent::MTE3_S>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_S>(EVENT_ID0);
    flags.SetValue(idx * kFlagInts, static_cast<int32_t>(idx + 1));
    if constexpr (writeBack) {
        DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flags[idx * kFlagInts]);
    }
    if (idx != 0) return;
    for (uint32_t c = 1; c < kCores; ++c) {
        int32_t seen = 0;
        while (seen != static_cast<int32_t>(c + 1)) {
            DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flags[c * kFlagInts]);
            seen = flags.GetValue(c * kFlagInts);
        }
    }
    SetFlag<HardEvent::S_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE2>(EVENT_ID0);
    DataCopy(t, partGm, kCores * kTile);
    SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
    float sum = 0.0f;
    for (uint32_t i = 0; i < kCores * kTile; ++i) sum += t.GetValue(i);
    zGm.SetValue(0, sum);
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(zGm);
}

struct Outcome {
    std::string rule;
    double error = 0;
};

Outcome Run(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR))
{
    // 512-byte aligned, as the NPU's allocations: each flag has a cache line of its own.
    alignas(512) static float x[kCores * kTile], z[8];
    alignas(512) static int32_t workspace[kCores * kTile + kCores * kFlagInts];
    std::fill(std::begin(workspace), std::end(workspace), 0);
    std::fill(std::begin(z), std::end(z), 0.0f);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    double want = 0;
    for (float& v : x) {
        v = dist(check::Rng());
        want += v;
    }
    ascend_twin::LaunchSpec spec;
    spec.kernel = "gm_flags_threads";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(kernel);
    spec.blockDim = kCores;
    spec.args = {{"x", x, sizeof x}, {"workspace", workspace, sizeof workspace}, {"z", z, sizeof z}};
    Outcome out;
    try {
        ascend_twin::Launch(spec);
        out.error = std::abs(static_cast<double>(z[0]) - want);
    } catch (const ascend_twin::RuleViolation& e) {
        out.rule = e.rule;
    }
    return out;
}

}  // namespace

// `launches` launches of the clean gather: how many were refused (the first one's rule printed) and the largest error.
struct Tally {
    int violations = 0;
    double worst = 0;
};

Tally RunClean(int launches)
{
    Tally t;
    for (int i = 0; i < launches; ++i) {
        const Outcome o = Run(&GatherTiles<true>);
        if (!o.rule.empty() && t.violations++ == 0) std::printf("  launch %d: %s\n", i, o.rule.c_str());
        t.worst = std::max(t.worst, o.error);
    }
    return t;
}

TEST_CASE("flags written back after the data: every one of 300 launches runs clean and sums right")
{
    CHECK(kTwoThreads);
    const Tally t = RunClean(300);
    CHECK_EQ(t.violations, 0);
    CHECK(t.worst < 1e-4);
}

TEST_CASE("planted: flags never written back order nothing: every one of 100 launches is refused")
{
    int refused = 0;
    for (int i = 0; i < 100; ++i) {
        const Outcome o = Run(&GatherTiles<false>);
        refused += o.rule.find("a core reads GM another core writes in the same launch only after SyncAll") !=
                   std::string::npos;
    }
    CHECK_EQ(refused, 100);
}

// A host's threads instead of the twin's pool (SetThreadRunner, as the torch extension sets torch's): the same
// launches, through a runner that runs its calls on threads of its own, and through one that runs them one after
// another on the caller (all cores then run on one thread, pollers suspended while the writers run).
uint32_t gRunnerCalls = 0;

void OwnThreads(uint32_t threads, void (*fn)(void*, uint32_t), void* ctx)
{
    ++gRunnerCalls;
    std::vector<std::thread> others;
    for (uint32_t t = 1; t < threads; ++t) others.emplace_back(fn, ctx, t);
    fn(ctx, 0);
    for (std::thread& th : others) th.join();
}

void OneAfterAnother(uint32_t threads, void (*fn)(void*, uint32_t), void* ctx)
{
    ++gRunnerCalls;
    for (uint32_t t = 0; t < threads; ++t) fn(ctx, t);
}

void NoCalls(uint32_t, void (*)(void*, uint32_t), void*) { ++gRunnerCalls; }

TEST_CASE("a host's thread runner: 100 launches on its threads and 100 one after another run clean and sum right")
{
    for (ascend_twin::ThreadRunner runner : {&OwnThreads, &OneAfterAnother}) {
        ascend_twin::SetThreadRunner(runner);
        gRunnerCalls = 0;
        const Tally t = RunClean(100);
        CHECK_EQ(t.violations, 0);
        CHECK(t.worst < 1e-4);
        CHECK_EQ(gRunnerCalls, 100u);  // every launch went through the runner
    }
    ascend_twin::SetThreadRunner(nullptr);
}

TEST_CASE("planted: a thread runner that returns without its calls is refused, naming the cores not run")
{
    ascend_twin::SetThreadRunner(&NoCalls);
    std::string message;
    try {
        Run(&GatherTiles<true>);
    } catch (const std::logic_error& e) {
        message = e.what();
    }
    ascend_twin::SetThreadRunner(nullptr);
    CHECK(message.find("the thread runner set with SetThreadRunner returned with 4 of the launch's 4 cores not run") !=
          std::string::npos);
    CHECK(Run(&GatherTiles<true>).rule.empty());  // the twin's pool again
}

TEST_MAIN()
