// The VectorAdd kernel on the twin, without torch: results, counters and the per-core split.
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "check.h"
#include "twin/launch.h"
#include "vector_add_tiling.h"

using namespace ascend_ext;

namespace {

ascend_twin::LaunchStats RunFloat(uint64_t n, std::vector<float>& z, const std::vector<float>& x,
                                  const std::vector<float>& y)
{
    const VectorAddPlan plan = ComputeVectorAddTiling(n, DType::kFloat32, kAscend910B2);
    VectorAddTilingData tiling = plan.tiling;
    ascend_twin::LaunchSpec spec;
    spec.kernel = "vector_add";
    spec.entry = ascend_twin::FindKernel("vector_add", DType::kFloat32);
    spec.blockDim = plan.blockDim;
    spec.args = {{"x", const_cast<float*>(x.data()), n * 4},
                 {"y", const_cast<float*>(y.data()), n * 4},
                 {"z", z.data(), n * 4},
                 {"workspace", nullptr, 0},
                 {"tiling", &tiling, sizeof tiling}};
    return ascend_twin::Launch(spec);
}

}  // namespace

TEST_CASE("vector_add float32 matches x + y and moves exactly 12 bytes per element")
{
    std::mt19937 rng(1234);
    std::normal_distribution<float> dist;
    for (uint64_t n : {1ull, 7ull, 8ull, 1000ull, 4097ull, 4096ull * 48 + 7, 300001ull}) {
        std::vector<float> x(n), y(n), z(n, -1.0f);
        for (uint64_t i = 0; i < n; ++i) {
            x[i] = dist(rng);
            y[i] = dist(rng);
        }
        const ascend_twin::LaunchStats stats = RunFloat(n, z, x, y);
        uint64_t wrong = 0;
        for (uint64_t i = 0; i < n; ++i) wrong += z[i] != x[i] + y[i];
        CHECK_EQ(wrong, 0ull);
        uint64_t read = 0, written = 0;
        for (const ascend_twin::CoreCounters& c : stats.cores) {
            read += c.gmBytesRead;
            written += c.gmBytesWritten;
        }
        CHECK_EQ(read, 8 * n);
        CHECK_EQ(written, 4 * n);
    }
}

TEST_CASE("every variant the adapter asks for is built")
{
    for (DType d : {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kFloat64}) {
        CHECK(ascend_twin::FindKernel("vector_add", d) != nullptr);
    }
}

TEST_CASE("a launch whose output buffer is too short is stopped at the GM bound")
{
    const uint64_t n = 1000;
    std::vector<float> x(n, 1.0f), y(n, 2.0f), z(n);
    VectorAddTilingData tiling = ComputeVectorAddTiling(n, DType::kFloat32, kAscend910B2).tiling;
    ascend_twin::LaunchSpec spec;
    spec.kernel = "vector_add";
    spec.entry = ascend_twin::FindKernel("vector_add", DType::kFloat32);
    spec.blockDim = 1;
    spec.args = {{"x", x.data(), n * 4}, {"y", y.data(), n * 4}, {"z", z.data(), (n - 8) * 4},
                 {"workspace", nullptr, 0}, {"tiling", &tiling, sizeof tiling}};
    bool raised = false;
    try {
        ascend_twin::Launch(spec);
    } catch (const ascend_twin::RuleViolation& e) {
        raised = std::strstr(e.what(), "GM writes stay inside") != nullptr && e.core == 0;
    }
    CHECK(raised);
}

TEST_MAIN()
