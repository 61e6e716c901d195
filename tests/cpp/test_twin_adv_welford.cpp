// WelfordUpdate ("lib/normalization/layernorm.h") against float64 references computed here from fresh random inputs:
// float and half inputX, isReuseSource (float), isInplace with abComputeLength below abLength (the outputs past the
// computed part take the inputs', from abLength minus the uncomputed length rounded up to 8), without it (those
// outputs left alone), the temporary buffer at GetWelfordUpdateMaxMinTmpSize's minimum (many chunks), its maximum
// and the framework's; GetWelfordUpdateMaxMinTmpSize; every run-time rule with a planted fault and a clean
// counterpart.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "adv_launch.h"
#include "check.h"
#include "fault_launch.h"
#include "lib/normalization/layernorm.h"
#include "tiling/normalization/layernorm_tiling.h"

using namespace AscendC;

namespace {

constexpr WelfordUpdateConfig kInplace = {true};
constexpr WelfordUpdateConfig kNotInplace = {false};

struct Case {
    uint32_t ab = 64, comp = 64;
    bool reuse = false, inplace = false, framework = false;
    uint32_t tmpBytes = 0;
    float nRec = 0.25f;
};
Case gCase;

uint32_t Pad32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

template <typename T, bool reuse, bool inplace>
void Call(const Case& c, const LocalTensor<float>& om, const LocalTensor<float>& ov, const LocalTensor<float>& im,
          const LocalTensor<float>& iv, const LocalTensor<T>& x, const LocalTensor<uint8_t>& tmp)
{
    const WelfordUpdateParam para{1, c.ab, c.comp, c.nRec};
    constexpr const WelfordUpdateConfig& cfg = inplace ? kInplace : kNotInplace;
    if (c.framework) WelfordUpdate<T, float, reuse, cfg>(om, ov, im, iv, x, para);
    else WelfordUpdate<T, float, reuse, cfg>(om, ov, im, iv, x, tmp, para);
}

// in = x [ab] | inMean [ab] | inVariance [ab]; out = outMean [ab] | outVariance [ab] (each 32-byte padded).
template <typename T>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const uint32_t xBytes = Pad32(c.ab * sizeof(T)), fBytes = Pad32(c.ab * 4);
    TPipe pipe;
    TBuf<TPosition::VECIN> xb, mb, vb;
    TBuf<TPosition::VECOUT> omb, ovb;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(xb, xBytes);
    pipe.InitBuffer(mb, fBytes);
    pipe.InitBuffer(vb, fBytes);
    pipe.InitBuffer(omb, fBytes);
    pipe.InitBuffer(ovb, fBytes);
    if (!c.framework) pipe.InitBuffer(tb, c.tmpBytes);
    LocalTensor<T> x = xb.Get<T>();
    LocalTensor<float> im = mb.Get<float>(), iv = vb.Get<float>(), om = omb.Get<float>(), ov = ovb.Get<float>();
    LocalTensor<uint8_t> tmp;
    if (!c.framework) tmp = tb.Get<uint8_t>();
    GlobalTensor<uint8_t> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out));
    DataCopy(x.template ReinterpretCast<uint8_t>(), inGm, xBytes);
    DataCopy(im.ReinterpretCast<uint8_t>(), inGm[xBytes], fBytes);
    DataCopy(iv.ReinterpretCast<uint8_t>(), inGm[xBytes + fBytes], fBytes);
    Duplicate(om.ReinterpretCast<uint16_t>(), uint16_t(0x7fc0), static_cast<int32_t>(fBytes / 2));
    Duplicate(ov.ReinterpretCast<uint16_t>(), uint16_t(0x7fc0), static_cast<int32_t>(fBytes / 2));
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    if constexpr (std::is_same_v<T, float>) {
        if (c.reuse) {
            if (c.inplace) Call<T, true, true>(c, om, ov, im, iv, x, tmp);
            else Call<T, true, false>(c, om, ov, im, iv, x, tmp);
        } else if (c.inplace) {
            Call<T, false, true>(c, om, ov, im, iv, x, tmp);
        } else {
            Call<T, false, false>(c, om, ov, im, iv, x, tmp);
        }
    } else if (c.inplace) {
        Call<T, false, true>(c, om, ov, im, iv, x, tmp);
    } else {
        Call<T, false, false>(c, om, ov, im, iv, x, tmp);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, om.ReinterpretCast<uint8_t>(), fBytes);
    DataCopy(outGm[fBytes], ov.ReinterpretCast<uint8_t>(), fBytes);
}

using check::Rng;

template <typename T>
int Run(Case c, bool maxTmp, const char* what)
{
    uint32_t mx = 0, mn = 0;
    GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, c.ab}), sizeof(T), 4, c.reuse, c.inplace, mx, mn);
    c.tmpBytes = maxTmp ? mx : mn;
    gCase = c;
    const uint32_t xBytes = Pad32(c.ab * sizeof(T)), fBytes = Pad32(c.ab * 4);
    std::vector<uint8_t> in(xBytes + 2 * fBytes);
    std::vector<double> x(c.ab), m(c.ab), v(c.ab);
    for (uint32_t i = 0; i < c.ab; ++i) {
        x[i] = adv::Put<T>(in.data() + i * sizeof(T), std::uniform_real_distribution<float>(-4, 4)(Rng()));
        m[i] = adv::Put<float>(in.data() + xBytes + i * 4, std::uniform_real_distribution<float>(-2, 2)(Rng()));
        v[i] = adv::Put<float>(in.data() + xBytes + fBytes + i * 4, std::uniform_real_distribution<float>(0, 5)(Rng()));
    }
    std::vector<uint8_t> out(2 * fBytes);
    if (!adv::Launch1(&Kernel<T>, "welford_update", in, out, what)) return 1;
    const uint32_t keepFrom = c.inplace && c.comp < c.ab ? c.ab - (c.ab - c.comp + 7) / 8 * 8 : c.ab;
    int bad = 0;
    for (uint32_t i = 0; i < c.ab; ++i) {
        const double gotM = adv::Get<float>(out.data() + i * 4), gotV = adv::Get<float>(out.data() + fBytes + i * 4);
        double wantM, wantV;
        if (i < c.comp) {  // delta = x - mean, mean' = mean + delta / n, M' = M + delta * (x - mean')
            const double delta = x[i] - m[i];
            wantM = m[i] + delta * c.nRec;
            wantV = v[i] + delta * (x[i] - wantM);
        } else if (i >= keepFrom) {
            wantM = m[i];
            wantV = v[i];
        } else {  // not written: the NaN the kernel filled the output with
            if (!(std::isnan(gotM) && std::isnan(gotV)) && bad++ < 3) {
                std::printf("  %s: [%u] past abComputeLength was written: %g, %g\n", what, i, gotM, gotV);
            }
            continue;
        }
        for (const auto& [got, want, name] : {std::tuple<double, double, const char*>{gotM, wantM, "mean"},
                                              {gotV, wantV, "variance"}}) {
            if (!(std::fabs(got - want) <= 2e-6 * (std::fabs(want) + 1.0)) && bad++ < 3) {
                std::printf("  %s: %s[%u] = %.9g, expected %.9g\n", what, name, i, got, want);
            }
        }
    }
    return bad;
}

template <typename T>
int Sweep()
{
    constexpr uint32_t kBlk = 32 / sizeof(T);
    struct Shape {
        uint32_t ab, comp;
    };
    // one block; 200 columns' worth computed in chunks of 64 (the minimum) with a tail; part of a row computed.
    const Shape shapes[] = {{kBlk, kBlk}, {13 * kBlk, 13 * kBlk}, {40 * kBlk, 40 * kBlk - 11}, {64, 3}};
    int failed = 0;
    char what[160];
    for (const Shape& sh : shapes) {
        for (int form = 0; form < 6; ++form) {  // min tmp, max tmp, framework; x inplace; reuse (float)
            const bool reuse = form >= 4;
            if (reuse && !std::is_same_v<T, float>) continue;
            Case c;
            c.ab = sh.ab;
            c.comp = sh.comp;
            c.framework = form % 3 == 2;
            c.inplace = form == 1 || form == 3 || form == 5;
            c.reuse = reuse;
            c.nRec = 1.0f / static_cast<float>(std::uniform_int_distribution<int>(1, 9)(Rng()));
            std::snprintf(what, sizeof(what), "%s ab %u comp %u form %d", sizeof(T) == 2 ? "half" : "float", sh.ab,
                          sh.comp, form);
            failed += Run<T>(c, form % 3 == 1, what) != 0 ? 1 : 0;
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
    LocalTensor<float> x = ub.Alloc<float, 128>();
    LocalTensor<float> im = ub.Alloc<float, 128>();
    LocalTensor<float> iv = ub.Alloc<float, 128>();
    LocalTensor<float> om = ub.Alloc<float, 128>();
    LocalTensor<float> ov = ub.Alloc<float, 128>();
    LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 512>();
    Duplicate(x, 1.5f, 128);
    Duplicate(im, 0.5f, 128);
    Duplicate(iv, 0.25f, 128);
    PipeBarrier<PIPE_V>();
    WelfordUpdateParam p{1, 128, 100, 0.5f};
    if constexpr (kFault == 0) WelfordUpdate<float, float>(om, ov, im, iv, x, tmp, p);  // clean
    if constexpr (kFault == 1) {
        p.rnLength = 2;
        WelfordUpdate<float, float>(om, ov, im, iv, x, tmp, p);
    }
    if constexpr (kFault == 2) {
        p.abLength = 124;  // 496 bytes
        WelfordUpdate<float, float>(om, ov, im, iv, x, tmp, p);
    }
    if constexpr (kFault == 3 || kFault == 4) {
        p.abComputeLength = kFault == 3 ? 0 : 129;
        WelfordUpdate<float, float>(om, ov, im, iv, x, tmp, p);
    }
    if constexpr (kFault == 5) {
        LocalTensor<float> small = iv;
        small.SetSize(120);
        WelfordUpdate<float, float>(om, ov, im, small, x, tmp, p);
    }
    if constexpr (kFault == 6 || kFault == 7) {  // 512 bytes needed (2 float buffers); 6 one block short
        LocalTensor<uint8_t> small = tmp;
        small.SetSize(kFault == 6 ? 480 : 512);
        WelfordUpdate<float, float>(om, ov, im, iv, x, small, p);
    }
    if constexpr (kFault == 8) WelfordUpdate<float, float, true>(om, ov, im, iv, x, tmp[256], p);  // clean: 1 buffer
    if constexpr (kFault == 9) WelfordUpdate<float, float>(om, om, im, iv, x, tmp, p);
    if constexpr (kFault == 10) WelfordUpdate<float, float>(im, ov, im, iv, x, tmp, p);  // mean updated in place
    if constexpr (kFault == 11) WelfordUpdate<float, float>(om, ov, im, iv, x, x.ReinterpretCast<uint8_t>(), p);
    if constexpr (kFault == 12) WelfordUpdate<float, float>(om[4], ov, im, iv, x, tmp, p);  // 16 bytes: misaligned
    if constexpr (kFault == 13) WelfordUpdate<float, float, false, kInplace>(om, ov, im, iv, x, tmp, p);  // clean
}

using fault::Broke;

}  // namespace

TEST_CASE("WelfordUpdate float: chunks, isInplace, isReuseSource and the framework's buffer, against float64")
{
    CHECK_EQ(Sweep<float>(), 0);
}
TEST_CASE("WelfordUpdate half inputX: chunks, isInplace and the framework's buffer, against float64")
{
    CHECK_EQ(Sweep<half>(), 0);
}

TEST_CASE("GetWelfordUpdateMaxMinTmpSize returns A2's sizes")
{
    uint32_t mx = 0, mn = 0;
    GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, 200}), 4, 4, false, false, mx, mn);
    CHECK_EQ(mn, 512u);
    CHECK_EQ(mx, 4u * 512);
    GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, 200}), 4, 4, true, true, mx, mn);
    CHECK_EQ(mn, 256u);
    CHECK_EQ(mx, 4u * 256);
    GetWelfordUpdateMaxMinTmpSize(ge::Shape({2, 64}), 2, 4, true, false, mx, mn);  // half: isReuseSource ignored
    CHECK_EQ(mn, 768u);
    CHECK_EQ(mx, 2u * 768);
    GetWelfordUpdateMaxMinTmpSize(ge::Shape({64}), 2, 4, false, false, mx, mn);  // 1-D: reported, unchanged
    CHECK_EQ(mn, 768u);
    CHECK_EQ(mx, 2u * 768);
}

TEST_CASE("WelfordUpdate rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "WelfordUpdate: para.rnLength is 1 (docs: reserved, fixed at 1)"));
    CHECK(Broke(&FaultKernel<2>, "WelfordUpdate: para.abLength is a non-zero multiple of 32 / sizeof(T) (docs)"));
    CHECK(Broke(&FaultKernel<3>, "WelfordUpdate: 0 < para.abComputeLength <= para.abLength (docs, A2's check)"));
    CHECK(Broke(&FaultKernel<4>, "WelfordUpdate: 0 < para.abComputeLength <= para.abLength (docs, A2's check)"));
    CHECK(Broke(&FaultKernel<5>, "WelfordUpdate: each operand holds para.rnLength * para.abLength elements (A2's "
                                 "check)"));
    CHECK(Broke(&FaultKernel<6>, "WelfordUpdate: sharedTmpBuffer holds GetWelfordUpdateMaxMinTmpSize's minimum (256 "
                                 "bytes per float buffer: 3 for half inputX, 1 for float with isReuseSource, else 2)"));
    CHECK(Broke(&FaultKernel<7>, ""));
    CHECK(Broke(&FaultKernel<8>, ""));
    CHECK(Broke(&FaultKernel<9>, "WelfordUpdate: outputMean and outputVariance do not overlap"));
    CHECK(Broke(&FaultKernel<10>, "WelfordUpdate: no source overlaps a destination (docs: "
                                  "不支持源操作数与目的操作数地址重叠)"));
    CHECK(Broke(&FaultKernel<11>, "WelfordUpdate: sharedTmpBuffer overlaps no operand (docs)"));
    CHECK(fault::Violation(&FaultKernel<12>).rfind("WelfordUpdate: ", 0) == 0);
    CHECK(Broke(&FaultKernel<13>, ""));
}

TEST_MAIN()
