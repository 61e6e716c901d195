// DeepNorm ("lib/normalization/deepnorm.h") against float64 references computed here from fresh random inputs:
// float and half, isBasicBlock (the row-loop and the Brcb paths), isReuseSrc (float), originalHLength below hLength,
// the temporary buffer at GetDeepNormMaxMinTmpSize's minimum (a round a row, and a tail), its maximum and the
// framework's; GetDeepNormMaxMinTmpSize / GetDeepNormTilingInfo (both forms); every run-time rule with a planted fault
// and a clean counterpart.
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
#include "lib/normalization/deepnorm.h"
#include "tiling/normalization/deepnorm_tiling.h"

using namespace AscendC;

namespace {

struct Case {
    uint32_t b = 2, s = 4, h = 64, oriH = 64;
    bool basic = false, reuse = false, framework = false;
    uint32_t tmpBytes = 0;
    float alpha = 0.5f, epsilon = 1e-5f;
    DeepNormTiling tiling{};
};
Case gCase;

uint32_t Pad32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

template <typename T, bool reuse, bool basic>
void Call(const Case& c, const LocalTensor<T>& dst, const LocalTensor<T>& mean, const LocalTensor<T>& rstd,
          const LocalTensor<T>& src, const LocalTensor<T>& gx, const LocalTensor<T>& beta, const LocalTensor<T>& gamma,
          const LocalTensor<uint8_t>& tmp)
{
    DeepNormTiling t = c.tiling;
    const T alpha = static_cast<T>(c.alpha), eps = static_cast<T>(c.epsilon);
    if (c.framework) DeepNorm<T, reuse, basic>(dst, mean, rstd, src, gx, beta, gamma, alpha, eps, t);
    else DeepNorm<T, reuse, basic>(dst, mean, rstd, src, gx, beta, gamma, tmp, alpha, eps, t);
}

// in = src [bsh] | gx [bsh] | beta [h] | gamma [h]; out = dst [bsh] | mean [bs] | variance [bs] (each 32-byte padded).
template <typename T>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const uint32_t n = c.b * c.s * c.h, bs = c.b * c.s;
    const uint32_t xB = Pad32(n * sizeof(T)), hB = Pad32(c.h * sizeof(T)), mB = Pad32(bs * sizeof(T));
    TPipe pipe;
    TBuf<TPosition::VECIN> sb, gb, bb, mb;
    TBuf<TPosition::VECOUT> db, meb, vb;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(sb, xB);
    pipe.InitBuffer(gb, xB);
    pipe.InitBuffer(bb, hB);
    pipe.InitBuffer(mb, hB);
    pipe.InitBuffer(db, xB);
    pipe.InitBuffer(meb, mB);
    pipe.InitBuffer(vb, mB);
    if (!c.framework) pipe.InitBuffer(tb, c.tmpBytes);
    LocalTensor<T> src = sb.Get<T>(), gx = gb.Get<T>(), beta = bb.Get<T>(), gamma = mb.Get<T>();
    LocalTensor<T> dst = db.Get<T>(), mean = meb.Get<T>(), rstd = vb.Get<T>();
    LocalTensor<uint8_t> tmp;
    if (!c.framework) tmp = tb.Get<uint8_t>();
    GlobalTensor<uint8_t> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out));
    DataCopy(src.template ReinterpretCast<uint8_t>(), inGm, xB);
    DataCopy(gx.template ReinterpretCast<uint8_t>(), inGm[xB], xB);
    DataCopy(beta.template ReinterpretCast<uint8_t>(), inGm[2 * xB], hB);
    DataCopy(gamma.template ReinterpretCast<uint8_t>(), inGm[2 * xB + hB], hB);
    // the 32-byte padding of the statistics is copied out too
    Duplicate(mean.template ReinterpretCast<uint16_t>(), uint16_t(0), static_cast<int32_t>(mB / 2));
    Duplicate(rstd.template ReinterpretCast<uint16_t>(), uint16_t(0), static_cast<int32_t>(mB / 2));
    PipeBarrier<PIPE_V>();
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    if constexpr (std::is_same_v<T, float>) {
        if (c.reuse) {
            if (c.basic) Call<T, true, true>(c, dst, mean, rstd, src, gx, beta, gamma, tmp);
            else Call<T, true, false>(c, dst, mean, rstd, src, gx, beta, gamma, tmp);
        } else if (c.basic) {
            Call<T, false, true>(c, dst, mean, rstd, src, gx, beta, gamma, tmp);
        } else {
            Call<T, false, false>(c, dst, mean, rstd, src, gx, beta, gamma, tmp);
        }
    } else if (c.basic) {
        Call<T, false, true>(c, dst, mean, rstd, src, gx, beta, gamma, tmp);
    } else {
        Call<T, false, false>(c, dst, mean, rstd, src, gx, beta, gamma, tmp);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, dst.template ReinterpretCast<uint8_t>(), xB);
    DataCopy(outGm[xB], mean.template ReinterpretCast<uint8_t>(), mB);
    DataCopy(outGm[xB + mB], rstd.template ReinterpretCast<uint8_t>(), mB);
}

using check::Rng;

// tmpKind 0: the minimum, 1: the maximum, 2: the framework's buffer.
template <typename T>
int Run(Case c, int tmpKind, const char* what)
{
    const uint32_t n = c.b * c.s * c.h, bs = c.b * c.s;
    uint32_t mx = 0, mn = 0;
    CHECK(GetDeepNormMaxMinTmpSize(ge::Shape({c.b, c.s, c.h}), sizeof(T), c.reuse, c.basic, mx, mn));
    c.tmpBytes = tmpKind == 1 ? mx : mn;
    c.framework = tmpKind == 2;
    CHECK(GetDeepNormTilingInfo(ge::Shape({c.b, c.s, c.h}), ge::Shape({c.b, c.s, c.oriH}), c.tmpBytes, sizeof(T),
                                c.reuse, c.basic, c.tiling));
    gCase = c;
    const uint32_t xB = Pad32(n * sizeof(T)), hB = Pad32(c.h * sizeof(T)), mB = Pad32(bs * sizeof(T));
    std::vector<uint8_t> in(2 * xB + 2 * hB);
    std::vector<double> x(n), gx(n), beta(c.h), gamma(c.h);
    auto& rng = Rng();
    for (uint32_t i = 0; i < n; ++i) {
        const bool pad = i % c.h >= c.oriH;  // the docs: padding columns hold zeros
        x[i] = adv::Put<T>(in.data() + i * sizeof(T), pad ? 0.0f : std::uniform_real_distribution<float>(-3, 3)(rng));
        gx[i] = adv::Put<T>(in.data() + xB + i * sizeof(T),
                            pad ? 0.0f : std::uniform_real_distribution<float>(-3, 3)(rng));
    }
    for (uint32_t j = 0; j < c.h; ++j) {
        beta[j] = adv::Put<T>(in.data() + 2 * xB + j * sizeof(T), std::uniform_real_distribution<float>(-1, 1)(rng));
        gamma[j] = adv::Put<T>(in.data() + 2 * xB + hB + j * sizeof(T),
                               std::uniform_real_distribution<float>(0.5f, 2)(rng));
    }
    std::vector<uint8_t> out(xB + 2 * mB);
    if (!adv::Launch1(&Kernel<T>, "deepnorm", in, out, what)) return 1;
    const double alpha = static_cast<double>(static_cast<float>(static_cast<T>(c.alpha)));
    const double eps = static_cast<double>(static_cast<float>(static_cast<T>(c.epsilon)));
    const double tol = std::is_same_v<T, half> ? 4e-3 : 2e-5;
    int bad = 0;
    for (uint32_t r = 0; r < bs; ++r) {
        std::vector<double> x1(c.h);
        double mean = 0, var = 0;
        for (uint32_t j = 0; j < c.h; ++j) x1[j] = alpha * x[r * c.h + j] + gx[r * c.h + j];
        for (uint32_t j = 0; j < c.oriH; ++j) mean += x1[j] / c.oriH;
        for (uint32_t j = 0; j < c.oriH; ++j) var += (x1[j] - mean) * (x1[j] - mean) / c.oriH;
        const double gotM = adv::Get<T>(out.data() + xB + r * sizeof(T));
        const double gotV = adv::Get<T>(out.data() + xB + mB + r * sizeof(T));
        if (!(std::fabs(gotM - mean) <= tol * (std::fabs(mean) + 1)) && bad++ < 3) {
            std::printf("  %s: mean[%u] %.7g, expected %.7g\n", what, r, gotM, mean);
        }
        if (!(std::fabs(gotV - var) <= tol * (std::fabs(var) + 1)) && bad++ < 3) {
            std::printf("  %s: variance[%u] %.7g, expected %.7g\n", what, r, gotV, var);
        }
        for (uint32_t j = 0; j < c.h; ++j) {
            const double want = (x1[j] - mean) / std::sqrt(var + eps) * gamma[j] + beta[j];
            const double got = adv::Get<T>(out.data() + (r * c.h + j) * sizeof(T));
            if (!(std::fabs(got - want) <= tol * (std::fabs(want) + 1)) && bad++ < 3) {
                std::printf("  %s: dst[%u][%u] %.7g, expected %.7g\n", what, r, j, got, want);
            }
        }
    }
    return bad;
}

template <typename T>
int Sweep()
{
    constexpr uint32_t blk = 32 / sizeof(T);
    struct Shape {
        uint32_t b, s, h, oriH;
        bool basic;
    };
    // rows with padding (row-loop reduce trees over oriH); H past 64 (a tree of two levels); basic blocks of 8 rows
    // and 2 x 64 columns (the row loop at the minimum, Brcb with whole 8-row groups at the maximum); 9 rows (a tail).
    const Shape shapes[] = {{2, 4, 5 * blk, 5 * blk - 3, false}, {1, 3, 160, 150, false}, {2, 4, 128, 128, true},
                            {3, 8, 64, 64, true}, {1, 9, 64, 61, false}};
    int failed = 0;
    char what[160];
    for (const Shape& sh : shapes) {
        for (int form = 0; form < 4; ++form) {  // min, max, framework, isReuseSrc (float) at the minimum
            if (form == 3 && !std::is_same_v<T, float>) continue;
            Case c;
            c.b = sh.b;
            c.s = sh.s;
            c.h = sh.h;
            c.oriH = sh.oriH;
            c.basic = sh.basic;
            c.reuse = form == 3;
            c.alpha = std::uniform_real_distribution<float>(-2, 2)(Rng());
            std::snprintf(what, sizeof(what), "%s [%u, %u, %u/%u] basic %d form %d", sizeof(T) == 2 ? "half" : "float",
                          sh.b, sh.s, sh.h, sh.oriH, sh.basic, form);
            failed += Run<T>(c, form == 3 ? 0 : form, what) != 0 ? 1 : 0;
        }
    }
    return failed;
}

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> src = ub.Alloc<float, 512>();
    LocalTensor<float> gx = ub.Alloc<float, 512>();
    LocalTensor<float> beta = ub.Alloc<float, 64>();
    LocalTensor<float> gamma = ub.Alloc<float, 64>();
    LocalTensor<float> dst = ub.Alloc<float, 512>();
    LocalTensor<float> mean = ub.Alloc<float, 8>();
    LocalTensor<float> rstd = ub.Alloc<float, 8>();
    LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 4096>();
    Duplicate(src, 1.5f, 512);
    Duplicate(gx, 0.5f, 512);
    Duplicate(beta, 0.25f, 64);
    Duplicate(gamma, 2.0f, 64);
    PipeBarrier<PIPE_V>();
    DeepNormTiling t{};
    GetDeepNormTilingInfo(ge::Shape({1, 8, 64}), ge::Shape({1, 8, 64}), 4096, 4, false, true, t);
    const float a = 0.5f, e = 1e-5f;
    if constexpr (kFault == 0) DeepNorm<float, false, true>(dst, mean, rstd, src, gx, beta, gamma, tmp, a, e, t);
    if constexpr (kFault == 1) {  // a tiling a call with a tail wrote
        t.bshCurLength = 64;
        DeepNorm<float>(dst, mean, rstd, src, gx, beta, gamma, tmp, a, e, t);
    }
    if constexpr (kFault == 2) {
        t.originalHLength = 60;  // not 64-aligned with isBasicBlock
        DeepNorm<float, false, true>(dst, mean, rstd, src, gx, beta, gamma, tmp, a, e, t);
    }
    if constexpr (kFault == 3) {  // clean: the same without isBasicBlock
        t.originalHLength = 60;
        t.lastDimValueBack = 1.0f / 60;
        DeepNorm<float>(dst, mean, rstd, src, gx, beta, gamma, tmp, a, e, t);
    }
    if constexpr (kFault == 4) {
        LocalTensor<float> b = beta;
        b.SetSize(60);
        DeepNorm<float>(dst, mean, rstd, src, gx, b, gamma, tmp, a, e, t);
    }
    if constexpr (kFault == 5) {
        t.loopRound = 2;
        DeepNorm<float>(dst, mean, rstd, src, gx, beta, gamma, tmp, a, e, t);
    }
    if constexpr (kFault == 6) {
        LocalTensor<float> m = mean;
        m.SetSize(4);  // 8 rows
        DeepNorm<float>(dst, m, rstd, src, gx, beta, gamma, tmp, a, e, t);
    }
    if constexpr (kFault == 7 || kFault == 8) {  // 4096 bytes of tmpBufSize; 7: one block short
        LocalTensor<uint8_t> small = tmp;
        small.SetSize(kFault == 7 ? 4064 : 4096);
        DeepNorm<float>(dst, mean, rstd, src, gx, beta, gamma, small, a, e, t);
    }
    if constexpr (kFault == 9) DeepNorm<float>(src, mean, rstd, src, gx, beta, gamma, tmp, a, e, t);
    if constexpr (kFault == 10) {  // clean: in place with isReuseSrc (its tiling: two buffers)
        GetDeepNormTilingInfo(ge::Shape({1, 8, 64}), ge::Shape({1, 8, 64}), 4096, 4, true, false, t);
        DeepNorm<float, true>(src, mean, rstd, src, gx, beta, gamma, tmp, a, e, t);
    }
    if constexpr (kFault == 11) DeepNorm<float>(dst, mean, mean, src, gx, beta, gamma, tmp, a, e, t);
    if constexpr (kFault == 12) DeepNorm<float>(dst, mean, tmp.ReinterpretCast<float>(), src, gx, beta, gamma, tmp, a, e, t);
    if constexpr (kFault == 13) DeepNorm<float>(dst, mean, gx[8], src, gx, beta, gamma, tmp, a, e, t);
    if constexpr (kFault == 14) DeepNorm<float>(dst[4], mean, rstd, src, gx, beta, gamma, tmp, a, e, t);  // misaligned
    if constexpr (kFault == 15) {  // isReuseSrc with half
        LocalTensor<half> hx = src.ReinterpretCast<half>(), hd = dst.ReinterpretCast<half>();
        LocalTensor<half> hm = mean.ReinterpretCast<half>(), hr = rstd.ReinterpretCast<half>();
        LocalTensor<half> hb = beta.ReinterpretCast<half>(), hg = gamma.ReinterpretCast<half>();
        DeepNorm<half, true>(hd, hm, hr, hx, hx, hb, hg, tmp, static_cast<half>(0.5f), static_cast<half>(1e-5f), t);
    }
    if constexpr (kFault == 16) {
        t.originalHLength = 0;
        DeepNorm<float>(dst, mean, rstd, src, gx, beta, gamma, tmp, a, e, t);
    }
    (void)pipe;
}

using fault::Broke;

}  // namespace

TEST_CASE("DeepNorm float: rows, padding, basic blocks, isReuseSrc and the buffers, against float64")
{
    CHECK_EQ(Sweep<float>(), 0);
}
TEST_CASE("DeepNorm half: rows, padding, basic blocks and the buffers, against float64") { CHECK_EQ(Sweep<half>(), 0); }

TEST_CASE("GetDeepNormMaxMinTmpSize and GetDeepNormTilingInfo return A2's values")
{
    uint32_t mx = 0, mn = 0;
    CHECK(GetDeepNormMaxMinTmpSize(ge::Shape({4, 16, 64}), 4, false, true, mx, mn));
    CHECK_EQ(mn, 3u * 256 + 2u * 256);
    CHECK_EQ(mx, 3u * 4 * 16 * 64 * 4 + 2u * 256);
    CHECK(GetDeepNormMaxMinTmpSize(ge::Shape({1, 3, 40}), 4, true, false, mx, mn));  // reuse: 2 buffers
    CHECK_EQ(mn, 2u * 160 + 2u * 32);
    CHECK(!GetDeepNormMaxMinTmpSize(ge::Shape({1, 3, 64}), 4, false, true, mx, mn));  // basic: B * S not 8-aligned
    DeepNormTiling t{};
    CHECK(GetDeepNormTilingInfo(ge::Shape({4, 16, 64}), ge::Shape({4, 16, 64}), 1280, 4, false, true, t));
    CHECK_EQ(t.oneTmpSize, 64u);  // 320 floats / 3 rounded down to a row; no 8-row group fits
    CHECK_EQ(t.loopRound, 64u);
    CHECK_EQ(t.numberOfTmpBuf, 3u);
    CHECK(GetDeepNormTilingInfo(ge::Shape({1, 16, 64}), ge::Shape({1, 16, 64}), 40000, 2, false, true, t));
    CHECK_EQ(t.oneTmpSize, 512u * 2);  // half: the means and variances first; 8-row groups
    CHECK_EQ(t.firstTmpStartPos, 32u);
    CHECK_EQ(t.inputTailSize, 0u);
    t.bLength = 77;
    CHECK(!GetDeepNormTilingInfo(ge::Shape({1, 16, 64}), ge::Shape({1, 16, 64}), 100, 4, false, true, t));
    CHECK_EQ(t.bLength, 0u);  // the struct form: a fresh (zero) tiling when A2 returns false
    optiling::DeepNormTiling cls;
    cls.set_bLength(77);
    CHECK(!GetDeepNormTilingInfo(ge::Shape({1, 16, 64}), ge::Shape({1, 16, 64}), 100, 4, false, true, cls));
    CHECK_EQ(cls.get_bLength(), 77u);  // the class form: unchanged
    CHECK(GetDeepNormTilingInfo(ge::Shape({1, 16, 64}), ge::Shape({1, 16, 64}), 40000, 4, false, true, cls));
    CHECK_EQ(cls.get_oneTmpSize(), 1024u);
}

TEST_CASE("DeepNorm rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "DeepNorm: tiling.bshCurLength and bsCurLength are a round's (inputRoundSize, "
                                 "meanVarRoundSize): a call with a tail leaves the tail's lengths in the tiling it is "
                                 "given, and A2 would run the next call's rounds at those (the twin is stricter: pass "
                                 "each call a fresh copy)"));
    CHECK(Broke(&FaultKernel<2>, "DeepNorm: with isBasicBlock, hLength and originalHLength are multiples of 64 and B * "
                                 "S of 8 (docs; A2's check, A2 returns without computing otherwise)"));
    CHECK(Broke(&FaultKernel<3>, ""));
    CHECK(Broke(&FaultKernel<4>, "DeepNorm: gammaLocal's and betaLocal's lengths are 32-byte multiples of at most 2040 "
                                 "elements (A2's check)"));
    CHECK(fault::Violation(&FaultKernel<5>).rfind("DeepNorm: the tiling's rounds cover its shape", 0) == 0);
    CHECK(Broke(&FaultKernel<6>, "DeepNorm: srcLocal, gxLocal and dstLocal hold tiling.bLength * sLength * hLength "
                                 "elements, meanLocal and rstdLocal bLength * sLength, gammaLocal and betaLocal "
                                 "hLength"));
    CHECK(Broke(&FaultKernel<7>, "DeepNorm: sharedTmpBuffer holds tiling.tmpBufSize floats (A2's check)"));
    CHECK(Broke(&FaultKernel<8>, ""));
    CHECK(Broke(&FaultKernel<9>, "DeepNorm: srcLocal and dstLocal do not overlap (docs: with isReuseSrc false their "
                                 "space is not shared; with isReuseSrc they may be the same tensor)"));
    CHECK(Broke(&FaultKernel<10>, ""));
    CHECK(Broke(&FaultKernel<11>, "DeepNorm: the outputs do not overlap each other"));
    CHECK(Broke(&FaultKernel<12>, "DeepNorm: sharedTmpBuffer overlaps no operand"));
    CHECK(Broke(&FaultKernel<13>, "DeepNorm: no output overlaps an input but dstLocal and srcLocal with isReuseSrc"));
    CHECK(fault::Violation(&FaultKernel<14>).rfind("DeepNorm: ", 0) == 0);
    CHECK(Broke(&FaultKernel<15>, "DeepNorm: isReuseSrc is for float inputs only (A2's check)"));
    CHECK(Broke(&FaultKernel<16>, "DeepNorm: tiling.hLength is 32-byte aligned and 0 < tiling.originalHLength <= "
                                  "tiling.hLength (docs: the H axis padded to 32 bytes with zeros)"));
}

TEST_MAIN()
