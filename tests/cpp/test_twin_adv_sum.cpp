// Sum ("lib/reduce/sum.h") against float64 row sums of fresh random inputs, float and half, rows of one repeat
// and of several levels of partial sums, with sharedTmpBuffer and with the framework's buffer; the mask it leaves
// and the instructions it issues (A2's); GetSumMaxMinTmpSize; every run-time rule with a planted fault and a
// clean counterpart.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "check.h"
#include "fault_launch.h"
#include "lib/reduce/sum.h"
#include "tiling/sum/sum_tiling.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

struct Case {
    uint32_t outter = 1;
    uint32_t n = 1;
    bool framework = false;
};
Case gCase;
uint64_t gMaskHigh = 0, gMaskLow = 0;
bool gCounter = true;

template <typename T>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const uint32_t inner = AlignUp(c.n * sizeof(T), 32) / sizeof(T);
    TPipe pipe;
    TBuf<TPosition::VECIN> xb;
    TBuf<TPosition::VECOUT> yb;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(xb, c.outter * inner * sizeof(T));
    pipe.InitBuffer(yb, AlignUp(c.outter * sizeof(T), 32));
    uint32_t tmpMax = 0, tmpMin = 0;
    GetSumMaxMinTmpSize(c.n, sizeof(T), false, tmpMax, tmpMin);
    if (!c.framework) pipe.InitBuffer(tb, tmpMin == 0 ? 32 : tmpMin);
    GlobalTensor<T> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    LocalTensor<T> x = xb.Get<T>();
    LocalTensor<T> y = yb.Get<T>();
    DataCopyPad(x, inGm, DataCopyExtParams{static_cast<uint16_t>(c.outter), static_cast<uint32_t>(c.n * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{true, 0, static_cast<uint8_t>(inner - c.n), T(0)});
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    const SumParams params{c.outter, inner, c.n};
    if (c.framework) Sum(y, x, params);
    else Sum(y, x, tb.Get<uint8_t>(), params);
    const ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    gCounter = core.maskCounter;
    gMaskHigh = core.maskHigh;
    gMaskLow = core.maskLow;
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopyPad(outGm, y, DataCopyExtParams{1, static_cast<uint32_t>(c.outter * sizeof(T)), 0, 0, 0});
}

using check::Rng;

template <typename T>
double ToDouble(T v)
{
    if constexpr (std::is_same_v<T, half>) return static_cast<double>(static_cast<float>(v));
    else return static_cast<double>(v);
}

template <typename T>
int CheckType()
{
    const uint32_t perRep = 256 / sizeof(T);
    const struct {
        uint32_t outter, n;
    } shapes[] = {{1, 1}, {1, perRep}, {3, perRep - 5}, {2, perRep + 1}, {5, 1000}, {2, 20000}, {7, 333}};
    int failed = 0;
    for (const auto& sh : shapes) {
        for (bool framework : {false, true}) {
            Case c;
            c.outter = sh.outter;
            c.n = sh.n;
            c.framework = framework;
            std::vector<T> in(static_cast<size_t>(c.outter) * c.n);
            for (T& v : in) v = T(std::uniform_real_distribution<float>(-1.0f, 1.0f)(Rng()));
            std::vector<T> out(c.outter);
            gCase = c;
            ascend_twin::LaunchSpec spec;
            spec.kernel = "sum";
            spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&Kernel<T>);
            spec.blockDim = 1;
            spec.args = {{"in", in.data(), in.size() * sizeof(T)}, {"out", out.data(), out.size() * sizeof(T)}};
            const ascend_twin::LaunchStats stats = ascend_twin::Launch(spec);
            // Levels of partial sums A2 adds; each rounds in T by at most half an ulp of the running magnitude.
            uint32_t levels = 1;
            for (uint32_t s = (c.n + perRep - 1) / perRep; s > 1; s = (s + perRep - 1) / perRep) ++levels;
            const double eps = std::is_same_v<T, float> ? 6e-8 : 4.9e-4;
            int bad = 0;
            for (uint32_t r = 0; r < c.outter; ++r) {
                double ref = 0.0, mag = 0.0;
                for (uint32_t i = 0; i < c.n; ++i) {
                    ref += ToDouble(in[static_cast<size_t>(r) * c.n + i]);
                    mag += std::fabs(ToDouble(in[static_cast<size_t>(r) * c.n + i]));
                }
                // a binary tree of depth log2(per-repeat lanes) per level, plus the levels
                const double bound = eps * (8.0 * levels + 1.0) * mag + 1e-7;
                if (std::fabs(ToDouble(out[r]) - ref) > bound && bad++ < 3) {
                    std::printf("  n %u row %u: %.9g, expected %.9g (bound %.3g)\n", c.n, r, ToDouble(out[r]), ref, bound);
                }
            }
            // A2 leaves normal mode: reset after the one-repeat path, else holding (as lane bits) the count the
            // last WholeReduceSum summed, the partial sums of the last level.
            const bool oneRepeat = c.n <= perRep;
            uint64_t last = (c.n + perRep - 1) / perRep;
            while (last > perRep) last = (last + perRep - 1) / perRep;
            const bool maskOk = !gCounter && (oneRepeat ? (gMaskHigh == ~0ull && gMaskLow == ~0ull)
                                                        : (gMaskHigh == 0 && gMaskLow == last));
            if (!maskOk) std::printf("  n %u: mask %d %llx %llx\n", c.n, gCounter, (unsigned long long)gMaskHigh,
                                     (unsigned long long)gMaskLow);
            const uint64_t calls =
                stats.cores[0].vecCalls[static_cast<uint32_t>(ascend_twin::VecOp::kWholeReduceSum)];
            const bool callsOk = calls == static_cast<uint64_t>(c.outter) * levels;
            if (!callsOk) std::printf("  n %u: %llu WholeReduceSum calls\n", c.n, (unsigned long long)calls);
            failed += (bad != 0 || !maskOk || !callsOk) ? 1 : 0;
        }
    }
    return failed;
}

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    if constexpr (kFault < 20) {
        LocalMemAllocator<Hardware::UB> ub;
        LocalTensor<float> x = ub.Alloc<float, 1024>();
        LocalTensor<float> y = ub.Alloc<float, 16>();
        LocalTensor<uint8_t> t = ub.Alloc<uint8_t, 64>();  // n = 1000 float: 16 partial sums, 64 bytes
        LocalTensor<float> xA1 = LocalMemAllocator<Hardware::L1>().Alloc<TPosition::A1, float, 1024>();
        Duplicate(x, 0.5f, 1024);
        if constexpr (kFault == 0) Sum(y, x, t, SumParams{1, 1000, 1000});  // the clean counterpart
        if constexpr (kFault == 1) Sum(y, x, t, SumParams{1, 1001, 1000});  // inner not a whole block
        if constexpr (kFault == 2) Sum(y, x, t, SumParams{1, 1000, 1001});  // n > inner
        if constexpr (kFault == 3) Sum(y, x, t, SumParams{1, 1000, 0});
        if constexpr (kFault == 4) Sum(y, x, t, SumParams{2, 1000, 1000});  // src holds 1024 < 2000
        if constexpr (kFault == 5) Sum(y, x, t, SumParams{20, 48, 48});     // dst holds 16 < 24
        if constexpr (kFault == 6) Sum(y, x, t, SumParams{16, 64, 60});     // exactly enough: clean
        if constexpr (kFault == 7) Sum(x[8], x, t, SumParams{1, 64, 64});   // dst inside src
        if constexpr (kFault == 8) {
            LocalTensor<uint8_t> small = t;
            small.SetSize(32);
            Sum(y, x, small, SumParams{1, 1000, 1000});
        }
        if constexpr (kFault == 9) Sum(y, x, t[0], SumParams{1, 64, 64});  // one repeat: no buffer needed
        if constexpr (kFault == 10) Sum(y, x, x.ReinterpretCast<uint8_t>()[1024], SumParams{1, 512, 512});
        if constexpr (kFault == 11) Sum(y, xA1, t, SumParams{1, 64, 64});
        if constexpr (kFault == 12) Sum(y, x, SumParams{1, 64, 64});  // the framework form without a TPipe
    }
}

using fault::Broke;

}  // namespace

TEST_CASE("Sum float: one repeat, several levels, both forms") { CHECK_EQ(CheckType<float>(), 0); }
TEST_CASE("Sum half: one repeat, several levels, both forms") { CHECK_EQ(CheckType<half>(), 0); }

TEST_CASE("GetSumMaxMinTmpSize returns A2's size")
{
    uint32_t mx = 1, mn = 1;
    GetSumMaxMinTmpSize(1000, 4, false, mx, mn);  // 16 partial sums: 2 blocks
    CHECK_EQ(mn, 64u);
    CHECK_EQ(mx, 64u);
    GetSumMaxMinTmpSize(1000, 2, false, mx, mn);  // 8 partial sums: 1 block
    CHECK_EQ(mn, 32u);
    GetSumMaxMinTmpSize(20000, 4, false, mx, mn);  // 313 partial sums: 40 blocks
    CHECK_EQ(mn, 1280u);
    mx = mn = 7;
    GetSumMaxMinTmpSize(0, 4, false, mx, mn);
    CHECK_EQ(mn, 7u);
}

TEST_CASE("Sum rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "Sum: sumParams.inner is greater than 0 and a whole number of 32-byte blocks"));
    CHECK(Broke(&FaultKernel<2>, "Sum: 1 <= sumParams.n <= sumParams.inner"));
    CHECK(Broke(&FaultKernel<3>, "Sum: 1 <= sumParams.n <= sumParams.inner"));
    CHECK(Broke(&FaultKernel<4>, "Sum: srcTensor holds outter * inner elements (docs)"));
    CHECK(Broke(&FaultKernel<5>, "Sum: dstTensor holds outter results rounded up to 32 bytes (docs)"));
    CHECK(Broke(&FaultKernel<6>, ""));
    CHECK(Broke(&FaultKernel<7>, "Sum: src and dst do not overlap (docs: 不支持源操作数与目的操作数地址重叠)"));
    CHECK(Broke(&FaultKernel<8>, "Sum: sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum"));
    CHECK(Broke(&FaultKernel<9>, ""));
    CHECK(Broke(&FaultKernel<10>, "Sum: sharedTmpBuffer does not overlap src or dst"));
    CHECK(Broke(&FaultKernel<11>, "Sum: the advanced math API's operands are at VECIN, VECCALC or VECOUT"));
    CHECK(Broke(&FaultKernel<12>,
                "Sum: without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 bytes) holds "
                "the API's minimum temporary size"));
}

TEST_MAIN()
