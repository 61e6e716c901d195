// GM flags polled across cores (twin/src/gm_flags.cpp): ReadGmByPassDCache/WriteGmByPassDCache,
// DataSyncBarrier<MemDsbT>, and GetValue polls after DataCacheCleanAndInvalid. Each rule is broken by a planted
// kernel and kept by its counterpart, which must also compute the right numbers. The cores run on one thread
// (ASCEND_TWIN_THREADS=1, set before the first launch), one after another in block order: a core polling for a
// later core's flag has to wait for it, which is what these tests exercise.
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "check.h"
#include "kernel_operator.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

const bool kOneThread = [] { return setenv("ASCEND_TWIN_THREADS", "1", 1) == 0; }();

using Kernel = void (*)(GM_ADDR, GM_ADDR, GM_ADDR);

// Runs kernel(x, y, z) on `cores` cores; returns "call: rule | detail" of the violation, "" when it ran clean.
std::string Run(Kernel kernel, uint32_t cores, void* x, uint64_t xBytes, void* y, uint64_t yBytes, void* z,
                uint64_t zBytes)
{
    ascend_twin::LaunchSpec spec;
    spec.kernel = "gm_flags";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(kernel);
    spec.blockDim = cores;
    spec.args = {{"x", x, xBytes}, {"y", y, yBytes}, {"z", z, zBytes}};
    try {
        ascend_twin::Launch(spec);
    } catch (const ascend_twin::RuleViolation& e) {
        return e.call + ": " + e.rule + " | " + e.what();
    }
    return "";
}

bool Clean(const std::string& got)
{
    if (got.empty()) return true;
    std::printf("  expected no violation, got '%s'\n", got.c_str());
    return false;
}

bool Has(const std::string& got, const char* part)
{
    if (got.find(part) != std::string::npos) return true;
    std::printf("  expected a violation with '%s', got '%s'\n", part, got.c_str());
    return false;
}

std::vector<float> RandomFloats(uint32_t n)
{
    std::uniform_int_distribution<int32_t> d(-4096, 4096);
    std::vector<float> v(n);
    for (float& f : v) f = static_cast<float>(d(check::Rng())) / 16.0f;  // exact when doubled
    return v;
}

// ---- one core: the bypass accesses of every supported type ----------------------------------------------------

// z[i] = x[7 - i] for 8 elements of T, read and written with the bypass accesses.
template <typename T>
void Reverse(GM_ADDR x, GM_ADDR, GM_ADDR z)
{
    auto* src = reinterpret_cast<__gm__ T*>(x);
    auto* dst = reinterpret_cast<__gm__ T*>(z);
    for (int i = 0; i < 8; ++i) WriteGmByPassDCache<T>(dst + i, ReadGmByPassDCache<T>(src + 7 - i));
    DataSyncBarrier<MemDsbT::ALL>();
}

template <typename T>
void CheckReverse()
{
    std::vector<T> x(8), z(16);
    std::uniform_int_distribution<uint64_t> d;
    for (T& v : x) v = static_cast<T>(d(check::Rng()));
    for (T& v : z) v = static_cast<T>(d(check::Rng()));
    std::vector<T> expect = z;
    for (int i = 0; i < 8; ++i) expect[i] = x[7 - i];
    T y = 0;
    CHECK(Clean(Run(&Reverse<T>, 1, x.data(), 8 * sizeof(T), &y, sizeof(T), z.data(), 16 * sizeof(T))));
    CHECK(std::memcmp(z.data(), expect.data(), 16 * sizeof(T)) == 0);  // z[8..16) untouched
}

// ---- two cores: the flag hand-off of the DataSyncBarrier docs ------------------------------------------------

// Core 1 copies x[0..8) to y[0..8) (DataCopy through UB), then DataSyncBarrier<mode> (none when barrier is
// false), then raises the flag x[8] = 1 with WriteGmByPassDCache; core 0 polls the flag with ReadGmByPassDCache
// (it runs first: it spins until core 1 has run), then copies y[0..8) * 2 to z.
template <bool barrier, MemDsbT mode, int32_t raise>
void HandOff(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), 8);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), 8);
    zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), 8);
    auto* flag = reinterpret_cast<__gm__ int32_t*>(x) + 8;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    LocalTensor<float> t = buf.Get<float>();
    if (GetBlockIdx() == 1) {
        DataCopy(t, xGm, 8);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm, t, 8);
        PipeBarrier<PIPE_ALL>();
        if constexpr (barrier) DataSyncBarrier<mode>();
        WriteGmByPassDCache<int32_t>(flag, raise);
        return;
    }
    while (ReadGmByPassDCache<int32_t>(flag) != 1) {
    }
    DataCopy(t, yGm, 8);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, 2.0f, 8);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, t, 8);
}

struct HandOffData {
    std::vector<float> x = RandomFloats(9), y = RandomFloats(8), z = RandomFloats(8);
    HandOffData() { std::memset(&x[8], 0, 4); }  // the flag, lowered
    std::string Run(Kernel k) { return ::Run(k, 2, x.data(), 36, y.data(), 32, z.data(), 32); }
};

// ---- four cores: one flag word passed on ------------------------------------------------------------------------

// Core b waits until the flag x[8] is b, adds b + 1 into z[b] (a word of its own), then raises the flag to b + 1:
// every core writes the same flag word in turn. With dmaToo, each core also DMA-writes y[0..8) after raising the
// flag, which orders those writes against nothing.
template <bool dmaToo>
void Token(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    auto* flag = reinterpret_cast<__gm__ int32_t*>(x) + 8;
    auto* out = reinterpret_cast<__gm__ int32_t*>(z);
    const int32_t b = static_cast<int32_t>(GetBlockIdx());
    while (ReadGmByPassDCache<int32_t>(flag) != b) {
    }
    WriteGmByPassDCache<int32_t>(out + b, ReadGmByPassDCache<int32_t>(out + b) + b + 1);
    DataSyncBarrier<MemDsbT::DDR>();
    WriteGmByPassDCache<int32_t>(flag, b + 1);
    if constexpr (dmaToo) {  // after the flag: nothing orders it against the next core's
        GlobalTensor<float> yGm;
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), 8);
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 32);
        LocalTensor<float> t = buf.Get<float>();
        Duplicate(t, static_cast<float>(b), 8);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm, t, 8);
    }
}

// ---- four cores: GetValue polls after DataCacheCleanAndInvalid -------------------------------------------------

// Cores 1..3 store their flag y[16 * b] = b with SetValue and write it back (DataCacheCleanAndInvalid) after
// copying x[8b..8b+8) to z[8b..); core 0 waits for each flag (GetValue, with DataCacheCleanAndInvalid before it
// when fresh is true), then sums z[8..32) into z[32] (a 64-byte line of its own) with GetValue/SetValue.
template <bool fresh>
void GatherFlags(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    const int32_t b = GetBlockIdx();
    GlobalTensor<float> xGm, zGm;
    GlobalTensor<int32_t> flags;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), 32);
    zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), 48);
    flags.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(y), 64);
    if (b > 0) {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 32);
        LocalTensor<float> t = buf.Get<float>();
        DataCopy(t, xGm[8 * b], 8);
        PipeBarrier<PIPE_ALL>();
        DataCopy(zGm[8 * b], t, 8);
        PipeBarrier<PIPE_ALL>();
        flags.SetValue(16 * b, b);
        DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flags[16 * b]);
        return;
    }
    for (int32_t i = 1; i < 4; ++i) {
        for (;;) {
            if constexpr (fresh) {
                DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flags[16 * i]);
            }
            if (flags.GetValue(16 * i) == i) break;
        }
    }
    float sum = 0.0f;
    for (int32_t i = 8; i < 32; ++i) {
        DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(zGm[i]);
        sum += zGm.GetValue(i);
    }
    zGm.SetValue(32, sum);
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(zGm[32]);
}

// ---- hangs ---------------------------------------------------------------------------------------------------

// Every core polls x[8] for 1; nobody raises it (the host lowered it).
void PollForever(GM_ADDR x, GM_ADDR, GM_ADDR)
{
    while (ReadGmByPassDCache<int32_t>(reinterpret_cast<__gm__ int32_t*>(x) + 8) != 1) {
    }
}

}  // namespace

TEST_CASE("ReadGmByPassDCache and WriteGmByPassDCache move every supported type exactly")
{
    CHECK(kOneThread);
    CheckReverse<int8_t>();
    CheckReverse<uint8_t>();
    CheckReverse<int16_t>();
    CheckReverse<uint16_t>();
    CheckReverse<int32_t>();
    CheckReverse<uint32_t>();
    CheckReverse<int64_t>();
    CheckReverse<uint64_t>();
}

TEST_CASE("a flag raised with WriteGmByPassDCache after DataSyncBarrier<DDR or ALL> orders the data before it")
{
    for (Kernel k : {&HandOff<true, MemDsbT::DDR, 1>, &HandOff<true, MemDsbT::ALL, 1>}) {
        HandOffData d;
        CHECK(Clean(d.Run(k)));
        for (int i = 0; i < 8; ++i) CHECK_EQ(d.z[i], d.x[i] * 2.0f);
        int32_t flag;
        std::memcpy(&flag, &d.x[8], 4);
        CHECK_EQ(flag, 1);
    }
}

TEST_CASE("a flag raised without DataSyncBarrier<DDR or ALL> before it orders nothing: the data read races")
{
    for (Kernel k : {&HandOff<false, MemDsbT::DDR, 1>, &HandOff<true, MemDsbT::UB, 1>}) {
        HandOffData d;
        CHECK(Has(d.Run(k), "a core reads GM another core writes in the same launch only after SyncAll"));
    }
}

TEST_CASE("a core polling a GM flag nobody raises is reported, naming the core and the bytes, not run forever")
{
    HandOffData d;  // core 1 raises the flag to 2; core 0 waits for 1
    const std::string got = d.Run(&HandOff<true, MemDsbT::DDR, 2>);
    CHECK(Has(got, "a core polling GM is released by another core's write"));
    CHECK(Has(got, "core 0"));
    CHECK(Has(got, "bytes [32, 36) of GM buffer 'x'"));
    for (uint32_t cores : {1u, 3u}) {
        std::vector<int32_t> x(9, 0), y(8, 0), z(8, 0);
        CHECK(Has(Run(&PollForever, cores, x.data(), 36, y.data(), 32, z.data(), 32),
                  "a core polling GM is released by another core's write"));
    }
}

TEST_CASE("cores writing one flag word in turn are not refused as unordered writes; their DMA writes still are")
{
    std::vector<int32_t> x(9, 0), y(8, 0);
    std::vector<int32_t> z(8);
    for (int32_t& v : z) v = static_cast<int32_t>(std::uniform_int_distribution<int32_t>(-1000, 1000)(check::Rng()));
    const std::vector<int32_t> z0 = z;
    CHECK(Clean(Run(&Token<false>, 4, x.data(), 36, y.data(), 32, z.data(), 32)));
    CHECK_EQ(x[8], 4);
    for (int b = 0; b < 4; ++b) CHECK_EQ(z[b], z0[b] + b + 1);
    for (int b = 4; b < 8; ++b) CHECK_EQ(z[b], z0[b]);
    std::fill(x.begin(), x.end(), 0);
    CHECK(Has(Run(&Token<true>, 4, x.data(), 36, y.data(), 32, z.data(), 32), "no two cores write the same GM bytes"));
}

TEST_CASE("GetValue polls of flags written back by other cores: DataCacheCleanAndInvalid before each read")
{
    // GM buffers start on 64-byte lines, as the device allocates them.
    alignas(64) float x[32], z[48];
    alignas(64) int32_t y[64] = {}, lowered[64] = {};
    const std::vector<float> xs = RandomFloats(32), zs = RandomFloats(48);
    std::memcpy(x, xs.data(), sizeof x);
    std::memcpy(z, zs.data(), sizeof z);
    CHECK(Clean(Run(&GatherFlags<true>, 4, x, sizeof x, y, sizeof y, z, sizeof z)));
    double sum = 0.0;
    for (int i = 8; i < 32; ++i) sum += static_cast<double>(x[i]);
    CHECK_EQ(static_cast<double>(z[32]), sum);  // multiples of 1/16 below 2^8: every partial sum exact
    for (int i = 8; i < 32; ++i) CHECK_EQ(z[i], x[i]);
    CHECK(Has(Run(&GatherFlags<false>, 4, x, sizeof x, lowered, sizeof lowered, z, sizeof z),
              "a GetValue polling GM another core writes loads the line fresh each time"));
}

TEST_MAIN()
