// The twin's cube core and Matmul object beyond what the host tiling chooses: every iterate order and L1
// staging regime gives correct results and exactly the GM traffic PredictMatmulCoreTraffic states; and the
// Matmul API rules the twin enforces, each raised by a small kernel that breaks it.
#define ASCENDC_CUBE_ONLY
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "matmul_tiling.h"
#include "twin/cube_gemm.h"
#include "twin/launch.h"

using namespace ascend_ext;

namespace {

ascend_twin::LaunchStats LaunchOn(ascend_twin::KernelEntry entry, const char* name, const MatmulTilingData& tilingIn,
                                  std::vector<float>& a, std::vector<float>& b, std::vector<float>& c,
                                  uint32_t blockDim = 1)
{
    MatmulTilingData tiling = tilingIn;
    ascend_twin::LaunchSpec spec;
    spec.kernel = name;
    spec.entry = entry;
    spec.blockDim = blockDim;
    spec.args = {{"a", a.data(), a.size() * 4}, {"b", b.data(), b.size() * 4}, {"bias", nullptr, 0},
                 {"c", c.data(), c.size() * 4}, {"workspace", nullptr, 0}, {"tiling", &tiling, sizeof tiling}};
    return ascend_twin::Launch(spec);
}

}  // namespace

TEST_CASE("every iterate order and L1 staging regime: right results, traffic as predicted")
{
    // One core, 7 x 7 x 10 base blocks with tails in every dimension: 300 x 200 x 300 in 48 x 32 x 32 blocks.
    const uint64_t m = 300, n = 200, k = 300;
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> a(m * k), b(k * n), c(m * n);
    for (float& v : a) v = dist(rng);
    for (float& v : b) v = dist(rng);
    std::vector<double> ref(m * n, 0.0), absSum(m * n, 0.0);
    for (uint64_t i = 0; i < m; ++i) {
        for (uint64_t kk = 0; kk < k; ++kk) {
            for (uint64_t j = 0; j < n; ++j) {
                ref[i * n + j] += double(a[i * k + kk]) * b[kk * n + j];
                absSum[i * n + j] += std::fabs(double(a[i * k + kk]) * b[kk * n + j]);
            }
        }
    }
    MatmulPlan plan = ComputeMatmulTiling(m, n, k, DType::kFloat32, false, false, false, kAscend910B2);
    MatmulTilingData base = plan.tiling;
    base.mCoreNum = base.nCoreNum = 1;
    base.mFormerNum = base.nFormerNum = 0;
    base.mTailLen = 304;
    base.nTailLen = 208;
    TCubeTiling& t = base.cubeTiling;
    t.usedCoreNum = 1;
    t.singleCoreM = m;
    t.singleCoreN = n;
    t.baseM = 48;
    t.baseN = 32;
    t.baseK = 32;
    const int32_t mIter = 7, nIter = 7, kIter = 10;
    int variants = 0;
    for (int32_t order : {0, 1}) {
        // {step, stepK, db} per operand; a whole-panel entry holds all base blocks of its axis and of K.
        const int32_t options[][3] = {{1, 1, 1}, {1, 1, 2}, {1, 3, 2}, {1, 4, 1}, {1, kIter, 1}, {1, kIter, 2}, {0, kIter, 1}};
        for (const auto& oa : options) {
            for (const auto& ob : options) {
                MatmulTilingData v = base;
                TCubeTiling& vt = v.cubeTiling;
                vt.iterateOrder = order;
                vt.stepM = oa[0] ? oa[0] : mIter;
                vt.stepKa = oa[1];
                vt.depthA1 = vt.stepM * oa[1] * oa[2];
                vt.stepN = ob[0] ? ob[0] : nIter;
                vt.stepKb = ob[1];
                vt.depthB1 = vt.stepN * ob[1] * ob[2];
                const uint64_t l1 = uint64_t(vt.depthA1) * 48 * 32 * 4 + uint64_t(vt.depthB1) * 32 * 32 * 4;
                if (l1 > L1Usable(kAscend910B2)) continue;
                ++variants;
                std::fill(c.begin(), c.end(), NAN);
                const ascend_twin::LaunchStats s =
                    LaunchOn(ascend_twin::FindKernel("matmul_cube", DType::kFloat32), "matmul_cube", v, a, b, c);
                uint64_t wrong = 0;
                for (uint64_t i = 0; i < m * n; ++i) {
                    wrong += !(std::fabs(c[i] - ref[i]) <= 0x1p-24 * std::fabs(ref[i]) + (k + 1) * 0x1p-24 * absSum[i]);
                }
                const MatmulCoreTraffic want = PredictMatmulCoreTraffic(vt, m, n, 4, 4);
                const ascend_twin::CubeCounters& got = s.cores[0].cube;
                const bool ok = wrong == 0 && got.gmBytesA == want.aBytes && got.gmBytesB == want.bBytes &&
                                got.gmBytesC == want.cBytes && s.cores[0].cubeMacs == want.macs;
                CHECK(ok);
                if (!ok) {
                    std::printf("  order %d A{%d,%d,%d} B{%d,%d,%d}: %llu wrong, A %llu/%llu, B %llu/%llu\n", order,
                                vt.stepM, vt.stepKa, oa[2], vt.stepN, vt.stepKb, ob[2], (unsigned long long)wrong,
                                (unsigned long long)got.gmBytesA, (unsigned long long)want.aBytes,
                                (unsigned long long)got.gmBytesB, (unsigned long long)want.bBytes);
                }
            }
        }
    }
    CHECK(variants >= 60);
}

// ---- kernels breaking one rule each ----

namespace {

using namespace AscendC;
using F32Trans = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using F32 = MatmulType<TPosition::GM, CubeFormat::ND, float>;

template <bool declareType, bool transposeWithoutIsTrans, bool callEnd, bool biasWithoutIsBias>
void RuleKernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    (void)bias;
    (void)workspace;
    GET_TILING_DATA_WITH_STRUCT(MatmulTilingData, tilingData, tiling);
    if constexpr (declareType) KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    Matmul<F32, F32, F32, F32> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tilingData.cubeTiling);
    GlobalTensor<float> aGm, bGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a));
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(b));
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
    mm.SetTensorA(aGm, transposeWithoutIsTrans);
    mm.SetTensorB(bGm);
    if constexpr (biasWithoutIsBias) mm.SetBias(aGm);
    mm.IterateAll(cGm);
    if constexpr (callEnd) mm.End();
}

bool Raises(ascend_twin::KernelEntry entry, const char* rule)
{
    const MatmulPlan plan = ComputeMatmulTiling(32, 32, 32, DType::kFloat32, false, false, false, kAscend910B2);
    std::vector<float> a(32 * 32, 1.0f), b(32 * 32, 1.0f), c(32 * 32);
    try {
        LaunchOn(entry, "rule_kernel", plan.tiling, a, b, c);
    } catch (const ascend_twin::RuleViolation& e) {
        if (std::strstr(e.what(), rule) != nullptr) return true;
        std::printf("  other violation: %s\n", e.what());
        return false;
    }
    std::printf("  no violation raised (expected '%s')\n", rule);
    return false;
}

bool RunsClean(ascend_twin::KernelEntry entry)
{
    const MatmulPlan plan = ComputeMatmulTiling(32, 32, 32, DType::kFloat32, false, false, false, kAscend910B2);
    std::vector<float> a(32 * 32, 1.0f), b(32 * 32, 1.0f), c(32 * 32);
    LaunchOn(entry, "rule_kernel", plan.tiling, a, b, c);
    return c[0] == 32.0f && c[32 * 32 - 1] == 32.0f;
}

template <auto K>
ascend_twin::KernelEntry Entry()
{
    return reinterpret_cast<ascend_twin::KernelEntry>(K);
}

}  // namespace

// A and B declared with ISTRANS = isTrans, given the runtime flags flagA / flagB; inputs of type T.
template <typename T, bool isTrans, bool flagA, bool flagB>
void IsTransKernel(GM_ADDR a, GM_ADDR b, GM_ADDR, GM_ADDR c, GM_ADDR, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(MatmulTilingData, tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    using In = MatmulType<TPosition::GM, CubeFormat::ND, T, isTrans>;
    Matmul<In, In, MatmulType<TPosition::GM, CubeFormat::ND, float>, F32> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tilingData.cubeTiling);
    GlobalTensor<T> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a));
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b));
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
    mm.SetTensorA(aGm, flagA);
    mm.SetTensorB(bGm, flagB);
    mm.IterateAll(cGm);
    mm.End();
}

void CubeKernelWithUb(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> queue;
    pipe.InitBuffer(queue, 1, 1024);
}

TEST_CASE("the Matmul object's rules: kernel type, ISTRANS, End, isBias; no UB on a cube core")
{
    CHECK(RunsClean(Entry<&RuleKernel<true, false, true, false>>()));
    CHECK(Raises(Entry<&RuleKernel<false, false, true, false>>(), "KERNEL_TYPE_AIC_ONLY"));
    CHECK(Raises(Entry<&RuleKernel<true, true, true, false>>(), "ISTRANS = true"));
    CHECK(Raises(Entry<&RuleKernel<true, false, false, false>>(), "Matmul::End is called"));
    CHECK(Raises(Entry<&RuleKernel<true, false, true, true>>(), "a bias needs isBias = 1 in the tiling (its L1 space)"));
    CHECK(Raises(Entry<&CubeKernelWithUb>(), "an AI Cube core has no Unified Buffer"));
}

// The Iterate/GetTensorC walk of a cube-only object, breaking at most one rule of the calls' order.
enum class WalkFault {
    kNone,
    kNoTensorA,          // Iterate with no SetTensorA
    kIterateAllNoB,      // IterateAll with no SetTensorB
    kGetBeforeIterate,   // GetTensorC before any Iterate
    kCallAfterEnd,       // SetTensorA after End
    kNoTiling,           // REGIST_MATMUL_OBJ without a tiling, and no Init
    kInitNull,           // REGIST_MATMUL_OBJ without a tiling, then Init with a null one
    kTailZero,           // SetTail with tailM = 0
    kTailOverSingle,     // not a fault: SetTail to the whole M x N x K, past the tiling's singleCoreM
    kOrgShapeZero,       // SetOrgShape with M = 0
};

template <WalkFault fault>
void WalkKernel(GM_ADDR a, GM_ADDR b, GM_ADDR, GM_ADDR c, GM_ADDR, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(MatmulTilingData, tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    Matmul<F32, F32, F32, F32> mm;
    if constexpr (fault == WalkFault::kNoTiling || fault == WalkFault::kInitNull) {
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm);
        if constexpr (fault == WalkFault::kInitNull) mm.Init(nullptr, &pipe);
    } else {
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tilingData.cubeTiling);
    }
    const TCubeTiling& t = tilingData.cubeTiling;
    GlobalTensor<float> aGm, bGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(b), t.Kb * t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
    if constexpr (fault == WalkFault::kOrgShapeZero) mm.SetOrgShape(0, t.N, t.Ka);
    if constexpr (fault != WalkFault::kNoTensorA) mm.SetTensorA(aGm);
    if constexpr (fault != WalkFault::kIterateAllNoB) mm.SetTensorB(bGm);
    if constexpr (fault == WalkFault::kTailZero) mm.SetTail(0, t.singleCoreN);
    if constexpr (fault == WalkFault::kTailOverSingle) mm.SetTail(t.M, t.N, t.Ka);
    if constexpr (fault == WalkFault::kGetBeforeIterate) mm.GetTensorC(cGm);
    if constexpr (fault == WalkFault::kIterateAllNoB) {
        mm.IterateAll(cGm);
    } else {
        while (mm.Iterate()) mm.GetTensorC(cGm);
    }
    mm.End();
    if constexpr (fault == WalkFault::kCallAfterEnd) mm.SetTensorA(aGm);
}

TEST_CASE("the Matmul walk's rules: SetTensorA/B first, GetTensorC after Iterate, nothing after End, a tiling, "
          "shapes")
{
    // The counterpart: a 64 x 48 x 40 product of fresh random floats in 32 x 16 blocks against float64.
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    const uint32_t m = 64, n = 48, k = 40;
    const MatmulPlan plan = ComputeMatmulTiling(m, n, k, DType::kFloat32, false, false, false, kAscend910B2);
    MatmulTilingData tiling = plan.tiling;
    TCubeTiling& t = tiling.cubeTiling;
    t.usedCoreNum = 1;
    t.singleCoreM = m;
    t.singleCoreN = n;
    t.singleCoreK = k;
    t.baseM = 32;
    t.baseN = 16;
    t.baseK = 16;
    t.stepM = t.stepN = t.stepKa = t.stepKb = t.depthA1 = t.depthB1 = 1;
    t.dbL0A = t.dbL0B = t.dbL0C = 1;
    std::vector<float> a(m * k), b(k * n), c(m * n, NAN);
    for (float& v : a) v = dist(rng);
    for (float& v : b) v = dist(rng);
    LaunchOn(Entry<&WalkKernel<WalkFault::kNone>>(), "walk_kernel", tiling, a, b, c);
    double worst = 0;
    for (uint32_t i = 0; i < m; ++i) {
        for (uint32_t j = 0; j < n; ++j) {
            double want = 0;
            for (uint32_t p = 0; p < k; ++p) want += double(a[i * k + p]) * double(b[p * n + j]);
            worst = std::fmax(worst, std::fabs(double(c[i * n + j]) - want));
        }
    }
    CHECK(worst < 1e-4);
    auto raises = [&](ascend_twin::KernelEntry entry, const char* rule) {
        std::vector<float> cc(m * n);
        try {
            LaunchOn(entry, "walk_kernel", tiling, a, b, cc);
        } catch (const ascend_twin::RuleViolation& e) {
            if (std::strstr(e.what(), rule) != nullptr) return true;
            std::printf("  other violation: %s\n", e.what());
            return false;
        }
        std::printf("  no violation raised (expected '%s')\n", rule);
        return false;
    };
    CHECK(raises(Entry<&WalkKernel<WalkFault::kNoTensorA>>(), "SetTensorA and SetTensorB come before Iterate/IterateAll"));
    CHECK(raises(Entry<&WalkKernel<WalkFault::kIterateAllNoB>>(), "SetTensorA and SetTensorB come before IterateAll"));
    CHECK(raises(Entry<&WalkKernel<WalkFault::kGetBeforeIterate>>(), "GetTensorC fetches a block an Iterate computed"));
    CHECK(raises(Entry<&WalkKernel<WalkFault::kCallAfterEnd>>(), "no Matmul call after End"));
    CHECK(raises(Entry<&WalkKernel<WalkFault::kNoTiling>>(),
                 "the Matmul object is initialised (REGIST_MATMUL_OBJ with a tiling, or Init)"));
    CHECK(raises(Entry<&WalkKernel<WalkFault::kInitNull>>(), "Matmul::Init takes the TCubeTiling"));
    CHECK(raises(Entry<&WalkKernel<WalkFault::kTailZero>>(), "a core's block is positive"));
    // A block larger than the tiling's singleCore shape is valid for the NORM and MDL templates (the API checks
    // tail <= singleCore only for IBShare): the walk covers it with more base blocks. Half the M as singleCoreM,
    // SetTail to the whole product: C is the whole product.
    {
        MatmulTilingData half = tiling;
        half.cubeTiling.singleCoreM = m / 2;
        std::vector<float> cc(m * n, NAN);
        LaunchOn(Entry<&WalkKernel<WalkFault::kTailOverSingle>>(), "walk_kernel", half, a, b, cc);
        double worstOver = 0;
        for (uint32_t i = 0; i < m; ++i) {
            for (uint32_t j = 0; j < n; ++j) {
                double want = 0;
                for (uint32_t p = 0; p < k; ++p) want += double(a[i * k + p]) * double(b[p * n + j]);
                worstOver = std::fmax(worstOver, std::fabs(double(cc[i * n + j]) - want));
            }
        }
        CHECK(worstOver < 1e-4);
    }
    CHECK(raises(Entry<&WalkKernel<WalkFault::kOrgShapeZero>>(), "original shapes are positive"));
}

TEST_CASE("float inputs: the transpose flag equals ISTRANS; half may alternate (SetTensorA/SetTensorB docs)")
{
    // ones everywhere: every transposition gives C = K = 32 (the half kernels read float ones as pairs of
    // half bits 0x0000/0x3f80, so only the float results are compared).
    CHECK(RunsClean(Entry<&IsTransKernel<float, true, true, true>>()));
    CHECK(RunsClean(Entry<&IsTransKernel<float, false, false, false>>()));
    CHECK(Raises(Entry<&IsTransKernel<float, true, false, true>>(), "for float inputs the transpose flag equals"));
    CHECK(Raises(Entry<&IsTransKernel<float, true, true, false>>(), "isTransposeB = false with ISTRANS = true"));
    CHECK(Raises(Entry<&IsTransKernel<float, false, true, false>>(), "a transposed A needs"));
    for (ascend_twin::KernelEntry halfEntry : {Entry<&IsTransKernel<half, true, false, false>>(),
                                              Entry<&IsTransKernel<half, true, true, false>>(),
                                              Entry<&IsTransKernel<bfloat16_t, true, false, true>>()}) {
        const MatmulPlan plan = ComputeMatmulTiling(32, 32, 32, DType::kFloat16, false, false, false, kAscend910B2);
        std::vector<float> a(32 * 32, 1.0f), b(32 * 32, 1.0f), c(32 * 32);
        LaunchOn(halfEntry, "rule_kernel", plan.tiling, a, b, c);  // no violation
    }
    CHECK(Raises(Entry<&IsTransKernel<half, false, true, false>>(), "a transposed A needs"));
}

TEST_CASE("the walk's GM prefetch touches every cache line of its runs once, in order, then stops")
{
    // Runs starting mid-line and ending mid-line, lines shared by none; and runs of one byte. Lines of a run:
    // from its start's line to its last byte's line.
    alignas(64) static uint8_t gm[64 * 64];
    struct Case {
        int64_t first, stride, bytes, count;
    };
    for (const Case& c : {Case{10, 256, 100, 5}, Case{0, 128, 128, 8}, Case{63, 64, 1, 20}, Case{5, 1000, 700, 3}}) {
        int64_t lines = 0;
        for (int64_t r = 0; r < c.count; ++r) {
            const int64_t begin = c.first + r * c.stride;
            lines += (begin + c.bytes - 1) / 64 - begin / 64 + 1;
        }
        for (int64_t perCall : {int64_t(1), int64_t(3), int64_t(1000)}) {
            ascend_twin::cube_detail::GmPrefetch pf{gm + c.first, c.stride, c.bytes, c.count};
            pf.perCall = perCall;
            CHECK(pf.LinesLeft() >= lines);
            int64_t calls = 0;
            while (!pf.Done() && calls < 10000) {
                pf.Touch();
                ++calls;
            }
            CHECK_EQ(calls, (lines + perCall - 1) / perCall);  // perCall lines a call: none skipped, none twice
        }
    }
}

TEST_MAIN()
