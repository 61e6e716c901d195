// CumSum ("lib/math/cumsum.h") against float64 prefix sums from fresh random inputs: both axes, float and half,
// with and without the last row, both forms; GetCumSumMaxMinTmpSize; every run-time rule with a planted fault and
// a clean counterpart.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "check.h"
#include "fault_launch.h"
#include "lib/math/cumsum.h"
#include "tiling/math/cumsum_tiling.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr CumSumConfig kLastRows = {true, false, true};
constexpr CumSumConfig kLastNoRow = {true, false, false};
constexpr CumSumConfig kFirstRows = {false, false, true};
constexpr CumSumConfig kFirstNoRow = {false, false, false};

struct Case {
    uint32_t outter = 1, inner = 8;
    bool framework = false;
};
Case gCase;

template <typename T, const CumSumConfig& config>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const uint32_t n = c.outter * c.inner;
    TPipe pipe;
    TBuf<TPosition::VECIN> xb;
    TBuf<TPosition::VECOUT> yb, rb;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(xb, n * sizeof(T));
    pipe.InitBuffer(yb, n * sizeof(T));
    pipe.InitBuffer(rb, c.inner * sizeof(T));
    uint32_t mx = 0, mn = 0;
    GetCumSumMaxMinTmpSize(ge::Shape({c.outter, c.inner}), sizeof(T), config.isLastAxis, false, mx, mn);
    if (!c.framework) pipe.InitBuffer(tb, mn == 0 ? 32 : mn);
    GlobalTensor<T> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    LocalTensor<T> x = xb.Get<T>();
    LocalTensor<T> y = yb.Get<T>();
    LocalTensor<T> r = rb.Get<T>();
    DataCopy(x, inGm, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    if (!config.outputLastRow) Duplicate(r, T(0), c.inner);
    const CumSumInfo info{c.outter, c.inner};
    if (c.framework) {
        CumSum<T, config>(y, r, x, info);
    } else {
        LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
        CumSum<T, config>(y, r, x, tmp, info);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, y, n);
    DataCopy(outGm[n], r, c.inner);
}

using check::Rng;

template <typename T>
double D(T v)
{
    if constexpr (std::is_same_v<T, half>) return static_cast<double>(static_cast<float>(v));
    else return static_cast<double>(v);
}

template <typename T, const CumSumConfig& config>
int CheckOne(uint32_t outter, uint32_t inner, bool framework)
{
    const uint32_t n = outter * inner;
    std::vector<T> in(n);
    for (T& v : in) v = T(std::uniform_real_distribution<float>(-4.0f, 4.0f)(Rng()));
    std::vector<T> out(n + inner);
    gCase = Case{outter, inner, framework};
    ascend_twin::LaunchSpec spec;
    spec.kernel = "cumsum";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&Kernel<T, config>);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size() * sizeof(T)}, {"out", out.data(), out.size() * sizeof(T)}};
    ascend_twin::Launch(spec);
    // float: one float rounding per step, up to `steps` of them; half: plus the final rounding to half.
    const uint32_t steps = config.isLastAxis ? inner : outter;
    const double rel = std::is_same_v<T, float> ? 1.2e-7 * steps : 1e-3;
    int bad = 0;
    std::vector<double> ref(n);
    for (uint32_t row = 0; row < outter; ++row) {
        for (uint32_t col = 0; col < inner; ++col) {
            const uint32_t i = row * inner + col;
            double sum = 0.0;  // written out: the sum of everything before it along the axis
            if (config.isLastAxis) for (uint32_t k = 0; k <= col; ++k) sum += D(in[row * inner + k]);
            else for (uint32_t k = 0; k <= row; ++k) sum += D(in[k * inner + col]);
            ref[i] = sum;
            const double scale = std::is_same_v<T, float> ? 4.0 * (config.isLastAxis ? col + 1 : row + 1) : std::fabs(sum);
            if (std::fabs(D(out[i]) - sum) > rel * scale + 4e-3 * !std::is_same_v<T, float> && bad++ < 3) {
                std::printf("  CumSum %s [%u, %u] at (%u, %u): %.9g, expected %.9g\n", config.isLastAxis ? "last" : "first",
                            outter, inner, row, col, D(out[i]), sum);
            }
        }
    }
    for (uint32_t col = 0; col < inner; ++col) {
        const double want = config.outputLastRow ? D(out[(outter - 1) * inner + col]) : 0.0;
        if (D(out[n + col]) != want && bad++ < 3) std::printf("  CumSum last row %u: %g, expected %g\n", col, D(out[n + col]), want);
    }
    return bad;
}

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> x = ub.Alloc<float, 512>();  // 16 x 32
    LocalTensor<float> y = ub.Alloc<float, 512>();
    LocalTensor<float> r = ub.Alloc<float, 32>();
    LocalTensor<uint8_t> t = ub.Alloc<uint8_t, 4096>();  // float last axis, inner 32: 16 * 32 * 4 * 2
    Duplicate(x, 1.0f, 512);
    const CumSumInfo info{16, 32};
    if constexpr (kFault == 0) CumSum<float, kLastRows>(y, r, x, t, info);  // the clean counterparts
    if constexpr (kFault == 1) CumSum<float, kFirstNoRow>(y, r, x, t, info);
    if constexpr (kFault == 2) CumSum<float, kLastRows>(y, r, x, t, CumSumInfo{16, 30});  // 120 bytes a row
    if constexpr (kFault == 3) CumSum<float, kLastRows>(y, r, x, t, CumSumInfo{0, 32});
    if constexpr (kFault == 4) CumSum<float, kFirstRows>(y, r, x, t, CumSumInfo{17, 32});  // past src and dst
    if constexpr (kFault == 5) {
        LocalTensor<float> shortRow = r;
        shortRow.SetSize(24);
        CumSum<float, kFirstRows>(y, shortRow, x, t, info);
    }
    if constexpr (kFault == 6) {  // without the last row, lastRow is not looked at
        LocalTensor<float> shortRow = r;
        shortRow.SetSize(8);
        CumSum<float, kFirstNoRow>(y, shortRow, x, t, info);
    }
    if constexpr (kFault == 7 || kFault == 8) {
        LocalTensor<uint8_t> tmp = t;
        tmp.SetSize(kFault == 7 ? 4064 : 4096);
        CumSum<float, kLastRows>(y, r, x, tmp, info);
    }
    if constexpr (kFault == 9) {  // float first axis needs no buffer
        LocalTensor<uint8_t> none = t;
        none.SetSize(0);
        CumSum<float, kFirstRows>(y, r, x, none, info);
    }
    if constexpr (kFault == 10) CumSum<float, kLastRows>(y, r, x, info);  // the framework form without a TPipe
    if constexpr (kFault == 11) {  // src inside the temporary buffer
        LocalTensor<float> inside = t.ReinterpretCast<float>();
        inside.SetSize(512);
        Duplicate(inside, 1.0f, 512);
        CumSum<float, kLastRows>(y, r, inside, t, info);
    }
    if constexpr (kFault == 12) CumSum<float, kFirstNoRow>(x, r, x, t, info);  // in place: the docs allow it
}

using fault::Broke;

}  // namespace

TEST_CASE("CumSum float: both axes, with and without the last row, both forms, against double prefix sums")
{
    CHECK_EQ((CheckOne<float, kLastRows>(37, 40, false)), 0);
    CHECK_EQ((CheckOne<float, kLastNoRow>(5, 8, true)), 0);
    CHECK_EQ((CheckOne<float, kFirstRows>(33, 24, false)), 0);
    CHECK_EQ((CheckOne<float, kFirstNoRow>(3, 64, true)), 0);
}

TEST_CASE("CumSum half: both axes against double prefix sums")
{
    CHECK_EQ((CheckOne<half, kLastRows>(20, 32, false)), 0);
    CHECK_EQ((CheckOne<half, kFirstRows>(12, 48, false)), 0);
    CHECK_EQ((CheckOne<half, kFirstNoRow>(7, 16, true)), 0);
}

TEST_CASE("GetCumSumMaxMinTmpSize returns A2's sizes and refuses what A2 refuses")
{
    uint32_t mx = 1, mn = 1;
    GetCumSumMaxMinTmpSize(ge::Shape({32, 160}), 4, true, false, mx, mn);
    CHECK_EQ(mn, 16u * 160 * 4 * 2);
    CHECK_EQ(mx, 32u * 160 * 4 * 2);
    GetCumSumMaxMinTmpSize(ge::Shape({20, 32}), 2, true, false, mx, mn);
    CHECK_EQ(mn, 32u * 16 * 2 + 16u * 32 * 2 * 2);
    CHECK_EQ(mx, 32u * 32 * 2 + 32u * 32 * 2 * 2);
    GetCumSumMaxMinTmpSize(ge::Shape({12, 48}), 2, false, false, mx, mn);
    CHECK_EQ(mn, 12u * 48 * 4);
    CHECK_EQ(mx, 12u * 48 * 4);
    GetCumSumMaxMinTmpSize(ge::Shape({12, 48}), 4, false, false, mx, mn);
    CHECK_EQ(mn + mx, 0u);
    mx = mn = 7;
    GetCumSumMaxMinTmpSize(ge::Shape({32}), 4, true, false, mx, mn);  // not 2-D
    GetCumSumMaxMinTmpSize(ge::Shape({4, 30}), 4, true, false, mx, mn);  // inner not 32-byte aligned
    GetCumSumMaxMinTmpSize(ge::Shape({4, 32}), 8, true, false, mx, mn);  // typeSize
    CHECK_EQ(mn, 7u);
    CHECK_EQ(mx, 7u);
}

TEST_CASE("CumSum rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, ""));
    CHECK(Broke(&FaultKernel<2>, "CumSum: cumSumInfo.inner * sizeof(T) is a multiple of 32 bytes (docs)"));
    CHECK(Broke(&FaultKernel<3>, "CumSum: cumSumInfo.outter and cumSumInfo.inner are larger than 0 (docs)"));
    CHECK(Broke(&FaultKernel<4>,
                "CumSum: cumSumInfo.outter * cumSumInfo.inner is at most what dstTensor and srcTensor hold (docs)"));
    CHECK(Broke(&FaultKernel<5>, "CumSum: with outputLastRow, cumSumInfo.inner is at most what lastRowTensor holds (docs)"));
    CHECK(Broke(&FaultKernel<6>, ""));
    CHECK(Broke(&FaultKernel<7>, "CumSum: sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum"));
    CHECK(Broke(&FaultKernel<8>, ""));
    CHECK(Broke(&FaultKernel<9>, ""));
    CHECK(Broke(&FaultKernel<10>,
                "CumSum: without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 bytes) holds "
                "the API's minimum temporary size"));
    CHECK(Broke(&FaultKernel<11>, "CumSum: sharedTmpBuffer does not overlap src or dst"));
    CHECK(Broke(&FaultKernel<12>, ""));
}

TEST_MAIN()
