// Properties every VectorAdd plan must have, over many lengths, dtypes and platforms.
#include "check.h"
#include "vector_add_tiling.h"

using namespace ascend_ext;

namespace {

const DType kDTypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kFloat64};

// Start and length of core i's share, as the kernel computes them.
void CoreRange(const VectorAddTilingData& t, uint64_t core, uint64_t& start, uint64_t& length)
{
    const uint64_t share = core < t.formerNum ? t.formerLength : t.tailLength;
    start = core < t.formerNum ? core * t.formerLength
                               : t.formerNum * t.formerLength + (core - t.formerNum) * t.tailLength;
    length = start >= t.totalLength ? 0 : (start + share > t.totalLength ? t.totalLength - start : share);
}

void CheckPlan(uint64_t n, DType dtype, const PlatformInfo& platform)
{
    const VectorAddPlan plan = ComputeVectorAddTiling(n, dtype, platform);
    const VectorAddTilingData& t = plan.tiling;
    CHECK_EQ(t.totalLength, n);
    if (n == 0) {
        CHECK_EQ(plan.blockDim, 0u);
        return;
    }
    CHECK(plan.blockDim >= 1 && plan.blockDim <= platform.aivNum);
    CHECK(t.formerNum < plan.blockDim);
    const uint64_t blockElems = 32 / DTypeSize(dtype);
    CHECK_EQ(t.formerLength % blockElems, 0ull);
    CHECK_EQ(t.tailLength % blockElems, 0ull);
    CHECK(t.tileLength > 0 && t.tileLength % 64 == 0);
    CHECK(plan.ubBytes <= UbUsable(platform));
    CHECK_EQ(plan.ubBytes, t.tileLength * VectorAddUbBytesPerElement(dtype));
    // The shares tile [0, n) exactly, in order, and no core is idle.
    uint64_t expectedStart = 0;
    for (uint64_t core = 0; core < plan.blockDim; ++core) {
        uint64_t start, length;
        CoreRange(t, core, start, length);
        CHECK_EQ(start, expectedStart);
        CHECK(length > 0);
        expectedStart = start + length;
    }
    CHECK_EQ(expectedStart, n);
}

}  // namespace

TEST_CASE("every plan covers its input exactly once with aligned shares")
{
    const uint64_t lengths[] = {1, 2, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 255, 256, 1000, 2047, 2048, 2049,
                                4095, 4096, 4097, 8191, 65536, 100003, 4096ull * 48 + 7, 1ull << 24,
                                (1ull << 24) + 1, (1ull << 31) + 5, (1ull << 40) + 3};
    for (const PlatformInfo* platform : kPlatforms) {
        for (DType dtype : kDTypes) {
            for (uint64_t n : lengths) CheckPlan(n, dtype, *platform);
            CheckPlan(0, dtype, *platform);
        }
    }
}

TEST_CASE("tiny inputs use one core, large inputs every vector core")
{
    CHECK_EQ(ComputeVectorAddTiling(1, DType::kFloat32, kAscend910B2).blockDim, 1u);
    CHECK_EQ(ComputeVectorAddTiling(31, DType::kFloat16, kAscend910B2).blockDim, 1u);
    CHECK_EQ(ComputeVectorAddTiling(2048, DType::kFloat32, kAscend910B2).blockDim, 1u);
    CHECK_EQ(ComputeVectorAddTiling(1u << 24, DType::kFloat32, kAscend910B2).blockDim, 48u);
    CHECK_EQ(ComputeVectorAddTiling(1u << 24, DType::kBFloat16, kAscend910B3).blockDim, 40u);
}

TEST_CASE("tiles fill the UB a kernel may use, double buffered")
{
    for (DType dtype : kDTypes) {
        const VectorAddPlan plan = ComputeVectorAddTiling(1ull << 26, dtype, kAscend910B2);
        const uint64_t perElement = VectorAddUbBytesPerElement(dtype);
        // One more aligned step of 64 elements would no longer fit.
        CHECK(plan.ubBytes + 64 * perElement > UbUsable(kAscend910B2));
    }
}

TEST_CASE("lengths past 2^32 keep 64-bit shares")
{
    const uint64_t n = (1ull << 33) + 17;
    const VectorAddPlan plan = ComputeVectorAddTiling(n, DType::kFloat16, kAscend910B2);
    CHECK(plan.tiling.formerLength > (1ull << 27));
    CheckPlan(n, DType::kFloat16, kAscend910B2);
}

TEST_MAIN()
