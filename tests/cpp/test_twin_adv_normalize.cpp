// Normalize ("lib/normalization/normalize.h") and LayerNorm's [A, R] form (LayerNormPara, LayerNormSeparateTiling, the
// rstd output) against float64 references computed here from fresh random inputs: T/U float/float, half/half and
// half/float; rows padded (rLength < rLengthWithPadding) and not; the temporary buffer at the host functions' minimum
// (Normalize one row a round, LayerNorm one row a round and Normalize one row), at their maximum, for two rows a round
// (odd row counts: a tail round) and the framework's;
// GetNormalizeMaxMinTmpSize, the [A, R] GetLayerNormMaxMinTmpSize / GetLayerNormNDTilingInfo; every run-time rule
// with a planted fault and a clean counterpart.
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
#include "lib/normalization/normalize.h"
#include "tiling/normalization/layernorm_tiling.h"
#include "tiling/normalization/normalize_tiling.h"

using namespace AscendC;

namespace {

struct Case {
    uint32_t a = 4, r = 32, rPad = 32;
    bool layerNorm = false;  // else Normalize
    bool framework = false;
    uint32_t tmpBytes = 0;
    float epsilon = 1e-5f;
    LayerNormSeparateTiling tiling;
};
Case gCase;

uint32_t Pad32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

// in = x [a * rPad] of T | gamma [rPad] of U | beta [rPad] of U | mean [a] | variance [a] (floats; Normalize only);
// out = y [a * rPad] of T | mean [a] (LayerNorm) | rstd [a], each 32-byte padded.
template <typename T, typename U>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const uint32_t xBytes = Pad32(c.a * c.rPad * sizeof(T)), gBytes = Pad32(c.rPad * sizeof(U));
    const uint32_t aBytes = Pad32(c.a * 4);
    TPipe pipe;
    TBuf<TPosition::VECIN> xb, gb, bb, mib, vib;
    TBuf<TPosition::VECOUT> yb, mb, rb;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(xb, xBytes);
    pipe.InitBuffer(gb, gBytes);
    pipe.InitBuffer(bb, gBytes);
    pipe.InitBuffer(yb, xBytes);
    pipe.InitBuffer(rb, aBytes);
    if (c.layerNorm) {
        pipe.InitBuffer(mb, aBytes);
    } else {
        pipe.InitBuffer(mib, aBytes);
        pipe.InitBuffer(vib, aBytes);
    }
    if (!c.framework) pipe.InitBuffer(tb, c.tmpBytes);
    LocalTensor<T> x = xb.Get<T>(), y = yb.Get<T>();
    LocalTensor<U> gamma = gb.Get<U>(), beta = bb.Get<U>();
    LocalTensor<float> rstd = rb.Get<float>();
    LocalTensor<float> mean = c.layerNorm ? mb.Get<float>() : mib.Get<float>();
    LocalTensor<float> var;
    if (!c.layerNorm) var = vib.Get<float>();
    LocalTensor<uint8_t> tmp;
    if (!c.framework) tmp = tb.Get<uint8_t>();
    GlobalTensor<uint8_t> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out));
    DataCopy(x.template ReinterpretCast<uint8_t>(), inGm, xBytes);
    DataCopy(gamma.template ReinterpretCast<uint8_t>(), inGm[xBytes], gBytes);
    DataCopy(beta.template ReinterpretCast<uint8_t>(), inGm[xBytes + gBytes], gBytes);
    if (!c.layerNorm) {
        DataCopy(mean.ReinterpretCast<uint8_t>(), inGm[xBytes + 2 * gBytes], aBytes);
        DataCopy(var.ReinterpretCast<uint8_t>(), inGm[xBytes + 2 * gBytes + aBytes], aBytes);
    } else {
        Duplicate(mean.ReinterpretCast<uint16_t>(), uint16_t(0x7e00), static_cast<int32_t>(aBytes / 2));
    }
    Duplicate(y.template ReinterpretCast<uint16_t>(), uint16_t(0x7e00), static_cast<int32_t>(xBytes / 2));
    Duplicate(rstd.ReinterpretCast<uint16_t>(), uint16_t(0x7e00), static_cast<int32_t>(aBytes / 2));
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    if (c.layerNorm) {
        const LayerNormPara para = {c.a, c.r, c.rPad};
        if (c.framework) LayerNorm<U, T>(y, mean, rstd, x, gamma, beta, c.epsilon, para, c.tiling);
        else LayerNorm<U, T>(y, mean, rstd, x, gamma, beta, c.epsilon, tmp, para, c.tiling);
    } else {
        const NormalizePara para = {c.a, c.r, c.rPad};
        if (c.framework) Normalize<U, T>(y, rstd, mean, var, x, gamma, beta, c.epsilon, para);
        else Normalize<U, T>(y, rstd, mean, var, x, gamma, beta, tmp, c.epsilon, para);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, y.template ReinterpretCast<uint8_t>(), xBytes);
    if (c.layerNorm) DataCopy(outGm[xBytes], mean.ReinterpretCast<uint8_t>(), aBytes);
    DataCopy(outGm[xBytes + aBytes], rstd.ReinterpretCast<uint8_t>(), aBytes);
}

using check::Rng;

// tmp: 0 the host function's maximum, 1 its minimum, 2 two rows a round (LayerNorm: its rounds and Normalize's;
// Normalize: its rounds), so an odd A leaves a tail.
template <typename T, typename U>
int Run(Case c, int tmp, const char* what)
{
    const ge::Shape shape({c.a, c.r});
    uint32_t mx = 0, mn = 0;
    const uint32_t twoRows = c.layerNorm ? ((c.a + 7) / 8 * 8 + 4 * c.rPad) * 4
                                         : (std::is_same_v<U, float> ? 4 : 6) * c.rPad * 4;
    if (c.layerNorm) {
        GetLayerNormMaxMinTmpSize(shape, sizeof(T), false, true, false, mx, mn);
        c.tmpBytes = tmp == 0 ? mx : (tmp == 1 ? mn : twoRows);
        GetLayerNormNDTilingInfo(shape, c.framework ? mx : c.tmpBytes, sizeof(T), false, true, c.tiling);
        if (c.tiling.oneTmpSize == 0) {
            std::printf("  %s: GetLayerNormNDTilingInfo wrote no tiling\n", what);
            return 1;
        }
    } else {
        GetNormalizeMaxMinTmpSize(shape, sizeof(U), sizeof(T), false, true, false, mx, mn);
        c.tmpBytes = tmp == 0 ? mx : (tmp == 1 ? mn : twoRows);
    }
    gCase = c;
    const uint32_t n = c.a * c.rPad;
    const uint32_t xBytes = Pad32(n * sizeof(T)), gBytes = Pad32(c.rPad * sizeof(U)), aBytes = Pad32(c.a * 4);
    std::vector<uint8_t> in(xBytes + 2 * gBytes + 2 * aBytes);
    std::vector<double> x(n), g(c.rPad), be(c.rPad), mean(c.a), var(c.a);
    for (uint32_t i = 0; i < c.a; ++i) {
        const float shift = std::uniform_real_distribution<float>(-3, 3)(Rng());  // rows off zero mean
        for (uint32_t j = 0; j < c.rPad; ++j) {
            // the padding: garbage for LayerNorm (it zeroes it first), values for Normalize (ignored by the rows)
            const float v = shift + std::uniform_real_distribution<float>(-4, 4)(Rng());
            x[i * c.rPad + j] = adv::Put<T>(in.data() + (i * c.rPad + j) * sizeof(T), v);
        }
    }
    for (uint32_t j = 0; j < c.rPad; ++j) {
        g[j] = adv::Put<U>(in.data() + xBytes + j * sizeof(U), std::uniform_real_distribution<float>(-2, 2)(Rng()));
        be[j] = adv::Put<U>(in.data() + xBytes + gBytes + j * sizeof(U),
                            std::uniform_real_distribution<float>(-1, 1)(Rng()));
    }
    for (uint32_t i = 0; i < c.a; ++i) {  // the row's own statistics (over rLength), as float
        double s = 0, q = 0;
        for (uint32_t j = 0; j < c.r; ++j) s += x[i * c.rPad + j];
        const double m = s / c.r;
        for (uint32_t j = 0; j < c.r; ++j) q += (x[i * c.rPad + j] - m) * (x[i * c.rPad + j] - m);
        mean[i] = adv::Put<float>(in.data() + xBytes + 2 * gBytes + i * 4, static_cast<float>(m));
        var[i] = adv::Put<float>(in.data() + xBytes + 2 * gBytes + aBytes + i * 4, static_cast<float>(q / c.r));
    }
    std::vector<uint8_t> out(xBytes + 2 * aBytes);
    if (!adv::Launch1(&Kernel<T, U>, "normalize", in, out, what)) return 1;
    const double rel = std::is_same_v<T, half> ? 2e-3 : 2e-5;
    int bad = 0;
    auto near = [&](double got, double want, double scale, const char* name, uint32_t i, uint32_t j) {
        if (!(std::fabs(got - want) <= rel * (std::fabs(want) + scale)) && bad++ < 3) {
            std::printf("  %s: %s[%u][%u] = %.9g, expected %.9g\n", what, name, i, j, got, want);
        }
    };
    for (uint32_t i = 0; i < c.a; ++i) {
        const double f = 1.0 / std::sqrt(var[i] + c.epsilon);
        if (c.layerNorm) near(adv::Get<float>(out.data() + xBytes + i * 4), mean[i], 0.1, "mean", i, 0);
        near(adv::Get<float>(out.data() + xBytes + aBytes + i * 4), f, 0.0, "rstd", i, 0);
        for (uint32_t j = 0; j < c.r; ++j) {
            const double want = (x[i * c.rPad + j] - mean[i]) * f * g[j] + be[j];
            near(adv::Get<T>(out.data() + (i * c.rPad + j) * sizeof(T)), want, 1.0, "output", i, j);
        }
    }
    return bad;
}

template <typename T, typename U>
int Sweep(bool layerNorm)
{
    struct Shape {
        uint32_t a, r;
    };
    constexpr uint32_t kBlk = 32 / sizeof(T);
    // one block a row, 64 columns, a partial 64-column block with padding, 200 columns padded, many rows
    const Shape shapes[] = {{3, kBlk}, {5, 64}, {7, 90}, {2, 200}, {37, 2 * kBlk - 5}};
    int failed = 0;
    char what[160];
    for (const Shape& sh : shapes) {
        for (int form = 0; form < 4; ++form) {  // max tmp, min tmp (one row a round), framework, two rows a round
            Case c;
            c.a = sh.a;
            c.r = sh.r;
            c.rPad = (sh.r + kBlk - 1) / kBlk * kBlk;
            c.layerNorm = layerNorm;
            c.framework = form == 2;
            c.epsilon = std::uniform_real_distribution<float>(1e-6f, 1e-2f)(Rng());
            std::snprintf(what, sizeof(what), "%s T %s U %s [%u, %u] form %d", layerNorm ? "LayerNorm" : "Normalize",
                          sizeof(T) == 2 ? "half" : "float", sizeof(U) == 2 ? "half" : "float", sh.a, sh.r, form);
            failed += Run<T, U>(c, form == 3 ? 2 : (form == 1 ? 1 : 0), what) != 0 ? 1 : 0;
        }
    }
    return failed;
}

// configs at namespace scope (a static local of a function template as a reference template argument trips GCC 12)
constexpr NormalizeConfig ra = {ReducePattern::RA, -1, false, false, false};
constexpr NormalizeConfig three = {ReducePattern::AR, 3, false, false, false};
constexpr NormalizeConfig four = {ReducePattern::AR, 4, false, false, false};

// Normalize float [4, 64] with a 512-float buffer (4 rows a round), LayerNorm float [4, 64] with its tiling for 1024
// bytes (one row a round: 8 + 2 * 64 floats used) and the same buffer.
template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    (void)pipe;
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> x = ub.Alloc<float, 256>();
    LocalTensor<float> y = ub.Alloc<float, 256>();
    LocalTensor<float> gamma = ub.Alloc<float, 64>();
    LocalTensor<float> beta = ub.Alloc<float, 64>();
    LocalTensor<float> mean = ub.Alloc<float, 8>();
    LocalTensor<float> var = ub.Alloc<float, 8>();
    LocalTensor<float> rstd = ub.Alloc<float, 8>();
    LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 2048>();
    Duplicate(x, 1.5f, 256);
    Duplicate(gamma, 0.5f, 64);
    Duplicate(beta, 0.25f, 64);
    Duplicate(mean, 1.0f, 8);
    Duplicate(var, 2.0f, 8);
    PipeBarrier<PIPE_V>();
    NormalizePara np = {4, 64, 64};
    LayerNormPara lp = {4, 64, 64};
    LayerNormSeparateTiling t;
    GetLayerNormNDTilingInfo(ge::Shape({4, 64}), 1024, 4, false, true, t);
    // Normalize
    if constexpr (kFault == 0) Normalize<float, float>(y, rstd, mean, var, x, gamma, beta, tmp, 1e-5f, np);  // clean
    if constexpr (kFault == 1) {
        Normalize<float, float, false, ra>(y, rstd, mean, var, x, gamma, beta, tmp, 1e-5f, np);
    }
    if constexpr (kFault == 2 || kFault == 3) {  // config.aLength 3 for para.aLength 4; 3: 4 (clean)
        if constexpr (kFault == 2) Normalize<float, float, false, three>(y, rstd, mean, var, x, gamma, beta, tmp, 1e-5f, np);
        else Normalize<float, float, false, four>(y, rstd, mean, var, x, gamma, beta, tmp, 1e-5f, np);
    }
    if constexpr (kFault == 4) Normalize<float, float, true>(y, rstd, mean, var, x, gamma, beta, tmp, 1e-5f, np);
    if constexpr (kFault == 5) {
        np.rLengthWithPadding = 60;  // 240 bytes
        np.rLength = 60;
        Normalize<float, float>(y, rstd, mean, var, x, gamma, beta, tmp, 1e-5f, np);
    }
    if constexpr (kFault == 6) {
        np.rLength = 65;
        Normalize<float, float>(y, rstd, mean, var, x, gamma, beta, tmp, 1e-5f, np);
    }
    if constexpr (kFault == 7) {
        LocalTensor<float> small = x;
        small.SetSize(248);
        Normalize<float, float>(y, rstd, mean, var, small, gamma, beta, tmp, 1e-5f, np);
    }
    if constexpr (kFault == 8) {
        LocalTensor<float> small = var;
        small.SetSize(3);
        Normalize<float, float>(y, rstd, mean, small, x, gamma, beta, tmp, 1e-5f, np);
    }
    if constexpr (kFault == 9) {
        LocalTensor<float> small = beta;
        small.SetSize(56);
        Normalize<float, float>(y, rstd, mean, var, x, gamma, small, tmp, 1e-5f, np);
    }
    if constexpr (kFault == 10 || kFault == 11) {  // 2 * 64 floats a round: 10 one block short, 11 exact (clean)
        LocalTensor<uint8_t> small = tmp;
        small.SetSize(kFault == 10 ? 2 * 64 * 4 - 32 : 2 * 64 * 4);
        Normalize<float, float>(y, rstd, mean, var, x, gamma, beta, small, 1e-5f, np);
    }
    if constexpr (kFault == 12) Normalize<float, float>(x, rstd, mean, var, x, gamma, beta, tmp, 1e-5f, np);
    if constexpr (kFault == 13) Normalize<float, float>(y, var, mean, var, x, gamma, beta, tmp, 1e-5f, np);
    if constexpr (kFault == 14) Normalize<float, float>(y, rstd, mean, var, x, gamma, beta, y.ReinterpretCast<uint8_t>(), 1e-5f, np);
    if constexpr (kFault == 15) Normalize<float, float>(y[4], rstd, mean, var, x, gamma, beta, tmp, 1e-5f, np);
    // LayerNorm [A, R]
    if constexpr (kFault == 20) LayerNorm<float, float>(y, mean, rstd, x, gamma, beta, 1e-5f, tmp, lp, t);  // clean
    if constexpr (kFault == 21) {
        t.loopRound = 3;
        LayerNorm<float, float>(y, mean, rstd, x, gamma, beta, 1e-5f, tmp, lp, t);
    }
    if constexpr (kFault == 22) {  // a tiling for [4, 32]
        GetLayerNormNDTilingInfo(ge::Shape({4, 32}), 1024, 4, false, true, t);
        LayerNorm<float, float>(y, mean, rstd, x, gamma, beta, 1e-5f, tmp, lp, t);
    }
    if constexpr (kFault == 23 || kFault == 24) {  // [3, 64] in rounds of 1 row, 2048 bytes: 3 rounds, no tail
        // [3, 64] with 5 * 64 + 8 floats: 2 rows a round, a tail; 23 calls again with the written tiling, 24 a copy
        lp.aLength = 3;
        GetLayerNormNDTilingInfo(ge::Shape({3, 64}), (8 + 4 * 64) * 4, 4, false, true, t);
        LayerNormSeparateTiling again = t;
        LayerNorm<float, float>(y, mean, rstd, x, gamma, beta, 1e-5f, tmp, lp, t);
        LayerNorm<float, float>(y, mean, rstd, x, gamma, beta, 1e-5f, tmp, lp, kFault == 23 ? t : again);
    }
    if constexpr (kFault == 25 || kFault == 26) {  // the tiling's 256 floats: 25 one block short, 26 exact (clean)
        LocalTensor<uint8_t> small = tmp;
        small.SetSize(kFault == 25 ? 1024 - 32 : 1024);
        LayerNorm<float, float>(y, mean, rstd, x, gamma, beta, 1e-5f, small, lp, t);
    }
    if constexpr (kFault == 27) LayerNorm<float, float>(y, mean, mean, x, gamma, beta, 1e-5f, tmp, lp, t);
    if constexpr (kFault == 28) LayerNorm<float, float>(x, mean, rstd, x, gamma, beta, 1e-5f, tmp, lp, t);
    if constexpr (kFault == 29) {
        LayerNorm<float, float>(y, mean, rstd, x, gamma, beta, 1e-5f, x.ReinterpretCast<uint8_t>(), lp, t);
    }
    if constexpr (kFault == 30) {  // half with isReuseSource
        GetLayerNormNDTilingInfo(ge::Shape({4, 64}), 1024, 2, false, true, t);
        LocalTensor<half> hx = x.ReinterpretCast<half>(), hy = y.ReinterpretCast<half>();
        LocalTensor<half> hg = gamma.ReinterpretCast<half>(), hb = beta.ReinterpretCast<half>();
        LayerNorm<half, half, true>(hy, mean, rstd, hx, hg, hb, 1e-3f, tmp, lp, t);
    }
    if constexpr (kFault == 31) {
        LocalTensor<float> small = rstd;
        small.SetSize(3);
        LayerNorm<float, float>(y, mean, small, x, gamma, beta, 1e-5f, tmp, lp, t);
    }
    if constexpr (kFault == 32) {
        lp.rLengthWithPadding = 60;
        LayerNorm<float, float>(y, mean, rstd, x, gamma, beta, 1e-5f, tmp, lp, t);
    }
}

// SetOverflow(1) then (0) around an [A, R] LayerNorm, as asc-devkit's layernorm_v2 example brackets its work.
void OverflowKernel(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    (void)pipe;
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> x = ub.Alloc<float, 256>(), y = ub.Alloc<float, 256>();
    LocalTensor<float> gamma = ub.Alloc<float, 64>(), beta = ub.Alloc<float, 64>();
    LocalTensor<float> mean = ub.Alloc<float, 8>(), rstd = ub.Alloc<float, 8>();
    LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 2048>();
    Duplicate(x, 1.5f, 256);
    Duplicate(gamma, 0.5f, 64);
    Duplicate(beta, 0.25f, 64);
    PipeBarrier<PIPE_V>();
    LayerNormSeparateTiling t;
    GetLayerNormNDTilingInfo(ge::Shape({4, 64}), 2048, 4, false, true, t);
    AscendCUtils::SetOverflow(1);
    LayerNorm<float, float>(y, mean, rstd, x, gamma, beta, 1e-5f, tmp, LayerNormPara{4, 64, 64}, t);
    AscendCUtils::SetOverflow(0);
}

using fault::Broke;

}  // namespace

TEST_CASE("Normalize float/float, half/half, half/float: shapes, rounds, framework, against float64")
{
    CHECK_EQ((Sweep<float, float>(false)), 0);
    CHECK_EQ((Sweep<half, half>(false)), 0);
    CHECK_EQ((Sweep<half, float>(false)), 0);
}

TEST_CASE("LayerNorm [A, R] float/float, half/half, half/float: shapes, rounds, padding, framework, against float64")
{
    CHECK_EQ((Sweep<float, float>(true)), 0);
    CHECK_EQ((Sweep<half, half>(true)), 0);
    CHECK_EQ((Sweep<half, float>(true)), 0);
}

TEST_CASE("GetNormalizeMaxMinTmpSize and the [A, R] GetLayerNormMaxMinTmpSize / GetLayerNormNDTilingInfo: A2's")
{
    uint32_t mx = 0, mn = 0;
    GetNormalizeMaxMinTmpSize(ge::Shape({32, 32}), 4, 4, false, true, false, mx, mn);
    CHECK_EQ(mx, 2u * 128 + 2 * 32 * 32 * 4);
    CHECK_EQ(mn, 256u);  // max(A * 4 = 128, 2 * R * 4 = 256)
    GetNormalizeMaxMinTmpSize(ge::Shape({100, 20}), 2, 2, false, true, false, mx, mn);  // R padded to 32 halves
    CHECK_EQ(mx, 2u * 128 + 2 * 104 * 32 * 4);
    CHECK_EQ(mn, 512u);  // 4R for half U
    GetNormalizeMaxMinTmpSize(ge::Shape({300, 8}), 4, 4, false, true, false, mx, mn);
    CHECK_EQ(mn, 1216u);  // A floats, rounded up to 32 bytes
    mx = mn = 7;
    GetNormalizeMaxMinTmpSize(ge::Shape({32, 32}), 4, 4, false, false, false, mx, mn);  // isComputeRstd false
    CHECK_EQ(mx + mn, 14u);
    // the example's [32, 32] float: max Normalize's 2 * 128 + 2 * 4096 (above LayerNorm's 2 * 4096) + 128, min
    // 2 * 128 + 128 (Normalize's 256 + 128 the same)
    GetLayerNormMaxMinTmpSize(ge::Shape({32, 32}), 4, false, true, false, mx, mn);
    CHECK_EQ(mx, 8576u);
    CHECK_EQ(mn, 384u);
    GetLayerNormMaxMinTmpSize(ge::Shape({4, 16}), 2, false, true, false, mx, mn);  // half: Normalize's 4R is larger
    CHECK_EQ(mn, 4u * 64 + 32);
    LayerNormSeparateTiling t;
    GetLayerNormNDTilingInfo(ge::Shape({32, 32}), 384, 4, false, true, t);
    CHECK_EQ(t.tmpBufSize, 96u);
    CHECK_EQ(t.varianceTmpTensorSize, 32u);
    CHECK_EQ(t.firstTmpStartPos, 32u);
    CHECK_EQ(t.oneTmpSize, 32u);
    CHECK_EQ(t.secondTmpStartPos, 64u);
    CHECK_EQ(t.loopRound, 32u);
    CHECK_EQ(t.inputTailSize, 0u);
    CHECK_EQ(t.meanVarRoundSize, 1u);
    CHECK_EQ(t.arCurLength, 32u);
    CHECK_EQ(t.aCurLength, 1u);
    CHECK(t.rValueBack == 1.0f / 32.0f);
    GetLayerNormNDTilingInfo(ge::Shape({5, 20}), 4 * (8 + 2 * 48), 4, false, true, t);  // rows of 24: 2 a round
    CHECK_EQ(t.inputXSize, 120u);
    CHECK_EQ(t.oneTmpSize, 48u);
    CHECK_EQ(t.loopRound, 2u);
    CHECK_EQ(t.inputTailSize, 24u);
    CHECK_EQ(t.inputTailPos, 96u);
    CHECK_EQ(t.meanVarTailSize, 1u);
    CHECK_EQ(t.meanVarTailPos, 4u);
    const LayerNormSeparateTiling before = t;
    GetLayerNormNDTilingInfo(ge::Shape({5, 20}), 4 * (8 + 2 * 23), 4, false, true, t);  // below a row: unchanged
    CHECK_EQ(std::memcmp(&t, &before, sizeof(t)), 0);
    optiling::LayerNormSeparateTiling data;
    GetLayerNormNDTilingInfo(ge::Shape({32, 32}), 384, 4, false, true, data);
    CHECK_EQ(data.get_loopRound(), 32u);
}

TEST_CASE("Normalize and LayerNorm [A, R] rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "Normalize: config.reducePattern is ReducePattern::AR (A2's check)"));
    CHECK(Broke(&FaultKernel<2>, "Normalize: config.aLength is -1 or para.aLength (A2's check)"));
    CHECK(Broke(&FaultKernel<3>, ""));
    CHECK(Broke(&FaultKernel<4>, "Normalize: isReuseSource is false (A2's check: Normalize does not reuse its source)"));
    const char* shape = "para.aLength > 0, 0 < para.rLength <= para.rLengthWithPadding and para.rLengthWithPadding "
                        "* sizeof(T) a multiple of 32 (A2's check, docs)";
    CHECK(Broke(&FaultKernel<5>, std::string("Normalize: ") + shape));
    CHECK(Broke(&FaultKernel<6>, std::string("Normalize: ") + shape));
    const char* ar = "inputX and output hold para.aLength * para.rLengthWithPadding elements (A2 checks aLength * "
                     "rLength and reads and writes the padded rows: the twin asks for them)";
    CHECK(Broke(&FaultKernel<7>, std::string("Normalize: ") + ar));
    CHECK(Broke(&FaultKernel<8>, "Normalize: inputMean, inputVariance and outputRstd hold para.aLength floats"));
    CHECK(Broke(&FaultKernel<9>, "Normalize: gamma and beta hold para.rLength elements"));
    CHECK(Broke(&FaultKernel<10>, "Normalize: sharedTmpBuffer holds at least para.aLength floats and one round (2 * "
                                  "rLengthWithPadding floats, 4 * for half gamma/beta; GetNormalizeMaxMinTmpSize's "
                                  "minimum)"));
    CHECK(Broke(&FaultKernel<11>, ""));
    const char* over = "no output overlaps another operand (A2's check; docs: 源操作数和目的操作数的Tensor空间不能复用)";
    CHECK(Broke(&FaultKernel<12>, std::string("Normalize: ") + over));
    CHECK(Broke(&FaultKernel<13>, std::string("Normalize: ") + over));
    CHECK(Broke(&FaultKernel<14>, std::string("Normalize: ") + over));
    CHECK(fault::Violation(&FaultKernel<15>).rfind("Normalize: ", 0) == 0);  // misaligned output
    CHECK(Broke(&FaultKernel<20>, ""));
    const char* tRule = "LayerNorm: the tiling's rounds cover para's shape as GetLayerNormNDTilingInfo writes them "
                        "(aLength and rLength para's, oneTmpSize > 0 a multiple of rLengthWithPadding = "
                        "inputRoundSize, loopRound rounds and the tail = aLength * rLengthWithPadding, the variances "
                        "before the round buffers, secondTmpStartPos + oneTmpSize <= tmpBufSize: A2 asserts the last)";
    CHECK(Broke(&FaultKernel<21>, tRule));
    CHECK(Broke(&FaultKernel<22>, tRule));
    CHECK(Broke(&FaultKernel<23>, "LayerNorm: tiling.arCurLength and aCurLength are a round's (inputRoundSize, "
                                  "meanVarRoundSize): a call with a tail leaves the tail's lengths in the tiling it is "
                                  "given, and A2 would run the next call's rounds at those (the twin is stricter: pass "
                                  "each call a fresh copy)"));
    CHECK(Broke(&FaultKernel<24>, ""));
    CHECK(Broke(&FaultKernel<25>, "LayerNorm: sharedTmpBuffer holds more than para.rLengthWithPadding floats and at "
                                  "least tiling.tmpBufSize (A2's asserts)"));
    CHECK(Broke(&FaultKernel<26>, ""));
    CHECK(Broke(&FaultKernel<27>, "LayerNorm: the outputs do not overlap each other (A2's check)"));
    CHECK(Broke(&FaultKernel<28>, std::string("LayerNorm: ") + over));
    CHECK(Broke(&FaultKernel<29>, std::string("LayerNorm: ") + over));
    CHECK(Broke(&FaultKernel<30>, "LayerNorm: isReuseSource is false for half inputs (A2's check)"));
    CHECK(Broke(&FaultKernel<31>, "LayerNorm: outputMean and outputRstd hold para.aLength floats"));
    CHECK(Broke(&FaultKernel<32>, std::string("LayerNorm: ") + shape));
}

TEST_CASE("AscendCUtils: GetBitSize, GetC0Size; SetOverflow around a LayerNorm (the twin's inf/nan arithmetic)")
{
    CHECK_EQ(AscendCUtils::GetBitSize(2), 16);
    CHECK_EQ(AscendCUtils::GetC0Size(), 32);
    CHECK(Broke(&OverflowKernel, ""));
}

TEST_MAIN()
