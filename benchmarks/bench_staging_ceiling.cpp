// The ceiling of the vector_add rows of `bench`, measured on this CPU without the twin: z = x + y over 2^24
// elements as one fused loop (what torch.add runs) against the same sum staged through UB-sized buffers the way
// the VectorAdd kernel moves it (per tile of the kernel's own tiling: copy x in, copy y in, add, copy z out; for
// bfloat16 also widen both inputs to float32 and narrow the sum, as the kernel's Casts do). Both sides write a fresh
// output each call, as the bench's do (its page faults on both). The difference, staged - fused, is what performing
// the kernel's copies and passes costs on this CPU before the twin adds anything (checks, records, queues): with
// torch.add's time t, the bench's row can show at most t / (t + difference). One thread. Built by CMake
// (benchmarks/*.cpp), not a test; benchmarks/NOTES.md has its results.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "twin/kernel_types.h"
#include "vector_add_tiling.h"

using namespace ascend_ext;

namespace {

using Clock = std::chrono::steady_clock;

uint16_t Narrow(float f) { return ascend_twin::FloatToBf16Bits(f); }  // round to nearest even, as torch
float Widen(uint16_t b) { return ascend_twin::Bf16BitsToFloat(b); }

template <typename T>
void Fused(const T* x, const T* y, T* z, uint64_t n)
{
    if constexpr (sizeof(T) == 4) {
        for (uint64_t i = 0; i < n; ++i) z[i] = x[i] + y[i];
    } else {
        for (uint64_t i = 0; i < n; ++i) z[i] = Narrow(Widen(x[i]) + Widen(y[i]));
    }
}

// The kernel's data path per tile of `tile` elements (ComputeVectorAddTiling's tileCols), one core's share after
// another: the order of the cores does not change the traffic.
template <typename T>
void Staged(const T* x, const T* y, T* z, uint64_t n, uint64_t tile)
{
    thread_local std::vector<T> ubX, ubY, ubZ;
    thread_local std::vector<float> fx, fy, fz;
    ubX.resize(tile), ubY.resize(tile), ubZ.resize(tile), fx.resize(tile), fy.resize(tile), fz.resize(tile);
    for (uint64_t o = 0; o < n; o += tile) {
        const uint64_t w = std::min(tile, n - o);
        std::memcpy(ubX.data(), x + o, w * sizeof(T));  // MTE2
        std::memcpy(ubY.data(), y + o, w * sizeof(T));
        if constexpr (sizeof(T) == 4) {
            for (uint64_t i = 0; i < w; ++i) ubZ[i] = ubX[i] + ubY[i];  // Add
        } else {
            for (uint64_t i = 0; i < w; ++i) fx[i] = Widen(ubX[i]);  // Cast
            for (uint64_t i = 0; i < w; ++i) fy[i] = Widen(ubY[i]);  // Cast
            for (uint64_t i = 0; i < w; ++i) fz[i] = fx[i] + fy[i];  // Add
            for (uint64_t i = 0; i < w; ++i) ubZ[i] = Narrow(fz[i]);  // Cast
        }
        std::memcpy(z + o, ubZ.data(), w * sizeof(T));  // MTE3
    }
}

template <typename T>
void Case(const char* name, DType dtype)
{
    const uint64_t n = uint64_t(1) << 24;
    const VectorAddPlan plan = ComputeVectorAddTiling(n, dtype, kAscend910B2);
    const uint64_t tile = plan.tiling.tileCols;
    std::vector<T> x(n), y(n);
    for (uint64_t i = 0; i < n; ++i) {
        const float a = static_cast<float>((i * 2654435761u) % 1000) / 100.0f - 5.0f;
        const float b = static_cast<float>((i * 40503u) % 1000) / 100.0f - 5.0f;
        if constexpr (sizeof(T) == 4) {
            x[i] = a, y[i] = b;
        } else {
            x[i] = Narrow(a), y[i] = Narrow(b);
        }
    }
    double best[2] = {1e30, 1e30};
    uint64_t check[2] = {0, 0};
    for (int round = 0; round < 15; ++round) {
        for (int side = 0; side < 2; ++side) {  // alternating, best of each
            const auto t0 = Clock::now();
            std::unique_ptr<T[]> z(new T[n]);  // a fresh output, as torch.add's and the twin's
            if (side == 0) {
                Fused(x.data(), y.data(), z.get(), n);
            } else {
                Staged(x.data(), y.data(), z.get(), n, tile);
            }
            uint64_t sum = 0;
            for (uint64_t i = 0; i < n; i += 4097) {
                T v = z[i];
                uint64_t bits = 0;
                std::memcpy(&bits, &v, sizeof v);
                sum += bits;
            }
            z.reset();
            best[side] = std::min(best[side], std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            check[side] = sum;
        }
    }
    std::printf("vector_add 2^24 %-8s tile %6llu: fused %6.2f ms, staged through UB %6.2f ms (+%.2f ms), ratio %.2f%s\n",
                name, static_cast<unsigned long long>(tile), best[0], best[1], best[1] - best[0], best[0] / best[1],
                check[0] == check[1] ? "" : "  (the two sums differ: a bug in this benchmark)");
}

}  // namespace

int main()
{
    Case<float>("float32", DType::kFloat32);
    Case<uint16_t>("bfloat16", DType::kBFloat16);
    return 0;
}
