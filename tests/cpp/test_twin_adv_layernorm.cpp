// LayerNorm ("lib/normalization/layernorm.h", the [B, S, H] form) against float64 references computed here from fresh
// random inputs: half and float, H below, at and above 64 columns (with and without a partial 64-column block), padded
// rows (originalHLength < hLength, zeros in the padding), more than 255 rows in a round, one round and many rounds
// with a tail (the tilings GetLayerNormNDTilingInfo computes for the maximum and the minimum temporary buffer), the
// framework's buffer, output = inputX in place, isReuseSource for float; GetLayerNormMaxMinTmpSize /
// GetLayerNormNDTilingInfo; every run-time rule with a planted fault and a clean counterpart.
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

struct Case {
    uint32_t b = 2, s = 3, h = 64, oriH = 64;
    bool reuse = false;
    bool framework = false;
    bool inPlace = false;
    uint32_t tmpBytes = 0;
    float epsilon = 1e-5f;
    LayerNormTiling tiling;
};
Case gCase;

uint32_t Pad32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

template <typename T, bool reuse>
void Call(const Case& c, const LocalTensor<T>& y, const LocalTensor<T>& mean, const LocalTensor<T>& var,
          const LocalTensor<T>& x, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
          const LocalTensor<uint8_t>& tmp)
{
    const T eps = static_cast<T>(c.epsilon);
    LayerNormTiling t = c.tiling;
    if (c.framework) LayerNorm<T, reuse>(y, mean, var, x, gamma, beta, eps, t);
    else LayerNorm<T, reuse>(y, mean, var, x, gamma, beta, tmp, eps, t);
}

// in = x [b * s * h] | gamma [h] | beta [h]; out = y [b * s * h] | mean [b * s] | variance [b * s] (each 32-byte
// padded).
template <typename T>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const uint32_t dataBytes = Pad32(c.b * c.s * c.h * sizeof(T));
    const uint32_t hBytes = Pad32(c.h * sizeof(T));
    const uint32_t mvBytes = Pad32(c.b * c.s * sizeof(T));
    TPipe pipe;
    TBuf<TPosition::VECIN> xb, gb, bb;
    TBuf<TPosition::VECOUT> yb, mb, vb;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(xb, dataBytes);
    pipe.InitBuffer(gb, hBytes);
    pipe.InitBuffer(bb, hBytes);
    if (!c.inPlace) pipe.InitBuffer(yb, dataBytes);
    pipe.InitBuffer(mb, mvBytes);
    pipe.InitBuffer(vb, mvBytes);
    if (!c.framework) pipe.InitBuffer(tb, c.tmpBytes);
    LocalTensor<T> x = xb.Get<T>(), gamma = gb.Get<T>(), beta = bb.Get<T>();
    LocalTensor<T> y = c.inPlace ? x : yb.Get<T>();
    LocalTensor<T> mean = mb.Get<T>(), var = vb.Get<T>();
    LocalTensor<uint8_t> tmp;
    if (!c.framework) tmp = tb.Get<uint8_t>();
    GlobalTensor<uint8_t> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out));
    DataCopy(x.template ReinterpretCast<uint8_t>(), inGm, dataBytes);
    DataCopy(gamma.template ReinterpretCast<uint8_t>(), inGm[dataBytes], hBytes);
    DataCopy(beta.template ReinterpretCast<uint8_t>(), inGm[dataBytes + hBytes], hBytes);
    if (!c.inPlace) Duplicate(y.template ReinterpretCast<uint16_t>(), uint16_t(0x7e00), static_cast<int32_t>(dataBytes / 2));
    Duplicate(mean.template ReinterpretCast<uint16_t>(), uint16_t(0x7e00), static_cast<int32_t>(mvBytes / 2));
    Duplicate(var.template ReinterpretCast<uint16_t>(), uint16_t(0x7e00), static_cast<int32_t>(mvBytes / 2));
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    if constexpr (std::is_same_v<T, float>) {
        if (c.reuse) Call<T, true>(c, y, mean, var, x, gamma, beta, tmp);
        else Call<T, false>(c, y, mean, var, x, gamma, beta, tmp);
    } else {
        Call<T, false>(c, y, mean, var, x, gamma, beta, tmp);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, y.template ReinterpretCast<uint8_t>(), dataBytes);
    DataCopy(outGm[dataBytes], mean.template ReinterpretCast<uint8_t>(), mvBytes);
    DataCopy(outGm[dataBytes + mvBytes], var.template ReinterpretCast<uint8_t>(), mvBytes);
}

using check::Rng;

// maxTmp: the tiling for GetLayerNormMaxMinTmpSize's maximum (else its minimum: a round a row).
template <typename T>
int Run(Case c, bool maxTmp, const char* what)
{
    const ge::Shape shape({c.b, c.s, c.h, c.oriH});
    uint32_t mx = 0, mn = 0;
    GetLayerNormMaxMinTmpSize(shape, sizeof(T), c.reuse, mx, mn);
    c.tmpBytes = maxTmp ? mx : mn;
    GetLayerNormNDTilingInfo(shape, c.framework ? mx : c.tmpBytes, sizeof(T), c.reuse, c.tiling);
    if (c.tiling.oneTmpSize == 0) {
        std::printf("  %s: GetLayerNormNDTilingInfo wrote no tiling\n", what);
        return 1;
    }
    gCase = c;
    const uint32_t rows = c.b * c.s;
    const uint32_t n = rows * c.h;
    const uint32_t dataBytes = Pad32(n * sizeof(T)), hBytes = Pad32(c.h * sizeof(T)), mvBytes = Pad32(rows * sizeof(T));
    std::vector<uint8_t> in(dataBytes + 2 * hBytes);
    std::vector<double> x(n), g(c.h), be(c.h);
    const float shift = std::uniform_real_distribution<float>(-2, 2)(Rng());  // rows off zero mean
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t j = 0; j < c.h; ++j) {
            const float v = j < c.oriH ? shift + std::uniform_real_distribution<float>(-3, 3)(Rng()) : 0.0f;
            x[r * c.h + j] = adv::Put<T>(in.data() + (r * c.h + j) * sizeof(T), v);
        }
    }
    for (uint32_t j = 0; j < c.h; ++j) {
        g[j] = adv::Put<T>(in.data() + dataBytes + j * sizeof(T), std::uniform_real_distribution<float>(-2, 2)(Rng()));
        be[j] = adv::Put<T>(in.data() + dataBytes + hBytes + j * sizeof(T),
                            std::uniform_real_distribution<float>(-1, 1)(Rng()));
    }
    std::vector<uint8_t> out(dataBytes + 2 * mvBytes);
    if (!adv::Launch1(&Kernel<T>, "layernorm", in, out, what)) return 1;
    // mean = Σx / oriH, variance = Σ(x - mean)² / oriH over the row's h columns (the zero padding included, as A2
    // sums), y = (x - mean) / sqrt(variance + epsilon) * gamma + beta.
    const double eps = std::is_same_v<T, half> ? adv::RoundHalf(c.epsilon) : c.epsilon;
    const double rel = std::is_same_v<T, half> ? 2e-3 : 2e-5;
    int bad = 0;
    auto near = [&](double got, double want, double scale, const char* name, uint32_t r, uint32_t j) {
        if (!(std::fabs(got - want) <= rel * (std::fabs(want) + scale)) && bad++ < 3) {
            std::printf("  %s: %s[%u][%u] = %.9g, expected %.9g\n", what, name, r, j, got, want);
        }
    };
    for (uint32_t r = 0; r < rows; ++r) {
        double sum = 0, sq = 0;
        for (uint32_t j = 0; j < c.h; ++j) sum += x[r * c.h + j];
        const double mean = sum / c.oriH;
        for (uint32_t j = 0; j < c.h; ++j) sq += (x[r * c.h + j] - mean) * (x[r * c.h + j] - mean);
        const double var = sq / c.oriH;
        const double f = 1.0 / std::sqrt(var + eps);
        near(adv::Get<T>(out.data() + dataBytes + r * sizeof(T)), mean, 0.1, "mean", r, 0);
        near(adv::Get<T>(out.data() + dataBytes + mvBytes + r * sizeof(T)), var, 0.1, "variance", r, 0);
        for (uint32_t j = 0; j < c.h; ++j) {
            const double want = (x[r * c.h + j] - mean) * f * g[j] + be[j];
            near(adv::Get<T>(out.data() + (r * c.h + j) * sizeof(T)), want, 1.0, "output", r, j);
        }
    }
    return bad;
}

template <typename T>
int Sweep()
{
    struct Shape {
        uint32_t b, s, h, oriH;
    };
    constexpr uint32_t kBlk = 32 / sizeof(T);
    // H below 64 (padded), 64, 96 (a partial 64-column block, padded), 200 (208 for half: three blocks and a tail),
    // 1024, and
    // 300 rows of one block (two WholeReduceSum rounds of rows).
    const Shape shapes[] = {{2, 3, 2 * kBlk, 2 * kBlk - 3}, {3, 5, 64, 64}, {2, 7, 96, 90},
                            {1, 3, (200 + kBlk - 1) / kBlk * kBlk, 200},                {1, 2, 1024, 1000}, {1, 300, kBlk, kBlk}};
    int failed = 0;
    char what[160];
    for (const Shape& sh : shapes) {
        for (int form = 0; form < 5; ++form) {  // max tmp, min tmp (many rounds), framework, in place, reuse
            if (form == 4 && !std::is_same_v<T, float>) continue;
            Case c;
            c.b = sh.b;
            c.s = sh.s;
            c.h = sh.h;
            c.oriH = sh.oriH;
            c.framework = form == 2;
            c.inPlace = form == 3;
            c.reuse = form == 4;
            c.epsilon = std::uniform_real_distribution<float>(1e-6f, 1e-2f)(Rng());
            std::snprintf(what, sizeof(what), "%s [%u, %u, %u] oriH %u form %d", sizeof(T) == 2 ? "half" : "float",
                          sh.b, sh.s, sh.h, sh.oriH, form);
            failed += Run<T>(c, form != 1, what) != 0 ? 1 : 0;
        }
    }
    return failed;
}

// A valid float tiling of [1, 4, 64] for 2 rows a round (2 rounds): 3 * 128 floats.
LayerNormTiling FaultTiling(bool reuse = false)
{
    LayerNormTiling t;
    GetLayerNormNDTilingInfo(ge::Shape({1, 4, 64, 64}), (reuse ? 2 : 3) * 128 * 4, 4, reuse, t);
    return t;
}

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
    LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 3 * 128 * 4>();
    Duplicate(x, 1.5f, 256);
    Duplicate(gamma, 0.5f, 64);
    Duplicate(beta, 0.25f, 64);
    PipeBarrier<PIPE_V>();
    LayerNormTiling t = FaultTiling();
    if constexpr (kFault == 0) LayerNorm(y, mean, var, x, gamma, beta, tmp, 1e-5f, t);  // clean
    if constexpr (kFault == 1) {
        t.hLength = 60;  // 240 bytes: not 32-byte aligned
        LayerNorm(y, mean, var, x, gamma, beta, tmp, 1e-5f, t);
    }
    if constexpr (kFault == 2) {
        t.originalHLength = 65;
        LayerNorm(y, mean, var, x, gamma, beta, tmp, 1e-5f, t);
    }
    if constexpr (kFault == 3) {
        t.loopRound = 3;
        LayerNorm(y, mean, var, x, gamma, beta, tmp, 1e-5f, t);
    }
    if constexpr (kFault == 4) {
        t.oneTmpSize = t.inputRoundSize = 96;  // not whole rows
        LayerNorm(y, mean, var, x, gamma, beta, tmp, 1e-5f, t);
    }
    if constexpr (kFault == 5 || kFault == 6) {  // [1, 3, 64] in rounds of 2 rows: a tail; 6 calls again with a copy
        GetLayerNormNDTilingInfo(ge::Shape({1, 3, 64, 64}), 3 * 128 * 4, 4, false, t);
        LayerNormTiling again = t;
        LayerNorm(y, mean, var, x, gamma, beta, tmp, 1e-5f, t);
        LayerNorm(y, mean, var, x, gamma, beta, tmp, 1e-5f, kFault == 5 ? t : again);
    }
    if constexpr (kFault == 7) {
        LocalTensor<float> small = x;
        small.SetSize(255);
        LayerNorm(y, mean, var, small, gamma, beta, tmp, 1e-5f, t);
    }
    if constexpr (kFault == 8) {
        LocalTensor<float> small = var;
        small.SetSize(3);
        LayerNorm(y, mean, small, x, gamma, beta, tmp, 1e-5f, t);
    }
    if constexpr (kFault == 9) {
        LocalTensor<float> small = beta;
        small.SetSize(56);
        LayerNorm(y, mean, var, x, gamma, small, tmp, 1e-5f, t);
    }
    if constexpr (kFault == 10) {  // 68 floats: holds H, but 272 bytes, not a 32-byte multiple (A2's check)
        LocalTensor<float> odd = ub.Alloc<float, 72>();
        odd.SetSize(68);
        LayerNorm(y, mean, var, x, odd, beta, tmp, 1e-5f, t);
    }
    if constexpr (kFault == 11 || kFault == 12) {  // 384 floats needed; 11 one block short, 12 exact (clean)
        LocalTensor<uint8_t> small = tmp;
        small.SetSize(kFault == 11 ? 3 * 128 * 4 - 32 : 3 * 128 * 4);
        LayerNorm(y, mean, var, x, gamma, beta, small, 1e-5f, t);
    }
    if constexpr (kFault == 13 || kFault == 17) {  // output 8 floats into inputX; the temporary buffer over inputX
        LocalTensor<float> wide = ub.Alloc<float, 3 * 128 + 8>();
        Duplicate(wide, 0.5f, 3 * 128 + 8);
        PipeBarrier<PIPE_V>();
        if constexpr (kFault == 13) LayerNorm(wide[8], mean, var, wide, gamma, beta, tmp, 1e-5f, t);
        else LayerNorm(y, mean, var, wide, gamma, beta, wide.ReinterpretCast<uint8_t>(), 1e-5f, t);
    }
    if constexpr (kFault == 14) LayerNorm(x, mean, var, x, gamma, beta, tmp, 1e-5f, t);  // clean: in place
    if constexpr (kFault == 15) LayerNorm(y, mean, mean, x, gamma, beta, tmp, 1e-5f, t);
    if constexpr (kFault == 16) LayerNorm(y, gamma, var, x, gamma, beta, tmp, 1e-5f, t);
    if constexpr (kFault == 18) LayerNorm(y[4], mean, var, x, gamma, beta, tmp, 1e-5f, t);  // 16 bytes: misaligned
    if constexpr (kFault == 19) {  // half with isReuseSource
        LayerNormTiling th;
        GetLayerNormNDTilingInfo(ge::Shape({1, 4, 64, 64}), 3 * 128 * 4, 2, true, th);
        LocalTensor<half> hx = x.ReinterpretCast<half>(), hy = y.ReinterpretCast<half>();
        LocalTensor<half> hg = gamma.ReinterpretCast<half>(), hb = beta.ReinterpretCast<half>();
        LocalTensor<half> hm = mean.ReinterpretCast<half>(), hv = var.ReinterpretCast<half>();
        LayerNorm<half, true>(hy, hm, hv, hx, hg, hb, tmp, static_cast<half>(1e-3f), th);
    }
    if constexpr (kFault == 20 || kFault == 21) {  // float isReuseSource: two buffers (20 clean); 21 its tiling without
        LayerNormTiling tr = FaultTiling(true);
        if constexpr (kFault == 20) LayerNorm<float, true>(y, mean, var, x, gamma, beta, tmp, 1e-5f, tr);
        else LayerNorm<float, false>(y, mean, var, x, gamma, beta, tmp, 1e-5f, tr);
    }
    if constexpr (kFault == 22) {  // mean inside the temporary buffer
        LayerNorm(y, tmp.ReinterpretCast<float>()[64], var, x, gamma, beta, tmp, 1e-5f, t);
    }
}

using fault::Broke;

}  // namespace

TEST_CASE("LayerNorm float: shapes, rounds, framework, in place and isReuseSource, against float64")
{
    CHECK_EQ(Sweep<float>(), 0);
}
TEST_CASE("LayerNorm half: shapes, rounds, framework and in place, against float64")
{
    CHECK_EQ(Sweep<half>(), 0);
}

TEST_CASE("GetLayerNormMaxMinTmpSize and GetLayerNormNDTilingInfo return A2's sizes and tiling")
{
    uint32_t mx = 0, mn = 0;
    GetLayerNormMaxMinTmpSize(ge::Shape({2, 3, 64, 64}), 4, false, mx, mn);
    CHECK_EQ(mx, 3u * 2 * 3 * 64 * 4 + 2 * 32);
    CHECK_EQ(mn, 3u * 64 * 4 + 2 * 32);
    GetLayerNormMaxMinTmpSize(ge::Shape({2, 3, 64, 64}), 4, true, mx, mn);
    CHECK_EQ(mx, 2u * 2 * 3 * 64 * 4 + 2 * 32);
    CHECK_EQ(mn, 2u * 64 * 4 + 2 * 32);
    GetLayerNormMaxMinTmpSize(ge::Shape({3, 5, 16, 13}), 2, true, mx, mn);  // half: isReuseSource ignored
    CHECK_EQ(mx, 3u * 3 * 5 * 16 * 4 + 2 * 64);
    CHECK_EQ(mn, 3u * 16 * 4 + 2 * 64);
    LayerNormTiling t;
    GetLayerNormNDTilingInfo(ge::Shape({2, 5, 16, 13}), 1000, 2, false, t);  // 250 floats: 2 * 16 for mean/var
    CHECK_EQ(t.tmpBufSize, 250u);
    CHECK_EQ(t.meanTmpTensorSize, 16u);
    CHECK_EQ(t.varianceTmpTensorPos, 16u);
    CHECK_EQ(t.firstTmpStartPos, 32u);
    CHECK_EQ(t.oneTmpSize, 64u);  // (250 - 32) / 3 = 72, whole rows of 16
    CHECK_EQ(t.secondTmpStartPos, 96u);
    CHECK_EQ(t.thirdTmpStartPos, 160u);
    CHECK_EQ(t.loopRound, 2u);
    CHECK_EQ(t.inputTailSize, 32u);
    CHECK_EQ(t.inputTailPos, 128u);
    CHECK_EQ(t.meanVarRoundSize, 4u);
    CHECK_EQ(t.meanVarTailSize, 2u);
    CHECK_EQ(t.meanVarTailPos, 8u);
    CHECK_EQ(t.bshCurLength, 64u);
    CHECK_EQ(t.bsCurLength, 4u);
    CHECK(t.lastDimValueBack == 1.0f / 13.0f);
    LayerNormTiling before = t;
    GetLayerNormNDTilingInfo(ge::Shape({2, 5, 16, 13}), 100, 2, false, t);  // (25 - 32) / 3 wraps: A2's unsigned
    CHECK_EQ(t.oneTmpSize, 160u);                                           // arithmetic, capped at B * S * H
    t = before;
    GetLayerNormNDTilingInfo(ge::Shape({2, 5, 16, 13}), 4 * (32 + 3 * 15), 2, false, t);  // below one row: unchanged
    CHECK_EQ(std::memcmp(&t, &before, sizeof(t)), 0);
    GetLayerNormNDTilingInfo(ge::Shape({2, 5, 16}), 4096, 2, false, t);  // 3-D: reported, unchanged
    CHECK_EQ(std::memcmp(&t, &before, sizeof(t)), 0);
}

TEST_CASE("LayerNorm rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    const char* hRule = "LayerNorm: tiling.hLength is 32-byte aligned and 0 < tiling.originalHLength <= "
                        "tiling.hLength (docs: the H axis padded to 32 bytes with zeros)";
    CHECK(Broke(&FaultKernel<1>, hRule));
    CHECK(Broke(&FaultKernel<2>, hRule));
    const char* tRule = "LayerNorm: the tiling's rounds cover its shape as GetLayerNormNDTilingInfo writes them "
                        "(oneTmpSize > 0 a multiple of hLength = inputRoundSize, the round buffers inside tmpBufSize, "
                        "loopRound rounds and the tail = bLength * sLength * hLength, the mean/variance rounds and "
                        "tail agreeing)";
    CHECK(Broke(&FaultKernel<3>, tRule));
    CHECK(Broke(&FaultKernel<4>, tRule));
    CHECK(Broke(&FaultKernel<5>, "LayerNorm: tiling.bshCurLength and bsCurLength are a round's (inputRoundSize, "
                                 "meanVarRoundSize): a call with a tail leaves the tail's lengths in the tiling it is "
                                 "given, and A2 would run the next call's rounds at those (the twin is stricter: pass "
                                 "each call a fresh copy)"));
    CHECK(Broke(&FaultKernel<6>, ""));
    CHECK(Broke(&FaultKernel<7>, "LayerNorm: output and inputX hold tiling.bLength * sLength * hLength elements"));
    CHECK(Broke(&FaultKernel<8>, "LayerNorm: outputMean and outputVariance hold tiling.bLength * sLength elements"));
    CHECK(Broke(&FaultKernel<9>, "LayerNorm: gamma and beta hold tiling.hLength elements"));
    CHECK(Broke(&FaultKernel<10>, "LayerNorm: gamma's and beta's lengths are 32-byte multiples (A2's check)"));
    CHECK(Broke(&FaultKernel<11>, "LayerNorm: sharedTmpBuffer holds tiling.tmpBufSize floats"));
    CHECK(Broke(&FaultKernel<12>, ""));
    CHECK(Broke(&FaultKernel<13>, "LayerNorm: output and inputX are the same or do not overlap (docs: output and "
                                  "inputX may share their space)"));
    CHECK(Broke(&FaultKernel<14>, ""));
    CHECK(Broke(&FaultKernel<15>, "LayerNorm: the outputs do not overlap each other (docs, A2's check)"));
    CHECK(Broke(&FaultKernel<16>, "LayerNorm: no output overlaps an input but output and inputX being the same (docs: "
                                  "其他输出与输入的空间不可复用)"));
    CHECK(Broke(&FaultKernel<17>, "LayerNorm: sharedTmpBuffer overlaps no operand"));
    CHECK(fault::Violation(&FaultKernel<18>).rfind("LayerNorm: ", 0) == 0);
    CHECK(Broke(&FaultKernel<19>, "LayerNorm: isReuseSource is for float inputs only (docs; A2's check)"));
    CHECK(Broke(&FaultKernel<20>, ""));
    CHECK(Broke(&FaultKernel<21>, tRule));
    CHECK(Broke(&FaultKernel<22>, "LayerNorm: sharedTmpBuffer overlaps no operand"));
}

TEST_MAIN()
