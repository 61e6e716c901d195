// The scalar data cache (twin/src/scalar_cache.cpp): GlobalTensor::GetValue/SetValue go through a core's
// cache of 64-byte lines, DataCopy does not. Each rule is broken by a planted kernel and kept by its
// counterpart, which must also compute the right numbers.
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "kernel_operator.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr uint32_t kFloats = 64;  // x and y: 256 bytes each, four cache lines

using Kernel = void (*)(GM_ADDR, GM_ADDR);

// Runs kernel(x, y) on `cores` cores; returns "call: rule" of the violation, "" when it ran clean.
std::string Run(Kernel kernel, uint32_t cores, std::vector<float>& x, std::vector<float>& y)
{
    ascend_twin::LaunchSpec spec;
    spec.kernel = "scalar_cache";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(kernel);
    spec.blockDim = cores;
    spec.args = {{"x", x.data(), x.size() * 4}, {"y", y.data(), y.size() * 4}};
    try {
        ascend_twin::Launch(spec);
    } catch (const ascend_twin::RuleViolation& e) {
        return e.call + ": " + e.rule;
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

template <typename T>
void Bind(GlobalTensor<T>& g, GM_ADDR p)
{
    g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(p), kFloats);
}

// Copies 8 floats from src to dst through UB (MTE2, then MTE3).
void CopyEight(const GlobalTensor<float>& dst, const GlobalTensor<float>& src)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, src, 8);
    PipeBarrier<PIPE_ALL>();
    DataCopy(dst, t, 8);
    PipeBarrier<PIPE_ALL>();
}

// y[0] = x[5] * 2: a scalar read of an input an earlier kernel (here: the host) wrote before the launch.
template <bool invalidate>
void ReadInput(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<float> xGm, yGm;
    Bind(xGm, x);
    Bind(yGm, y);
    if constexpr (invalidate) DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(xGm[5]);
    yGm.SetValue(0, xGm.GetValue(5) * 2.0f);
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(yGm);
}

// Reads y[1] (loading its line), overwrites y[0..8) with DataCopy, reads y[1] again.
template <bool invalidateAgain>
void ReadAfterOwnCopy(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<float> xGm, yGm;
    Bind(xGm, x);
    Bind(yGm, y);
    DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(yGm);
    const float before = yGm.GetValue(1);
    CopyEight(yGm, xGm);
    if constexpr (invalidateAgain) DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(yGm);
    yGm.SetValue(16, before + yGm.GetValue(1));
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(yGm[16]);
}

// Stores y[0] with SetValue, then copies y[0..8) into UB and out to y[8..16).
template <bool clean>
void CopyAfterOwnStore(GM_ADDR x, GM_ADDR y)
{
    (void)x;
    GlobalTensor<float> yGm;
    Bind(yGm, y);
    yGm.SetValue(0, 7.0f);
    if constexpr (clean) DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(yGm);
    CopyEight(yGm[8], yGm);
}

// Core 1 reads y[2] (its line loaded), core 0 then writes y[0..8) with DataCopy, core 1 reads y[2] again;
// SyncAlls order the three steps.
template <bool invalidateAfterSync>
void ReadAfterOtherCoreCopy(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<float> xGm, yGm;
    Bind(xGm, x);
    Bind(yGm, y);
    float first = 0.0f;
    if (GetBlockIdx() == 1) {
        DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(yGm);
        first = yGm.GetValue(2);
    }
    SyncAll();
    if (GetBlockIdx() == 0) CopyEight(yGm, xGm);
    SyncAll();
    if (GetBlockIdx() == 1) {
        if constexpr (invalidateAfterSync) {
            DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(yGm);
        }
        yGm.SetValue(32, first + yGm.GetValue(2));
        DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(yGm[32]);
    }
}

// Each core stores (blockIdx + 1) at y[stride * blockIdx]; after SyncAll core 0 adds them up into y[255].
constexpr uint32_t kSumAt = 255;
template <uint32_t stride, bool clean>
void GatherSum(GM_ADDR x, GM_ADDR y)
{
    (void)x;
    GlobalTensor<float> yGm;
    Bind(yGm, y);
    const uint32_t core = static_cast<uint32_t>(GetBlockIdx());
    yGm.SetValue(stride * core, static_cast<float>(core + 1));
    if constexpr (clean) {
        DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(yGm[stride * core]);
    }
    SyncAll();
    if (core == 0) {
        DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(yGm);
        float sum = 0.0f;
        for (uint32_t i = 0; i < static_cast<uint32_t>(GetBlockNum()); ++i) sum += yGm.GetValue(stride * i);
        yGm.SetValue(kSumAt, sum);
        DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(yGm[kSumAt]);
    }
}

std::vector<float> Input()
{
    std::vector<float> x(kFloats);
    for (uint32_t i = 0; i < kFloats; ++i) x[i] = 0.5f * static_cast<float>(i) - 3.0f;
    return x;
}

}  // namespace

TEST_CASE("a launch starts with no line cached: a scalar read of GM written before it needs no DataCacheCleanAndInvalid")
{
    for (bool invalidate : {false, true}) {
        std::vector<float> x = Input(), y(kFloats, 0.0f);
        CHECK(Clean(Run(invalidate ? &ReadInput<true> : &ReadInput<false>, 1, x, y)));
        CHECK_EQ(y[0], x[5] * 2.0f);
    }
}

TEST_CASE("a scalar read after the core's own DataCopy to the line needs a new DataCacheCleanAndInvalid")
{
    std::vector<float> x = Input(), y(kFloats, 1.25f);
    CHECK(Has(Run(&ReadAfterOwnCopy<false>, 1, x, y), "GetValue after this core's DataCopy"));
    y.assign(kFloats, 1.25f);
    CHECK(Clean(Run(&ReadAfterOwnCopy<true>, 1, x, y)));
    CHECK_EQ(y[16], 1.25f + x[1]);
}

TEST_CASE("a DataCopy of bytes the core stored with SetValue comes after their write-back")
{
    std::vector<float> x = Input(), y(kFloats, 0.0f);
    CHECK(Has(Run(&CopyAfterOwnStore<false>, 1, x, y), "a DMA read of GM bytes this core stored"));
    CHECK(Clean(Run(&CopyAfterOwnStore<true>, 1, x, y)));
    CHECK_EQ(y[8], 7.0f);
}

TEST_CASE("a scalar read of a line another core wrote after this core loaded it needs DataCacheCleanAndInvalid")
{
    std::vector<float> x = Input(), y(kFloats, 4.0f);
    CHECK(Has(Run(&ReadAfterOtherCoreCopy<false>, 2, x, y), "GetValue of GM another core wrote comes after"));
    y.assign(kFloats, 4.0f);
    CHECK(Clean(Run(&ReadAfterOtherCoreCopy<true>, 2, x, y)));
    CHECK_EQ(y[32], 4.0f + x[2]);
}

TEST_CASE("cores exchange SetValue results through GM: written back before SyncAll, one 64-byte line each")
{
    for (uint32_t cores : {2u, 8u}) {
        std::vector<float> x = Input(), y(kSumAt + 1, 0.0f);
        CHECK(Clean(Run(&GatherSum<16, true>, cores, x, y)));
        CHECK_EQ(y[kSumAt], static_cast<float>(cores * (cores + 1) / 2));
        CHECK(Has(Run(&GatherSum<16, false>, cores, x, y),
                  "is read by another core only after DataCacheCleanAndInvalid wrote it back"));
        // Neighbouring floats share a line: the docs' example 3 ("随机覆盖").
        CHECK(Has(Run(&GatherSum<1, true>, cores, x, y), "no other core writes a 64-byte line"));
    }
}

TEST_MAIN()
