// The Matmul host tiling API on the twin (twin/host_include/tiling/matmul/): over a sweep of shapes, dtypes,
// transpositions, bias, core counts and fixed base blocks, every tiling it computes keeps the rules the Matmul
// kernel checks and CANN's documented ones; its refusals (-1) where CANN refuses, each with a passing
// counterpart; and its tilings run op_kernel/matmul_cube.cpp (the Matmul object) on the twin to float64-matching
// results.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "matmul_tiling.h"
#include "tiling/matmul/bmm_tiling.h"
#include "tiling/matmul/matmul_tiling.h"
#include "twin/kernel_types.h"
#include "twin/launch.h"

using namespace matmul_tiling;
using ascend_twin::DType;

namespace {

struct Ask {
    int32_t m, n, k;
    DataType a, c;
    bool transA, transB, bias;
    int32_t dim;                        // SetDim (MultiCoreMatmulTiling), 0: MatmulApiTiling
    int32_t fixM = -1, fixN = -1, fixK = -1;
    MatrixTraverse traverse = MatrixTraverse::NOSET;
};

platform_ascendc::PlatformAscendC& Platform() { return *platform_ascendc::PlatformAscendCManager::GetInstance(); }

int64_t Tile(const Ask& q, AscendC::tiling::TCubeTiling& t, int32_t l1 = -1, int32_t l0c = -1)
{
    MultiCoreMatmulTiling multi(Platform());
    MatmulApiTiling one(Platform());
    MatmulApiTilingBase& api = q.dim > 0 ? static_cast<MatmulApiTilingBase&>(multi) : one;
    if (q.dim > 0) multi.SetDim(q.dim);
    api.SetAType(TPosition::GM, CubeFormat::ND, q.a, q.transA);
    api.SetBType(TPosition::GM, CubeFormat::ND, q.a, q.transB);
    api.SetCType(TPosition::GM, CubeFormat::ND, q.c);
    api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetOrgShape(q.m, q.n, q.k);
    api.SetShape(q.m, q.n, q.k);
    api.EnableBias(q.bias);
    CHECK(api.SetFixSplit(q.fixM, q.fixN, q.fixK) == 0);
    CHECK(api.SetBufferSpace(l1, l0c, -1) == 0);
    if (q.traverse != MatrixTraverse::NOSET) api.SetTraverse(q.traverse);
    return api.GetTiling(t);
}

// Every rule a tiling must keep; prints the first it breaks.
bool Valid(const Ask& q, const AscendC::tiling::TCubeTiling& t, int64_t l1 = 512 * 1024 - 256)
{
    const int64_t bits = DTYPE_BIT_TAB.at(q.a), k0 = std::max<int64_t>(256 / bits, 16);
    auto bytes = [&](int64_t e) { return e * bits / 8; };
    const int32_t cores = std::max(q.dim, 1);
    auto ceil = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
    const struct {
        bool ok;
        const char* what;
    } rules[] = {
        {t.M == q.m && t.N == q.n && t.Ka == q.k && t.Kb == q.k, "M, N, Ka, Kb are the shape"},
        {t.baseM > 0 && t.baseN > 0 && t.baseM % 16 == 0 && t.baseN % 16 == 0, "baseM, baseN multiples of 16"},
        {t.baseK > 0 && t.baseK % k0 == 0, "baseK a multiple of 32 bytes and of 16"},
        {bytes(int64_t(t.baseM) * t.baseK * t.dbL0A) <= 65536, "L0A"},
        {bytes(int64_t(t.baseN) * t.baseK * t.dbL0B) <= 65536, "L0B"},
        {int64_t(t.baseM) * t.baseN * 4 * t.dbL0C <= 131072, "L0C"},
        {!q.bias || t.baseN <= 256, "bias table: baseN <= 256"},
        {t.stepM > 0 && t.stepN > 0 && t.stepKa > 0 && t.stepKb > 0, "steps positive"},
        {t.depthA1 == t.stepM * t.stepKa || t.depthA1 == 2 * t.stepM * t.stepKa, "depthA1 = stepM * stepKa * db"},
        {t.depthB1 == t.stepN * t.stepKb || t.depthB1 == 2 * t.stepN * t.stepKb, "depthB1 = stepN * stepKb * db"},
        {bytes(int64_t(t.depthA1) * t.baseM * t.baseK + int64_t(t.depthB1) * t.baseN * t.baseK) +
                 (q.bias ? t.baseN * 4 : 0) <= l1,
         "A1 + B1 + bias within L1"},
        {t.shareL1Size <= l1 && t.shareL0CSize <= 131072, "shareL1Size / shareL0CSize within the budgets"},
        {(t.dbL0A == 1 || t.dbL0A == 2) && (t.dbL0B == 1 || t.dbL0B == 2) && (t.dbL0C == 1 || t.dbL0C == 2),
         "db 1 or 2"},
        {t.iterateOrder == 0 || t.iterateOrder == 1, "iterateOrder 0 or 1"},
        {t.isBias == int32_t(q.bias), "isBias"},
        {t.usedCoreNum >= 1 && t.usedCoreNum <= cores, "usedCoreNum within SetDim"},
        {ceil(q.m, t.singleCoreM) * ceil(q.n, t.singleCoreN) * ceil(q.k, t.singleCoreK) == t.usedCoreNum,
         "the cores' blocks cover M x N x K"},
        {(t.singleCoreM == q.m || t.singleCoreM % 16 == 0) && (t.singleCoreN == q.n || t.singleCoreN % 16 == 0),
         "a split M or N in multiples of 16"},
        {q.fixM == -1 || t.baseM == q.fixM, "SetFixSplit's baseM"},
        {q.fixN == -1 || t.baseN == q.fixN, "SetFixSplit's baseN"},
        {q.fixK == -1 || t.baseK == q.fixK, "SetFixSplit's baseK"},
        {q.traverse == MatrixTraverse::NOSET || t.iterateOrder == int32_t(q.traverse) - 1, "SetTraverse's order"},
    };
    for (const auto& r : rules) {
        if (!r.ok) {
            std::printf("  %dx%dx%d dtype %d bias %d dim %d fix %d/%d/%d: breaks %s (single %dx%dx%d base %dx%dx%d "
                        "depth %d/%d step %d/%d db %d/%d used %d)\n",
                        q.m, q.n, q.k, int(q.a), q.bias, q.dim, q.fixM, q.fixN, q.fixK, r.what, t.singleCoreM,
                        t.singleCoreN, t.singleCoreK, t.baseM, t.baseN, t.baseK, t.depthA1, t.depthB1, t.stepKa,
                        t.stepKb, t.dbL0A, t.dbL0B, t.usedCoreNum);
            return false;
        }
    }
    return true;
}

}  // namespace

TEST_CASE("every tiling keeps the kernel's and CANN's rules over shapes, dtypes, transposes, bias, cores, fixed bases")
{
    std::mt19937& rng = check::Rng();
    const DataType dtypes[] = {DataType::DT_FLOAT16, DataType::DT_BF16, DataType::DT_FLOAT, DataType::DT_INT8};
    const int32_t dims[] = {0, 1, 2, 8, 20, 24, 40, 48};
    const int32_t fixes[][3] = {{-1, -1, -1}, {128, 256, -1}, {64, 64, 64}, {256, 128, -1}, {16, 16, -1}};
    std::uniform_int_distribution<int32_t> small(1, 300), big(1, 5000);
    int tilings = 0, bad = 0;
    for (int i = 0; i < 600; ++i) {
        Ask q{};
        q.m = (i % 3 == 0) ? big(rng) : small(rng);
        q.n = (i % 5 == 0) ? big(rng) : small(rng);
        q.k = (i % 2 == 0) ? big(rng) : small(rng);
        q.a = dtypes[i % 4];
        q.c = q.a == DataType::DT_INT8 ? DataType::DT_INT32 : DataType::DT_FLOAT;
        q.transA = i & 1, q.transB = (i >> 1) & 1, q.bias = (i / 3) % 2;
        q.dim = dims[i % 8];
        const int32_t* f = fixes[(i / 8) % 5];
        q.fixM = f[0], q.fixN = f[1], q.fixK = q.a == DataType::DT_INT8 && f[2] == 64 ? 64 : f[2];
        if (q.bias && q.fixN > 256) q.fixN = 256;
        q.traverse = i % 7 == 0    ? MatrixTraverse::FIRSTN
                     : i % 11 == 0 ? MatrixTraverse::FIRSTM
                                   : MatrixTraverse::NOSET;
        AscendC::tiling::TCubeTiling t{};
        const int64_t ret = Tile(q, t);
        // float32 A at a fixed 256 x 128 base: 256 x 128 x 4 x 1 fits L0C; every asked tiling exists.
        CHECK(ret == 0);
        if (ret != 0) {
            std::printf("  refused %dx%dx%d dtype %d dim %d\n", q.m, q.n, q.k, int(q.a), q.dim);
            continue;
        }
        ++tilings;
        bad += !Valid(q, t);
    }
    CHECK(tilings == 600);
    CHECK(bad == 0);
}

TEST_CASE("SetBufferSpace's smaller L1 and L0C are kept; GetCoreNum and GetSingleShape report the tiling")
{
    Ask q{1000, 3000, 4000, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, true, true, 24};
    AscendC::tiling::TCubeTiling t{};
    CHECK(Tile(q, t, 64 * 1024, 32 * 1024) == 0);
    CHECK(Valid(q, t, 64 * 1024));
    CHECK(int64_t(t.baseM) * t.baseN * 4 <= 32 * 1024);
    // A small L1 makes the free blocks shrink; asking again gives the same tiling (GetTiling keeps no state).
    {
        MultiCoreMatmulTiling api(Platform());
        api.SetDim(4);
        api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
        api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
        api.SetShape(2048, 2048, 4096);
        CHECK(api.SetBufferSpace(40 * 1024, -1, -1) == 0);  // 128 x 256 blocks of baseK 64 need 48 KiB
        AscendC::tiling::TCubeTiling first{}, second{};
        CHECK(api.GetTiling(first) == 0 && api.GetTiling(second) == 0);
        CHECK(std::memcmp(&first, &second, sizeof first) == 0);
        CHECK(first.shareL1Size <= 40 * 1024 && first.baseK < 64);
    }
    MultiCoreMatmulTiling api(Platform());
    api.SetDim(8);
    api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetShape(512, 512, 256);
    CHECK(api.GetTiling(t) == 0);
    int32_t dim = 0, mDim = 0, nDim = 0, sm = 0, sn = 0, sk = 0;
    api.GetCoreNum(dim, mDim, nDim);
    api.GetSingleShape(sm, sn, sk);
    CHECK(dim == t.usedCoreNum && mDim * nDim == dim && sm == t.singleCoreM && sn == t.singleCoreN && sk == 256);
    CHECK(mDim == (512 + sm - 1) / sm && nDim == (512 + sn - 1) / sn);
    // CANN's tiling-data class: the same tiling, SaveToBuffer giving the kernel struct's bytes.
    optiling::TCubeTiling data;
    CHECK(api.GetTiling(data) == 0);
    AscendC::tiling::TCubeTiling saved{};
    CHECK(data.GetDataSize() == sizeof saved);
    data.SaveToBuffer(&saved, sizeof saved);
    CHECK(std::memcmp(&saved, &t, sizeof t) == 0);
    // SetSingleShape: the single-core shape is kept and usedCoreNum is SetDim's count (CANN's).
    MultiCoreMatmulTiling single(Platform());
    single.SetDim(4);
    single.SetShape(256, 256, 64);
    single.SetSingleShape(128, 128, 64);
    CHECK(single.GetTiling(t) == 0);
    CHECK(t.singleCoreM == 128 && t.singleCoreN == 128 && t.singleCoreK == 64 && t.usedCoreNum == 4);
}

TEST_CASE("SetSparse(true): baseK a multiple of 64, at least 64 (CANN's AdjustSparseL0Factors); without it as before")
{
    for (int32_t k : {32, 96, 200}) {
        int32_t bk[2] = {0, 0};
        for (bool sparse : {false, true}) {
            MultiCoreMatmulTiling api(Platform());
            api.SetDim(1);
            api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_INT8);
            api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_INT8, true);
            api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_INT32);
            api.SetShape(128, 256, k);
            api.SetSparse(sparse);
            AscendC::tiling::TCubeTiling t{};
            CHECK(api.GetTiling(t) == 0);
            bk[sparse] = t.baseK;
        }
        CHECK(bk[1] % 64 == 0 && bk[1] >= 64);
        CHECK(k == 200 || bk[0] % 64 != 0);  // the dense tiling leaves these baseK off the 64 grid
    }
}

TEST_CASE("refusals where CANN refuses (-1), each beside a passing counterpart")
{
    AscendC::tiling::TCubeTiling t{};
    auto tile = [&](Ask q, int32_t l1 = -1, int32_t l0c = -1) { return Tile(q, t, l1, l0c); };
    const Ask ok{256, 256, 256, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, true, 4};
    CHECK(tile(ok) == 0);
    Ask q = ok;
    q.m = 0;  // a shape that is not positive
    CHECK(tile(q) == -1);
    q = ok;
    q.k = -5;
    CHECK(tile(q) == -1);
    q = ok;
    q.dim = -1;  // SetDim's count not positive (MultiCoreMatmulTiling)
    {
        MultiCoreMatmulTiling api(Platform());
        api.SetDim(0);
        api.SetShape(64, 64, 64);
        CHECK(api.GetTiling(t) == -1);
        api.SetDim(1);
        CHECK(api.GetTiling(t) == 0);
    }
    // SetFixSplit: 0, not a multiple of 16, baseK not a multiple of 32 bytes of A's type.
    MultiCoreMatmulTiling fix(Platform());
    fix.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_INT8);
    CHECK(fix.SetFixSplit(0, -1, -1) == -1);
    CHECK(fix.SetFixSplit(24, -1, -1) == -1);
    CHECK(fix.SetFixSplit(-1, 40, -1) == -1);
    CHECK(fix.SetFixSplit(-1, -1, 16) == -1);  // int8: 32 elements per 32 bytes
    CHECK(fix.SetFixSplit(32, 48, 64) == 0);
    // SetBufferSpace: below -1 or above the chip's.
    CHECK(fix.SetBufferSpace(600 * 1024, -1, -1) == -1);
    CHECK(fix.SetBufferSpace(-2, -1, -1) == -1);
    CHECK(fix.SetBufferSpace(-1, 256 * 1024, -1) == -1);
    CHECK(fix.SetBufferSpace(256 * 1024, 64 * 1024, 96 * 1024) == 0);
    // Fixed base blocks beyond L0C / L0A / the bias table.
    q = ok;
    q.fixM = 256, q.fixN = 256;  // 256 x 256 x 4 = 256 KiB > L0C
    CHECK(tile(q) == -1);
    q.fixN = 128;
    CHECK(tile(q) == 0);
    q = ok;
    q.fixM = 256, q.fixN = 64, q.fixK = 256;  // 256 x 256 x 2 = 128 KiB > L0A
    CHECK(tile(q) == -1);
    q.fixK = 128;
    CHECK(tile(q) == 0);
    q = ok;
    q.fixN = 272, q.fixM = 16;  // with a bias, baseN <= 256
    CHECK(tile(q) == -1);
    q.bias = false;
    CHECK(tile(q) == 0);
    // L1 or L0C too small for the fixed base blocks (SetBufferSpace).
    q = ok;
    q.fixM = 128, q.fixN = 128, q.fixK = 128;
    CHECK(tile(q, 64 * 1024) == -1);   // A1 + B1 at depth 1: 64 KiB, + the bias
    CHECK(tile(q, 128 * 1024) == 0);
    CHECK(tile(q, -1, 32 * 1024) == -1);  // 128 x 128 x 4 = 64 KiB > 32 KiB
    CHECK(tile(q, -1, 64 * 1024) == 0);
    // MXMODE is not on A2.
    MultiCoreMatmulTiling mx(Platform());
    mx.SetShape(64, 64, 64);
    mx.SetMadType(MatrixMadType::MXMODE);
    CHECK(mx.GetTiling(t) == -1);
    mx.SetMadType(MatrixMadType::NORMAL);
    CHECK(mx.GetTiling(t) == 0);
}

TEST_CASE("EnableMultiCoreSplitK splits K in equal parts; OUTER_PRODUCT keeps two base blocks in L0C or is refused")
{
    AscendC::tiling::TCubeTiling t{};
    // 16 x 16 x 1024 half on 24 cores: K in 16 parts of 64 (whole 32-byte blocks), 16 cores.
    MultiCoreMatmulTiling split(Platform());
    split.SetDim(24);
    split.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    split.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    split.SetShape(16, 16, 1024);
    split.EnableMultiCoreSplitK(true);
    CHECK(split.GetTiling(t) == 0);
    CHECK(t.singleCoreK * (t.usedCoreNum / ((16 + t.singleCoreM - 1) / t.singleCoreM)) == 1024);
    CHECK(t.usedCoreNum > 1 && t.usedCoreNum <= 24 && 1024 % t.singleCoreK == 0 && t.singleCoreK % 16 == 0);
    split.EnableMultiCoreSplitK(false);  // the counterpart: K whole on one core
    CHECK(split.GetTiling(t) == 0);
    CHECK(t.singleCoreK == 1024 && t.usedCoreNum == 1);

    // OUTER_PRODUCT, ORDER_M: 128 x 256 blocks twice do not fit L0C, so baseN halves and stepN doubles.
    auto outer = [&](int32_t k, int32_t mmConfigType, MatrixTraverse order) {
        MultiCoreMatmulTiling api(Platform());
        api.SetDim(1);
        api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
        api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
        api.SetShape(128, 7680, k);
        api.SetMatmulConfigParams(MatmulConfigParams(mmConfigType, false, ScheduleType::OUTER_PRODUCT, order, false));
        return api.GetTiling(t);
    };
    CHECK(outer(16, 1, MatrixTraverse::FIRSTM) == 0);
    CHECK(int64_t(t.baseM) * t.baseN * 2 * 4 <= 131072 && t.stepN == 2 && t.depthB1 % 2 == 0);
    CHECK(outer(16, 1, MatrixTraverse::FIRSTN) == 0);
    CHECK(int64_t(t.baseM) * t.baseN * 2 * 4 <= 131072 && t.iterateOrder == 1);
    CHECK(outer(4096, 1, MatrixTraverse::FIRSTM) == -1);  // MDL: baseK must cover singleCoreK
    CHECK(outer(4096, 0, MatrixTraverse::FIRSTM) == 0);   // Norm without batches: allowed
}

namespace {

// MultiCoreMatmulTiling for ScheduleType::N_BUFFER_33 with the calls asc-devkit's matmul_nbuffer33 makes
// (ND A / B / C / bias in GM, SetOrgShape + SetShape, SetBufferSpace(-1, -1, -1), MDL).
int64_t TileNBuffer33(int32_t m, int32_t n, int32_t k, int32_t cores, DataType a, bool bias,
                      AscendC::tiling::TCubeTiling& t, bool splitK = false, bool trans = false, int32_t l1 = -1)
{
    MultiCoreMatmulTiling api(Platform());
    api.SetDim(cores);
    api.SetAType(TPosition::GM, CubeFormat::ND, a, trans);
    api.SetBType(TPosition::GM, CubeFormat::ND, a, trans);
    api.SetCType(TPosition::GM, CubeFormat::ND, a == DataType::DT_INT8 ? DataType::DT_INT32 : DataType::DT_FLOAT);
    api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetOrgShape(m, n, k);
    api.SetShape(m, n, k);
    api.EnableBias(bias);
    api.SetBufferSpace(l1, -1, -1);
    if (splitK) api.EnableMultiCoreSplitK(true);
    api.SetMatmulConfigParams(MatmulConfigParams(1, false, ScheduleType::N_BUFFER_33, MatrixTraverse::NOSET, false));
    return api.GetTiling(t);
}

// The split the NBuffer33 rules give (docs/twin.md, Host tiling API), worked out here from the rules alone for
// ND operands with SetShape called: per-core base blocks counted one by one, the best nDim found by a scan.
struct NB33 {
    int32_t used, sm, sn, sk, bm, bn, bk, stepM, stepK, order;
};
NB33 ExpectNBuffer33(int32_t m, int32_t n, int32_t k, int32_t cores, int32_t bits, bool trans)
{
    auto up = [](int64_t a, int64_t b) { return int32_t((a + b - 1) / b); };
    NB33 e{};
    e.bm = trans ? 256 : 128, e.bn = trans ? 128 : 256, e.bk = 1024 / bits;
    const int32_t red = 256 / bits, align = 2048 / bits;
    const int32_t mDim = up(m, 3 * e.bm);
    // Cube cycles over bytes loaded, summed over the core's base blocks (tails included).
    auto score = [&](int32_t nDim, float& cyc, float& inten, float& band) {
        int32_t sm = up(m, mDim), sn = up(n, nDim);
        bool ok = true;
        if (trans && m % align == 0 && mDim > 1) {
            ok = up(sm, align) * align < up(m, mDim - 1);
            if (ok) sm = up(sm, align) * align;
        }
        if (!trans && n % align == 0 && nDim > 1) {
            const bool okB = up(sn, align) * align < up(n, nDim - 1);
            if (okB) sn = up(sn, align) * align;
            ok = ok && okB;
        }
        cyc = 0;
        float bytes = 0;
        for (int32_t r = 0; r < sm; r += e.bm) {
            for (int32_t c = 0; c < sn; c += e.bn) {
                const int32_t h = std::min(e.bm, sm - r), w = std::min(e.bn, sn - c);
                cyc += float(h * w * e.bk) / float(16 * 16 * red);
                bytes += (ok ? 1 : 2) * (float(h) * e.bk * bits / 8 + float(w) * e.bk * bits / 8);
            }
        }
        inten = cyc / bytes;
        band = float((cores - mDim) * e.bm + (cores - nDim) * e.bn) / float((e.bm + e.bn) * cores);
    };
    // The candidates in nDim order, ordered by std::sort with the rules' comparison (not transitive: the first
    // after the sort is what CANN takes, so the sort and the candidates' order are part of the rule).
    struct C {
        int32_t d;
        float c, i, b;
    };
    std::vector<C> cands;
    for (int32_t d = 1; d <= std::min(n / e.bn, cores / mDim) + 1; ++d) {
        C x{d, 0, 0, 0};
        score(d, x.c, x.i, x.b);
        cands.push_back(x);
    }
    std::sort(cands.begin(), cands.end(), [](const C& x, const C& y) {
        return std::fabs(x.i - y.i) > 1e-4f ? x.i > y.i : std::fabs(x.c - y.c) < 0.01f * y.c ? x.b > y.b : x.c < y.c;
    });
    const int32_t nDim = cands.front().d;
    e.sm = up(up(m, 16) * 16, mDim), e.sn = up(up(n, 16) * 16, nDim), e.sk = k;
    e.used = mDim * nDim;
    if (e.used > cores) e.used = cores, e.sm = std::min(3 * e.bm, m);
    e.stepM = up(e.sm, e.bm), e.stepK = up(e.sk, e.bk);
    // Both K loads whole (CANN's L1 estimate holds at least 3 base K columns here): the order that loads less.
    e.order = e.sm + int64_t(e.sn) * up(e.sm, e.bm) < e.sn + int64_t(e.sm) * up(e.sn, e.bn) ? 1 : 0;
    return e;
}

}  // namespace

TEST_CASE("N_BUFFER_33 on several cores: CANN's split by its rules; K beyond 3 base columns or L1 refused")
{
    AscendC::tiling::TCubeTiling t{};
    // asc-devkit's matmul_nbuffer33 (256 x 512 x 192 half, bias, 24 AICs): CANN's host tiling gives 2 cores of
    // 256 x 256 x 192, base 128 x 256 x 64, stepM 2, stepN 1, stepKa = stepKb = 3, depthA1 6, depthB1 3,
    // iterateOrder 0, dbL0A/B 2, dbL0C 1 (its own tiling code run for these calls).
    CHECK(TileNBuffer33(256, 512, 192, 24, DataType::DT_FLOAT16, true, t) == 0);
    CHECK(t.usedCoreNum == 2 && t.singleCoreM == 256 && t.singleCoreN == 256 && t.singleCoreK == 192);
    CHECK(t.baseM == 128 && t.baseN == 256 && t.baseK == 64 && t.stepM == 2 && t.stepN == 1);
    CHECK(t.stepKa == 3 && t.stepKb == 3 && t.depthA1 == 6 && t.depthB1 == 3 && t.iterateOrder == 0);
    CHECK(t.dbL0A == 2 && t.dbL0B == 2 && t.dbL0C == 1 && t.isBias == 1);
    CHECK(t.shareL1Size == 6 * 128 * 64 * 2 + 3 * 256 * 64 * 2 + 256 * 4);
    // 4096 x 4096 x 192 on 24: CANN's 11 x 2 cores of 373 x 2048 (M over 11 cores, not rounded to 16).
    CHECK(TileNBuffer33(4096, 4096, 192, 24, DataType::DT_FLOAT16, false, t) == 0);
    CHECK(t.usedCoreNum == 22 && t.singleCoreM == 373 && t.singleCoreN == 2048 && t.stepM == 3 && t.depthA1 == 9);

    // The rules, worked out independently, over shapes, core counts, dtypes and transposes.
    int compared = 0;
    for (const DataType a : {DataType::DT_FLOAT16, DataType::DT_FLOAT, DataType::DT_INT8}) {
        const int32_t bits = DTYPE_BIT_TAB.at(a), kMax = 3 * 1024 / bits;
        for (const bool trans : {false, true}) {
            for (const int32_t m : {48, 256, 384, 1000, 2048}) {
                for (const int32_t n : {100, 256, 512, 1536, 4096}) {
                    for (const int32_t cores : {2, 8, 24}) {
                        const int32_t k = kMax - (check::Rng()() % 2) * (256 / bits);  // 3 or nearly 3 columns
                        if (TileNBuffer33(m, n, k, cores, a, false, t, false, trans) != 0) {
                            CHECK(false);
                            continue;
                        }
                        const NB33 e = ExpectNBuffer33(m, n, k, cores, bits, trans);
                        const bool same = t.usedCoreNum == e.used && t.singleCoreM == e.sm && t.singleCoreN == e.sn &&
                                          t.singleCoreK == e.sk && t.baseM == e.bm && t.baseN == e.bn &&
                                          t.baseK == e.bk && t.stepM == e.stepM && t.stepN == 1 &&
                                          t.stepKa == e.stepK && t.stepKb == e.stepK &&
                                          t.depthA1 == e.stepM * e.stepK && t.depthB1 == e.stepK &&
                                          t.iterateOrder == e.order;
                        if (!same) {
                            std::printf("  %dx%dx%d bits %d trans %d cores %d: used %d/%d single %dx%dx%d/%dx%dx%d "
                                        "step %d/%d %d/%d order %d/%d\n", m, n, k, bits, trans, cores, t.usedCoreNum,
                                        e.used, t.singleCoreM, t.singleCoreN, t.singleCoreK, e.sm, e.sn, e.sk,
                                        t.stepM, e.stepM, t.stepKa, e.stepK, t.iterateOrder, e.order);
                        }
                        CHECK(same);
                        ++compared;
                    }
                }
            }
        }
    }
    CHECK(compared == 3 * 2 * 5 * 5 * 3);

    // Planted fault: K of 4 base columns (256 half) without EnableMultiCoreSplitK is refused (CANN's -1);
    // the counterpart with it splits K over Ceil(256, 192) = 2 cores of 128.
    CHECK(TileNBuffer33(256, 512, 256, 24, DataType::DT_FLOAT16, true, t) == -1);
    CHECK(TileNBuffer33(256, 512, 256, 24, DataType::DT_FLOAT16, true, t, true) == 0);
    CHECK(t.singleCoreK == 128 && t.stepKa == 2 && t.stepKb == 2 && t.usedCoreNum == 4 && t.singleCoreN == 256);
    // Planted fault: an L1 (SetBufferSpace) too small for A's 2 x 3 base blocks, B's 3 and the bias (197632
    // bytes) is refused; 256 KiB takes them.
    CHECK(TileNBuffer33(256, 512, 192, 24, DataType::DT_FLOAT16, true, t, false, false, 192 * 1024) == -1);
    CHECK(TileNBuffer33(256, 512, 192, 24, DataType::DT_FLOAT16, true, t, false, false, 256 * 1024) == 0);
    CHECK(t.usedCoreNum == 2 && t.depthA1 == 6);
}

TEST_CASE("N_BUFFER_33 on one core: at most 3 x 3 base blocks of A a core, A whole in L1; refused where none fits")
{
    AscendC::tiling::TCubeTiling t{};
    // Every one-core NBuffer33 tiling keeps the schedule's constraints (the kernel's NBuffer33MatmulPolicy rules).
    auto keeps = [&](int32_t m, int32_t k, int64_t bytes = 2) {
        auto up = [](int32_t a, int32_t b) { return (a + b - 1) / b; };
        return t.usedCoreNum == 1 && t.singleCoreM == m && t.singleCoreK == k && up(m, t.baseM) == t.stepM &&
               t.stepM <= 3 && up(k, t.baseK) == t.stepKa && t.stepKa == t.stepKb && t.stepKa <= 3 &&
               t.stepN == 1 && t.depthA1 == t.stepM * t.stepKa && t.depthB1 == t.stepKb &&
               int64_t(t.baseM) * t.baseK * bytes * t.dbL0A <= 65536 &&
               int64_t(t.baseN) * t.baseK * bytes * t.dbL0B <= 65536 &&
               int64_t(t.baseM) * t.baseN * 4 * t.dbL0C <= 131072;
    };
    CHECK(TileNBuffer33(256, 512, 192, 1, DataType::DT_FLOAT16, true, t) == 0);
    CHECK(keeps(256, 192) && t.baseM == 128 && t.baseN == 256 && t.baseK == 64);
    // 2048 rows: baseM grows to Ceil(2048, 3) = 683 -> 688, and L0A then takes baseK 32 (as CANN's adjustment).
    CHECK(TileNBuffer33(2048, 256, 64, 1, DataType::DT_FLOAT16, false, t) == 0);
    CHECK(keeps(2048, 64) && t.baseM == 688 && t.baseK == 32 && t.dbL0A == 1);
    // Planted fault: 1000 x 1000 x 1000 half on one core needs base blocks of 336 x 336 (226 KiB) in the 64 KiB
    // L0A: refused, as CANN refuses; the counterpart 100 x 2000 x 300 takes 112 x 256 x 112 blocks.
    CHECK(TileNBuffer33(1000, 1000, 1000, 1, DataType::DT_FLOAT16, false, t) == -1);
    CHECK(TileNBuffer33(100, 2000, 300, 1, DataType::DT_FLOAT16, true, t) == 0);
    CHECK(keeps(100, 300) && t.baseM == 112 && t.baseN == 256 && t.baseK == 112);
    // MatmulApiTiling takes the same rules: 384 x 256 x 384 in 3 x 3 blocks of 128 x 128 (A1 9, B1 3: 480 KiB of
    // L1, as CANN's); planted fault: 512 rows make A1 9 blocks of 176 x 128 and A1 + B1 = 528 KiB > L1, refused
    // (as CANN refuses it).
    auto one = [&](int32_t m) {
        MatmulApiTiling api(Platform());
        api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
        api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
        api.SetShape(m, 256, 384);
        api.SetMatmulConfigParams(
            MatmulConfigParams(1, false, ScheduleType::N_BUFFER_33, MatrixTraverse::NOSET, false));
        return api.GetTiling(t);
    };
    CHECK(one(512) == -1);
    CHECK(one(384) == 0);
    CHECK(keeps(384, 384) && t.stepM == 3 && t.stepKa == 3 && t.baseM == 128 && t.baseK == 128 && t.depthA1 == 9);
    // 160 x 160 x 320 float (asc-devkit's own NBuffer33 tiling test: CANN takes 80 x 144 x 112): the twin's 128 rows
    // leave A1 + B1 above L1, so it takes 3 base rows of 64 (baseN narrowed to 144 for L0B, baseK 112 for 3 columns).
    CHECK(TileNBuffer33(160, 160, 320, 1, DataType::DT_FLOAT, false, t) == 0);
    CHECK(keeps(160, 320, 4) && t.baseM == 64 && t.baseN == 144 && t.baseK == 112 && t.stepM == 3);
    CHECK(t.shareL1Size <= 512 * 1024);
}

namespace {

// A tiling of the API run through op_kernel/matmul_cube.cpp (the Matmul object, cube only): its cores take the
// tiling's singleCoreM x singleCoreN blocks; C against a float64 reference with float32 accumulation's bound.
bool RunsToReference(const Ask& q, DType dtype, std::mt19937& rng)
{
    AscendC::tiling::TCubeTiling t{};
    if (Tile(q, t) != 0) return false;
    ::MatmulTilingData td{};
    td.cubeTiling = t;
    td.mCoreNum = (q.m + t.singleCoreM - 1) / t.singleCoreM;
    td.nCoreNum = (q.n + t.singleCoreN - 1) / t.singleCoreN;
    td.mFormerNum = td.mCoreNum, td.mFormerLen = t.singleCoreM, td.mTailLen = t.singleCoreM;
    td.nFormerNum = td.nCoreNum, td.nFormerLen = t.singleCoreN, td.nTailLen = t.singleCoreN;
    td.transA = q.transA, td.transB = q.transB;
    const uint32_t es = dtype == DType::kFloat32 ? 4 : 2;
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    auto fill = [&](size_t count, std::vector<uint8_t>& bytes, std::vector<double>& values) {
        bytes.resize(count * es);
        values.resize(count);
        for (size_t i = 0; i < count; ++i) {
            const float v = dist(rng);
            if (es == 4) {
                std::memcpy(&bytes[i * 4], &v, 4);
                values[i] = v;
                continue;
            }
            const uint16_t h =
                dtype == DType::kFloat16 ? ascend_twin::FloatToHalfBits(v) : ascend_twin::FloatToBf16Bits(v);
            std::memcpy(&bytes[i * 2], &h, 2);
            values[i] = dtype == DType::kFloat16 ? ascend_twin::HalfBitsToFloat(h) : ascend_twin::Bf16BitsToFloat(h);
        }
    };
    std::vector<uint8_t> a, b, c(size_t(q.m) * q.n * es, 0xff);
    std::vector<double> av, bv;
    fill(size_t(q.m) * q.k, a, av);
    fill(size_t(q.k) * q.n, b, bv);
    std::vector<float> bias(q.n);
    for (float& v : bias) v = dist(rng);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "matmul_cube";
    spec.entry = ascend_twin::FindKernel("matmul_cube", dtype);
    spec.blockDim = td.mCoreNum * td.nCoreNum;
    spec.args = {{"a", a.data(), a.size()},       {"b", b.data(), b.size()},
                 {"bias", q.bias ? bias.data() : nullptr, q.bias ? bias.size() * 4 : 0},
                 {"c", c.data(), c.size()},       {"workspace", nullptr, 0},
                 {"tiling", &td, sizeof td}};
    ascend_twin::Launch(spec);
    const double outEps = es == 4 ? 0x1p-24 : (dtype == DType::kFloat16 ? 0x1p-11 : 0x1p-8);
    uint64_t wrong = 0;
    for (int32_t i = 0; i < q.m; ++i) {
        for (int32_t j = 0; j < q.n; ++j) {
            double ref = q.bias ? bias[j] : 0.0, absSum = q.bias ? std::fabs(bias[j]) : 0.0;
            for (int32_t kk = 0; kk < q.k; ++kk) {
                const double p = av[q.transA ? size_t(kk) * q.m + i : size_t(i) * q.k + kk] *
                                 bv[q.transB ? size_t(j) * q.k + kk : size_t(kk) * q.n + j];
                ref += p;
                absSum += std::fabs(p);
            }
            double got;
            const size_t at = size_t(i) * q.n + j;
            if (es == 4) {
                float f;
                std::memcpy(&f, &c[at * 4], 4);
                got = f;
            } else {
                uint16_t h;
                std::memcpy(&h, &c[at * 2], 2);
                got = dtype == DType::kFloat16 ? ascend_twin::HalfBitsToFloat(h) : ascend_twin::Bf16BitsToFloat(h);
            }
            const double allowed =
                outEps * std::fabs(ref) + 0x1p-24 + double(q.k + 1) * 0x1p-24 * absSum * (1 + outEps);
            wrong += !(std::fabs(got - ref) <= allowed);
        }
    }
    if (wrong != 0) {
        std::printf("  %dx%dx%d dtype %d trans %d%d bias %d dim %d: %llu wrong (single %dx%d base %dx%dx%d)\n", q.m,
                    q.n, q.k, int(dtype), q.transA, q.transB, q.bias, q.dim, (unsigned long long)wrong, t.singleCoreM,
                    t.singleCoreN, t.baseM, t.baseN, t.baseK);
    }
    return wrong == 0;
}

}  // namespace

TEST_CASE("BatchMatmulTiling: one matrix's tiling on one core with the batch and layout fields; refusals beside it")
{
    // The batch_matmul_bias_reuse form: half A [32, 64] and B [64, 256], float C and bias, 3 NORMAL batches.
    auto ask = [](int32_t m) {
        BatchMatmulTiling api;
        api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
        api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
        api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
        api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
        api.SetOrgShape(m, 256, 64);
        api.SetShape(m, 256, 64);
        api.EnableBias(true);
        api.SetBufferSpace(-1, -1, -1);
        api.SetBatchInfoForNormal(3, 3, m, 256, 64);
        api.SetBatchNum(3);
        return api;
    };
    AscendC::tiling::TCubeTiling t{};
    BatchMatmulTiling api = ask(32);
    CHECK(api.GetTiling(t) == 0);
    CHECK(t.usedCoreNum == 1 && t.singleCoreM == 32 && t.singleCoreN == 256 && t.singleCoreK == 64);
    CHECK(t.ALayoutInfoB == 3 && t.ALayoutInfoS == 32 && t.ALayoutInfoD == 64 && t.BLayoutInfoB == 3 &&
          t.BLayoutInfoS == 256 && t.CLayoutInfoB == 3 && t.CLayoutInfoS1 == 32 && t.CLayoutInfoS2 == 256 &&
          t.BatchNum == 3 && t.isBias == 1);
    CHECK(int64_t(t.baseM) * t.baseK * 2 * t.dbL0A <= 64 * 1024 && int64_t(t.baseM) * t.baseN * 4 <= 128 * 1024);
    int32_t dim = 0, mDim = 0, nDim = 0, bm = 0, bn = 0;
    CHECK(api.GetCoreNum(dim, mDim, nDim, bm, bn) == 0 && dim == 1);
    optiling::TCubeTiling data;
    CHECK(api.GetTiling(data) == 0 && data.get_BatchNum() == 3 && data.get_singleCoreM() == 32);
    BatchMatmulTiling bad = ask(0);  // M not positive: refused as every GetTiling does
    CHECK(bad.GetTiling(t) == -1);
}

TEST_CASE("its tilings run the twin's Matmul (op_kernel/matmul_cube.cpp) to float64-matching results")
{
    std::mt19937& rng = check::Rng();
    std::uniform_int_distribution<int32_t> side(1, 200), deep(1, 600);
    const std::pair<DType, DataType> types[] = {{DType::kFloat16, DataType::DT_FLOAT16},
                                                {DType::kBFloat16, DataType::DT_BF16},
                                                {DType::kFloat32, DataType::DT_FLOAT}};
    const int32_t dims[] = {0, 1, 3, 8, 24};
    int passed = 0, runs = 0;
    for (int i = 0; i < 15; ++i) {
        const auto& [dtype, dt] = types[i % 3];
        Ask q{side(rng), side(rng), deep(rng), dt, dt, (i & 1) != 0, (i & 2) != 0, (i & 4) != 0, dims[i % 5]};
        if (i == 5) q.fixM = 32, q.fixN = 48, q.fixK = 32;  // SetFixSplit's blocks, several of them per core
        if (i == 6) q.traverse = MatrixTraverse::FIRSTN;
        ++runs;
        passed += RunsToReference(q, dtype, rng);
    }
    CHECK(passed == runs);
}

TEST_MAIN()

TEST_CASE("CANN's mini-shape rule: a shape each matrix of which fits L0, with no more 16 x 16 blocks of C than cores, "
          "takes one core")
{
    AscendC::tiling::TCubeTiling t{};
    // 64 x 64 x 64 half over 24 cores: 16 blocks of C, A, B and C within L0 -> one core, the whole shape.
    const Ask mini{64, 64, 64, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, true, 24};
    CHECK(Tile(mini, t) == 0);
    CHECK(t.usedCoreNum == 1 && t.singleCoreM == 64 && t.singleCoreN == 64 && t.singleCoreK == 64);
    CHECK(Valid(mini, t));
    // The counterparts: 16 blocks of C over 8 cores, and N 528 (33 blocks of 16) over 48 cores, are split.
    const Ask moreBlocks{64, 64, 64, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, true, 8};
    CHECK(Tile(moreBlocks, t) == 0);
    CHECK(t.usedCoreNum > 1);
    CHECK(Valid(moreBlocks, t));
    const Ask wide{16, 528, 64, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, false, 48};
    CHECK(Tile(wide, t) == 0);
    CHECK(t.usedCoreNum > 1);
    CHECK(Valid(wide, t));
    // With EnableMultiCoreSplitK the rule is not applied (CANN then splits K by its factors: not modelled).
    MultiCoreMatmulTiling split(Platform());
    split.SetDim(24);
    split.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    split.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    split.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    split.SetShape(64, 64, 1024);
    split.EnableMultiCoreSplitK(true);
    CHECK(split.GetTiling(t) == 0);
    CHECK(t.usedCoreNum > 1);
}
