// LayerNormGrad and LayerNormGradBeta ("lib/normalization/layernormgrad.h", "layernormgradbeta.h") against float64
// references computed here from fresh random inputs: float and half, isReuseSource (float), rows of 16, 64 and 128
// columns (one- and two-level reduction trees), rounds with a tail, the temporary buffer at the size functions'
// minimum, their maximum and the framework's; the size and tiling functions against A2's formulas; every run-time
// rule with a planted fault and a clean counterpart.
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
#include "lib/normalization/layernormgrad.h"
#include "lib/normalization/layernormgradbeta.h"
#include "tiling/normalization/layernorm_grad_tiling.h"

using namespace AscendC;

namespace {

struct Case {
    uint32_t b = 2, s = 4, h = 16;
    bool reuse = false, framework = false;
    uint32_t gradTmp = 0, betaTmp = 0;
    float eps = 1e-4f;
    LayerNormGradTiling grad{};
    LayerNormGradBetaTiling beta{};
};
Case gCase;

uint32_t Pad32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

// in = dy [bsh] | x [bsh] | var [bs] | mean [bs] | gamma [h]; out = pdX [bsh] | resForGamma [bsh] | pdGamma [h] |
// pdBeta [h] (each 32-byte padded).
template <typename T, bool reuse>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const uint32_t n = c.b * c.s * c.h, bs = c.b * c.s;
    const uint32_t xB = Pad32(n * sizeof(T)), mB = Pad32(bs * sizeof(T)), hB = Pad32(c.h * sizeof(T));
    TPipe pipe;
    TBuf<TPosition::VECIN> dyb, xb, vb, mb, gb;
    TBuf<TPosition::VECOUT> pb, rb, pgb, pbb;
    TBuf<TPosition::VECCALC> tb, tb2;
    pipe.InitBuffer(dyb, xB);
    pipe.InitBuffer(xb, xB);
    pipe.InitBuffer(vb, mB);
    pipe.InitBuffer(mb, mB);
    pipe.InitBuffer(gb, hB);
    pipe.InitBuffer(pb, xB);
    pipe.InitBuffer(rb, xB);
    pipe.InitBuffer(pgb, hB);
    pipe.InitBuffer(pbb, hB);
    if (!c.framework) {
        pipe.InitBuffer(tb, c.gradTmp);
        pipe.InitBuffer(tb2, c.betaTmp);
    }
    LocalTensor<T> dy = dyb.Get<T>(), x = xb.Get<T>(), var = vb.Get<T>(), mean = mb.Get<T>(), gamma = gb.Get<T>();
    LocalTensor<T> pdX = pb.Get<T>(), res = rb.Get<T>(), pdG = pgb.Get<T>(), pdB = pbb.Get<T>();
    GlobalTensor<uint8_t> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out));
    DataCopy(dy.template ReinterpretCast<uint8_t>(), inGm, xB);
    DataCopy(x.template ReinterpretCast<uint8_t>(), inGm[xB], xB);
    DataCopy(var.template ReinterpretCast<uint8_t>(), inGm[2 * xB], mB);
    DataCopy(mean.template ReinterpretCast<uint8_t>(), inGm[2 * xB + mB], mB);
    DataCopy(gamma.template ReinterpretCast<uint8_t>(), inGm[2 * xB + 2 * mB], hB);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    LayerNormGradTiling gt = c.grad;
    LayerNormGradBetaTiling bt = c.beta;
    const T eps = static_cast<T>(c.eps);
    if (c.framework) {
        LayerNormGrad<T, reuse>(pdX, res, dy, x, var, mean, gamma, eps, gt);
        LayerNormGradBeta<T, false>(pdG, pdB, res, reuse ? pdX : dy, bt);  // dy was overwritten with isReuseSource
    } else {
        LocalTensor<uint8_t> t1 = tb.Get<uint8_t>(), t2 = tb2.Get<uint8_t>();
        LayerNormGrad<T, reuse>(pdX, res, dy, x, var, mean, gamma, t1, eps, gt);
        LayerNormGradBeta<T, false>(pdG, pdB, res, reuse ? pdX : dy, t2, bt);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, pdX.template ReinterpretCast<uint8_t>(), xB);
    DataCopy(outGm[xB], res.template ReinterpretCast<uint8_t>(), xB);
    DataCopy(outGm[2 * xB], pdG.template ReinterpretCast<uint8_t>(), hB);
    DataCopy(outGm[2 * xB + hB], pdB.template ReinterpretCast<uint8_t>(), hB);
}

using check::Rng;

// gradBytes: LayerNormGrad's buffer (0: the framework's, and LayerNormGradBeta's too); bigBeta: LayerNormGradBeta's
// buffer at its maximum, else its minimum.
template <typename T>
int Run(Case c, uint32_t gradBytes, bool bigBeta, const char* what)
{
    const uint32_t n = c.b * c.s * c.h, bs = c.b * c.s;
    const ge::Shape shape({c.b, c.s, c.h, c.h});
    uint32_t bMax = 0, bMin = 0;
    GetLayerNormGradBetaMaxMinTmpSize(shape, sizeof(T), false, bMax, bMin);
    c.framework = gradBytes == 0;
    c.gradTmp = c.framework ? 64 * 1024 : gradBytes;  // the framework's: the tiling for 64 KB of the UB's rest
    c.betaTmp = c.framework ? 64 * 1024 : (bigBeta ? bMax : bMin);
    GetLayerNormGradNDTilingInfo(shape, c.gradTmp, sizeof(T), c.reuse, c.grad);
    GetLayerNormGradBetaNDTilingInfo(shape, c.betaTmp, sizeof(T), false, c.beta);
    gCase = c;
    const uint32_t xB = Pad32(n * sizeof(T)), mB = Pad32(bs * sizeof(T)), hB = Pad32(c.h * sizeof(T));
    std::vector<uint8_t> in(2 * xB + 2 * mB + hB);
    std::vector<double> dy(n), x(n), var(bs), mean(bs), gamma(c.h);
    auto& rng = Rng();
    std::uniform_real_distribution<float> u(-2, 2);
    for (uint32_t i = 0; i < n; ++i) {
        dy[i] = adv::Put<T>(in.data() + i * sizeof(T), u(rng));
        x[i] = adv::Put<T>(in.data() + xB + i * sizeof(T), u(rng));
    }
    for (uint32_t r = 0; r < bs; ++r) {
        var[r] = adv::Put<T>(in.data() + 2 * xB + r * sizeof(T), std::uniform_real_distribution<float>(0.5f, 2)(rng));
        mean[r] = adv::Put<T>(in.data() + 2 * xB + mB + r * sizeof(T), std::uniform_real_distribution<float>(-1, 1)(rng));
    }
    for (uint32_t j = 0; j < c.h; ++j) gamma[j] = adv::Put<T>(in.data() + 2 * xB + 2 * mB + j * sizeof(T), u(rng));
    std::vector<uint8_t> out(2 * xB + 2 * hB);
    if (!adv::Launch1(c.reuse ? &Kernel<T, true> : &Kernel<T, false>, "layernorm_grad", in, out, what)) return 1;
    const double eps = static_cast<float>(static_cast<T>(c.eps)), N = c.h;
    const double tol = std::is_same_v<T, half> ? 6e-3 : 2e-5;
    int bad = 0;
    auto cmp = [&](const char* name, uint32_t i, double got, double want, double scale) {
        if (!(std::fabs(got - want) <= tol * (std::fabs(want) + scale)) && bad++ < 3) {
            std::printf("  %s: %s[%u] = %.7g, expected %.7g\n", what, name, i, got, want);
        }
    };
    std::vector<double> pg(c.h, 0.0), pb(c.h, 0.0);
    for (uint32_t r = 0; r < bs; ++r) {
        const double rstd = 1.0 / std::sqrt(var[r] + eps);
        double pdVar = 0, sumX1R = 0, sumX2 = 0;
        for (uint32_t j = 0; j < c.h; ++j) {
            const double x1 = dy[r * c.h + j] * gamma[j], x2 = x[r * c.h + j] - mean[r];
            pdVar += -0.5 * x1 * x2 * rstd * rstd * rstd;
            sumX1R += -x1 * rstd;
            sumX2 += -2 * x2;
        }
        const double pdMean = sumX1R + pdVar * sumX2 / N;
        for (uint32_t j = 0; j < c.h; ++j) {
            const uint32_t i = r * c.h + j;
            const double x1 = dy[i] * gamma[j], x2 = x[i] - mean[r];
            const double want = x2 * pdVar * 2 / N + pdMean / N + x1 * rstd;
            cmp("outputPdX", i, adv::Get<T>(out.data() + i * sizeof(T)), want, 1.0);
            const double wantRes = x2 * rstd;
            cmp("resForGamma", i, adv::Get<T>(out.data() + xB + i * sizeof(T)), wantRes, 1.0);
            // LayerNormGradBeta reads the resForGamma the kernel wrote (as T) and dy (as T)
            const double gotRes = adv::Get<T>(out.data() + xB + i * sizeof(T));
            pg[j] += dy[i] * gotRes;
            pb[j] += dy[i];
        }
    }
    if (!c.reuse) {  // with isReuseSource, dy is LayerNormGrad's scratch: Beta then reads pdX (checked above)
        for (uint32_t j = 0; j < c.h; ++j) {
            cmp("outputPdGamma", j, adv::Get<T>(out.data() + 2 * xB + j * sizeof(T)), pg[j], std::sqrt(1.0 * bs));
            cmp("outputPdBeta", j, adv::Get<T>(out.data() + 2 * xB + hB + j * sizeof(T)), pb[j], std::sqrt(1.0 * bs));
        }
    }
    return bad;
}

template <typename T>
int Sweep()
{
    constexpr uint32_t bufs = sizeof(T) == 2 ? 9 : 6;
    struct Shape {
        uint32_t b, s, h, rowsPerRound;  // LayerNormGrad's buffer: rowsPerRound rows of h floats per buffer
    };
    // 16-column rows in rounds of 16; 128 columns (a two-level tree) in one round of 8 rows; 20 rows of 64 in rounds
    // of 8 (two and a tail of 4); 8 columns (float) or 16 (half), one round.
    const Shape shapes[] = {{2, 32, 16, 16}, {1, 8, 128, 8}, {1, 20, 64, 8}, {2, 4, sizeof(T) == 2 ? 16u : 8u, 8}};
    int failed = 0;
    char what[160];
    for (const Shape& sh : shapes) {
        for (int form = 0; form < 4; ++form) {  // the buffer; Beta's maximum; the framework's; isReuseSource (float)
            if (form == 3 && !std::is_same_v<T, float>) continue;
            Case c;
            c.b = sh.b;
            c.s = sh.s;
            c.h = sh.h;
            c.reuse = form == 3;
            // A2's tiling rounds a round's rows up to a 32-byte block of T (8 float rows, 16 half rows)
            const uint32_t rows = sizeof(T) == 2 && sh.rowsPerRound < 16 ? 16 : sh.rowsPerRound;
            const uint32_t bytes = (c.reuse ? 4 : bufs) * rows * sh.h * 4;
            std::snprintf(what, sizeof(what), "%s [%u, %u, %u] form %d", sizeof(T) == 2 ? "half" : "float", sh.b, sh.s,
                          sh.h, form);
            failed += Run<T>(c, form == 2 ? 0 : bytes, form == 1, what) != 0 ? 1 : 0;
        }
    }
    return failed;
}

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> dy = ub.Alloc<float, 256>();
    LocalTensor<float> x = ub.Alloc<float, 256>();
    LocalTensor<float> var = ub.Alloc<float, 16>();
    LocalTensor<float> mean = ub.Alloc<float, 16>();
    LocalTensor<float> gamma = ub.Alloc<float, 16>();
    LocalTensor<float> pdX = ub.Alloc<float, 256>();
    LocalTensor<float> res = ub.Alloc<float, 256>();
    LocalTensor<float> pg = ub.Alloc<float, 16>();
    LocalTensor<float> pb = ub.Alloc<float, 16>();
    LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 8192>();
    Duplicate(dy, 1.5f, 256);
    Duplicate(x, 0.5f, 256);
    Duplicate(var, 1.0f, 16);
    Duplicate(mean, 0.25f, 16);
    Duplicate(gamma, 2.0f, 16);
    PipeBarrier<PIPE_V>();
    const ge::Shape shape({1, 16, 16, 16});
    LayerNormGradTiling t{};
    LayerNormGradBetaTiling bt{};
    GetLayerNormGradNDTilingInfo(shape, 6144, 4, false, t);
    GetLayerNormGradBetaNDTilingInfo(shape, 8192, 4, false, bt);
    if constexpr (kFault == 0) {  // clean
        LayerNormGrad<float>(pdX, res, dy, x, var, mean, gamma, tmp, 1e-4f, t);
        LayerNormGradBeta<float>(pg, pb, res, dy, tmp, bt);
    }
    if constexpr (kFault == 1) {
        t.loopNum = 3;
        LayerNormGrad<float>(pdX, res, dy, x, var, mean, gamma, tmp, 1e-4f, t);
    }
    if constexpr (kFault == 2) {
        LocalTensor<uint8_t> small = tmp;
        small.SetSize(6112);
        LayerNormGrad<float>(pdX, res, dy, x, var, mean, gamma, small, 1e-4f, t);
    }
    if constexpr (kFault == 3) {  // clean: exactly stackBufferSize
        LocalTensor<uint8_t> exact = tmp;
        exact.SetSize(6144);
        LayerNormGrad<float>(pdX, res, dy, x, var, mean, gamma, exact, 1e-4f, t);
    }
    if constexpr (kFault == 4) {
        LocalTensor<float> g = gamma;
        g.SetSize(12);
        LayerNormGrad<float>(pdX, res, dy, x, var, mean, g, tmp, 1e-4f, t);
    }
    if constexpr (kFault == 5) {
        LocalTensor<float> m = mean;
        m.SetSize(8);
        LayerNormGrad<float>(pdX, res, dy, x, var, m, gamma, tmp, 1e-4f, t);
    }
    if constexpr (kFault == 6) LayerNormGrad<float>(pdX, res, dy, x, var, mean, gamma, tmp, 1e-4f, t, {DataFormat::NZ});
    if constexpr (kFault == 7) {  // sharedTmpBuffer is a non-const reference: an lvalue
        LocalTensor<uint8_t> over = x.ReinterpretCast<uint8_t>();
        LayerNormGrad<float>(pdX, res, dy, x, var, mean, gamma, over, 1e-4f, t);
    }
    if constexpr (kFault == 8) {
        LocalTensor<uint8_t> off = tmp[4];  // misaligned
        LayerNormGrad<float>(pdX, res, dy, x, var, mean, gamma, off, 1e-4f, t);
    }
    if constexpr (kFault == 9) {
        bt.bshCurLength = 16;  // a tail's length left in the tiling
        LayerNormGradBeta<float>(pg, pb, res, dy, tmp, bt);
    }
    if constexpr (kFault == 10) {
        LocalTensor<float> g = pg;
        g.SetSize(12);
        LayerNormGradBeta<float>(g, pb, res, dy, tmp, bt);
    }
    if constexpr (kFault == 11) {
        LocalTensor<uint8_t> small = tmp;
        small.SetSize(64);  // stackBufferSize (in floats) is 2048
        LayerNormGradBeta<float>(pg, pb, res, dy, small, bt);
    }
    if constexpr (kFault == 12) LayerNormGradBeta<float>(tmp.ReinterpretCast<float>(), pb, res, dy, tmp, bt);
    if constexpr (kFault == 13) {  // clean: in place (docs: 源操作数和目的操作数的Tensor空间可以复用)
        LayerNormGrad<float>(dy, res, dy, x, var, mean, gamma, tmp, 1e-4f, t);
    }
    if constexpr (kFault == 14) {  // isReuseSource with half
        LocalTensor<half> h = dy.ReinterpretCast<half>(), hx = x.ReinterpretCast<half>();
        LocalTensor<half> hv = var.ReinterpretCast<half>(), hg = gamma.ReinterpretCast<half>();
        LocalTensor<half> hp = pdX.ReinterpretCast<half>(), hr = res.ReinterpretCast<half>();
        LayerNormGrad<half, true>(hp, hr, h, hx, hv, hv, hg, tmp, static_cast<half>(1e-4f), t);
    }
    if constexpr (kFault == 15) {
        t.originalHLength = 17;
        LayerNormGrad<float>(pdX, res, dy, x, var, mean, gamma, tmp, 1e-4f, t);
    }
    (void)pipe;
}

using fault::Broke;

}  // namespace

TEST_CASE("LayerNormGrad and LayerNormGradBeta float: rounds, trees, isReuseSource and the buffers, against float64")
{
    CHECK_EQ(Sweep<float>(), 0);
}
TEST_CASE("LayerNormGrad and LayerNormGradBeta half: rounds, trees and the buffers, against float64")
{
    CHECK_EQ(Sweep<half>(), 0);
}

TEST_CASE("LayerNormGrad(Beta) size and tiling functions return A2's values")
{
    // A2's minimum for a round of rows not a multiple of a block: its tiling rounds the rows up and the buffers outgrow
    // the minimum, which the kernel side refuses (it would write past the buffer)
    {
        uint32_t mx = 0, mn = 0;
        GetLayerNormGradMaxMinTmpSize(ge::Shape({1, 9, 64, 64}), 4, false, mx, mn);
        LayerNormGradTiling t{};
        GetLayerNormGradNDTilingInfo(ge::Shape({1, 9, 64, 64}), mn, 4, false, t);
        CHECK_EQ(t.nohCalSize, 16u);
        CHECK(6ull * t.oneCalSize * 4 > mn);
    }
    uint32_t mx = 0, mn = 0;
    GetLayerNormGradMaxMinTmpSize(ge::Shape({2, 32, 16, 16}), 4, false, mx, mn);
    CHECK_EQ(mn, 6u * 256 * 4);
    CHECK_EQ(mx, 6u * 1024 * 4);
    GetLayerNormGradMaxMinTmpSize(ge::Shape({2, 32, 16, 16}), 2, false, mx, mn);
    CHECK_EQ(mn, 9u * 256 * 2);
    GetLayerNormGradMaxMinTmpSize(ge::Shape({2, 32, 16, 16}), 4, true, mx, mn);
    CHECK_EQ(mn, 4u * 256 * 4);
    GetLayerNormGradBetaMaxMinTmpSize(ge::Shape({2, 32, 16, 16}), 2, false, mx, mn);
    CHECK_EQ(mn, 4u * 16 * 4);
    CHECK_EQ(mx, 4u * 1024 * 4);
    LayerNormGradTiling t{};
    GetLayerNormGradNDTilingInfo(ge::Shape({1, 3, 64, 64}), 6 * 64 * 4, 4, false, t);
    CHECK_EQ(t.nohCalSize, 8u);  // one row rounded up to a block of 8 rows
    CHECK_EQ(t.oneCalSize, 512u);
    CHECK_EQ(t.loopNum, 0u);
    CHECK_EQ(t.nohTailSize, 3u);
    float back;
    std::memcpy(&back, &t.lastDimValueBack, 4);
    CHECK_EQ(back, 1.0f / 64);
    t.bLength = 9;
    GetLayerNormGradNDTilingInfo(ge::Shape({1, 3, 64, 64}), 16, 4, false, t);  // no row: A2 returns early
    CHECK_EQ(t.bLength, 0u);
    optiling::LayerNormGradBetaTiling cls;
    cls.set_bLength(9);
    GetLayerNormGradBetaNDTilingInfo(ge::Shape({1, 3, 64, 64}), 16, 4, false, cls);
    CHECK_EQ(cls.get_bLength(), 9u);  // the class form: unchanged
    GetLayerNormGradBetaNDTilingInfo(ge::Shape({1, 3, 64, 64}), 4 * 64 * 4, 2, false, cls);
    CHECK_EQ(cls.get_oneCalSize(), 64u);  // half: (256 - 128) / 2 floats, whole rows
    CHECK_EQ(cls.get_resForGammaTmpTensorPos(), 192u);
}

TEST_CASE("LayerNormGrad and LayerNormGradBeta rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(fault::Violation(&FaultKernel<1>).rfind("LayerNormGrad: the tiling's rounds cover its shape", 0) == 0);
    CHECK(Broke(&FaultKernel<2>, "LayerNormGrad: sharedTmpBuffer holds tiling.stackBufferSize (A2's check) and the "
                                 "buffers the tiling places there"));
    CHECK(Broke(&FaultKernel<3>, ""));
    CHECK(Broke(&FaultKernel<4>, "LayerNormGrad: outputPdX, resForGamma, inputDy and inputX hold tiling.bLength * "
                                 "sLength * hLength elements, inputVariance and inputMean bLength * sLength, inputGamma "
                                 "hLength"));
    CHECK(Broke(&FaultKernel<5>, "LayerNormGrad: outputPdX, resForGamma, inputDy and inputX hold tiling.bLength * "
                                 "sLength * hLength elements, inputVariance and inputMean bLength * sLength, inputGamma "
                                 "hLength"));
    CHECK(Broke(&FaultKernel<6>, "LayerNormGrad: shapeInfo.dataFormat is DataFormat::ND (A2's check: only ND is "
                                 "computed)"));
    CHECK(Broke(&FaultKernel<7>, "LayerNormGrad: sharedTmpBuffer holds tiling.stackBufferSize (A2's check) and the "
                                 "buffers the tiling places there"));
    CHECK(fault::Violation(&FaultKernel<8>).rfind("LayerNormGrad: ", 0) == 0);
    CHECK(fault::Violation(&FaultKernel<9>).rfind("LayerNormGradBeta: the tiling's rounds cover its shape", 0) == 0);
    CHECK(Broke(&FaultKernel<10>, "LayerNormGradBeta: resForGamma and inputDy hold tiling.bLength * sLength * hLength "
                                  "elements, the outputs hLength"));
    CHECK(Broke(&FaultKernel<11>, "LayerNormGradBeta: sharedTmpBuffer holds tiling.stackBufferSize (A2's check) and "
                                  "the buffers the tiling places there"));
    CHECK(Broke(&FaultKernel<12>, "LayerNormGradBeta: sharedTmpBuffer overlaps no operand"));
    CHECK(Broke(&FaultKernel<13>, ""));
    CHECK(Broke(&FaultKernel<14>, "LayerNormGrad: isReuseSource is for float inputs only (A2's check)"));
    CHECK(Broke(&FaultKernel<15>, "LayerNormGrad: tiling.hLength is 32-byte aligned and 0 < tiling.originalHLength <= "
                                  "tiling.hLength (docs: the H axis padded to 32 bytes with zeros)"));
}

TEST_MAIN()
