// WelfordFinalize ("lib/normalization/welfordfinalize.h") against float64 references computed here from fresh random
// inputs: the counts form, the form without counts with and without a tail (headCount / tailCount), each with the
// temporary buffer at GetWelfordFinalizeMaxMinTmpSize's minimum (rounds of 64, past 64 rounds: the partials folded),
// its maximum and the framework's; elements 1..7 of the outputs zeroed; GetWelfordFinalizeMaxMinTmpSize; every
// run-time rule with a planted fault and a clean counterpart.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "adv_launch.h"
#include "check.h"
#include "fault_launch.h"
#include "lib/normalization/welfordfinalize.h"
#include "tiling/normalization/layernorm_tiling.h"

using namespace AscendC;

namespace {

enum class Form { kCounts, kNoTail, kTail };

struct Case {
    Form form = Form::kCounts;
    uint32_t ab = 64;
    bool framework = false;
    uint32_t tmpBytes = 1024;
    WelfordFinalizePara para{};
};
Case gCase;

// in = inMean [ab] | inVariance [ab] | counts [ab]; out = outMean [8] | outVariance [8].
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const uint32_t bytes = c.ab * 4;
    TPipe pipe;
    TBuf<TPosition::VECIN> mb, vb, cb;
    TBuf<TPosition::VECOUT> omb, ovb;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(mb, bytes);
    pipe.InitBuffer(vb, bytes);
    pipe.InitBuffer(cb, bytes);
    pipe.InitBuffer(omb, 32);
    pipe.InitBuffer(ovb, 32);
    if (!c.framework) pipe.InitBuffer(tb, c.tmpBytes);
    LocalTensor<float> im = mb.Get<float>(), iv = vb.Get<float>(), om = omb.Get<float>(), ov = ovb.Get<float>();
    LocalTensor<int32_t> counts = cb.Get<int32_t>();
    GlobalTensor<uint8_t> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out));
    DataCopy(im.ReinterpretCast<uint8_t>(), inGm, bytes);
    DataCopy(iv.ReinterpretCast<uint8_t>(), inGm[bytes], bytes);
    DataCopy(counts.ReinterpretCast<uint8_t>(), inGm[2 * bytes], bytes);
    Duplicate(om, 9.0f, 8);  // overwritten: elements 1..7 must come out 0
    Duplicate(ov, 9.0f, 8);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WelfordFinalizePara para = c.para;
    if (c.framework) {
        if (c.form == Form::kCounts) WelfordFinalize(om, ov, im, iv, counts, para);
        else WelfordFinalize(om, ov, im, iv, para);
    } else {
        const LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
        if (c.form == Form::kCounts) WelfordFinalize(om, ov, im, iv, counts, tmp, para);
        else WelfordFinalize<false>(om, ov, im, iv, tmp, para);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, om.ReinterpretCast<uint8_t>(), 32);
    DataCopy(outGm[32], ov.ReinterpretCast<uint8_t>(), 32);
}

using check::Rng;

// tmpKind 0: the minimum, 1: the maximum, 2: the framework's buffer.
int Run(Form form, uint32_t ab, int tmpKind, const char* what)
{
    Case c;
    c.form = form;
    c.ab = ab;
    uint32_t mx = 0, mn = 0;
    GetWelfordFinalizeMaxMinTmpSize(ge::Shape({ab}), 4, false, mx, mn);
    c.tmpBytes = tmpKind == 1 ? mx : mn;
    c.framework = tmpKind == 2;
    std::vector<uint8_t> in(3 * ab * 4);
    std::vector<double> m(ab), v(ab), cnt(ab);
    auto& rng = Rng();
    const uint32_t rn = std::uniform_int_distribution<uint32_t>(2, 9)(rng);
    const uint32_t headCount = std::uniform_int_distribution<uint32_t>(2, 9)(rng);
    const uint32_t tailCount = std::uniform_int_distribution<uint32_t>(1, headCount - 1)(rng);
    const uint32_t headLen = form == Form::kTail ? std::uniform_int_distribution<uint32_t>(1, ab - 1)(rng) : ab;
    double total = 0;
    for (uint32_t i = 0; i < ab; ++i) {
        m[i] = adv::Put<float>(in.data() + i * 4, std::uniform_real_distribution<float>(-2, 2)(rng));
        v[i] = adv::Put<float>(in.data() + (ab + i) * 4, std::uniform_real_distribution<float>(0, 5)(rng));
        const int32_t k = std::uniform_int_distribution<int32_t>(1, 9)(rng);
        std::memcpy(in.data() + (2 * ab + i) * 4, &k, 4);
        cnt[i] = form == Form::kCounts ? k : form == Form::kNoTail ? rn : (i < headLen ? headCount : tailCount);
        total += cnt[i];
    }
    // A2's parameters as its docs define them: rRec 1 / R (R = rnLength * abLength without a tail).
    c.para = WelfordFinalizePara{rn, ab, headCount, headLen, form == Form::kTail ? tailCount : 0,
                                 form == Form::kTail ? ab - headLen : 0, 1.0f / ab, static_cast<float>(1.0 / total)};
    if (form == Form::kNoTail) c.para.headCount = 1;
    gCase = c;
    std::vector<uint8_t> out(64);
    if (!adv::Launch1(&Kernel, "welford_finalize", in, out, what)) return 1;
    double mean = 0;
    const double rRec = c.para.rRec;
    for (uint32_t i = 0; i < ab; ++i) mean += form == Form::kNoTail ? m[i] * c.para.abRec : m[i] * cnt[i] * rRec;
    double var = 0;
    for (uint32_t i = 0; i < ab; ++i) var += (v[i] + cnt[i] * (m[i] - mean) * (m[i] - mean)) * rRec;
    int bad = 0;
    const double gotM = adv::Get<float>(out.data()), gotV = adv::Get<float>(out.data() + 32);
    if (!(std::fabs(gotM - mean) <= 1e-5 * (std::fabs(mean) + 1))) {
        std::printf("  %s: mean %.9g, expected %.9g\n", what, gotM, mean);
        ++bad;
    }
    if (!(std::fabs(gotV - var) <= 1e-5 * (std::fabs(var) + 1))) {
        std::printf("  %s: variance %.9g, expected %.9g\n", what, gotV, var);
        ++bad;
    }
    for (uint32_t i = 1; i < 8; ++i) {
        if (adv::Get<float>(out.data() + i * 4) != 0 || adv::Get<float>(out.data() + 32 + i * 4) != 0) {
            std::printf("  %s: element %u of the outputs is not 0\n", what, i);
            ++bad;
            break;
        }
    }
    return bad;
}

int Sweep(Form form)
{
    // one block; 200 (rounds of 64 and a tail); 4480 = 70 rounds of 64 at the minimum (the partials folded at 64).
    const uint32_t abs[] = {8, 200, 4480};
    int failed = 0;
    char what[120];
    for (uint32_t ab : abs) {
        for (int tmpKind = 0; tmpKind < 3; ++tmpKind) {
            std::snprintf(what, sizeof(what), "form %d ab %u tmp %d", static_cast<int>(form), ab, tmpKind);
            failed += Run(form, ab, tmpKind, what) != 0 ? 1 : 0;
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
    LocalTensor<float> im = ub.Alloc<float, 64>();
    LocalTensor<float> iv = ub.Alloc<float, 64>();
    LocalTensor<int32_t> cnt = ub.Alloc<int32_t, 64>();
    LocalTensor<float> om = ub.Alloc<float, 8>();
    LocalTensor<float> ov = ub.Alloc<float, 8>();
    LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 1024>();
    Duplicate(im, 1.5f, 64);
    Duplicate(iv, 0.25f, 64);
    Duplicate(cnt, int32_t(2), 64);
    PipeBarrier<PIPE_V>();
    WelfordFinalizePara p{1, 64, 2, 64, 0, 0, 1.0f / 64, 1.0f / 128};
    if constexpr (kFault == 0) WelfordFinalize(om, ov, im, iv, cnt, tmp, p);  // clean
    if constexpr (kFault == 1) {
        p.abLength = p.headCountLength = 60;
        p.abRec = 1.0f / 60;
        WelfordFinalize(om, ov, im, iv, tmp, p);
    }
    if constexpr (kFault == 2) {
        p.headCountLength = 56;
        WelfordFinalize(om, ov, im, iv, tmp, p);
    }
    if constexpr (kFault == 3) {  // clean: head and tail adding up
        p.headCountLength = 56;
        p.tailCountLength = 8;
        p.tailCount = 1;
        WelfordFinalize(om, ov, im, iv, tmp, p);
    }
    if constexpr (kFault == 4) {  // tailCount 0 with a tail length
        p.headCountLength = 56;
        p.tailCountLength = 8;
        WelfordFinalize(om, ov, im, iv, tmp, p);
    }
    if constexpr (kFault == 5) {
        p.abRec = 1.0f / 32;
        WelfordFinalize(om, ov, im, iv, tmp, p);
    }
    if constexpr (kFault == 6) WelfordFinalize(om, ov, im, iv, cnt[8], tmp, p);  // counts 56 elements
    if constexpr (kFault == 7) {
        LocalTensor<float> small = om;
        small.SetSize(4);
        WelfordFinalize(small, ov, im, iv, tmp, p);
    }
    if constexpr (kFault == 8 || kFault == 9) {  // 1024 bytes needed; 8: one block short
        LocalTensor<uint8_t> small = tmp;
        small.SetSize(kFault == 8 ? 992 : 1024);
        WelfordFinalize(om, ov, im, iv, small, p);
    }
    if constexpr (kFault == 10) WelfordFinalize(om, om, im, iv, tmp, p);
    if constexpr (kFault == 11) WelfordFinalize(im, ov, im, iv, tmp, p);  // mean into its own input
    if constexpr (kFault == 12) WelfordFinalize(om, ov, tmp.ReinterpretCast<float>(), iv, cnt, tmp, p);
    if constexpr (kFault == 13) WelfordFinalize(om[4], ov, im, iv, tmp, p);  // 16 bytes: misaligned
}

using fault::Broke;

}  // namespace

TEST_CASE("WelfordFinalize with counts: rounds, folded partials and the framework's buffer, against float64")
{
    CHECK_EQ(Sweep(Form::kCounts), 0);
}
TEST_CASE("WelfordFinalize without counts, no tail (rnLength), against float64") { CHECK_EQ(Sweep(Form::kNoTail), 0); }
TEST_CASE("WelfordFinalize without counts, headCount and tailCount, against float64")
{
    CHECK_EQ(Sweep(Form::kTail), 0);
}

TEST_CASE("GetWelfordFinalizeMaxMinTmpSize returns A2's sizes")
{
    uint32_t mx = 0, mn = 0;
    GetWelfordFinalizeMaxMinTmpSize(ge::Shape({64}), 4, false, mx, mn);
    CHECK_EQ(mn, 1024u);
    CHECK_EQ(mx, 1024u);
    GetWelfordFinalizeMaxMinTmpSize(ge::Shape({200}), 4, true, mx, mn);
    CHECK_EQ(mn, 1024u);
    CHECK_EQ(mx, (128u + 400u) * 4);
    mx = mn = 7;
    GetWelfordFinalizeMaxMinTmpSize(ge::Shape({12}), 4, false, mx, mn);  // not 32-byte aligned: reported, unchanged
    CHECK_EQ(mn, 7u);
    GetWelfordFinalizeMaxMinTmpSize(ge::Shape({1, 64}), 4, false, mx, mn);  // not 1-D: reported, unchanged
    CHECK_EQ(mx, 7u);
}

TEST_CASE("WelfordFinalize rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "WelfordFinalize: para.abLength is a non-zero multiple of 32 / sizeof(float) (docs, "
                                 "A2's check)"));
    CHECK(Broke(&FaultKernel<2>, "WelfordFinalize: para.headCountLength + para.tailCountLength = para.abLength (docs, "
                                 "A2's check)"));
    CHECK(Broke(&FaultKernel<3>, ""));
    CHECK(Broke(&FaultKernel<4>, "WelfordFinalize: para.tailCountLength is 0 when para.tailCount is 0 (docs: on A2; "
                                 "A2's check)"));
    CHECK(Broke(&FaultKernel<5>, "WelfordFinalize: para.abRec is 1 / para.abLength within 1e-4 (A2's check)"));
    CHECK(Broke(&FaultKernel<6>, "WelfordFinalize: inputMean, inputVariance and counts hold para.abLength elements, "
                                 "outputMean and outputVariance 8 (A2's check)"));
    CHECK(Broke(&FaultKernel<7>, "WelfordFinalize: inputMean, inputVariance and counts hold para.abLength elements, "
                                 "outputMean and outputVariance 8 (A2's check)"));
    CHECK(Broke(&FaultKernel<8>, "WelfordFinalize: sharedTmpBuffer holds GetWelfordFinalizeMaxMinTmpSize's minimum "
                                 "(1024 bytes)"));
    CHECK(Broke(&FaultKernel<9>, ""));
    CHECK(Broke(&FaultKernel<10>, "WelfordFinalize: outputMean and outputVariance do not overlap"));
    CHECK(Broke(&FaultKernel<11>, "WelfordFinalize: no source overlaps a destination (docs: "
                                  "不支持源操作数与目的操作数地址重叠)"));
    CHECK(Broke(&FaultKernel<12>, "WelfordFinalize: sharedTmpBuffer overlaps no operand (docs: "
                                  "不支持sharedTmpBuffer与源操作数和目的操作数地址重叠)"));
    CHECK(fault::Violation(&FaultKernel<13>).rfind("WelfordFinalize: ", 0) == 0);
}

TEST_MAIN()
