// The reductions over a pattern ("lib/reduce/reduce.h": ReduceSum, ReduceMax, ReduceMin, ReduceProd, ReduceMean,
// ReduceAny, ReduceAll with Pattern::Reduce::AR and RA) against float64 references of fresh random inputs, every A2
// dtype, rows padded to 32 bytes, sharedTmpBuffer and the framework's buffer, isReuseSource (src left undefined);
// GetReduceXxxMaxMinTmpSize against A2's numbers; every run-time rule with a planted fault and a clean counterpart.
#include <algorithm>
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
#include "lib/reduce/reduce.h"
#include "tiling/reduce/reduce_tiling.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

enum class Fn { kSum, kMax, kMin, kProd, kMean, kAny, kAll };

struct Case {
    Fn fn = Fn::kSum;
    bool ar = true;
    uint32_t first = 4, last = 8;
    bool framework = false;
    bool reuse = false;
    uint32_t tmpBytes = 0;
};
Case gCase;

template <typename T, class P, bool reuse>
void Call(const Case& c, const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp)
{
    const uint32_t shape[] = {c.first, c.last};
    if constexpr (std::is_same_v<T, float>) {
        if (c.fn == Fn::kSum) c.framework ? ReduceSum<T, P, reuse>(dst, src, shape, true) : ReduceSum<T, P, reuse>(dst, src, tmp, shape, true);
        if (c.fn == Fn::kProd) c.framework ? ReduceProd<T, P, reuse>(dst, src, shape, true) : ReduceProd<T, P, reuse>(dst, src, tmp, shape, true);
    }
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, half>) {
        if (c.fn == Fn::kMax) c.framework ? ReduceMax<T, P, reuse>(dst, src, shape, true) : ReduceMax<T, P, reuse>(dst, src, tmp, shape, true);
        if (c.fn == Fn::kMin) c.framework ? ReduceMin<T, P, reuse>(dst, src, shape, true) : ReduceMin<T, P, reuse>(dst, src, tmp, shape, true);
        if (c.fn == Fn::kMean) c.framework ? ReduceMean<T, P, reuse>(dst, src, shape, true) : ReduceMean<T, P, reuse>(dst, src, tmp, shape, true);
    }
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, uint8_t>) {
        if (c.fn == Fn::kAny) c.framework ? ReduceAny<T, P, reuse>(dst, src, shape, true) : ReduceAny<T, P, reuse>(dst, src, tmp, shape, true);
        if (c.fn == Fn::kAll) c.framework ? ReduceAll<T, P, reuse>(dst, src, shape, true) : ReduceAll<T, P, reuse>(dst, src, tmp, shape, true);
    }
}

// in = src [first, padLast]; out = dst (first or last, padded to a block) | src after the call.
template <typename T>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const uint32_t padLast = AlignUp(c.last, 32 / sizeof(T));
    const uint32_t srcBytes = c.first * padLast * sizeof(T);
    const uint32_t dstBytes = AlignUp((c.ar ? c.first : c.last) * sizeof(T), 32);
    TPipe pipe;
    TBuf<TPosition::VECIN> sb;
    TBuf<TPosition::VECOUT> db;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(sb, srcBytes);
    pipe.InitBuffer(db, dstBytes);
    if (!c.framework) pipe.InitBuffer(tb, c.tmpBytes == 0 ? 32 : c.tmpBytes);
    LocalTensor<T> src = sb.Get<T>();
    LocalTensor<T> dst = db.Get<T>();
    LocalTensor<uint8_t> tmp = c.framework ? LocalTensor<uint8_t>() : tb.Get<uint8_t>();
    GlobalTensor<T> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    DataCopy(src, inGm, srcBytes / sizeof(T));
    GlobalTensor<uint8_t> ob;
    ob.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out));
    Duplicate(dst.template ReinterpretCast<uint16_t>(), uint16_t(0), static_cast<int32_t>(dstBytes / 2));
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    if (c.ar) {
        c.reuse ? Call<T, Pattern::Reduce::AR, true>(c, dst, src, tmp) : Call<T, Pattern::Reduce::AR, false>(c, dst, src, tmp);
    } else {
        c.reuse ? Call<T, Pattern::Reduce::RA, true>(c, dst, src, tmp) : Call<T, Pattern::Reduce::RA, false>(c, dst, src, tmp);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, dst, dstBytes / sizeof(T));
    if (c.reuse) DataCopy(outGm[dstBytes / sizeof(T)], src, srcBytes / sizeof(T));
}

using check::Rng;

template <typename T>
double D(T v)
{
    if constexpr (std::is_same_v<T, half>) return static_cast<double>(static_cast<float>(v));
    else return static_cast<double>(v);
}

ascend_twin::ReduceFn TwinFn(Fn f) { return static_cast<ascend_twin::ReduceFn>(static_cast<int>(f)); }

template <typename T>
int Run(Case c)
{
    const uint32_t padLast = AlignUp(c.last, 32 / sizeof(T));
    if (!c.framework) {
        c.tmpBytes = ascend_twin::ReduceTmpBytesA2(TwinFn(c.fn), sizeof(T), c.ar, c.reuse, c.first, c.last);
    }
    std::vector<T> in(c.first * padLast);
    const bool boolean = c.fn == Fn::kAny || c.fn == Fn::kAll;
    for (T& v : in) {
        double x = std::uniform_real_distribution<double>(-2.0, 2.0)(Rng());
        if (boolean) x = std::bernoulli_distribution(c.fn == Fn::kAny ? 0.1 : 0.9)(Rng()) ? 1.0 : 0.0;
        if (c.fn == Fn::kProd) x = std::uniform_real_distribution<double>(0.8, 1.25)(Rng());
        v = T(static_cast<float>(x));
    }
    const uint32_t outN = c.ar ? c.first : c.last;
    const uint32_t dstElems = AlignUp(outN * sizeof(T), 32) / sizeof(T);
    std::vector<T> out(dstElems + in.size(), T(0));
    gCase = c;
    ascend_twin::LaunchSpec spec;
    spec.kernel = "reduce";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&Kernel<T>);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size() * sizeof(T)}, {"out", out.data(), out.size() * sizeof(T)}};
    try {
        ascend_twin::Launch(spec);
    } catch (const ascend_twin::RuleViolation& e) {
        std::printf("  fn %d ar %d %ux%u: %s: %s (%s)\n", int(c.fn), c.ar, c.first, c.last, e.call.c_str(),
                    e.rule.c_str(), e.detail.c_str());
        return 1;
    }
    const double rel = std::is_same_v<T, half> ? 1e-3 : 2e-6;
    int bad = 0;
    const uint32_t n = c.ar ? c.last : c.first;
    for (uint32_t o = 0; o < outN; ++o) {
        double acc = 0.0;
        for (uint32_t r = 0; r < n; ++r) {
            const double v = D(c.ar ? in[o * padLast + r] : in[r * padLast + o]);
            if (r == 0) acc = v;
            else if (c.fn == Fn::kSum || c.fn == Fn::kMean) acc += v;
            else if (c.fn == Fn::kProd) acc *= v;
            else if (c.fn == Fn::kMax || c.fn == Fn::kAny) acc = std::max(acc, v);
            else acc = std::min(acc, v);
        }
        if (c.fn == Fn::kMean) acc /= n;
        const double got = D(out[o]);
        if (std::fabs(got - acc) > rel * std::fabs(acc) + rel * 1e-3 && bad++ < 3) {
            std::printf("  fn %d ar %d %ux%u: dst[%u] = %.9g, expected %.9g\n", int(c.fn), c.ar, c.first, c.last, o,
                        got, acc);
        }
    }
    if (c.reuse) {  // src is left undefined: the twin's NaN bytes
        for (size_t i = 0; i < in.size(); ++i) {
            uint8_t b[sizeof(T)];
            std::memcpy(b, &out[dstElems + i], sizeof(T));
            if (b[0] != 0xff && bad++ < 3) std::printf("  fn %d: src[%zu] still defined with isReuseSource\n", int(c.fn), i);
        }
    }
    return bad;
}

template <typename T>
int Sweep(Fn fn)
{
    int failed = 0;
    const uint32_t blk = 32 / sizeof(T);
    const uint32_t shapes[][2] = {{4, blk}, {7, blk - 3}, {5, 3 * blk + 1}, {33, 70}, {3, 300}, {64, 2 * blk}, {1, 17}};
    for (const auto& s : shapes) {
        for (bool ar : {true, false}) {
            for (int mode = 0; mode < 3; ++mode) {  // sharedTmpBuffer, framework, isReuseSource
                Case c;
                c.fn = fn;
                c.ar = ar;
                c.first = s[0];
                c.last = s[1];
                c.framework = mode == 1;
                c.reuse = mode == 2;
                failed += Run<T>(c) != 0 ? 1 : 0;
            }
        }
    }
    return failed;
}

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    (void)pipe;
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> src = ub.Alloc<float, 8 * 72>();  // [8, 70] padded to 72
    LocalTensor<float> dst = ub.Alloc<float, 72>();
    LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 8 * 256>();
    Duplicate(src, 1.0f, 8 * 72);
    const uint32_t shape[] = {8, 70};
    if constexpr (kFault == 0) ReduceSum<float, Pattern::Reduce::AR>(dst, src, tmp, shape, true);  // clean
    if constexpr (kFault == 1) ReduceSum<float, Pattern::Reduce::AR>(dst, src, tmp, shape, false);
    if constexpr (kFault == 2) {
        const uint32_t zero[] = {0, 70};
        ReduceMax<float, Pattern::Reduce::AR>(dst, src, tmp, zero, true);
    }
    if constexpr (kFault == 3) {
        const uint32_t big[] = {9, 70};
        ReduceMax<float, Pattern::Reduce::AR>(dst, src, tmp, big, true);  // src holds 8 padded rows
    }
    if constexpr (kFault == 4) {
        LocalTensor<float> small = dst;
        small.SetSize(60);
        ReduceSum<float, Pattern::Reduce::RA>(small, src, tmp, shape, true);  // RA writes 70
    }
    if constexpr (kFault == 5) ReduceMin<float, Pattern::Reduce::AR>(src[8 * 64], src, tmp, shape, true);
    if constexpr (kFault == 6) {
        LocalTensor<uint8_t> small = tmp;
        small.SetSize(7 * 256);  // ReduceMax AR [8, 70] needs 8 * 256
        ReduceMax<float, Pattern::Reduce::AR>(dst, src, small, shape, true);
    }
    if constexpr (kFault == 7) ReduceMax<float, Pattern::Reduce::AR>(dst, src, src.ReinterpretCast<uint8_t>(), shape, true);
    if constexpr (kFault == 8) {
        src.SetValue(5, 2.0f);
        ReduceAny<float, Pattern::Reduce::AR>(dst, src, tmp, shape, true);  // not 0 or 1
    }
    if constexpr (kFault == 9) ReduceAll<float, Pattern::Reduce::RA>(dst, src, tmp, shape, true);  // clean
    if constexpr (kFault == 10) ReduceSum<float, Pattern::Reduce::AR, true>(dst, src, shape, true);  // reuse: no tmp
    if constexpr (kFault == 11 || kFault == 12) {  // AR writes 8: dst of 8 elements, of 7 in 12
        LocalTensor<float> rows = dst;
        rows.SetSize(kFault == 11 ? 8 : 7);
        ReduceSum<float, Pattern::Reduce::AR>(rows, src, tmp, shape, true);
    }
}

using fault::Broke;

}  // namespace

TEST_CASE("ReduceSum (float) AR/RA against float64") { CHECK_EQ(Sweep<float>(Fn::kSum), 0); }
TEST_CASE("ReduceMax, ReduceMin (half, float)")
{
    CHECK_EQ(Sweep<float>(Fn::kMax), 0);
    CHECK_EQ(Sweep<half>(Fn::kMax), 0);
    CHECK_EQ(Sweep<float>(Fn::kMin), 0);
    CHECK_EQ(Sweep<half>(Fn::kMin), 0);
}
TEST_CASE("ReduceProd (float), ReduceMean (half, float)")
{
    CHECK_EQ(Sweep<float>(Fn::kProd), 0);
    CHECK_EQ(Sweep<float>(Fn::kMean), 0);
    CHECK_EQ(Sweep<half>(Fn::kMean), 0);
}
TEST_CASE("ReduceAny, ReduceAll (float, uint8_t)")
{
    CHECK_EQ(Sweep<float>(Fn::kAny), 0);
    CHECK_EQ(Sweep<uint8_t>(Fn::kAny), 0);
    CHECK_EQ(Sweep<float>(Fn::kAll), 0);
    CHECK_EQ(Sweep<uint8_t>(Fn::kAll), 0);
}

TEST_CASE("GetReduceXxxMaxMinTmpSize returns A2's sizes")
{
    uint32_t mx = 1, mn = 1;
    GetReduceSumMaxMinTmpSize(ge::Shape({16, 32}), ge::DT_FLOAT, ReducePattern::AR, true, false, mx, mn);
    CHECK_EQ(mn, 0u);  // last <= 64
    GetReduceSumMaxMinTmpSize(ge::Shape({16, 100}), ge::DT_FLOAT, ReducePattern::AR, true, false, mx, mn);
    CHECK_EQ(mn, 16u * 64 * 4);
    CHECK_EQ(mx, mn);
    GetReduceSumMaxMinTmpSize(ge::Shape({16, 128}), ge::DT_FLOAT, ReducePattern::AR, true, false, mx, mn);
    CHECK_EQ(mn, 16u * 64 * 4);  // k == last: halved
    GetReduceSumMaxMinTmpSize(ge::Shape({16, 30}), ge::DT_FLOAT, ReducePattern::RA, true, false, mx, mn);
    CHECK_EQ(mn, 8u * 32 * 4);
    GetReduceSumMaxMinTmpSize(ge::Shape({16, 30}), ge::DT_FLOAT, ReducePattern::RA, true, true, mx, mn);
    CHECK_EQ(mn, 0u);
    GetReduceMaxMaxMinTmpSize(ge::Shape({8, 20}), ge::DT_FLOAT16, ReducePattern::AR, true, false, mx, mn);
    CHECK_EQ(mn, 8u * 32);
    GetReduceMaxMaxMinTmpSize(ge::Shape({8, 200}), ge::DT_FLOAT16, ReducePattern::AR, true, false, mx, mn);
    CHECK_EQ(mn, 8u * 256);
    GetReduceMinMaxMinTmpSize(ge::Shape({5, 20}), ge::DT_FLOAT, ReducePattern::RA, true, false, mx, mn);
    CHECK_EQ(mn, 4u * 96);
    GetReduceProdMaxMinTmpSize(ge::Shape({4, 100}), ge::DT_FLOAT, ReducePattern::AR, true, false, mx, mn);
    CHECK_EQ(mn, (64u + 32) * 4 + 256);
    GetReduceProdMaxMinTmpSize(ge::Shape({4, 100}), ge::DT_FLOAT, ReducePattern::AR, true, true, mx, mn);
    CHECK_EQ(mn, 256u);
    GetReduceAnyMaxMinTmpSize(ge::Shape({4, 40}), ge::DT_UINT8, ReducePattern::AR, true, true, mx, mn);
    CHECK_EQ(mn, 64u * 2 + 4 * 32);
    GetReduceAllMaxMinTmpSize(ge::Shape({6, 40}), ge::DT_UINT8, ReducePattern::RA, true, false, mx, mn);
    CHECK_EQ(mn, 4u * 64);
    mx = mn = 7;
    GetReduceSumMaxMinTmpSize(ge::Shape({16, 100}), ge::DT_FLOAT16, ReducePattern::AR, true, false, mx, mn);
    CHECK_EQ(mn, 7u);  // refused: float only on A2
    GetReduceMeanMaxMinTmpSize(ge::Shape({16, 100}), ge::DT_FLOAT, ReducePattern::AR, true, false, mx, mn);
    CHECK_EQ(mn, 16u * 64 * 4);
}

TEST_CASE("Reduction rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "ReduceSum: srcInnerPad is true on A2 (A2's check: the rows are read 32-byte padded, "
                                 "srcShape[1] rounded up to a block apart)"));
    CHECK(Broke(&FaultKernel<2>, "ReduceMax: srcShape[0] and srcShape[1] are greater than 0 (A2's check)"));
    CHECK(Broke(&FaultKernel<3>, "ReduceMax: srcTensor holds srcShape[0] * srcShape[1] elements, the rows padded to 32 "
                                 "bytes (A2's check)"));
    CHECK(Broke(&FaultKernel<4>, "ReduceSum: with RA, dstTensor holds srcShape[1] elements (A2's check)"));
    CHECK(Broke(&FaultKernel<5>, "ReduceMin: src and dst do not overlap (docs: 不支持源操作数与目的操作数地址重叠)"));
    CHECK(Broke(&FaultKernel<6>, "ReduceMax: sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum"));
    CHECK(Broke(&FaultKernel<7>, "ReduceMax: sharedTmpBuffer overlaps neither src nor dst (docs: "
                                 "不支持sharedTmpBuffer与源操作数和目的操作数地址重叠)"));
    CHECK(Broke(&FaultKernel<8>, "ReduceAny: srcTensor holds 0 or 1 only (docs: 源操作数srcTensor的输入数据只能为0或1)"));
    CHECK(Broke(&FaultKernel<9>, ""));
    CHECK(Broke(&FaultKernel<10>, ""));
    CHECK(Broke(&FaultKernel<11>, ""));
    CHECK(Broke(&FaultKernel<12>, "ReduceSum: with AR, dstTensor holds srcShape[0] elements (A2's check)"));
}

TEST_MAIN()
