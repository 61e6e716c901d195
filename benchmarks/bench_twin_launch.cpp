// The twin's own cost of one launch: vector_add on 1 element (one core) and on 8 cores of 64 elements,
// timed over many launches, without torch or Python. Built by CMake as bench_twin_launch (not a test).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "twin/launch.h"
#include "vector_add_tiling.h"

using namespace ascend_ext;

namespace {

double NsPerLaunch(uint64_t n, int launches)
{
    const VectorAddPlan plan = ComputeVectorAddTiling(n, DType::kFloat32, kAscend910B2);
    VectorAddTilingData tiling = plan.tiling;
    std::vector<float> x(n, 1.0f), y(n, 2.0f), z(n);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "vector_add";
    spec.entry = ascend_twin::FindKernel("vector_add", DType::kFloat32);
    spec.blockDim = plan.blockDim;
    spec.args = {{"x", x.data(), n * 4}, {"y", y.data(), n * 4}, {"z", z.data(), n * 4},
                 {"workspace", nullptr, 0}, {"tiling", &tiling, sizeof tiling}};
    double best = 1e30;
    for (int round = 0; round < 5; ++round) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < launches; ++i) ascend_twin::Launch(spec);
        const auto t1 = std::chrono::steady_clock::now();
        best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / launches);
    }
    return best;
}

}  // namespace

// With an argument ("small"), only the 1-element case (for profiling it alone).
int main(int argc, char** argv)
{
    std::printf("vector_add float32, 1 element, 1 core:        %8.0f ns per launch\n", NsPerLaunch(1, 20000));
    if (argc > 1 && std::string(argv[1]) == "small") return 0;
    std::printf("vector_add float32, %u elements, %u cores: %8.0f ns per launch\n", 48u * 2048u,
                ComputeVectorAddTiling(48u * 2048u, DType::kFloat32, kAscend910B2).blockDim,
                NsPerLaunch(48u * 2048u, 200));
    return 0;
}
