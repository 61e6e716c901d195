// MatMul tiling properties: capacities, fractal alignment, the Matmul API's tiling rules, balance over the
// cube cores and coverage of C, for the shape set of the op x dtypes x transposes x bias.
#include <cstddef>
#include <cstdio>
#include <random>
#include <vector>

#include "check.h"
#include "matmul_tiling.h"

using namespace ascend_ext;

namespace {

struct Shape {
    uint64_t m, n, k;
};
const Shape kShapes[] = {{1, 1, 1},        {17, 33, 65},      {128, 128, 128}, {1000, 1000, 1000},
                         {4096, 4096, 4096}, {1, 4096, 4096}, {4096, 1, 4096}, {8, 8, 100000},
                         {257, 4099, 31}};
const DType kDTypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};

// Offsets and lengths of every grid row (or column), recomputed from the tiling fields alone.
std::vector<std::pair<uint64_t, uint64_t>> AxisBlocks(uint32_t cores, uint32_t former, uint32_t formerLen,
                                                      uint32_t tailLen, uint64_t length)
{
    std::vector<std::pair<uint64_t, uint64_t>> blocks;
    uint64_t offset = 0;
    for (uint32_t i = 0; i < cores; ++i) {
        const uint64_t len = i < former ? formerLen : tailLen;
        const uint64_t clipped = offset >= length ? 0 : std::min(len, length - offset);
        blocks.push_back({offset, clipped});
        offset += len;
    }
    return blocks;
}

void CheckPlan(const Shape& s, DType dtype, bool ta, bool tb, bool bias, const PlatformInfo& p)
{
    const MatmulPlan plan = ComputeMatmulTiling(s.m, s.n, s.k, dtype, ta, tb, bias, p);
    const MatmulTilingData& d = plan.tiling;
    const TCubeTiling& t = d.cubeTiling;
    const uint64_t ds = DTypeSize(dtype);
    const bool ok = plan.unsupported == nullptr && !plan.empty && plan.blockDim >= 1;
    CHECK(ok);
    if (!ok) return;
    char where[160];
    std::snprintf(where, sizeof where, "%llux%llux%llu %s ta=%d tb=%d bias=%d", (unsigned long long)s.m,
                  (unsigned long long)s.n, (unsigned long long)s.k, DTypeName(dtype), ta, tb, bias);
    const int before = check::Failures();

    // The TCubeTiling fields describe the whole problem.
    CHECK_EQ(uint64_t(t.M), s.m);
    CHECK_EQ(uint64_t(t.N), s.n);
    CHECK_EQ(uint64_t(t.Ka), s.k);
    CHECK_EQ(uint64_t(t.Kb), s.k);
    CHECK_EQ(uint64_t(t.singleCoreK), s.k);
    CHECK_EQ(t.isBias, int32_t(bias));
    CHECK_EQ(uint32_t(t.usedCoreNum), plan.blockDim);
    CHECK_EQ(plan.blockDim, d.mCoreNum * d.nCoreNum);
    CHECK(plan.blockDim <= p.aicNum);

    // Fractal alignment of base blocks and of the per-core split.
    CHECK(t.baseM > 0 && t.baseN > 0 && t.baseK > 0);
    CHECK(t.baseM % 16 == 0 && t.baseN % 16 == 0 && t.baseK % 16 == 0);
    CHECK(d.mFormerLen % 16 == 0 && d.mTailLen % 16 == 0 && d.nFormerLen % 16 == 0 && d.nTailLen % 16 == 0);

    // depth = step * stepK * db with db 1 or 2; iterate order 0 or 1; L0 double buffering 1 or 2.
    for (auto [depth, step, stepK] : {std::tuple{t.depthA1, t.stepM, t.stepKa}, std::tuple{t.depthB1, t.stepN, t.stepKb}}) {
        CHECK(step >= 1 && stepK >= 1);
        CHECK(depth == step * stepK || depth == 2 * step * stepK);
    }
    CHECK(t.iterateOrder == 0 || t.iterateOrder == 1);
    CHECK(t.dbL0A >= 1 && t.dbL0A <= 2 && t.dbL0B >= 1 && t.dbL0B <= 2 && t.dbL0C >= 1 && t.dbL0C <= 2);

    // Capacities, recomputed from the fields.
    const uint64_t l1 = uint64_t(t.depthA1) * t.baseM * t.baseK * ds + uint64_t(t.depthB1) * t.baseN * t.baseK * ds +
                        (bias ? uint64_t(t.baseN) * MatmulAccBytes(ds) : 0);
    CHECK(l1 <= L1Usable(p));
    CHECK_EQ(l1, plan.l1Bytes);
    CHECK(uint64_t(t.baseM) * t.baseK * ds * t.dbL0A <= p.l0aSize);
    CHECK(uint64_t(t.baseN) * t.baseK * ds * t.dbL0B <= p.l0bSize);
    CHECK(uint64_t(t.baseM) * t.baseN * MatmulAccBytes(ds) * t.dbL0C <= p.l0cSize);
    CHECK_EQ(uint64_t(t.baseM) * t.baseN * MatmulAccBytes(ds) * t.dbL0C, plan.l0cBytes);

    // Coverage: the grid rows tile [0, M) and the grid columns [0, N) without gap or overlap, each core's
    // block fits singleCoreM x singleCoreN, and so every element of C belongs to exactly one core.
    const auto rows = AxisBlocks(d.mCoreNum, d.mFormerNum, d.mFormerLen, d.mTailLen, s.m);
    const auto cols = AxisBlocks(d.nCoreNum, d.nFormerNum, d.nFormerLen, d.nTailLen, s.n);
    uint64_t end = 0;
    for (auto [off, len] : rows) {
        CHECK(len > 0 && off == end && len <= uint64_t(t.singleCoreM));
        end = off + len;
    }
    CHECK_EQ(end, s.m);
    end = 0;
    for (auto [off, len] : cols) {
        CHECK(len > 0 && off == end && len <= uint64_t(t.singleCoreN));
        end = off + len;
    }
    CHECK_EQ(end, s.n);

    // Balance: no core more than one base block (baseM x baseN x K MACs) away from the mean.
    const uint64_t blockMacs = uint64_t(t.baseM) * t.baseN * s.k;
    uint64_t total = 0, maxMacs = 0, minMacs = UINT64_MAX;
    for (auto [ro, rl] : rows) {
        for (auto [co, cl] : cols) {
            const uint64_t macs = rl * cl * s.k;
            total += macs;
            maxMacs = std::max(maxMacs, macs);
            minMacs = std::min(minMacs, macs);
        }
    }
    CHECK_EQ(total, s.m * s.n * s.k);
    CHECK_EQ(maxMacs, plan.maxCoreMacs);
    const double mean = double(total) / plan.blockDim;
    CHECK(double(maxMacs) - mean <= double(blockMacs));
    CHECK(mean - double(minMacs) <= double(blockMacs));

    // Predicted traffic: every operand at least once, C exactly once.
    CHECK(plan.total.aBytes >= s.m * s.k * ds && plan.total.aBytes % (s.k * ds) == 0);
    CHECK(plan.total.bBytes >= s.n * s.k * ds && plan.total.bBytes % (s.k * ds) == 0);
    CHECK_EQ(plan.total.cBytes, s.m * s.n * ds);
    CHECK_EQ(plan.total.biasBytes > 0, bias);
    CHECK_EQ(plan.total.macs, s.m * s.n * s.k);

    if (check::Failures() != before) std::printf("  in plan %s\n", where);
}

}  // namespace

TEST_CASE("TCubeTiling has the Matmul API's field order, types and size")
{
    CHECK_EQ(sizeof(TCubeTiling), size_t{200});
    CHECK_EQ(offsetof(TCubeTiling, usedCoreNum), size_t{0});
    CHECK_EQ(offsetof(TCubeTiling, singleCoreM), size_t{20});
    CHECK_EQ(offsetof(TCubeTiling, baseM), size_t{32});
    CHECK_EQ(offsetof(TCubeTiling, depthA1), size_t{44});
    CHECK_EQ(offsetof(TCubeTiling, isBias), size_t{60});
    CHECK_EQ(offsetof(TCubeTiling, iterateOrder), size_t{68});
    CHECK_EQ(offsetof(TCubeTiling, stepKa), size_t{104});
    CHECK_EQ(offsetof(TCubeTiling, dbL0A), size_t{120});
    CHECK_EQ(offsetof(TCubeTiling, BatchNum), size_t{192});
    CHECK_EQ(offsetof(TCubeTiling, mxTypePara), size_t{196});
    CHECK_EQ(offsetof(MatmulTilingData, mCoreNum), size_t{200});
}

TEST_CASE("every plan of the shape set respects capacities, alignment, balance and covers C once")
{
    for (const PlatformInfo* p : kPlatforms) {
        for (const Shape& s : kShapes) {
            for (DType dtype : kDTypes) {
                for (int flags = 0; flags < 8; ++flags) {
                    CheckPlan(s, dtype, flags & 1, flags & 2, flags & 4, *p);
                }
            }
        }
    }
}

TEST_CASE("the twin's float64 plans (double operands, bias and L0C) keep every property")
{
    // float64 is planned for the CPU twin's float64 build only (gradient checks); the NPU has no such kernel.
    for (const Shape& s : kShapes) {
        for (int flags = 0; flags < 8; ++flags) {
            CheckPlan(s, DType::kFloat64, flags & 1, flags & 2, flags & 4, kAscend910B2);
        }
    }
    const MatmulPlan plan = ComputeMatmulTiling(4096, 4096, 4096, DType::kFloat64, false, false, true, kAscend910B2);
    CHECK_EQ(plan.tiling.cubeTiling.baseN, 128);  // 128 x 128 doubles fill L0C once
    CHECK_EQ(plan.tiling.cubeTiling.dbL0C, 1);
    CHECK_EQ(ComputeMatmulTiling(4096, 4096, 4096, DType::kFloat32, false, false, true, kAscend910B2)
                 .tiling.cubeTiling.baseN, 256);  // float32 keeps its base block
}

TEST_CASE("random shapes (fresh each run) keep every property")
{
    std::random_device rd;
    const uint32_t seed = rd();
    std::printf("  seed %u\n", seed);
    std::mt19937_64 rng(seed);
    auto size = [&](uint64_t max) { return 1 + rng() % (rng() % 4 == 0 ? 64 : max); };
    for (int i = 0; i < 300; ++i) {
        const Shape s{size(20000), size(20000), size(rng() % 8 == 0 ? 300000 : 20000)};
        CheckPlan(s, kDTypes[rng() % 3], rng() & 1, rng() & 1, rng() & 1, *kPlatforms[rng() % 2]);
    }
}

TEST_CASE("L1 plans stay within TOTAL_L1_SIZE (512 KiB - 128 B on A2), also where all of L1 would fit")
{
    CHECK_EQ(L1Usable(kAscend910B2), 524160u);
    // float32 1 x 1 x 2048: two double-buffered full-K strips of A and B would be exactly 524,288 B.
    for (bool bias : {false, true}) {
        const MatmulPlan plan = ComputeMatmulTiling(1, 1, 2048, DType::kFloat32, false, false, bias, kAscend910B2);
        CHECK(plan.unsupported == nullptr);
        CHECK(plan.l1Bytes <= 524160u);
        CHECK(plan.l1Bytes > 262144u);  // still stages most of L1
    }
}

TEST_CASE("large squares use every cube core; tiny ones one core")
{
    CHECK_EQ(ComputeMatmulTiling(4096, 4096, 4096, DType::kFloat16, false, false, false, kAscend910B2).blockDim, 24u);
    CHECK_EQ(ComputeMatmulTiling(4096, 4096, 4096, DType::kFloat16, false, false, false, kAscend910B3).blockDim, 20u);
    CHECK_EQ(ComputeMatmulTiling(1, 1, 1, DType::kFloat32, false, false, false, kAscend910B2).blockDim, 1u);
}

TEST_CASE("K >> M*N stays on one core (no split-K) and streams A and B exactly once")
{
    const MatmulPlan plan = ComputeMatmulTiling(8, 8, 100000, DType::kFloat16, false, false, false, kAscend910B2);
    CHECK_EQ(plan.blockDim, 1u);
    CHECK_EQ(plan.total.aBytes, 8ull * 100000 * 2);
    CHECK_EQ(plan.total.bBytes, 8ull * 100000 * 2);
}

TEST_CASE("empty and unsupported shapes launch nothing")
{
    for (auto [m, n, k] : {std::tuple{0ull, 5ull, 5ull}, std::tuple{5ull, 0ull, 5ull}, std::tuple{5ull, 5ull, 0ull}}) {
        const MatmulPlan plan = ComputeMatmulTiling(m, n, k, DType::kFloat32, false, false, true, kAscend910B2);
        CHECK(plan.empty && plan.blockDim == 0 && plan.unsupported == nullptr);
    }
    CHECK(ComputeMatmulTiling(1ull << 31, 4, 4, DType::kFloat32, false, false, false, kAscend910B2).unsupported != nullptr);
}

TEST_CASE("DescribeMatmulPlan names the decision")
{
    const MatmulPlan plan = ComputeMatmulTiling(4096, 4096, 4096, DType::kFloat16, false, false, false, kAscend910B2);
    for (auto [name, value] : DescribeMatmulPlan(plan)) std::printf("  %s=%llu\n", name, (unsigned long long)value);
    CHECK(DescribeMatmulPlan(plan).size() >= 20);
}

// ---- DecodeMatmulProblem: stored shapes + flags -> the problem (the CPU adapter and the NPU TilingFunc) ----

TEST_CASE("decode: M, N, K from the stored shapes and the transpose flags")
{
    const int64_t a[2] = {7, 5}, b[2] = {5, 3}, bias[1] = {3};
    MatmulDecoded r = DecodeMatmulProblem(a, 2, b, 2, false, false, bias, 1);
    CHECK(r.error == nullptr);
    CHECK_EQ(r.problem.m, 7u);
    CHECK_EQ(r.problem.k, 5u);
    CHECK_EQ(r.problem.n, 3u);
    CHECK(r.problem.hasBias && !r.problem.transA && !r.problem.transB);
    const int64_t aT[2] = {5, 7}, bT[2] = {3, 5};  // a stored [K, M], b stored [N, K]
    r = DecodeMatmulProblem(aT, 2, bT, 2, true, true, nullptr, 0);
    CHECK(r.error == nullptr);
    CHECK_EQ(r.problem.m, 7u);
    CHECK_EQ(r.problem.k, 5u);
    CHECK_EQ(r.problem.n, 3u);
    CHECK(!r.problem.hasBias && r.problem.transA && r.problem.transB);
    const int64_t empty[2] = {0, 5};
    CHECK(DecodeMatmulProblem(empty, 2, b, 2, false, false, nullptr, 0).error == nullptr);
}

TEST_CASE("decode: ranks, inner dimensions and the bias length are checked")
{
    const int64_t a[2] = {7, 5}, b[2] = {5, 3}, b3[3] = {1, 5, 3}, wrongK[2] = {4, 3};
    const int64_t bias2[1] = {2}, bias2d[2] = {1, 3};
    CHECK(DecodeMatmulProblem(a, 2, b3, 3, false, false, nullptr, 0).error != nullptr);
    CHECK(DecodeMatmulProblem(a, 2, wrongK, 2, false, false, nullptr, 0).error != nullptr);
    CHECK(DecodeMatmulProblem(a, 2, b, 2, true, false, nullptr, 0).error != nullptr);  // op(a) is 5x7
    CHECK(DecodeMatmulProblem(a, 2, b, 2, false, false, bias2, 1).error != nullptr);
    CHECK(DecodeMatmulProblem(a, 2, b, 2, false, false, bias2d, 2).error != nullptr);
}

TEST_CASE("decode then tile: the problem overload is the sizes overload")
{
    const int64_t a[2] = {300, 200}, b[2] = {100, 200};
    const MatmulDecoded r = DecodeMatmulProblem(a, 2, b, 2, false, true, nullptr, 0);
    const MatmulPlan viaProblem = ComputeMatmulTiling(r.problem, DType::kFloat16, kAscend910B2);
    const MatmulPlan viaSizes = ComputeMatmulTiling(300, 100, 200, DType::kFloat16, false, true, false, kAscend910B2);
    CHECK(DescribeMatmulPlan(viaProblem) == DescribeMatmulPlan(viaSizes));
    CHECK_EQ(viaProblem.tiling.transB, 1u);
}

TEST_MAIN()
