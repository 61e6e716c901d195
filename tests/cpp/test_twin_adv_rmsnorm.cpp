// RmsNorm ("lib/normalization/rmsnorm.h") against float64 references computed here from fresh random inputs: half
// and float, isBasicBlock on and off, H below, at and above 64 columns (with and without a partial 64-column block),
// padded rows (originalHLength < hLength), one chunk and many chunks with a tail (the tilings GetRmsNormTilingInfo
// computes for the maximum and the minimum temporary buffer), the framework's buffer, dst = src in place;
// GetRmsNormMaxMinTmpSize / GetRmsNormTilingInfo; every run-time rule with a planted fault and a clean counterpart.
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
#include "lib/normalization/rmsnorm.h"
#include "tiling/normalization/rmsnorm_tiling.h"

using namespace AscendC;

namespace {

struct Case {
    uint32_t b = 2, s = 3, h = 64, oriH = 64;
    bool basic = false;
    bool framework = false;
    bool inPlace = false;
    uint32_t tmpBytes = 0;
    float epsilon = 1e-5f;
    RmsNormTiling tiling;
};
Case gCase;

template <typename T, bool basic>
void Call(const Case& c, const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& gamma,
          const LocalTensor<uint8_t>& tmp)
{
    const T eps = static_cast<T>(c.epsilon);
    if (c.framework) RmsNorm<T, basic>(dst, src, gamma, eps, c.tiling);
    else RmsNorm<T, basic>(dst, src, gamma, tmp, eps, c.tiling);
}

// in = src [b * s * h] | gamma [h] (each 32-byte padded); out = dst.
template <typename T>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const uint32_t dataBytes = (c.b * c.s * c.h * sizeof(T) + 31) / 32 * 32;
    const uint32_t gammaBytes = (c.h * sizeof(T) + 31) / 32 * 32;
    TPipe pipe;
    TBuf<TPosition::VECIN> sb, gb;
    TBuf<TPosition::VECOUT> db;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(sb, dataBytes);
    pipe.InitBuffer(gb, gammaBytes);
    if (!c.inPlace) pipe.InitBuffer(db, dataBytes);
    if (!c.framework) pipe.InitBuffer(tb, c.tmpBytes);
    LocalTensor<T> src = sb.Get<T>();
    LocalTensor<T> gamma = gb.Get<T>();
    LocalTensor<T> dst = c.inPlace ? src : db.Get<T>();
    LocalTensor<uint8_t> tmp;
    if (!c.framework) tmp = tb.Get<uint8_t>();
    GlobalTensor<uint8_t> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out));
    DataCopy(src.template ReinterpretCast<uint8_t>(), inGm, dataBytes);
    DataCopy(gamma.template ReinterpretCast<uint8_t>(), inGm[dataBytes], gammaBytes);
    if (!c.inPlace) Duplicate(dst.template ReinterpretCast<uint16_t>(), uint16_t(0x7e00), static_cast<int32_t>(dataBytes / 2));
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    if (c.basic) Call<T, true>(c, dst, src, gamma, tmp);
    else Call<T, false>(c, dst, src, gamma, tmp);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, dst.template ReinterpretCast<uint8_t>(), dataBytes);
}

using check::Rng;

// maxTmp: the tiling for GetRmsNormMaxMinTmpSize's maximum (else its minimum: many chunks).
template <typename T>
int Run(Case c, bool maxTmp, const char* what)
{
    uint32_t mx = 0, mn = 0;
    if (!GetRmsNormMaxMinTmpSize(ge::Shape({c.b, c.s, c.h}), sizeof(T), mx, mn, c.basic)) {
        std::printf("  %s: GetRmsNormMaxMinTmpSize refused the shape\n", what);
        return 1;
    }
    c.tmpBytes = maxTmp ? mx : mn;
    const uint32_t tilingBytes = c.framework ? 64 * 1024 : c.tmpBytes;
    if (!GetRmsNormTilingInfo(ge::Shape({c.b, c.s, c.h}), ge::Shape({c.b, c.s, c.oriH}), tilingBytes, sizeof(T),
                              c.tiling, c.basic)) {
        std::printf("  %s: GetRmsNormTilingInfo refused the shape\n", what);
        return 1;
    }
    gCase = c;
    const uint32_t rows = c.b * c.s;
    const uint32_t n = rows * c.h;
    const uint32_t dataBytes = (n * sizeof(T) + 31) / 32 * 32;
    const uint32_t gammaBytes = (c.h * sizeof(T) + 31) / 32 * 32;
    std::vector<uint8_t> in(dataBytes + gammaBytes);
    std::vector<double> x(n), g(c.h);
    for (uint32_t i = 0; i < n; ++i) x[i] = adv::Put<T>(in.data() + i * sizeof(T), std::uniform_real_distribution<float>(-3, 3)(Rng()));
    for (uint32_t j = 0; j < c.h; ++j) {
        g[j] = adv::Put<T>(in.data() + dataBytes + j * sizeof(T), std::uniform_real_distribution<float>(-2, 2)(Rng()));
    }
    std::vector<uint8_t> out(dataBytes);
    if (!adv::Launch1(&Kernel<T>, "rmsnorm", in, out, what)) return 1;
    // dst = x / sqrt(mean over the first oriH columns of x² + epsilon) * gamma, over all h columns.
    const double eps = std::is_same_v<T, half> ? adv::RoundHalf(c.epsilon)
                                               : c.epsilon;
    const double rel = std::is_same_v<T, half> ? 2e-3 : 2e-5;
    int bad = 0;
    for (uint32_t r = 0; r < rows; ++r) {
        double ss = 0;
        for (uint32_t j = 0; j < c.oriH; ++j) ss += x[r * c.h + j] * x[r * c.h + j];
        const double f = 1.0 / std::sqrt(ss / c.oriH + eps);
        for (uint32_t j = 0; j < c.h; ++j) {
            const double want = x[r * c.h + j] * f * g[j];
            const double got = adv::Get<T>(out.data() + (r * c.h + j) * sizeof(T));
            if (!(std::fabs(got - want) <= rel * std::fabs(want) + rel * 0.1) && bad++ < 3) {
                std::printf("  %s: dst[%u][%u] = %.9g, expected %.9g\n", what, r, j, got, want);
            }
        }
    }
    return bad;
}

template <typename T>
int Sweep()
{
    struct Shape {
        uint32_t b, s, h, oriH;
        bool basic;
    };
    constexpr uint32_t kBlk = 32 / sizeof(T);
    // H below 64 (padded), 64, 96 (a partial 64-column block), 1024 (more blocks than rows), basic blocks.
    const Shape shapes[] = {{2, 3, 2 * kBlk, 2 * kBlk - 3, false}, {3, 5, 64, 64, false}, {2, 20, 96, 90, false},
                            {1, 3, 1024, 1000, false},                  {2, 8, 128, 128, true}, {1, 24, 64, 64, true},
                            {1, 300, 16, 16, false}};
    int failed = 0;
    char what[160];
    for (const Shape& sh : shapes) {
        for (int form = 0; form < 4; ++form) {  // max tmp, min tmp (many chunks), framework, in place
            Case c;
            c.b = sh.b;
            c.s = sh.s;
            c.h = sh.h;
            c.oriH = sh.oriH;
            c.basic = sh.basic;
            c.framework = form == 2;
            c.inPlace = form == 3;
            c.epsilon = std::uniform_real_distribution<float>(1e-6f, 1e-2f)(Rng());
            std::snprintf(what, sizeof(what), "%s [%u, %u, %u] oriH %u basic %d form %d",
                          sizeof(T) == 2 ? "half" : "float", sh.b, sh.s, sh.h, sh.oriH, sh.basic, form);
            failed += Run<T>(c, form != 1, what) != 0 ? 1 : 0;
        }
    }
    return failed;
}

// A valid tiling of [1, 4, 64] float for 2 rows a chunk (2 chunks), and its buffer: (8 + 128) floats.
RmsNormTiling FaultTiling()
{
    RmsNormTiling t;
    GetRmsNormTilingInfo(ge::Shape({1, 4, 64}), ge::Shape({1, 4, 64}), (8 + 128) * 4, 4, t);
    return t;
}

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    (void)pipe;
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> src = ub.Alloc<float, 512>();
    LocalTensor<float> dst = ub.Alloc<float, 512>();
    LocalTensor<float> gamma = ub.Alloc<float, 64>();
    LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 4096>();
    Duplicate(src, 1.5f, 512);
    Duplicate(gamma, 0.5f, 64);
    PipeBarrier<PIPE_V>();
    RmsNormTiling t = FaultTiling();
    if constexpr (kFault == 0) RmsNorm(dst, src, gamma, tmp, 1e-5f, t);  // clean
    if constexpr (kFault == 1) {
        t.hLength = 60;  // 240 bytes: not 32-byte aligned
        RmsNorm(dst, src, gamma, tmp, 1e-5f, t);
    }
    if constexpr (kFault == 2) {
        t.originalHLength = 65;
        RmsNorm(dst, src, gamma, tmp, 1e-5f, t);
    }
    if constexpr (kFault == 3) {
        t.loopRound = 3;
        RmsNorm(dst, src, gamma, tmp, 1e-5f, t);
    }
    if constexpr (kFault == 4 || kFault == 5) {  // basic blocks: B * S = 6 (4), 8 (5, clean)
        const uint32_t rows = kFault == 4 ? 6 : 8;
        GetRmsNormTilingInfo(ge::Shape({1, rows, 64}), ge::Shape({1, rows, 64}), 4096, 4, t);
        RmsNorm<float, true>(dst, src, gamma, tmp, 1e-5f, t);
    }
    if constexpr (kFault == 6) {  // 300 rows of 8 in one chunk, without isBasicBlock
        t.bLength = 1;
        t.sLength = 300;
        t.hLength = t.originalHLength = 8;
        t.mainBsLength = 300;
        t.mainBshLength = 2400;
        t.mainBsLengthAlign = 304;
        t.loopRound = 1;
        t.inputTailPos = 2400;
        t.tailBsLength = t.tailBshLength = 0;
        LocalTensor<float> big = ub.Alloc<float, 2400>();
        LocalTensor<uint8_t> bigTmp = ub.Alloc<uint8_t, (304 + 2400) * 4>();
        RmsNorm(big, big, gamma, bigTmp, 1e-5f, t);
    }
    if constexpr (kFault == 7) {
        LocalTensor<float> small = src;
        small.SetSize(255);
        RmsNorm(dst, small, gamma, tmp, 1e-5f, t);
    }
    if constexpr (kFault == 8) {
        LocalTensor<float> small = gamma;
        small.SetSize(56);
        RmsNorm(dst, src, small, tmp, 1e-5f, t);
    }
    if constexpr (kFault == 9 || kFault == 10) {  // (8 + 128) floats needed; 9 one block short, 10 exact (clean)
        LocalTensor<uint8_t> small = tmp;
        small.SetSize(kFault == 9 ? (8 + 128) * 4 - 32 : (8 + 128) * 4);
        RmsNorm(dst, src, gamma, small, 1e-5f, t);
    }
    if constexpr (kFault == 11) RmsNorm(dst, src, dst, tmp, 1e-5f, t);  // gamma inside dst
    if constexpr (kFault == 12) RmsNorm(src[8], src, gamma, tmp, 1e-5f, t);
    if constexpr (kFault == 13) RmsNorm(src, src, gamma, tmp, 1e-5f, t);  // clean: in place
    if constexpr (kFault == 14) RmsNorm(dst, src, gamma, src.ReinterpretCast<uint8_t>(), 1e-5f, t);
    if constexpr (kFault == 15) RmsNorm(dst[4], src, gamma, tmp, 1e-5f, t);  // 16 bytes: misaligned
}

// Without a TPipe: the row factors by scalar Muls fetch an event id from it (16); the basic-block broadcast does not
// (17, clean).
template <int kFault>
void NoPipeKernel(GM_ADDR, GM_ADDR)
{
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> src = ub.Alloc<float, 1024>();
    LocalTensor<float> dst = ub.Alloc<float, 1024>();
    LocalTensor<float> gamma = ub.Alloc<float, 64>();
    LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, (16 + 1024) * 4>();
    Duplicate(src, 1.5f, 1024);
    Duplicate(gamma, 0.5f, 64);
    PipeBarrier<PIPE_V>();
    RmsNormTiling t;
    GetRmsNormTilingInfo(ge::Shape({1, 16, 64}), ge::Shape({1, 16, 64}), (16 + 1024) * 4, 4, t, kFault == 17);
    if constexpr (kFault == 16) RmsNorm(dst, src, gamma, tmp, 1e-5f, t);
    else RmsNorm<float, true>(dst, src, gamma, tmp, 1e-5f, t);
}

using fault::Broke;

}  // namespace

TEST_CASE("RmsNorm float: shapes, basic blocks, chunks, framework and in place, against float64")
{
    CHECK_EQ(Sweep<float>(), 0);
}
TEST_CASE("RmsNorm half: shapes, basic blocks, chunks, framework and in place, against float64")
{
    CHECK_EQ(Sweep<half>(), 0);
}

TEST_CASE("GetRmsNormMaxMinTmpSize and GetRmsNormTilingInfo return A2's sizes and tiling")
{
    uint32_t mx = 0, mn = 0;
    CHECK(GetRmsNormMaxMinTmpSize(ge::Shape({2, 3, 64}), 4, mx, mn));
    CHECK_EQ(mx, (2u * 3 * 64 + 8) * 4);
    CHECK_EQ(mn, (64u + 8) * 4);
    CHECK(GetRmsNormMaxMinTmpSize(ge::Shape({2, 3, 64}), 2, mx, mn));
    CHECK_EQ(mx, (2u * 2 * 3 * 64 + 16) * 4);
    CHECK_EQ(mn, (2u * 64 + 8) * 4);
    CHECK(!GetRmsNormMaxMinTmpSize(ge::Shape({2, 3, 64}), 4, mx, mn, true));  // B * S = 6: not a basic block
    RmsNormTiling t;
    CHECK(GetRmsNormTilingInfo(ge::Shape({2, 5, 64}), ge::Shape({2, 5, 60}), (3 * 64 + 8) * 4, 4, t));
    CHECK_EQ(t.mainBsLength, 3u);
    CHECK_EQ(t.mainBshLength, 192u);
    CHECK_EQ(t.mainBsLengthAlign, 8u);
    CHECK_EQ(t.loopRound, 3u);
    CHECK_EQ(t.tailBsLength, 1u);
    CHECK_EQ(t.tailBshLength, 64u);
    CHECK_EQ(t.inputTailPos, 576u);
    CHECK_EQ(t.originalHLength, 60u);
    CHECK(t.reciprocalOfHLength == 1.0f / 60.0f);
    CHECK(!GetRmsNormTilingInfo(ge::Shape({2, 5, 64}), ge::Shape({2, 5, 60}), (64 + 7) * 4, 4, t));  // below minimum
    CHECK(!GetRmsNormTilingInfo(ge::Shape({2, 5, 12}), ge::Shape({2, 5, 12}), 4096, 4, t));          // 48 bytes
}

TEST_CASE("RmsNorm rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "RmsNorm: tiling.hLength is 32-byte aligned and 0 < tiling.originalHLength <= "
                                 "tiling.hLength (docs: the H axis padded to 32 bytes)"));
    CHECK(Broke(&FaultKernel<2>, "RmsNorm: tiling.hLength is 32-byte aligned and 0 < tiling.originalHLength <= "
                                 "tiling.hLength (docs: the H axis padded to 32 bytes)"));
    CHECK(Broke(&FaultKernel<3>, "RmsNorm: the tiling's chunks cover its shape as GetRmsNormTilingInfo writes them "
                                 "(mainBshLength = mainBsLength * hLength, mainBsLengthAlign a multiple of 8 >= "
                                 "mainBsLength, loopRound chunks and the tail = bLength * sLength * hLength, "
                                 "inputTailPos and tailBsLength agreeing)"));
    CHECK(Broke(&FaultKernel<4>, "RmsNorm: with isBasicBlock, hLength is a multiple of 64 below 2048 and bLength * "
                                 "sLength a multiple of 8 (docs)"));
    CHECK(Broke(&FaultKernel<5>, ""));
    CHECK(Broke(&FaultKernel<6>, "RmsNorm: without isBasicBlock, tiling.mainBsLength <= 255: A2 uses the rows of a "
                                 "chunk as a repeat count (GetRmsNormTilingInfo caps it)"));
    CHECK(Broke(&FaultKernel<7>, "RmsNorm: srcLocal and dstLocal hold tiling.bLength * sLength * hLength elements"));
    CHECK(Broke(&FaultKernel<8>, "RmsNorm: gammaLocal holds tiling.hLength elements"));
    CHECK(Broke(&FaultKernel<9>, "RmsNorm: sharedTmpBuffer holds the tiling's floats: mainBsLengthAlign + "
                                 "mainBshLength (twice for half)"));
    CHECK(Broke(&FaultKernel<10>, ""));
    CHECK(Broke(&FaultKernel<11>, "RmsNorm: dstLocal and gammaLocal do not overlap (docs: 不允许复用)"));
    CHECK(Broke(&FaultKernel<12>, "RmsNorm: srcLocal and dstLocal are the same or do not overlap (通用说明和约束: "
                                  "partial overlaps are not supported)"));
    CHECK(Broke(&FaultKernel<13>, ""));
    CHECK(Broke(&FaultKernel<14>, "RmsNorm: sharedTmpBuffer overlaps no operand"));
    CHECK(fault::Violation(&FaultKernel<15>).rfind("RmsNorm: ", 0) == 0);
    CHECK(Broke(&NoPipeKernel<16>, "RmsNorm: RmsNorm takes its V->S event from the TPipe (FetchEventID), as A2 does"));
    CHECK(Broke(&NoPipeKernel<17>, ""));
}

TEST_MAIN()
