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

// ---- DecodeVectorAddProblem: the op's operands -> the problem (the CPU adapter and the NPU TilingFunc) ----

namespace {
VectorAddOperands Operands(uint64_t n, bool hasY, uint64_t d, double scaleX = 1.0, double scaleY = 1.0,
                           double yValue = 0.0)
{
    VectorAddOperands o;
    o.fullElems = n;
    o.hasBcast = hasY;
    o.bcastElems = d;
    o.scaleX = scaleX;
    o.scaleY = scaleY;
    o.yValue = yValue;
    return o;
}
}  // namespace

TEST_CASE("decode: y with x's element count is one row of all of x")
{
    const VectorAddDecoded r = DecodeVectorAddProblem(Operands(1000, true, 1000, 1.0, 0.5));
    CHECK(r.error == nullptr);
    CHECK_EQ(r.problem.mode, kVectorAddRows);
    CHECK_EQ(r.problem.rows, 1u);
    CHECK_EQ(r.problem.rowLength, 1000u);
    CHECK_EQ(r.problem.scaleBcast, 0.5);
}

TEST_CASE("decode: y with a divisor of x's count is a row repeated over x, one element a GM scalar")
{
    VectorAddDecoded r = DecodeVectorAddProblem(Operands(6 * 128, true, 128, 2.0, 3.0));
    CHECK(r.error == nullptr);
    CHECK_EQ(r.problem.mode, kVectorAddRows);
    CHECK_EQ(r.problem.rows, 6u);
    CHECK_EQ(r.problem.rowLength, 128u);
    CHECK_EQ(r.problem.scaleFull, 2.0);
    CHECK_EQ(r.problem.scaleBcast, 3.0);
    r = DecodeVectorAddProblem(Operands(77, true, 1, 1.0, -2.0));
    CHECK_EQ(r.problem.mode, kVectorAddScalarGm);
    CHECK_EQ(r.problem.rows, 1u);
    CHECK_EQ(r.problem.rowLength, 77u);
    r = DecodeVectorAddProblem(Operands(1, true, 1));  // one element each: equal counts, one row
    CHECK_EQ(r.problem.mode, kVectorAddRows);
    CHECK_EQ(r.problem.rowLength, 1u);
}

TEST_CASE("decode: without y the number times scale_y rides in the tiling")
{
    const VectorAddDecoded r = DecodeVectorAddProblem(Operands(300, false, 0, 0.25, 4.0, 1.5));
    CHECK(r.error == nullptr);
    CHECK_EQ(r.problem.mode, kVectorAddScalarTiling);
    CHECK_EQ(r.problem.scalar, 6.0);
    CHECK_EQ(r.problem.scaleFull, 0.25);
    CHECK_EQ(r.problem.scaleBcast, 1.0);
    CHECK_EQ(r.problem.rowLength, 300u);
}

TEST_CASE("decode: a y that is no row of x is an error, never a plan")
{
    for (uint64_t d : {7ull, 0ull, 2000ull}) {
        const VectorAddDecoded r = DecodeVectorAddProblem(Operands(1000, true, d));
        CHECK(r.error != nullptr);
    }
    CHECK(DecodeVectorAddProblem(Operands(0, true, 0)).error == nullptr);  // empty: equal counts, no launch
}

TEST_MAIN()
