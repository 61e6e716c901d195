// SoftmaxFlashV3 ("lib/activation/softmaxflashv3.h") against float64 references computed here from fresh random
// inputs: without and with update, the statistics in their own tensors (the docs' formula) and in place
// (meanTensor/inMeanTensor, maxTensor/inMaxTensor, expSumTensor/inExpSumTensor the same tensors, as the docs allow:
// A2's sequence writes the new mean and max before it reads inMeanTensor and inMaxTensor again, so the previous max
// drops out), the tiling from SoftMaxFlashV3TilingFunc at GetSoftMaxFlashV3MaxMinTmpSize's minimum (a row a part),
// its maximum and the framework's buffer; every run-time rule with a planted fault and a clean counterpart.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "adv_launch.h"
#include "check.h"
#include "fault_launch.h"
#include "lib/activation/softmaxflashv3.h"
#include "tiling/activation/softmax_tiling.h"

using namespace AscendC;

namespace {

struct Case {
    uint32_t m = 8, k = 512;
    bool update = false, inPlace = false, framework = false;
    uint32_t tmpBytes = 0;
    uint32_t loopCnt = 2;
    float alpha = 0.9375f;
    SoftMaxTiling tiling{};
};
Case gCase;

// in = src [m, k] half | inMean | inSum | inMax [m, 8] float; out = dst [m, k] half | mean | sum | max [m, 8] float |
// expMax [m, 16] half.
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const uint32_t xB = c.m * c.k * 2, sB = c.m * 32;
    TPipe pipe;
    TBuf<TPosition::VECIN> xb, imb, isb, ixb;
    TBuf<TPosition::VECOUT> db, mb, sb, mxb, eb;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(xb, xB);
    pipe.InitBuffer(imb, sB);
    pipe.InitBuffer(isb, sB);
    pipe.InitBuffer(ixb, sB);
    pipe.InitBuffer(db, xB);
    pipe.InitBuffer(mb, sB);
    pipe.InitBuffer(sb, sB);
    pipe.InitBuffer(mxb, sB);
    pipe.InitBuffer(eb, sB);
    if (!c.framework) pipe.InitBuffer(tb, c.tmpBytes);
    LocalTensor<half> src = xb.Get<half>(), dst = db.Get<half>(), em = eb.Get<half>();
    LocalTensor<float> inMean = imb.Get<float>(), inSum = isb.Get<float>(), inMax = ixb.Get<float>();
    LocalTensor<float> mean = c.inPlace ? inMean : mb.Get<float>(), sum = c.inPlace ? inSum : sb.Get<float>();
    LocalTensor<float> max = c.inPlace ? inMax : mxb.Get<float>();
    GlobalTensor<uint8_t> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out));
    DataCopy(src.ReinterpretCast<uint8_t>(), inGm, xB);
    DataCopy(inMean.ReinterpretCast<uint8_t>(), inGm[xB], sB);
    DataCopy(inSum.ReinterpretCast<uint8_t>(), inGm[xB + sB], sB);
    DataCopy(inMax.ReinterpretCast<uint8_t>(), inGm[xB + 2 * sB], sB);
    Duplicate(em, static_cast<half>(0.0f), static_cast<int32_t>(c.m * 16));
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    const SoftMaxParams params{c.m, c.k, c.m, c.k, c.loopCnt, 8, c.alpha};
    if (c.update) {
        if (c.framework) SoftmaxFlashV3<half, float, true>(dst, mean, sum, max, src, em, inMean, inSum, inMax, c.tiling, params);
        else SoftmaxFlashV3<half, float, true>(dst, mean, sum, max, src, em, inMean, inSum, inMax, tb.Get<uint8_t>(), c.tiling, params);
    } else {
        if (c.framework) SoftmaxFlashV3<half, float>(dst, mean, sum, max, src, em, inMean, inSum, inMax, c.tiling, params);
        else SoftmaxFlashV3<half, float>(dst, mean, sum, max, src, em, inMean, inSum, inMax, tb.Get<uint8_t>(), c.tiling, params);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, dst.ReinterpretCast<uint8_t>(), xB);
    DataCopy(outGm[xB], mean.ReinterpretCast<uint8_t>(), sB);
    DataCopy(outGm[xB + sB], sum.ReinterpretCast<uint8_t>(), sB);
    DataCopy(outGm[xB + 2 * sB], max.ReinterpretCast<uint8_t>(), sB);
    DataCopy(outGm[xB + 3 * sB], em.ReinterpretCast<uint8_t>(), sB);
}

using check::Rng;

// tmpKind 0: the minimum, 1: the maximum, 2: the framework's buffer.
int Run(Case c, int tmpKind, const char* what)
{
    uint32_t mx = 0, mn = 0;
    const ge::Shape shape({c.m, c.k});
    GetSoftMaxFlashV3MaxMinTmpSize(shape, 2, 4, mx, mn, c.update);
    c.tmpBytes = tmpKind == 1 ? mx : mn;
    c.framework = tmpKind == 2;
    SoftMaxFlashV3TilingFunc(shape, 2, 4, c.framework ? 64 * 1024 : c.tmpBytes, c.tiling, c.update);
    gCase = c;
    const uint32_t xB = c.m * c.k * 2, sB = c.m * 32;
    std::vector<uint8_t> in(xB + 3 * sB);
    std::vector<double> x(c.m * c.k), inMean(c.m), inSum(c.m), inMax(c.m);
    auto& rng = Rng();
    for (uint32_t i = 0; i < c.m * c.k; ++i) x[i] = adv::Put<half>(in.data() + i * 2, std::uniform_real_distribution<float>(0, 10)(rng));
    for (uint32_t r = 0; r < c.m; ++r) {
        const float mv = std::uniform_real_distribution<float>(3, 7)(rng), sv = std::uniform_real_distribution<float>(1, 50)(rng);
        // the previous max: for some rows above the current one (it decides the max), for others below
        const float xv = std::uniform_real_distribution<float>(-5, 25)(rng);
        for (uint32_t j = 0; j < 8; ++j) {
            inMean[r] = adv::Put<float>(in.data() + xB + (r * 8 + j) * 4, mv);
            inSum[r] = adv::Put<float>(in.data() + xB + sB + (r * 8 + j) * 4, sv);
            inMax[r] = adv::Put<float>(in.data() + xB + 2 * sB + (r * 8 + j) * 4, xv);
        }
    }
    std::vector<uint8_t> out(xB + 4 * sB);
    if (!adv::Launch1(&Kernel, "softmax_flashv3", in, out, what)) return 1;
    const double s = static_cast<double>(c.alpha) / (1 - static_cast<double>(c.alpha));
    const uint32_t baseK = c.k / 8;
    int bad = 0;
    // the statistics pass through float (the stored mean enters the shifts, about 15 times larger terms): 1e-4 absolute
    auto cmp = [&](const char* name, uint32_t i, double got, double want, double rtol) {
        if (!(std::fabs(got - want) <= rtol * std::fabs(want) + 1e-4) && bad++ < 3) {
            std::printf("  %s: %s[%u] = %.7g, expected %.7g\n", what, name, i, got, want);
        }
    };
    for (uint32_t r = 0; r < c.m; ++r) {
        double local[8] = {0}, global = 0;
        for (uint32_t j = 0; j < c.k; ++j) local[j / baseK] += x[r * c.k + j] / baseK;
        for (double l : local) global += l / 8;
        std::vector<double> xs(c.k);
        double rowMax = -1e300;
        for (uint32_t j = 0; j < c.k; ++j) {
            xs[j] = x[r * c.k + j] - (global - local[j / baseK]) * s;
            rowMax = std::max(rowMax, xs[j]);
        }
        double mean = global, maxOut = rowMax, shiftCurr = 0, expMax = 1, sumIn = 0;
        if (c.update) {
            mean = (global + inMean[r] * (c.loopCnt - 1)) / c.loopCnt;
            shiftCurr = (global - mean) * s;
            if (c.inPlace) {  // A2's order: the previous mean and max are the new ones when read again
                maxOut = rowMax + shiftCurr;
                expMax = 1;
            } else {  // the docs' formula
                const double shiftPrev = (inMean[r] - mean) * s;
                maxOut = std::max(rowMax + shiftCurr, inMax[r] + shiftPrev);
                expMax = std::exp(inMax[r] - maxOut + shiftPrev);
            }
            sumIn = inSum[r];
        }
        double sum = 0;
        for (uint32_t j = 0; j < c.k; ++j) {
            const double e = std::exp(xs[j] - (maxOut - shiftCurr));
            sum += e;
            cmp("dst", r * c.k + j, adv::Get<half>(out.data() + (r * c.k + j) * 2), e, 2e-3);
        }
        cmp("mean", r, adv::Get<float>(out.data() + xB + r * 32 + 4), mean, 1e-5);
        cmp("expSum", r, adv::Get<float>(out.data() + xB + sB + r * 32 + 4), expMax * sumIn + sum, 1e-4);
        cmp("max", r, adv::Get<float>(out.data() + xB + 2 * sB + r * 32 + 4), maxOut, 1e-5);
        if (c.update) cmp("expMax", r, adv::Get<half>(out.data() + xB + 3 * sB + r * 32 + 6), expMax, 2e-3);
    }
    return bad;
}

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<half> src = ub.Alloc<half, 8 * 512>();
    LocalTensor<half> dst = ub.Alloc<half, 8 * 512>();
    LocalTensor<float> st = ub.Alloc<float, 64>();
    LocalTensor<float> st2 = ub.Alloc<float, 64>();
    LocalTensor<float> st3 = ub.Alloc<float, 64>();
    LocalTensor<half> em = ub.Alloc<half, 128>();
    LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 64 * 1024>();
    Duplicate(src, static_cast<half>(1.0f), 8 * 512);
    Duplicate(st, 1.0f, 64);
    Duplicate(st2, 1.0f, 64);
    Duplicate(st3, 1.0f, 64);
    PipeBarrier<PIPE_V>();
    SoftMaxTiling t{};
    SoftMaxFlashV3TilingFunc(ge::Shape({8, 512}), 2, 4, 64 * 1024, t, true);
    SoftMaxParams p{8, 512, 8, 512, 2, 8, 0.9375f};
    if constexpr (kFault == 0) SoftmaxFlashV3<half, float, true>(dst, st, st2, st3, src, em, st, st2, st3, tmp, t, p);
    if constexpr (kFault == 1) {
        p.splitMeanCnt = 4;
        SoftmaxFlashV3<half, float, true>(dst, st, st2, st3, src, em, st, st2, st3, tmp, t, p);
    }
    if constexpr (kFault == 2) {
        p.loopCnt = 0;
        SoftmaxFlashV3<half, float, true>(dst, st, st2, st3, src, em, st, st2, st3, tmp, t, p);
    }
    if constexpr (kFault == 3) {  // clean: loopCnt is not read without update
        p.loopCnt = 0;
        SoftmaxFlashV3<half, float>(dst, st, st2, st3, src, em, st, st2, st3, tmp, t, p);
    }
    if constexpr (kFault == 4) {
        p.oriSrcK = 500;
        SoftmaxFlashV3<half, float, true>(dst, st, st2, st3, src, em, st, st2, st3, tmp, t, p);
    }
    if constexpr (kFault == 5) {  // below 512 columns
        SoftMaxTiling t2{};
        SoftMaxFlashV3TilingFunc(ge::Shape({8, 256}), 2, 4, 64 * 1024, t2, true);
        SoftMaxParams q{8, 256, 8, 256, 2, 8, 0.9375f};
        SoftmaxFlashV3<half, float, true>(dst, st, st2, st3, src, em, st, st2, st3, tmp, t2, q);
    }
    if constexpr (kFault == 6) {  // an inMean block whose elements differ
        st.SetValue(3, 2.0f);
        SoftmaxFlashV3<half, float, true>(dst, st, st2, st3, src, em, st, st2, st3, tmp, t, p);
    }
    if constexpr (kFault == 7) SoftmaxFlashV3<half, float, true>(dst, st, st2, st3, src, em, st2, st2, st3, tmp, t, p);
    if constexpr (kFault == 8) {
        p.alpha = 1.0f;
        SoftmaxFlashV3<half, float, true>(dst, st, st2, st3, src, em, st, st2, st3, tmp, t, p);
    }
    if constexpr (kFault == 9 || kFault == 10) {  // A2's layout for 8 rows of 512: 21504 bytes; 9: a block short
        LocalTensor<uint8_t> small = tmp;
        small.SetSize(kFault == 9 ? 21472 : 21504);
        SoftmaxFlashV3<half, float, true>(dst, st, st2, st3, src, em, st, st2, st3, small, t, p);
    }
    (void)pipe;
}

using fault::Broke;

}  // namespace

TEST_CASE("SoftmaxFlashV3 without update: the buffers, against float64")
{
    int failed = 0;
    for (uint32_t k : {512u, 1024u}) {
        for (int tmpKind = 0; tmpKind < 3; ++tmpKind) {
            Case c;
            c.k = k;
            char what[64];
            std::snprintf(what, sizeof(what), "no update k %u tmp %d", k, tmpKind);
            failed += Run(c, tmpKind, what) != 0 ? 1 : 0;
        }
    }
    CHECK_EQ(failed, 0);
}

TEST_CASE("SoftmaxFlashV3 with update: separate statistics (the formula) and in place (A2's order), against float64")
{
    int failed = 0;
    for (bool inPlace : {false, true}) {
        for (int tmpKind = 0; tmpKind < 3; ++tmpKind) {
            Case c;
            c.k = tmpKind == 1 ? 1024 : 2048;  // the maximum buffer (a part of all rows) for 2048 overflows the UB
            c.m = tmpKind == 1 ? 8 : 16;
            c.update = true;
            c.inPlace = inPlace;
            c.loopCnt = 1 + std::uniform_int_distribution<uint32_t>(1, 4)(Rng());
            char what[64];
            std::snprintf(what, sizeof(what), "update in place %d tmp %d", inPlace, tmpKind);
            failed += Run(c, tmpKind, what) != 0 ? 1 : 0;
        }
    }
    CHECK_EQ(failed, 0);
}

TEST_CASE("SoftmaxFlashV3 rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "SoftmaxFlashV3: params.splitMeanCnt is 8 (docs, A2's check)"));
    CHECK(Broke(&FaultKernel<2>, "SoftmaxFlashV3: params.loopCnt >= 1 with isUpdate (docs, A2's check)"));
    CHECK(Broke(&FaultKernel<3>, ""));
    CHECK(Broke(&FaultKernel<4>, "SoftmaxFlashV3: params.oriSrcM = srcM and oriSrcK = srcK (docs, A2's check: no "
                                 "padded shapes)"));
    CHECK(Broke(&FaultKernel<5>, "SoftmaxFlashV3: params.srcK >= 512 and a multiple of 64, params.srcM a multiple of 8 "
                                 "(docs; A2 asserts srcK >= 512)"));
    CHECK(fault::Violation(&FaultKernel<6>).rfind("SoftmaxFlashV3: every element of an input statistics block", 0) == 0);
    CHECK(fault::Violation(&FaultKernel<7>).rfind("SoftmaxFlashV3: an output", 0) == 0);
    CHECK(Broke(&FaultKernel<8>, "SoftmaxFlashV3: params.alpha is not 1 (the formula divides by 1 - alpha)"));
    CHECK(Broke(&FaultKernel<9>, "SoftmaxFlashV3: sharedTmpBuffer holds what the tiling's parts use: splitM rows of "
                                 "the API's row size (a tiling computed for a larger local workspace overruns it)"));
    CHECK(Broke(&FaultKernel<10>, ""));
}

TEST_MAIN()
