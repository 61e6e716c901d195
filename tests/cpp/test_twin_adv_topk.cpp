// TopK ("lib/sort/topk.h") against references built here from fresh random inputs: normal mode (float and half,
// generated and given indices, largest and smallest, finished rows, n < inner with padding, both forms) and small
// mode (float and half, k up to 20); ties (values from a small set), infinities and NaN; each output selected here
// by its rank (how many elements go before it: NaN first, then the larger (isLargest) or smaller value, then the
// earlier position), not by a sort. GetTopKMaxMinTmpSize / TopKTilingFunc against A2's formulas worked by hand;
// every run-time rule with a planted fault and a clean counterpart.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "check.h"
#include "fault_launch.h"
#include "lib/sort/topk.h"
#include "tiling/sort/topk_tiling.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

struct Case {
    int32_t outter = 1, inner = 32, n = 32, k = 1;
    bool largest = true;
    bool framework = false;  // the form without tmpLocal
    bool specials = false;   // infinities and NaN among the values
};
Case gCase;
tiling::TopkTiling gTiling;

constexpr uint32_t Up32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

template <typename T, bool isInitIndex, bool isHasfinish, TopKMode mode>
void Kernel(GM_ADDR srcGm, GM_ADDR idxGm, GM_ADDR finGm, GM_ADDR dvGm, GM_ADDR diGm)
{
    const Case c = gCase;
    const bool small = mode == TopKMode::TOPK_NSMALL;
    const uint32_t kPad = small ? c.k : (c.k + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    const uint32_t kPadIndex = small ? c.k : (c.k + 7) / 8 * 8;
    const uint32_t all = c.outter * c.inner, idxElems = small ? all : c.inner;
    TPipe pipe;
    TBuf<TPosition::VECIN> sb, ib, fb;
    TBuf<TPosition::VECOUT> vb, xb;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(sb, Up32(all * sizeof(T)));
    pipe.InitBuffer(ib, Up32(idxElems * 4));
    pipe.InitBuffer(fb, Up32(c.outter));
    const uint32_t dvElems = Up32(c.outter * kPad * sizeof(T)) / sizeof(T);
    const uint32_t diElems = Up32(c.outter * kPadIndex * 4) / 4;
    pipe.InitBuffer(vb, dvElems * sizeof(T));
    pipe.InitBuffer(xb, diElems * 4);
    uint32_t maxTmp = 0, minTmp = 0;
    GetTopKMaxMinTmpSize(*platform_ascendc::PlatformAscendCManager::GetInstance(), c.inner, c.outter, false,
                         isInitIndex, mode, c.largest, sizeof(T), maxTmp, minTmp);
    if (!c.framework) pipe.InitBuffer(tb, minTmp);
    GlobalTensor<T> sG, dvG;
    GlobalTensor<int32_t> iG, diG;
    GlobalTensor<uint8_t> fG;
    sG.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(srcGm));
    iG.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(idxGm));
    fG.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(finGm));
    dvG.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(dvGm));
    diG.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(diGm));
    LocalTensor<T> s = sb.Get<T>(), dv = vb.Get<T>();
    LocalTensor<int32_t> idx = ib.Get<int32_t>(), di = xb.Get<int32_t>();
    LocalTensor<uint8_t> finBytes = fb.Get<uint8_t>();
    DataCopy(s, sG, all);
    DataCopy(idx, iG, idxElems);
    DataCopy(finBytes, fG, Up32(c.outter));
    DataCopy(dv, dvG, dvElems);  // the tails keep what the test put there
    DataCopy(di, diG, diElems);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    LocalTensor<bool> fin = finBytes.ReinterpretCast<bool>();
    const TopKInfo info{c.outter, c.inner, c.n};
    if (c.framework) {
        TopK<T, isInitIndex, isHasfinish, false, mode>(dv, di, s, idx, fin, c.k, gTiling, info, c.largest);
    } else {
        TopK<T, isInitIndex, isHasfinish, false, mode>(dv, di, s, idx, fin, tb.Get<uint8_t>(), c.k, gTiling, info,
                                                       c.largest);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(dvG, dv, dvElems);
    DataCopy(diG, di, diElems);
}

using check::Rng;

template <typename T>
T FromDouble(double v)
{
    return static_cast<T>(static_cast<float>(v));
}

template <typename T>
double ToDouble(T v)
{
    return static_cast<double>(static_cast<float>(v));
}

// Whether element a goes before element b (values va, vb at positions a, b).
bool Before(double va, size_t a, double vb, size_t b, bool largest)
{
    if (std::isnan(va) != std::isnan(vb)) return std::isnan(va);
    if (!std::isnan(va) && va != vb) return largest ? va > vb : va < vb;
    return a < b;
}

template <typename T, bool isInitIndex, bool isHasfinish, TopKMode mode>
int Run(const Case& c)
{
    const bool small = mode == TopKMode::TOPK_NSMALL;
    const uint32_t kPad = small ? c.k : (c.k + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    const uint32_t kPadIndex = small ? c.k : (c.k + 7) / 8 * 8;
    const uint32_t all = c.outter * c.inner, idxElems = small ? all : c.inner;
    std::uniform_int_distribution<int> pick(-40, 40);
    std::vector<T> src(all);
    for (int32_t r = 0; r < c.outter; ++r) {
        for (int32_t j = 0; j < c.inner; ++j) {
            double v = pick(Rng()) / 4.0;  // a small set: ties
            if (j >= c.n) v = c.largest ? -65504.0 : 65504.0;  // the docs' padding: the type's minimum / maximum
            if (c.specials && j < c.n) {
                const int s = std::uniform_int_distribution<int>(0, 9)(Rng());
                if (s == 0) v = INFINITY;
                if (s == 1) v = -INFINITY;
                if (s == 2) v = NAN;
            }
            src[r * c.inner + j] = FromDouble<T>(v);
        }
    }
    std::vector<int32_t> idx(idxElems);
    for (int32_t& v : idx) v = std::uniform_int_distribution<int32_t>(0, 1 << 30)(Rng());
    std::vector<uint8_t> fin(Up32(c.outter));
    for (int32_t r = 0; r < c.outter; ++r) {
        fin[r] = isHasfinish ? (std::uniform_int_distribution<int>(0, 2)(Rng()) == 0) : 0;
    }
    std::vector<T> dv(Up32(c.outter * kPad * sizeof(T)) / sizeof(T));
    for (T& v : dv) v = FromDouble<T>(pick(Rng()) + 0.5);
    std::vector<int32_t> di(Up32(c.outter * kPadIndex * 4) / 4);
    for (int32_t& v : di) v = pick(Rng());
    const std::vector<T> dv0 = dv;
    const std::vector<int32_t> di0 = di;
    gCase = c;
    TopKTilingFunc(*platform_ascendc::PlatformAscendCManager::GetInstance(), c.inner, c.outter, c.k, sizeof(T),
                   isInitIndex, mode, c.largest, gTiling);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "topk";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&Kernel<T, isInitIndex, isHasfinish, mode>);
    spec.blockDim = 1;
    spec.args = {{"src", src.data(), src.size() * sizeof(T)},
                 {"idx", idx.data(), idx.size() * 4},
                 {"fin", fin.data(), fin.size()},
                 {"dv", dv.data(), dv.size() * sizeof(T)},
                 {"di", di.data(), di.size() * 4}};
    ascend_twin::Launch(spec);
    int bad = 0;
    for (int32_t r = 0; r < c.outter; ++r) {
        for (int32_t j = 0; j < c.inner; ++j) {
            const double vj = ToDouble(src[r * c.inner + j]);
            int32_t rank = 0;
            for (int32_t m = 0; m < c.inner; ++m) {
                if (m != j && Before(ToDouble(src[r * c.inner + m]), m, vj, j, c.largest)) ++rank;
            }
            if (rank >= c.k) continue;
            const double got = ToDouble(dv[r * kPad + rank]);
            const bool valueOk = std::isnan(vj) ? std::isnan(got) : got == vj;
            int32_t wantIndex = isInitIndex ? idx[(small ? r * c.inner : 0) + j] : j;
            if (isHasfinish && fin[r] != 0) wantIndex = c.n;
            const int32_t gotIndex = di[r * kPadIndex + rank];
            if ((!valueOk || gotIndex != wantIndex) && bad++ < 3) {
                std::printf("  TopK outter %d inner %d n %d k %d largest %d: row %d rank %d = (%g, %d), "
                            "expected (%g, %d)\n",
                            c.outter, c.inner, c.n, c.k, c.largest, r, rank, got, gotIndex, vj, wantIndex);
            }
        }
        // The tails: A2's closing Muls by -1 (isLargest false) covers them; the indices' tails stay.
        for (uint32_t i = c.k; i < kPad; ++i) {
            const double want = (c.largest ? 1.0 : -1.0) * ToDouble(dv0[r * kPad + i]);
            if (ToDouble(dv[r * kPad + i]) != want && bad++ < 3) {
                std::printf("  value tail [%d][%u] = %g, expected %g\n", r, i, ToDouble(dv[r * kPad + i]), want);
            }
        }
        for (uint32_t i = c.k; i < kPadIndex; ++i) {
            if (di[r * kPadIndex + i] != di0[r * kPadIndex + i] && bad++ < 3) {
                std::printf("  index tail [%d][%u] changed\n", r, i);
            }
        }
    }
    return bad != 0 ? 1 : 0;
}

// ---- planted faults: float, normal mode, 2 x 64 (k 5) unless the fault says otherwise ----
template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> src = ub.Alloc<float, 128>();
    LocalTensor<int32_t> idx = ub.Alloc<int32_t, 128>();
    LocalTensor<bool> fin = ub.Alloc<bool, 32>();
    LocalTensor<float> dv = ub.Alloc<float, 64>();
    LocalTensor<int32_t> di = ub.Alloc<int32_t, 64>();
    LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 4096>();
    Duplicate(src, 1.5f, 128);
    Duplicate(idx, 3, 128);
    Duplicate(fin.ReinterpretCast<int16_t>(), static_cast<int16_t>(0), 16);
    PipeBarrier<PIPE_V>();
    platform_ascendc::PlatformAscendC& plat = *platform_ascendc::PlatformAscendCManager::GetInstance();
    tiling::TopkTiling t;
    TopKTilingFunc(plat, 64, 2, 5, 4, false, TopKMode::TOPK_NORMAL, true, t);
    TopKInfo info{2, 64, 60};
    if constexpr (kFault == 0) TopK<float, false, true>(dv, di, src, idx, fin, tmp, 5, t, info);  // clean
    if constexpr (kFault == 1) TopK<float, false, true>(dv, di, src, idx, fin, tmp, 0, t, info);  // k 0
    if constexpr (kFault == 2) {  // k beyond n
        tiling::TopkTiling t61;
        TopKTilingFunc(plat, 64, 2, 61, 4, false, TopKMode::TOPK_NORMAL, true, t61);
        LocalTensor<float> bigV = ub.Alloc<float, 128>();
        LocalTensor<int32_t> bigI = ub.Alloc<int32_t, 128>();
        TopK<float, false, true>(bigV, bigI, src, idx, fin, tmp, 61, t61, info);
    }
    if constexpr (kFault == 3) TopK<float, false, true>(dv, di, src, idx, fin, tmp, 5, t, TopKInfo{2, 64, 65});
    if constexpr (kFault == 4) TopK<float, false, true>(dv, di, src, idx, fin, tmp, 5, t, TopKInfo{2, 48, 40});
    if constexpr (kFault == 5) {  // inner 4128 in normal mode
        tiling::TopkTiling tb;
        TopKTilingFunc(plat, 4128, 1, 5, 4, false, TopKMode::TOPK_NORMAL, true, tb);
        TopK<float, false, true>(dv, di, src, idx, fin, tmp, 5, tb, TopKInfo{1, 4128, 4128});
    }
    if constexpr (kFault == 6) {  // small mode with inner 64
        TopK<float, false, false, false, TopKMode::TOPK_NSMALL>(dv, di, src, idx, fin, tmp, 5, t, info);
    }
    if constexpr (kFault == 7) {  // small mode with isHasfinish
        tiling::TopkTiling ts;
        TopKTilingFunc(plat, 32, 2, 5, 4, false, TopKMode::TOPK_NSMALL, true, ts);
        TopK<float, false, true, false, TopKMode::TOPK_NSMALL>(dv, di, src, idx, fin, tmp, 5, ts, TopKInfo{2, 32, 32});
    }
    if constexpr (kFault == 8) {  // srcLocal of 100 elements
        LocalTensor<float> shortSrc = src;
        shortSrc.SetSize(100);
        TopK<float, false, true>(dv, di, shortSrc, idx, fin, tmp, 5, t, info);
    }
    if constexpr (kFault == 9) {  // dstValueLocal of 8 (k_pad * outter = 16)
        LocalTensor<float> shortV = dv;
        shortV.SetSize(8);
        TopK<float, false, true>(shortV, di, src, idx, fin, tmp, 5, t, info);
    }
    if constexpr (kFault == 10) {  // dstIndexLocal of 8
        LocalTensor<int32_t> shortI = di;
        shortI.SetSize(8);
        TopK<float, false, true>(dv, shortI, src, idx, fin, tmp, 5, t, info);
    }
    if constexpr (kFault == 11) {  // isInitIndex with 32 indices for inner 64
        tiling::TopkTiling ti;
        TopKTilingFunc(plat, 64, 2, 5, 4, true, TopKMode::TOPK_NORMAL, true, ti);
        LocalTensor<int32_t> shortIdx = idx;
        shortIdx.SetSize(32);
        TopK<float, true, true>(dv, di, src, shortIdx, fin, tmp, 5, ti, info);
    }
    if constexpr (kFault == 12) {  // one finish flag for two rows
        LocalTensor<bool> shortFin = fin;
        shortFin.SetSize(1);
        TopK<float, false, true>(dv, di, src, idx, shortFin, tmp, 5, t, info);
    }
    if constexpr (kFault == 13) {  // the tiling of another k
        tiling::TopkTiling t6;
        TopKTilingFunc(plat, 64, 2, 6, 4, false, TopKMode::TOPK_NORMAL, true, t6);
        TopK<float, false, true>(dv, di, src, idx, fin, tmp, 5, t6, info);
    }
    if constexpr (kFault == 14) {  // the tiling of isInitIndex true for a call without
        tiling::TopkTiling ti;
        TopKTilingFunc(plat, 64, 2, 5, 4, true, TopKMode::TOPK_NORMAL, true, ti);
        TopK<float, false, true>(dv, di, src, idx, fin, tmp, 5, ti, info);
    }
    if constexpr (kFault == 15) {  // tmpLocal of 1024 bytes (1280 needed)
        LocalTensor<uint8_t> shortTmp = tmp;
        shortTmp.SetSize(1024);
        TopK<float, false, true>(dv, di, src, idx, fin, shortTmp, 5, t, info);
    }
    if constexpr (kFault == 16) {  // tmpLocal at VECIN
        LocalTensor<uint8_t> vecin(TPosition::VECIN, static_cast<uint32_t>(reinterpret_cast<uintptr_t>(tmp.GetPhyAddr())), 4096);
        TopK<float, false, true>(dv, di, src, idx, fin, vecin, 5, t, info);
    }
    if constexpr (kFault == 17) {  // dstValueLocal over srcLocal
        TopK<float, false, true>(src, di, src, idx, fin, tmp, 5, t, info);
    }
    if constexpr (kFault == 18) {  // dstIndexLocal inside tmpLocal
        LocalTensor<int32_t> inside = tmp.ReinterpretCast<int32_t>();
        TopK<float, false, true>(dv, inside, src, idx, fin, tmp, 5, t, info);
    }
    if constexpr (kFault == 19) {  // dstIndexLocal over dstValueLocal
        TopK<float, false, true>(dv, dv.ReinterpretCast<int32_t>(), src, idx, fin, tmp, 5, t, info);
    }
    if constexpr (kFault == 20) {  // srcLocal off 32 bytes
        TopK<float, false, true>(dv, di, src[4], idx, fin, tmp, 5, t, TopKInfo{1, 64, 64});
    }
    if constexpr (kFault == 21) {  // the clean counterparts of 7, 11, 13: small mode, given indices, the right k
        tiling::TopkTiling ts;
        TopKTilingFunc(plat, 32, 2, 5, 4, false, TopKMode::TOPK_NSMALL, true, ts);
        TopK<float, false, false, false, TopKMode::TOPK_NSMALL>(dv, di, src, idx, fin, tmp, 5, ts,
                                                                 TopKInfo{2, 32, 32});
        tiling::TopkTiling ti;
        TopKTilingFunc(plat, 64, 2, 5, 4, true, TopKMode::TOPK_NORMAL, false, ti);
        TopK<float, true, false>(dv, di, src, idx, fin, tmp, 5, ti, info, false);
    }
}

}  // namespace

TEST_CASE("TopK normal mode: float and half, generated and given indices, largest and smallest, finished rows")
{
    int failed = 0;
    failed += Run<float, false, true, TopKMode::TOPK_NORMAL>({2, 32, 32, 1, false});  // the example's shape
    failed += Run<float, false, true, TopKMode::TOPK_NORMAL>({3, 64, 50, 5, true});
    failed += Run<float, true, false, TopKMode::TOPK_NORMAL>({2, 256, 256, 17, false});
    failed += Run<float, false, false, TopKMode::TOPK_NORMAL>({1, 4096, 4000, 40, true, true});
    failed += Run<half, false, true, TopKMode::TOPK_NORMAL>({4, 96, 90, 3, true});
    failed += Run<half, true, true, TopKMode::TOPK_NORMAL>({2, 128, 128, 16, false, true});
    failed += Run<float, true, true, TopKMode::TOPK_NORMAL>({3, 64, 64, 9, true, false, true});
    failed += Run<half, false, false, TopKMode::TOPK_NORMAL>({2, 64, 64, 20, false, false, true});
    CHECK_EQ(failed, 0);
}

TEST_CASE("TopK small mode: float and half, generated and given indices, k up to 20")
{
    int failed = 0;
    failed += Run<float, false, false, TopKMode::TOPK_NSMALL>({4, 32, 32, 7, true});
    failed += Run<float, true, false, TopKMode::TOPK_NSMALL>({3, 32, 30, 20, false});
    failed += Run<half, false, false, TopKMode::TOPK_NSMALL>({5, 32, 32, 7, false, true});
    failed += Run<half, true, false, TopKMode::TOPK_NSMALL>({2, 32, 32, 20, true, false, true});
    CHECK_EQ(failed, 0);
}

TEST_CASE("GetTopKMaxMinTmpSize and TopKTilingFunc give A2's values")
{
    platform_ascendc::PlatformAscendC& plat = *platform_ascendc::PlatformAscendCManager::GetInstance();
    uint32_t mx = 1, mn = 1;
    CHECK(GetTopKMaxMinTmpSize(plat, 32, 2, false, false, TopKMode::TOPK_NORMAL, false, 4, mx, mn));
    CHECK_EQ(mx, 640u);  // (16 + 4) * 32
    CHECK_EQ(mn, 640u);
    GetTopKMaxMinTmpSize(plat, 128, 3, false, true, TopKMode::TOPK_NORMAL, true, 2, mx, mn);
    CHECK_EQ(mn, 2048u);  // 16 * 128
    GetTopKMaxMinTmpSize(plat, 32, 4, false, false, TopKMode::TOPK_NSMALL, false, 4, mx, mn);
    CHECK_EQ(mn, 128u * 8 + 128 * 4 + 64 + 128 * 4);
    GetTopKMaxMinTmpSize(plat, 32, 4, false, true, TopKMode::TOPK_NSMALL, true, 2, mx, mn);
    CHECK_EQ(mn, 128u * 8 + 64);
    // The example's call: inner 32, outter 2, k 1, float, no indices, normal, smallest.
    tiling::TopkTiling t;
    TopKTilingFunc(plat, 32, 2, 1, 4, false, TopKMode::TOPK_NORMAL, false, t);
    const int32_t expect[20] = {160, 64, 64, 1, 8, 8, 16, 16, 2, 4, 2, 4, 6, 2, 64, 1, 128, 8, 0, 0};
    int32_t got[20];
    std::memcpy(got, &t, sizeof(got));
    for (int i = 0; i < 20; ++i) {
        if (got[i] != expect[i]) std::printf("  TopkTiling word %d: %d, expected %d\n", i, got[i], expect[i]);
        CHECK_EQ(got[i], expect[i]);
    }
    // Small mode, half, k 7, smallest, no indices: inner * outter * 4 sorted halves, the negated copy, the masks.
    TopKTilingFunc(plat, 32, 3, 7, 2, false, TopKMode::TOPK_NSMALL, false, t);
    CHECK_EQ(t.innerDataSize, 384);
    CHECK_EQ(t.maskOffset, 21);
    CHECK_EQ(t.topkMrgSrc1MaskSizeOffset, 384 + 96);
    CHECK_EQ(t.topkNSmallSrcIndexOffset, 384 + 96 + 32);
    CHECK_EQ(t.tmpLocalSize, 384 + 96 + 32 + 192);
    CHECK_EQ(t.vreducehalfValMask0, 0x1111);
    CHECK_EQ(t.vreducehalfValMask1, 0x111);
    CHECK_EQ(t.vreducehalfValMask2, 0);
    CHECK_EQ(t.vreduceIdxMask0, 0x2aaau);
    // Small mode, float, k 20: two words of masks.
    TopKTilingFunc(plat, 32, 1, 20, 4, true, TopKMode::TOPK_NSMALL, true, t);
    CHECK_EQ(t.vreduceValMask0, 0x55555555u);
    CHECK_EQ(t.vreduceValMask1, 0x55u);
    CHECK_EQ(t.vreduceIdxMask0, 0xaaaaaaaau);
    CHECK_EQ(t.vreduceIdxMask1, 0xaau);
    CHECK_EQ(t.tmpLocalSize, 64 + 16);
    // The optiling:: class gives the same bytes.
    optiling::TopkTiling cls;
    TopKTilingFunc(plat, 32, 1, 20, 4, true, TopKMode::TOPK_NSMALL, true, cls);
    tiling::TopkTiling saved;
    cls.SaveToBuffer(&saved, sizeof(saved));
    CHECK(std::memcmp(&saved, &t, sizeof(t)) == 0);
    // RADIX_SELECT's form is dav-3510's.
    CHECK(!GetTopKMaxMinTmpSize(32, 1, 1, false, false, TopKMode::TOPK_NORMAL, true, ge::DT_FLOAT, TopKConfig{}, mx,
                                mn));
}

TEST_CASE("TopK rules: planted faults and clean counterparts")
{
    using fault::Broke;
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "TopK: 1 <= k <= topKInfo.n"));
    CHECK(Broke(&FaultKernel<2>, "TopK: 1 <= k <= topKInfo.n"));
    CHECK(Broke(&FaultKernel<3>, "TopK: 1 <= topKInfo.n <= topKInfo.inner"));
    CHECK(Broke(&FaultKernel<4>, "TopK: topKInfo.inner is a positive multiple of 32"));
    CHECK(Broke(&FaultKernel<5>, "TopK: topKInfo.inner is at most 4096 in TOPK_NORMAL mode"));
    CHECK(Broke(&FaultKernel<6>, "TopK: topKInfo.inner is 32 in TOPK_NSMALL mode"));
    CHECK(Broke(&FaultKernel<7>, "TopK: isHasfinish is false in TOPK_NSMALL mode (docs: Small模式支持的取值：false)"));
    CHECK(Broke(&FaultKernel<8>, "TopK: srcLocal holds topKInfo.outter * topKInfo.inner elements"));
    CHECK(Broke(&FaultKernel<9>, "TopK: dstValueLocal holds k_pad * outter elements (k rounded up to 32 bytes of T; "
                                 "TOPK_NORMAL)"));
    CHECK(Broke(&FaultKernel<10>, "TopK: dstIndexLocal holds kpad_index * outter elements (k rounded up to 8; "
                                  "TOPK_NORMAL)"));
    CHECK(Broke(&FaultKernel<11>, "TopK: srcIndexLocal holds inner indices with isInitIndex (TOPK_NORMAL: one row for "
                                  "all)"));
    CHECK(Broke(&FaultKernel<12>, "TopK: finishLocal holds topKInfo.outter flags with isHasfinish"));
    const char* tilingRule = "TopK: tilling is TopKTilingFunc's for this call (inner, outter, k, sizeof(T), "
                             "isInitIndex, topkMode, isLargest): A2 sorts and gathers with its fields unchecked (the "
                             "twin is stricter here)";
    CHECK(Broke(&FaultKernel<13>, tilingRule));
    CHECK(Broke(&FaultKernel<14>, tilingRule));
    CHECK(Broke(&FaultKernel<15>, "TopK: tmpLocal holds tilling.tmpLocalSize elements of T (GetTopKMaxMinTmpSize's "
                                  "minimum)"));
    CHECK(Broke(&FaultKernel<16>, "TopK: tmpLocal is at VECCALC (docs: 逻辑位置仅支持VECCALC，不支持其他逻辑位置)"));
    CHECK(Broke(&FaultKernel<17>, "TopK: sources and destinations do not overlap (docs: 不支持源操作数与目的操作数地址重叠)"));
    CHECK(Broke(&FaultKernel<18>, "TopK: the temporary buffer overlaps no operand"));
    CHECK(Broke(&FaultKernel<19>, "TopK: dstValueLocal and dstIndexLocal do not overlap"));
    CHECK(Broke(&FaultKernel<20>, "TopK: UB operands start at a 32-byte aligned address"));
    CHECK(Broke(&FaultKernel<21>, ""));
}

TEST_MAIN()
