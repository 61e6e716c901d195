// Properties of the VectorAdd tiling: every output element belongs to exactly one core, tiles fit the UB
// and stay 32-byte aligned, the grid uses the cores it can, and B is read once per row group.
#include "check.h"
#include "vector_add_tiling.h"

using namespace ascend_ext;

namespace {

struct Range {
    uint64_t begin, end;
};

Range RowsOf(const VectorAddTilingData& t, uint64_t group)
{
    const uint64_t begin = group < t.rowFormerNum
                               ? group * t.rowsFormer
                               : t.rowFormerNum * t.rowsFormer + (group - t.rowFormerNum) * (t.rowsFormer - 1);
    return {begin, begin + (group < t.rowFormerNum ? t.rowsFormer : t.rowsFormer - 1)};
}

Range ColsOf(const VectorAddTilingData& t, uint64_t group)
{
    const uint64_t begin = group < t.colFormerNum
                               ? group * t.colsFormer
                               : t.colFormerNum * t.colsFormer + (group - t.colFormerNum) * t.colsTail;
    const uint64_t end = begin + (group < t.colFormerNum ? t.colsFormer : t.colsTail);
    return {begin, end < t.rowLength ? end : t.rowLength};
}

void CheckPlan(const VectorAddProblem& p, DType dtype, const PlatformInfo& platform)
{
    const VectorAddPlan plan = ComputeVectorAddTiling(p, dtype, platform);
    const VectorAddTilingData& t = plan.tiling;
    if (p.rows * p.rowLength == 0) {
        CHECK_EQ(plan.blockDim, 0u);
        return;
    }
    const uint64_t blockElems = platform.ubAlign / DTypeSize(dtype);
    CHECK(plan.blockDim >= 1 && plan.blockDim <= platform.aivNum);
    CHECK_EQ(plan.blockDim, t.rowGroups * t.colGroups);
    CHECK(plan.ubBytes <= UbUsable(platform));
    CHECK(t.tileRows >= 1 && t.tileRows <= kVectorAddMaxTileRows);
    CHECK(t.tileRows == 1 || t.tileCols == p.rowLength);  // multi-row tiles hold whole rows
    CHECK(t.tileRows > 1 || t.tileCols % 64 == 0 || t.tileCols == p.rowLength);
    if (t.colGroups > 1) {  // column groups start on 32-byte blocks, so no two cores share one
        CHECK_EQ(t.colsFormer % blockElems, 0ull);
        CHECK_EQ(t.colsTail % blockElems, 0ull);
    }
    // Rows and columns are each covered exactly once, in order, by the groups.
    uint64_t row = 0;
    for (uint64_t g = 0; g < t.rowGroups; ++g) {
        const Range r = RowsOf(t, g);
        CHECK_EQ(r.begin, row);
        CHECK(r.end > r.begin);
        row = r.end;
    }
    CHECK_EQ(row, p.rows);
    uint64_t col = 0;
    for (uint64_t g = 0; g < t.colGroups; ++g) {
        const Range c = ColsOf(t, g);
        CHECK_EQ(c.begin, col);
        CHECK(c.end > c.begin);
        col = c.end;
    }
    CHECK_EQ(col, p.rowLength);
    const uint64_t expectedBcast =
        p.mode == kVectorAddRows ? t.rowGroups * p.rowLength : (p.mode == kVectorAddScalarGm ? plan.blockDim : 0);
    CHECK_EQ(plan.bcastElemsRead, expectedBcast);
}

VectorAddProblem Rows(uint64_t rows, uint64_t d, VectorAddMode mode = kVectorAddRows)
{
    VectorAddProblem p;
    p.rows = rows;
    p.rowLength = d;
    p.mode = mode;
    return p;
}

}  // namespace

TEST_CASE("every element belongs to exactly one core, for every shape class and dtype")
{
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kFloat64}) {
        for (const PlatformInfo* platform : kPlatforms) {
            for (uint64_t rows : {1ull, 2ull, 3ull, 48ull, 1000ull, 1ull << 20}) {
                for (uint64_t d : {0ull, 1ull, 7ull, 8ull, 64ull, 128ull, 1000ull, 2049ull, 4096ull, 100000ull,
                                   3000000ull}) {
                    if (rows * d > (1ull << 33)) continue;
                    CheckPlan(Rows(rows, d), dtype, *platform);
                }
            }
            for (uint64_t n : {1ull, 31ull, 4096ull * 48 + 7, (1ull << 31) + 5}) {
                CheckPlan(Rows(1, n, kVectorAddScalarGm), dtype, *platform);
                CheckPlan(Rows(1, n, kVectorAddScalarTiling), dtype, *platform);
            }
        }
    }
}

TEST_CASE("short rows are packed many per tile and split over row groups")
{
    const VectorAddPlan plan = ComputeVectorAddTiling(Rows(1 << 20, 128), DType::kFloat32, kAscend910B2);
    CHECK_EQ(plan.blockDim, 48u);
    CHECK_EQ(plan.tiling.colGroups, 1u);
    CHECK(plan.tiling.tileRows >= 8);
    CHECK_EQ(plan.bcastElemsRead, 48ull * 128);
}

TEST_CASE("one long row is split over column groups")
{
    const VectorAddPlan plan = ComputeVectorAddTiling(Rows(1, 3000000), DType::kFloat32, kAscend910B2);
    CHECK_EQ(plan.blockDim, 48u);
    CHECK_EQ(plan.tiling.rowGroups, 1u);
    CHECK_EQ(plan.bcastElemsRead, 3000000ull);
}

TEST_CASE("small inputs stay on one core; bfloat16 and scaled float16 compute in float")
{
    CHECK_EQ(ComputeVectorAddTiling(Rows(3, 7), DType::kFloat32, kAscend910B2).blockDim, 1u);
    CHECK_EQ(ComputeVectorAddTiling(100, DType::kBFloat16, kAscend910B2).tiling.computeInFloat, 1u);
    CHECK_EQ(ComputeVectorAddTiling(100, DType::kFloat16, kAscend910B2).tiling.computeInFloat, 0u);
    VectorAddProblem scaled = Rows(1, 100);
    scaled.scaleBcast = 0.5;
    CHECK_EQ(ComputeVectorAddTiling(scaled, DType::kFloat16, kAscend910B2).tiling.computeInFloat, 1u);
    CHECK_EQ(ComputeVectorAddTiling(Rows(1, 100, kVectorAddScalarTiling), DType::kFloat16, kAscend910B2)
                 .tiling.computeInFloat,
             1u);
}

TEST_CASE("the tile fills the UB: one more 64-element step would not fit")
{
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
        const VectorAddPlan plan = ComputeVectorAddTiling(1ull << 24, dtype, kAscend910B2);
        const uint64_t perElement = VectorAddUbBytesPerElement(dtype, plan.tiling.computeInFloat != 0);
        CHECK(plan.ubBytes <= plan.tiling.tileCols * perElement);
        CHECK((plan.tiling.tileCols + 64) * perElement > UbUsable(kAscend910B2));
    }
}

TEST_CASE("sizes past 2^32 elements are planned with 64-bit arithmetic")
{
    const VectorAddPlan plan = ComputeVectorAddTiling((1ull << 33) + 3, DType::kFloat16, kAscend910B2);
    CHECK_EQ(plan.blockDim, 48u);
    CHECK(plan.tiling.colsFormer > (1ull << 27));
}

TEST_MAIN()
