// Times op_kernel/matmul_cube.cpp on the twin (all checks and counters on) and the Mmad micro-kernel alone.
// Used by bench_matmul.py, which puts the numbers next to torch.mm. Output: one JSON object.
//   bench_twin_matmul M N K {float32|float16|bfloat16} REPEAT
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "matmul_tiling.h"
#include "twin/cube_gemm.h"
#include "twin/launch.h"

using namespace ascend_ext;
using Clock = std::chrono::steady_clock;

namespace {

double Seconds(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The micro-kernel over the base tiles of an M x N x K product (128 x 256 x 32 float32 tiles, packed once).
double TimeMmad(uint64_t m, uint64_t n, uint64_t k)
{
    constexpr int bm = 128, bn = 256, bk = 32;
    const int mp = (bm + ascend_twin::cube_detail::kMr - 1) / ascend_twin::cube_detail::kMr;
    std::vector<float> a(size_t(mp) * ascend_twin::cube_detail::kMr * bk, 0.5f), b(size_t(bn) * bk, 0.25f),
        c(size_t(mp) * ascend_twin::cube_detail::kMr * bn, 0.0f);
    const uint64_t tiles = (m / bm) * (n / bn) * (k / bk);
    const auto t0 = Clock::now();
    for (uint64_t i = 0; i < tiles; ++i) {
        ascend_twin::cube_detail::PanelGemm(mp, bn / ascend_twin::cube_detail::kNr, bk, a.data(),
                                            int64_t(bk) * ascend_twin::cube_detail::kMr, b.data(),
                                            int64_t(bk) * ascend_twin::cube_detail::kNr, c.data(), bn);
    }
    return Seconds(t0);
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc != 6 && argc != 7) {
        std::fprintf(stderr, "usage: %s M N K float32|float16|bfloat16 REPEAT [NN|TN|NT|TT]\n", argv[0]);
        return 2;
    }
    const uint64_t m = std::strtoull(argv[1], nullptr, 10), n = std::strtoull(argv[2], nullptr, 10),
                   k = std::strtoull(argv[3], nullptr, 10);
    const std::string dt = argv[4];
    const DType dtype = dt == "float32" ? DType::kFloat32 : (dt == "float16" ? DType::kFloat16 : DType::kBFloat16);
    const int repeat = std::max(1, std::atoi(argv[5]));
    const std::string tr = argc == 7 ? argv[6] : "NN";  // A and B stored transposed (T) or not (N)
    if (tr.size() != 2 || (tr[0] != 'N' && tr[0] != 'T') || (tr[1] != 'N' && tr[1] != 'T')) {
        std::fprintf(stderr, "transposition '%s': NN, TN, NT or TT\n", tr.c_str());
        return 2;
    }
    const MatmulPlan plan = ComputeMatmulTiling(m, n, k, dtype, tr[0] == 'T', tr[1] == 'T', false, kAscend910B2);
    const uint32_t es = DTypeSize(dtype);
    std::vector<uint8_t> a(m * k * es), b(k * n * es), c(m * n * es);
    std::mt19937 rng(7);
    for (std::vector<uint8_t>* v : {&a, &b}) {
        for (size_t i = 0; i < v->size(); i += es) {  // small finite values in any of the dtypes
            const uint16_t bits = static_cast<uint16_t>(0x3800 + rng() % 0x400);
            if (es == 4) {
                const float f = 0.5f + float(rng() % 1000) / 1000.0f;
                std::memcpy(&(*v)[i], &f, 4);
            } else {
                std::memcpy(&(*v)[i], &bits, 2);
            }
        }
    }
    MatmulTilingData tiling = plan.tiling;
    ascend_twin::LaunchSpec spec;
    spec.kernel = "matmul_cube";
    spec.entry = ascend_twin::FindKernel("matmul_cube", dtype);
    spec.blockDim = plan.blockDim;
    spec.args = {{"a", a.data(), a.size()},       {"b", b.data(), b.size()}, {"bias", nullptr, 0},
                 {"c", c.data(), c.size()},       {"workspace", nullptr, 0}, {"tiling", &tiling, sizeof tiling}};
    ascend_twin::Launch(spec);  // warm-up
    double best = 1e30;
    ascend_twin::LaunchStats stats;
    for (int r = 0; r < repeat; ++r) {
        const auto t0 = Clock::now();
        stats = ascend_twin::Launch(spec);
        best = std::min(best, Seconds(t0));
    }
    double mmad = 1e30;
    for (int r = 0; r < repeat; ++r) mmad = std::min(mmad, TimeMmad(m, n, k));
    uint64_t macs = 0, read = 0, maxMacs = 0;
    for (const ascend_twin::CoreCounters& core : stats.cores) {
        macs += core.cubeMacs;
        read += core.gmBytesRead;
        maxMacs = std::max<uint64_t>(maxMacs, core.cubeMacs);
    }
    std::printf("{\"kernel_seconds\": %.6f, \"mmad_seconds_one_thread\": %.6f, \"block_dim\": %u, \"macs\": %llu, "
                "\"max_core_macs\": %llu, \"gm_bytes_read\": %llu, \"plan_gm_bytes_read\": %llu}\n",
                best, mmad, plan.blockDim, (unsigned long long)macs, (unsigned long long)maxMacs,
                (unsigned long long)read, (unsigned long long)plan.total.Read());
    return 0;
}
