// op_kernel/matmul_cube.cpp (entry matmul_cube) on the twin's cube cores, without torch: results against a float64 reference for
// every dtype, transposition and bias; counters against the plan; balance over the cube cores; the rules.
#include <cmath>
#include <cstddef>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "matmul_tiling.h"
#include "twin/cube_gemm.h"
#include "twin/kernel_types.h"
#include "twin/launch.h"

using namespace ascend_ext;

namespace {

struct Problem {
    uint64_t m, n, k;
    DType dtype;
    bool transA, transB, bias;
};

// Inputs are stored in the dtype; `values` keeps what the stored elements are exactly, for the reference.
struct Operand {
    std::vector<uint8_t> bytes;
    std::vector<double> values;
};

Operand RandomOperand(uint64_t count, DType dtype, std::mt19937& rng)
{
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    Operand op;
    const uint32_t es = DTypeSize(dtype);
    op.bytes.resize(count * es);
    op.values.resize(count);
    for (uint64_t i = 0; i < count; ++i) {
        const float v = dist(rng);
        if (dtype == DType::kFloat32) {
            std::memcpy(&op.bytes[i * 4], &v, 4);
            op.values[i] = v;
        } else {
            const uint16_t bits =
                dtype == DType::kFloat16 ? ascend_twin::FloatToHalfBits(v) : ascend_twin::FloatToBf16Bits(v);
            std::memcpy(&op.bytes[i * 2], &bits, 2);
            op.values[i] = dtype == DType::kFloat16 ? ascend_twin::HalfBitsToFloat(bits) : ascend_twin::Bf16BitsToFloat(bits);
        }
    }
    return op;
}

double Element(const std::vector<uint8_t>& bytes, uint64_t i, DType dtype)
{
    if (dtype == DType::kFloat32) {
        float f;
        std::memcpy(&f, &bytes[i * 4], 4);
        return f;
    }
    uint16_t bits;
    std::memcpy(&bits, &bytes[i * 2], 2);
    return dtype == DType::kFloat16 ? ascend_twin::HalfBitsToFloat(bits) : ascend_twin::Bf16BitsToFloat(bits);
}

struct Outcome {
    MatmulPlan plan;
    ascend_twin::LaunchStats stats;
    uint64_t wrong = 0;
    double worst = 0;  // largest error / allowed error
};

ascend_twin::LaunchStats Launch(const MatmulPlan& plan, DType dtype, std::vector<uint8_t>& a, std::vector<uint8_t>& b,
                                std::vector<float>* bias, std::vector<uint8_t>& c, uint32_t blockDim,
                                const PlatformInfo& platform = kAscend910B2)
{
    MatmulTilingData tiling = plan.tiling;
    ascend_twin::LaunchSpec spec;
    spec.kernel = "matmul_cube";
    spec.entry = ascend_twin::FindKernel("matmul_cube", dtype);
    spec.blockDim = blockDim;
    spec.platform = &platform;
    spec.args = {{"a", a.data(), a.size()},
                 {"b", b.data(), b.size()},
                 {"bias", bias ? bias->data() : nullptr, bias ? bias->size() * 4 : 0},
                 {"c", c.data(), c.size()},
                 {"workspace", nullptr, 0},
                 {"tiling", &tiling, sizeof tiling}};
    return ascend_twin::Launch(spec);
}

Outcome Run(const Problem& p, uint32_t seed)
{
    std::mt19937 rng(seed);
    Outcome out;
    out.plan = ComputeMatmulTiling(p.m, p.n, p.k, p.dtype, p.transA, p.transB, p.bias, kAscend910B2);
    Operand a = RandomOperand(p.m * p.k, p.dtype, rng), b = RandomOperand(p.k * p.n, p.dtype, rng);
    std::vector<float> bias(p.n);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (float& v : bias) v = dist(rng);
    const uint32_t es = DTypeSize(p.dtype);
    std::vector<uint8_t> c(p.m * p.n * es, 0xff);  // NaN everywhere the kernel does not write
    out.stats = Launch(out.plan, p.dtype, a.bytes, b.bytes, p.bias ? &bias : nullptr, c, out.plan.blockDim);

    // float64 reference with the error bound of float32 accumulation over K (|error| <= K * eps32 * sum|a||b|)
    // plus one rounding of the output to its dtype.
    // Output rounding: half an ulp relative, or half the subnormal spacing absolute near zero.
    const double outEps = p.dtype == DType::kFloat32 ? 0x1p-24 : (p.dtype == DType::kFloat16 ? 0x1p-11 : 0x1p-8);
    const double outTiny = p.dtype == DType::kFloat32 ? 0x1p-150 : (p.dtype == DType::kFloat16 ? 0x1p-25 : 0x1p-134);
    for (uint64_t i = 0; i < p.m; ++i) {
        for (uint64_t j = 0; j < p.n; ++j) {
            double ref = p.bias ? bias[j] : 0.0, absSum = p.bias ? std::fabs(bias[j]) : 0.0;
            for (uint64_t kk = 0; kk < p.k; ++kk) {
                const double av = a.values[p.transA ? kk * p.m + i : i * p.k + kk];
                const double bv = b.values[p.transB ? j * p.k + kk : kk * p.n + j];
                ref += av * bv;
                absSum += std::fabs(av * bv);
            }
            const double got = Element(c, i * p.n + j, p.dtype);
            const double allowed = outEps * std::fabs(ref) + outTiny + double(p.k + 1) * 0x1p-24 * absSum * (1 + outEps);
            const double ratio = std::fabs(got - ref) / allowed;
            if (!(ratio <= 1.0)) ++out.wrong;
            if (ratio > out.worst || std::isnan(ratio)) out.worst = ratio;
        }
    }
    return out;
}

std::string Name(const Problem& p)
{
    return std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k) + " " + DTypeName(p.dtype) +
           (p.transA ? " transA" : "") + (p.transB ? " transB" : "") + (p.bias ? " bias" : "");
}

// Every core's counters equal what the plan predicts for its block; totals equal the plan's totals.
void CheckCountersMatchPlan(const Problem& p, const Outcome& o)
{
    const MatmulTilingData& d = o.plan.tiling;
    const MatmulAxisSplit ms{d.mCoreNum, d.mFormerNum, d.mFormerLen, d.mTailLen};
    const MatmulAxisSplit ns{d.nCoreNum, d.nFormerNum, d.nFormerLen, d.nTailLen};
    const uint32_t es = DTypeSize(p.dtype);
    uint64_t a = 0, b = 0, bias = 0, c = 0, macs = 0;
    bool same = o.stats.cores.size() == o.plan.blockDim;
    for (uint32_t core = 0; same && core < o.plan.blockDim; ++core) {
        const uint64_t cm = MatmulAxisBlock(ms, p.m, core % d.mCoreNum).second;
        const uint64_t cn = MatmulAxisBlock(ns, p.n, core / d.mCoreNum).second;
        const MatmulCoreTraffic want = PredictMatmulCoreTraffic(d.cubeTiling, cm, cn, es, es);
        const ascend_twin::CoreCounters& got = o.stats.cores[core];
        same = same && got.cube.gmBytesA == want.aBytes && got.cube.gmBytesB == want.bBytes &&
               got.cube.gmBytesBias == want.biasBytes && got.cube.gmBytesC == want.cBytes && got.cubeMacs == want.macs &&
               got.gmBytesRead == want.Read() && got.gmBytesWritten == want.cBytes;
        if (!same) {
            std::printf("  core %u: A %llu/%llu B %llu/%llu bias %llu/%llu C %llu/%llu macs %llu/%llu (got/plan)\n", core,
                        (unsigned long long)got.cube.gmBytesA, (unsigned long long)want.aBytes,
                        (unsigned long long)got.cube.gmBytesB, (unsigned long long)want.bBytes,
                        (unsigned long long)got.cube.gmBytesBias, (unsigned long long)want.biasBytes,
                        (unsigned long long)got.cube.gmBytesC, (unsigned long long)want.cBytes,
                        (unsigned long long)got.cubeMacs, (unsigned long long)want.macs);
        }
        a += got.cube.gmBytesA;
        b += got.cube.gmBytesB;
        bias += got.cube.gmBytesBias;
        c += got.cube.gmBytesC;
        macs += got.cubeMacs;
    }
    CHECK(same);
    CHECK_EQ(a, o.plan.total.aBytes);
    CHECK_EQ(b, o.plan.total.bBytes);
    CHECK_EQ(bias, o.plan.total.biasBytes);
    CHECK_EQ(c, o.plan.total.cBytes);
    CHECK_EQ(macs, p.m * p.n * p.k);
}

void RunAndCheck(const Problem& p, uint32_t seed)
{
    const Outcome o = Run(p, seed);
    const int before = check::Failures();
    CHECK_EQ(o.wrong, 0ull);
    CheckCountersMatchPlan(p, o);
    if (check::Failures() != before) std::printf("  in %s (worst error / bound %.3g)\n", Name(p).c_str(), o.worst);
}

uint32_t Seed()
{
    static std::random_device rd;
    const uint32_t s = rd();
    return s;
}

}  // namespace

TEST_CASE("matmul matches float64 for every dtype, transposition and bias on small and odd shapes")
{
    const uint32_t seed = Seed();
    std::printf("  seed %u\n", seed);
    for (auto [m, n, k] : {std::tuple{1ull, 1ull, 1ull}, std::tuple{17ull, 33ull, 65ull}, std::tuple{128ull, 128ull, 128ull}}) {
        for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
            for (int flags = 0; flags < 8; ++flags) {
                RunAndCheck({m, n, k, dtype, bool(flags & 1), bool(flags & 2), bool(flags & 4)}, seed + flags);
            }
        }
    }
}

TEST_CASE("matmul on many cores, with tails, thin shapes and K >> M*N")
{
    const uint32_t seed = Seed();
    std::printf("  seed %u\n", seed);
    const Problem problems[] = {
        {257, 300, 1000, DType::kFloat32, false, false, true}, {257, 300, 1000, DType::kFloat16, true, true, false},
        {257, 300, 1000, DType::kBFloat16, true, false, true}, {1, 2048, 700, DType::kFloat16, false, true, true},
        {2048, 1, 700, DType::kFloat32, true, false, false},   {8, 8, 20000, DType::kBFloat16, false, false, true},
        {8, 8, 20000, DType::kFloat32, true, true, false},     {600, 37, 2000, DType::kFloat16, false, false, false},
    };
    for (const Problem& p : problems) RunAndCheck(p, seed);
}

TEST_CASE("random shapes, dtypes, transpositions and bias (fresh each run)")
{
    const uint32_t seed = Seed();
    std::printf("  seed %u\n", seed);
    std::mt19937 rng(seed);
    const DType dtypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};
    for (int i = 0; i < 8; ++i) {
        const Problem p{1 + rng() % 400, 1 + rng() % 400, 1 + rng() % 700, dtypes[rng() % 3], bool(rng() & 1),
                        bool(rng() & 1), bool(rng() & 1)};
        RunAndCheck(p, seed + i);
    }
}

TEST_CASE("each cube core's MACs are within one base block of the mean, and GM traffic is the plan's")
{
    // 4096 x 4096 x 256: the split of C that 4096^3 gets (same grid and per-core blocks over all 24 cube
    // cores), at a K the test can afford. Per-core MACs are block area x K, so the balance seen here is
    // the balance of 4096^3 (benchmarks/bench_twin_matmul runs the full 4096^3 when wanted).
    const Problem p{4096, 4096, 256, DType::kFloat16, false, false, false};
    const MatmulPlan plan = ComputeMatmulTiling(p.m, p.n, p.k, p.dtype, false, false, false, kAscend910B2);
    const MatmulPlan cube = ComputeMatmulTiling(4096, 4096, 4096, p.dtype, false, false, false, kAscend910B2);
    CHECK_EQ(plan.blockDim, 24u);
    CHECK(std::memcmp(&plan.tiling.mCoreNum, &cube.tiling.mCoreNum,
                      sizeof(MatmulTilingData) - offsetof(MatmulTilingData, mCoreNum)) == 0);
    std::vector<uint8_t> a(p.m * p.k * 2), b(p.k * p.n * 2), c(p.m * p.n * 2);
    for (std::vector<uint8_t>* v : {&a, &b}) {
        for (size_t i = 0; i < v->size(); i += 2) (*v)[i + 1] = 0x3c;  // half 1.0 = 0x3c00
    }
    const ascend_twin::LaunchStats stats = Launch(plan, p.dtype, a, b, nullptr, c, plan.blockDim);
    const TCubeTiling& t = plan.tiling.cubeTiling;
    const double mean = double(p.m * p.n * p.k) / plan.blockDim, block = double(t.baseM) * t.baseN * p.k;
    uint64_t read = 0;
    for (const ascend_twin::CoreCounters& core : stats.cores) {
        CHECK(std::fabs(double(core.cubeMacs) - mean) <= block);
        read += core.gmBytesRead;
    }
    CHECK_EQ(read, plan.total.Read());
    uint16_t first, last;
    std::memcpy(&first, c.data(), 2);
    std::memcpy(&last, c.data() + c.size() - 2, 2);
    CHECK_EQ(ascend_twin::HalfBitsToFloat(first), 256.0f);
    CHECK_EQ(ascend_twin::HalfBitsToFloat(last), 256.0f);
}

namespace {
bool RaisesRule(const MatmulPlan& plan, uint32_t blockDim, const char* rule, uint64_t cBytesShort = 0,
                DType dtype = DType::kFloat32)
{
    const uint64_t m = plan.tiling.cubeTiling.M, n = plan.tiling.cubeTiling.N, k = plan.tiling.cubeTiling.Ka;
    const uint64_t size = dtype == DType::kFloat64 ? 8 : 4;
    std::vector<uint8_t> a(m * k * size), b(k * n * size), c(m * n * size - cBytesShort);
    try {
        Launch(plan, dtype, a, b, nullptr, c, blockDim);
    } catch (const ascend_twin::RuleViolation& e) {
        if (std::strstr(e.what(), rule) != nullptr) return true;
        std::printf("  other violation: %s\n", e.what());
    }
    return false;
}
}  // namespace

TEST_CASE("the cube core enforces L1/L0 capacities, the cube core count and GM bounds")
{
    const MatmulPlan good = ComputeMatmulTiling(256, 256, 256, DType::kFloat32, false, false, false, kAscend910B2);
    MatmulPlan l1 = good;
    l1.tiling.cubeTiling.depthA1 = 2 * 64 * l1.tiling.cubeTiling.stepKa;  // 128 base blocks of A
    l1.tiling.cubeTiling.stepM = 64;
    CHECK(RaisesRule(l1, good.blockDim, "A1 + B1 + bias fit in the L1 a TPipe hands out"));
    // All of L1 (524,288 B) is 128 B more than a TPipe hands out on A2 (TOTAL_L1_SIZE): float32 1 x 1 x 2048
    // with A and B each two full-K strips of 16 x 512 floats. The plan for that shape fits and runs.
    const MatmulPlan thin = ComputeMatmulTiling(1, 1, 2048, DType::kFloat32, false, false, false, kAscend910B2);
    MatmulPlan whole = thin;
    TCubeTiling& w = whole.tiling.cubeTiling;
    w.baseM = w.baseN = 16;
    w.baseK = 512;
    w.stepM = w.stepN = 1;
    w.stepKa = w.stepKb = 4;
    w.depthA1 = w.depthB1 = 8;
    CHECK_EQ(uint64_t(w.depthA1) * 16 * 512 * 4 + uint64_t(w.depthB1) * 16 * 512 * 4, 524288u);
    CHECK(RaisesRule(whole, 1, "(TOTAL_L1_SIZE)"));
    {
        std::vector<uint8_t> a(2048 * 4), b(2048 * 4), c(4);
        for (size_t i = 0; i < 2048; ++i) {
            const float av = float(i % 7) - 3.0f, bv = float(i % 5) * 0.5f;
            std::memcpy(&a[i * 4], &av, 4);
            std::memcpy(&b[i * 4], &bv, 4);
        }
        double want = 0;
        for (size_t i = 0; i < 2048; ++i) want += (double(i % 7) - 3.0) * (double(i % 5) * 0.5);
        Launch(thin, DType::kFloat32, a, b, nullptr, c, thin.blockDim);
        float got;
        std::memcpy(&got, c.data(), 4);
        CHECK_EQ(double(got), want);  // small integers and halves: exact in float32
    }
    MatmulPlan l0c = good;  // two 128 x 256 float32 blocks of C: 256 KiB, L0C holds 128 KiB
    TCubeTiling& t = l0c.tiling.cubeTiling;
    t.baseM = 128;
    t.baseN = 256;
    t.baseK = 16;
    t.stepM = t.stepN = t.stepKa = t.stepKb = t.depthA1 = t.depthB1 = 1;
    t.dbL0C = 2;
    CHECK(RaisesRule(l0c, good.blockDim, "baseM x baseN float32 x dbL0C fits in L0C"));
    // The CPU-only float64 cube accumulates in double: a 128 x 128 block of C fills L0C, two do not.
    MatmulPlan wide = ComputeMatmulTiling(256, 256, 256, DType::kFloat64, false, false, false, kAscend910B2);
    TCubeTiling& d = wide.tiling.cubeTiling;
    d.baseM = d.baseN = 128;
    d.baseK = 16;
    d.stepM = d.stepN = d.stepKa = d.stepKb = d.depthA1 = d.depthB1 = 1;
    d.dbL0C = 1;
    {
        std::vector<uint8_t> a(256 * 256 * 8), b(256 * 256 * 8), c(256 * 256 * 8);
        bool clean = true;
        try {
            Launch(wide, DType::kFloat64, a, b, nullptr, c, wide.blockDim);
        } catch (const ascend_twin::RuleViolation& e) {
            std::printf("  unexpected violation: %s\n", e.what());
            clean = false;
        }
        CHECK(clean);
    }
    d.dbL0C = 2;
    CHECK(RaisesRule(wide, wide.blockDim, "baseM x baseN double x dbL0C fits in L0C", 0, DType::kFloat64));
    MatmulPlan align = good;
    align.tiling.cubeTiling.baseK = 24;
    CHECK(RaisesRule(align, good.blockDim, "multiples of 16"));
    CHECK(RaisesRule(good, kAscend910B2.aicNum + 1, "at most aicNum blocks"));
    CHECK(RaisesRule(good, good.blockDim, "GM writes stay inside", 4));
}

TEST_CASE("the cube core checks the tiling's sizes, walk order, double buffering, L0A and L0B")
{
    // The counterparts: the plans of this shape, as made, against float64 (with and without bias).
    RunAndCheck({256, 256, 256, DType::kFloat32, false, false, false}, Seed());
    RunAndCheck({256, 256, 256, DType::kFloat32, false, false, true}, Seed() + 1);
    const MatmulPlan good = ComputeMatmulTiling(256, 256, 256, DType::kFloat32, false, false, false, kAscend910B2);
    MatmulPlan zero = good;
    zero.tiling.cubeTiling.singleCoreK = 0;
    CHECK(RaisesRule(zero, good.blockDim, "TCubeTiling sizes are positive"));
    MatmulPlan order = good;
    order.tiling.cubeTiling.iterateOrder = 2;
    CHECK(RaisesRule(order, good.blockDim, "iterateOrder is 0 (ORDER_M) or 1 (ORDER_N)"));
    MatmulPlan triple = good;
    triple.tiling.cubeTiling.dbL0B = 3;
    CHECK(RaisesRule(triple, good.blockDim, "dbL0A/dbL0B/dbL0C are 1 or 2"));
    // 128 x 128 float32 base blocks, double-buffered: 128 KiB in L0A (or L0B), which holds 64 KiB. L1 holds them.
    for (const bool onA : {true, false}) {
        MatmulPlan l0 = good;
        TCubeTiling& t = l0.tiling.cubeTiling;
        t.baseM = onA ? 128 : 16;
        t.baseN = onA ? 16 : 128;
        t.baseK = 128;
        t.stepM = t.stepN = t.stepKa = t.stepKb = t.depthA1 = t.depthB1 = 1;
        t.dbL0A = t.dbL0B = 2;
        CHECK(RaisesRule(l0, good.blockDim, onA ? "baseM x baseK x dbL0A fits in L0A" : "baseN x baseK x dbL0B fits in L0B"));
    }
}

TEST_CASE("an empty plan's tiling makes every core return without touching GM")
{
    const MatmulPlan plan = ComputeMatmulTiling(4, 4, 0, DType::kFloat16, false, false, true, kAscend910B2);
    CHECK(plan.empty);
    std::vector<uint8_t> a(16), b(16), c(32, 0xab);
    const ascend_twin::LaunchStats stats = Launch(plan, DType::kFloat16, a, b, nullptr, c, 1);
    CHECK_EQ(stats.cores[0].gmBytesRead + stats.cores[0].gmBytesWritten, 0ull);
    CHECK(c[0] == 0xab && c[31] == 0xab);
}

TEST_CASE("every matmul variant is built")
{
    for (DType d : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
        CHECK(ascend_twin::FindKernel("matmul_cube", d) != nullptr);
    }
}

TEST_CASE("a GM->L1 load past the end of A or B fails, whether its runs are checked joined or one by one")
{
    // K = 64: a group's rows (A) or columns (B transposed) follow each other in GM and are checked as one read;
    // K = 1024: they are runs apart, checked one by one. Every transposition, a buffer 4 bytes short (the last
    // element missing) against the same launch with whole buffers.
    for (const uint64_t k : {64u, 1024u}) {
        for (int form = 0; form < 4; ++form) {
            const bool transA = form & 1, transB = form & 2;
            const MatmulPlan plan = ComputeMatmulTiling(96, 80, k, DType::kFloat32, transA, transB, false, kAscend910B2);
            for (int shortOperand = 0; shortOperand < 3; ++shortOperand) {  // none, A, B
                std::vector<uint8_t> a(96 * k * 4 - (shortOperand == 1 ? 4 : 0), 0);
                std::vector<uint8_t> b(k * 80 * 4 - (shortOperand == 2 ? 4 : 0), 0), c(96 * 80 * 4);
                bool raised = false;
                try {
                    Launch(plan, DType::kFloat32, a, b, nullptr, c, plan.blockDim);
                } catch (const ascend_twin::RuleViolation& e) {
                    raised = std::strstr(e.what(), "GM reads stay inside the launch's buffers") != nullptr &&
                             std::strstr(e.what(), shortOperand == 1 ? "(A: GM->L1)" : "(B: GM->L1)") != nullptr;
                    if (!raised) std::printf("  other violation: %s\n", e.what());
                }
                CHECK(raised == (shortOperand != 0));
            }
        }
    }
}

TEST_CASE("the transposing L1 loads put every run's element in its lane and write nothing past the panel")
{
    // GatherPanelA/B (the float32 loads of A not transposed and B transposed): dst[c * L + i] = run i's element c,
    // against a plain loop, for every count around the 8-column steps; the sentinels after the panel stay put
    // (the A form stores 8 floats per column of 6 and must leave its last columns to the scalar tail). An A panel
    // of n < kMr runs (a base block's last) has zeros in its lanes from n on.
    using ascend_twin::cube_detail::kMr;
    using ascend_twin::cube_detail::kNr;
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
    for (const int lanes : {kMr, kNr}) {
        for (int n = lanes == kMr ? 1 : kNr; n <= lanes; ++n) {
            for (int64_t count = 0; count <= 41; ++count) {
                std::vector<std::vector<float>> runs(n, std::vector<float>(count));
                std::vector<const float*> rows;
                for (auto& r : runs) {
                    for (float& v : r) v = dist(rng);
                    rows.push_back(r.data());
                }
                const float sentinel = -1234.5f;
                std::vector<float> dst(count * lanes + 16, sentinel);
                if (lanes == kMr) {
                    ascend_twin::cube_detail::GatherPanelA(rows.data(), n, count, dst.data());
                } else {
                    ascend_twin::cube_detail::GatherPanelB(rows.data(), count, dst.data());
                }
                bool placed = true, untouched = true;
                for (int64_t c = 0; c < count; ++c) {
                    for (int i = 0; i < lanes; ++i) {
                        placed = placed && dst[c * lanes + i] == (i < n ? runs[i][c] : 0.0f);
                    }
                }
                for (size_t e = count * lanes; e < dst.size(); ++e) untouched = untouched && dst[e] == sentinel;
                CHECK(placed);
                CHECK(untouched);
            }
        }
    }
}

TEST_CASE("the Mmad micro-kernel gives each element of C the FMAs in k order, bit-equal on every width")
{
    // PanelGemm against a plain loop of std::fma in k order per element (then added to C), for every number of
    // B panels a base block can have (1-8: the AVX-512 path takes them three, two or one at a time) and partial
    // strides (panels parts of longer ones). Bit-equal: the AVX-512, AVX2 and portable paths all claim it.
    using ascend_twin::cube_detail::kMr;
    using ascend_twin::cube_detail::kNr;
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
    for (int np = 1; np <= 8; ++np) {
        for (const int mp : {1, 3}) {
            for (const int kc : {1, 7, 64}) {
                const int64_t aStride = int64_t(kc + 2) * kMr, bStride = int64_t(kc + 3) * kNr, ldc = np * kNr + 5;
                std::vector<float> a(mp * aStride), b(np * bStride), c(mp * kMr * ldc);
                for (float& v : a) v = dist(rng);
                for (float& v : b) v = dist(rng);
                for (float& v : c) v = dist(rng);
                std::vector<float> want = c;
                for (int p = 0; p < mp; ++p) {
                    for (int r = 0; r < kMr; ++r) {
                        for (int q = 0; q < np; ++q) {
                            for (int j = 0; j < kNr; ++j) {
                                float acc = 0.0f;
                                for (int k = 0; k < kc; ++k) {
                                    acc = std::fma(a[p * aStride + k * kMr + r], b[q * bStride + k * kNr + j], acc);
                                }
                                want[(p * kMr + r) * ldc + q * kNr + j] += acc;
                            }
                        }
                    }
                }
                ascend_twin::cube_detail::PanelGemm(mp, np, kc, a.data(), aStride, b.data(), bStride, c.data(), ldc);
                int64_t differ = 0;
                for (size_t e = 0; e < c.size(); ++e) differ += std::memcmp(&c[e], &want[e], sizeof(float)) != 0;
                if (differ != 0) std::printf("  np %d, mp %d, kc %d: %lld elements differ\n", np, mp, kc,
                                             static_cast<long long>(differ));
                CHECK(differ == 0);
            }
        }
    }
}

TEST_CASE("16-bit operands widen into float32 exactly, 16 at a time and in the tail")
{
    // Every half and bfloat16 bit pattern through WidenHalfRun/WidenBf16Run against the scalar conversions, at
    // offsets and lengths around the 16-element steps: bit-equal, but for a NaN, which must stay a NaN of the same
    // sign (the vector form quiets a signalling one).
    std::vector<uint16_t> all(65536 + 40);
    for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint16_t>(i * 40503u);  // a permutation mod 2^16
    for (const bool isHalf : {true, false}) {
        for (const int64_t offset : {0, 3}) {
            for (const int64_t count : {int64_t(0), int64_t(1), int64_t(15), int64_t(16), int64_t(17), int64_t(65536)}) {
                std::vector<float> got(count + 1, -7.0f);
                const uint16_t* src = all.data() + offset;
                if (isHalf) {
                    ascend_twin::cube_detail::WidenHalfRun(src, count, got.data());
                } else {
                    ascend_twin::cube_detail::WidenBf16Run(src, count, got.data());
                }
                int64_t wrong = 0;
                for (int64_t i = 0; i < count; ++i) {
                    const float want = isHalf ? ascend_twin::HalfBitsToFloat(src[i]) : ascend_twin::Bf16BitsToFloat(src[i]);
                    const bool same = std::isnan(want) ? std::isnan(got[i]) && std::signbit(got[i]) == std::signbit(want)
                                                       : std::memcmp(&want, &got[i], sizeof(float)) == 0;
                    wrong += !same;
                }
                if (wrong != 0) std::printf("  %s, offset %lld, count %lld: %lld wrong\n", isHalf ? "half" : "bfloat16",
                                            static_cast<long long>(offset), static_cast<long long>(count),
                                            static_cast<long long>(wrong));
                CHECK(wrong == 0);
                CHECK(got[count] == -7.0f);  // nothing past the run
            }
        }
    }
}

TEST_MAIN()
