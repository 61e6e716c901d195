// The confusion Transpose ("lib/transpose/confusion_transpose.h") against references built here from fresh random
// inputs: TRANSPOSE_NZ2ND_0213 and TRANSPOSE_NZ2NZ_0213 for half, float and int32_t, both forms, shapes with A2 and A3
// not multiples of 16 and more than one batch; GetTransposeMaxMinTmpSize / GetTransposeTilingInfo against A2's
// formulas worked by hand; every run-time rule with a planted fault and a clean counterpart.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "fault_launch.h"
#include "lib/transpose/confusion_transpose.h"
#include "tiling/transpose/confusion_transpose_tiling.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

struct Case {
    uint32_t b = 1, n = 2, s = 16, hn = 16;
    TransposeType type = TransposeType::TRANSPOSE_NZ2ND_0213;
    int form = 0;  // 0 sharedTmpBuffer, 1 the framework's buffer
    bool maxBuffer = false;
};
Case gCase;
tiling::ConfusionTransposeTiling gTiling;
uint32_t gTmpBytes = 0;

constexpr uint32_t Align16(uint32_t v) { return (v + 15) / 16 * 16; }

template <typename T>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const uint32_t total = c.b * c.n * Align16(c.s) * Align16(c.hn);
    TPipe pipe;
    TBuf<TPosition::VECIN> xb;
    TBuf<TPosition::VECOUT> yb;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(xb, total * sizeof(T));
    pipe.InitBuffer(yb, total * sizeof(T));
    if (c.form == 0) pipe.InitBuffer(tb, gTmpBytes);
    GlobalTensor<T> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    LocalTensor<T> x = xb.Get<T>();
    LocalTensor<T> y = yb.Get<T>();
    DataCopy(x, inGm, total);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    if (c.form == 0) Transpose(y, x, tb.Get<uint8_t>(), c.type, gTiling);
    else Transpose(y, x, c.type, gTiling);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, y, total);
}

using check::Rng;

template <typename T>
int Run(const Case& c)
{
    const uint32_t as = Align16(c.s), ah = Align16(c.hn);
    const uint32_t total = c.b * c.n * as * ah;
    // X[b][n][s][h] (s < as, h < ah: the padded tensor), as random 16-bit patterns of T's width
    std::vector<T> xs(total);
    for (T& v : xs) {
        const uint32_t bits = std::uniform_int_distribution<uint32_t>(0, 0x3bff)(Rng());  // finite as half
        if constexpr (sizeof(T) == 2) std::memcpy(&v, &bits, 2);
        else v = static_cast<T>(static_cast<int32_t>(bits) - 7000);
    }
    auto X = [&](uint32_t b, uint32_t n, uint32_t s, uint32_t h) { return xs[((b * c.n + n) * as + s) * ah + h]; };
    // src NZ [B, N, ah/16, as, 16]
    std::vector<T> in(total);
    for (uint32_t b = 0; b < c.b; ++b)
        for (uint32_t n = 0; n < c.n; ++n)
            for (uint32_t j = 0; j < ah / 16; ++j)
                for (uint32_t s = 0; s < as; ++s)
                    for (uint32_t k = 0; k < 16; ++k)
                        in[(((b * c.n + n) * (ah / 16) + j) * as + s) * 16 + k] = X(b, n, s, j * 16 + k);
    std::vector<T> out(total);
    gCase = c;
    uint32_t mx = 0, mn = 0;
    const ge::Shape shape({c.b, c.n, c.s, c.hn});
    GetTransposeMaxMinTmpSize(shape, sizeof(T), static_cast<uint32_t>(c.type), mx, mn);
    gTmpBytes = c.maxBuffer ? mx : mn;
    GetTransposeTilingInfo(shape, gTmpBytes, sizeof(T), static_cast<uint32_t>(c.type), gTiling);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "transpose";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&Kernel<T>);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size() * sizeof(T)}, {"out", out.data(), out.size() * sizeof(T)}};
    ascend_twin::Launch(spec);
    int bad = 0;
    for (uint32_t b = 0; b < c.b; ++b)
        for (uint32_t s = 0; s < as; ++s)
            for (uint32_t n = 0; n < c.n; ++n)
                for (uint32_t h = 0; h < ah; ++h) {
                    // ND [B, as, N, ah]; NZ [B, as, ah/16, N, 16]
                    const uint32_t at = c.type == TransposeType::TRANSPOSE_NZ2ND_0213
                                            ? ((b * as + s) * c.n + n) * ah + h
                                            : b * as * c.n * ah + s * c.n * ah + (h / 16) * c.n * 16 + n * 16 + h % 16;
                    const T want = X(b, n, s, h);
                    if (std::memcmp(&out[at], &want, sizeof(T)) != 0 && bad++ < 3) {
                        std::printf("  Transpose type %d %ux%ux%ux%u: X[%u][%u][%u][%u] not at %u\n",
                                    static_cast<int>(c.type), c.b, c.n, c.s, c.hn, b, n, s, h, at);
                    }
                }
    return bad != 0 ? 1 : 0;
}

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<half> x = ub.Alloc<half, 1024>();  // [1, 2, 32, 16]
    LocalTensor<half> y = ub.Alloc<half, 1024>();
    LocalTensor<uint8_t> t = ub.Alloc<uint8_t, 1024>();
    Duplicate(x, static_cast<half>(1.0f), 1024);
    const ge::Shape shape({1, 2, 32, 16});
    tiling::ConfusionTransposeTiling tl;
    GetTransposeTilingInfo(shape, 512, 2, 1, tl);  // newPopSize 256
    LocalTensor<uint8_t> t512 = t;
    t512.SetSize(512);
    if constexpr (kFault == 0) Transpose(y, x, t512, TransposeType::TRANSPOSE_NZ2ND_0213, tl);  // the clean counterpart
    if constexpr (kFault == 1) Transpose(y, x, t512, TransposeType::TRANSPOSE_TYPE_NONE, tl);
    if constexpr (kFault == 2) Transpose(y, x, t512, TransposeType::TRANSPOSE_ND2ND_B16, tl);  // 当前不支持
    if constexpr (kFault == 3) Transpose(y, x, t512, TransposeType::TRANSPOSE_NZ2ND_012_WITH_N, tl);  // twin gap
    if constexpr (kFault == 4) {  // a float tiling for half data
        tiling::ConfusionTransposeTiling f;
        GetTransposeTilingInfo(shape, 1024, 4, 1, f);
        Transpose(y, x, t, TransposeType::TRANSPOSE_NZ2ND_0213, f);
    }
    if constexpr (kFault == 5) {  // a source of 512 elements
        LocalTensor<half> shortX = x;
        shortX.SetSize(512);
        Transpose(y, shortX, t512, TransposeType::TRANSPOSE_NZ2ND_0213, tl);
    }
    if constexpr (kFault == 6) {  // dst 16 elements into src
        LocalTensor<half> shifted = x[16];
        shifted.SetSize(1024);
        Transpose(shifted, x, t512, TransposeType::TRANSPOSE_NZ2ND_0213, tl);
    }
    if constexpr (kFault == 7) {  // a tiling made with a 256-byte buffer: newPopSize 0
        tiling::ConfusionTransposeTiling small;
        GetTransposeTilingInfo(shape, 256, 2, 1, small);
        Transpose(y, x, t512, TransposeType::TRANSPOSE_NZ2ND_0213, small);
    }
    if constexpr (kFault == 8) {  // 480 bytes for newPopSize 256 halves
        LocalTensor<uint8_t> shortT = t;
        shortT.SetSize(480);
        Transpose(y, x, shortT, TransposeType::TRANSPOSE_NZ2ND_0213, tl);
    }
    if constexpr (kFault == 9) Transpose(y, x, y.ReinterpretCast<uint8_t>(), TransposeType::TRANSPOSE_NZ2ND_0213, tl);
    if constexpr (kFault == 10) Transpose(y, x, TransposeType::TRANSPOSE_NZ2ND_0213, tl);  // framework without TPipe
    if constexpr (kFault == 11) Transpose(y, x, t512, TransposeType::TRANSPOSE_NZ2NZ_0213, tl);  // clean: scenario 2
    if constexpr (kFault == 12) Transpose(y, x, t, TransposeType::TRANSPOSE_NZ2ND_0213, tl);  // clean: more buffer
}

using fault::Broke;

}  // namespace

TEST_CASE("Transpose NZ2ND_0213 and NZ2NZ_0213: half, float and int32_t, both forms, unaligned S and H/N")
{
    int failed = 0;
    failed += Run<half>({1, 2, 64, 32, TransposeType::TRANSPOSE_NZ2ND_0213, 0, false});
    failed += Run<half>({2, 3, 40, 20, TransposeType::TRANSPOSE_NZ2ND_0213, 1, true});
    failed += Run<float>({2, 3, 40, 20, TransposeType::TRANSPOSE_NZ2ND_0213, 0, false});
    failed += Run<half>({1, 4, 48, 32, TransposeType::TRANSPOSE_NZ2NZ_0213, 0, false});
    failed += Run<float>({3, 2, 17, 33, TransposeType::TRANSPOSE_NZ2NZ_0213, 1, true});
    failed += Run<int32_t>({1, 5, 32, 16, TransposeType::TRANSPOSE_NZ2ND_0213, 0, true});
    CHECK_EQ(failed, 0);
}

TEST_CASE("GetTransposeMaxMinTmpSize and GetTransposeTilingInfo give A2's values for scenarios 1 and 2")
{
    uint32_t mx = 0, mn = 0;
    GetTransposeMaxMinTmpSize(ge::Shape({1, 2, 64, 32}), 2, 1, mx, mn);
    CHECK_EQ(mx, 64u * 16u * 2u);
    CHECK_EQ(mn, 512u);
    GetTransposeMaxMinTmpSize(ge::Shape({2, 3, 40, 20}), 4, 2, mx, mn);
    CHECK_EQ(mx, 48u * 16u * 4u);
    CHECK_EQ(mn, 1024u);
    tiling::ConfusionTransposeTiling t;
    GetTransposeTilingInfo(ge::Shape({2, 3, 40, 20}), 2048, 2, 1, t);  // 1024 halves
    // blockSize, B, A1, alignA3, alignA2, widthTiling, newPopSize, newPopH, needSize, mainBlocks, tailSize,
    // alignA2 * alignA3, batchOffset, alignA3 * A1, A1 * 16, mainOffset
    const uint32_t expect[18] = {16, 2, 3, 32, 48, 2, 1024, 64, 768, 0, 768, 1536, 4608, 96, 48, 0, 0, 0};
    uint32_t got[18];
    std::memcpy(got, &t, sizeof(got));
    for (int i = 0; i < 18; ++i) {
        if (got[i] != expect[i]) std::printf("  param%d: %u, expected %u\n", i, got[i], expect[i]);
        CHECK_EQ(got[i], expect[i]);
    }
    GetTransposeTilingInfo(ge::Shape({1, 2, 64, 32}), 512, 2, 1, t);  // 256 halves: 4 main blocks of 16 rows
    CHECK_EQ(t.param9, 4u);
    CHECK_EQ(t.param10, 0u);
    CHECK_EQ(t.param15, 16u * 4u * 64u);
    optiling::ConfusionTransposeTiling cls;
    GetTransposeTilingInfo(ge::Shape({1, 2, 64, 32}), 512, 2, 1, cls);
    tiling::ConfusionTransposeTiling saved;
    cls.SaveToBuffer(&saved, sizeof(saved));
    CHECK(std::memcmp(&saved, &t, sizeof(t)) == 0);
}

TEST_CASE("Transpose rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    const std::string kind = "Transpose: transposeType is one of A2's scenarios 1..7 (docs: TRANSPOSE_ND_UB_GM .. "
                             "TRANSPOSE_NHWC2NCHW 当前不支持; TRANSPOSE_TYPE_NONE does nothing)";
    CHECK(Broke(&FaultKernel<1>, kind));
    CHECK(Broke(&FaultKernel<2>, kind));
    CHECK(Broke(&FaultKernel<3>, "Transpose: the twin models scenarios 1 and 2 (TRANSPOSE_NZ2ND_0213, "
                                 "TRANSPOSE_NZ2NZ_0213) of the confusion Transpose (a twin gap: A2 runs scenarios 3..7 "
                                 "too)"));
    CHECK(Broke(&FaultKernel<4>, "Transpose: the tiling is GetTransposeTilingInfo's for this T (its blockSize, param0, "
                                 "is 32 / sizeof(T))"));
    CHECK(Broke(&FaultKernel<5>, "Transpose: src and dst hold B * A1 * A2 * A3 elements (A2, A3 rounded up to 16)"));
    CHECK(Broke(&FaultKernel<6>, "Transpose: dst and src do not overlap (the data moves between layouts)"));
    CHECK(Broke(&FaultKernel<7>, "Transpose: the tiling's newPopSize (param6) is a positive multiple of 256 elements "
                                 "(GetTransposeTilingInfo given at least GetTransposeMaxMinTmpSize's minimum)"));
    CHECK(Broke(&FaultKernel<8>, "Transpose: sharedTmpBuffer holds the tiling's newPopSize elements"));
    CHECK(Broke(&FaultKernel<9>, "Transpose: the temporary buffer overlaps neither src nor dst"));
    CHECK(Broke(&FaultKernel<10>, "Transpose: without sharedTmpBuffer, the UB after the TPipe's buffers (up to its "
                                  "last 128 bytes) holds the API's minimum temporary size"));
    CHECK(Broke(&FaultKernel<11>, ""));
    CHECK(Broke(&FaultKernel<12>, ""));
}

TEST_MAIN()
