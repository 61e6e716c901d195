// Properties of the DispersionCorrection tiling (forward and backward): every row belongs to exactly one
// row group of coresPerRow cores, in order; packed tiles hold whole rows and fit the UB with their
// statistics; rows that do not fit go multi-pass with a 64-element aligned chunk that fits; few long rows
// are split across cores, every core at least one chunk, the parts covering the row's chunks exactly; the
// plan's GM traffic is one read per input element (two in multi-pass) and one write, plus the workspace
// slots of split rows; sizes beyond 2^32 stay exact.
#include "check.h"
#include "dispersion_correction_tiling.h"

using namespace ascend_ext;

namespace {

uint64_t RowBegin(const DispersionCorrectionTilingData& t, uint64_t core)
{
    return core < t.rowFormerNum ? core * t.rowsFormer
                                 : t.rowFormerNum * t.rowsFormer + (core - t.rowFormerNum) * (t.rowsFormer - 1);
}

void CheckPlan(const DispersionCorrectionProblem& p, DType dtype, const PlatformInfo& platform)
{
    const DispersionCorrectionPlan plan = ComputeDispersionCorrectionTiling(p, dtype, platform);
    const DispersionCorrectionTilingData& t = plan.tiling;
    CHECK_EQ(t.readX, (!p.backward || p.mode == kDispersionNormalize) ? 1u : 0u);
    if (p.rows * p.rowLength == 0) {
        CHECK_EQ(plan.blockDim, 0u);
        return;
    }
    CHECK(plan.blockDim >= 1 && plan.blockDim <= platform.aivNum);
    CHECK(t.coresPerRow >= 1);
    CHECK_EQ(plan.blockDim % t.coresPerRow, 0u);
    const uint64_t groups = plan.blockDim / t.coresPerRow;
    CHECK(groups <= p.rows);
    CHECK(plan.ubBytes <= UbUsable(platform));
    // Packed float32 rows of at most 64 elements (one 256-byte repeat) also hold one 32-byte broadcast block per
    // row of the tile (rounded up to 8 rows).
    const bool shortRows = dtype == DType::kFloat32 && p.rowLength <= 64 && !t.multiPass;
    CHECK_EQ(plan.ubBytes,
             DispersionUbBytes(dtype, p.backward, t.readX, t.tileRows,
                               t.multiPass ? t.chunkLen : AlignUp(p.rowLength, platform.ubAlign / DTypeSize(dtype)),
                               platform.ubAlign) +
                 (shortRows ? (t.tileRows + 7) / 8 * 8 * 32 : 0));
    // Rows: covered exactly once, in order, every core non-empty.
    uint64_t row = 0;
    for (uint64_t core = 0; core < groups; ++core) {
        CHECK_EQ(RowBegin(t, core), row);
        const uint64_t count = core < t.rowFormerNum ? t.rowsFormer : t.rowsFormer - 1;
        CHECK(count >= 1);
        row += count;
    }
    CHECK_EQ(row, p.rows);
    const uint64_t blockElems = platform.ubAlign / DTypeSize(dtype);
    const uint64_t pitch = AlignUp(p.rowLength, blockElems);
    const bool fits =
        DispersionUbBytes(dtype, p.backward, t.readX, 1, pitch, platform.ubAlign, shortRows) <= UbUsable(platform);
    CHECK_EQ(t.multiPass, fits ? 0u : 1u);
    if (t.multiPass) {
        CHECK_EQ(t.tileRows, 1u);
        CHECK(t.chunkLen >= kDispersionChunkAlign && t.chunkLen % kDispersionChunkAlign == 0);
        CHECK(t.chunkLen < p.rowLength);
        // The chunk is the longest that fits: 64 more elements would not.
        CHECK(DispersionUbBytes(dtype, p.backward, t.readX, 1, t.chunkLen + kDispersionChunkAlign, platform.ubAlign) >
              UbUsable(platform));
    } else {
        CHECK_EQ(t.chunkLen, p.rowLength);
        CHECK(t.tileRows >= 1 && t.tileRows <= kDispersionMaxTileRows && t.tileRows <= t.rowsFormer);
        // As many rows as fit, unless capped by the core's rows or the DataCopyPad block count.
        if (t.tileRows < t.rowsFormer && t.tileRows < kDispersionMaxTileRows) {
            CHECK(DispersionUbBytes(dtype, p.backward, t.readX, t.tileRows + 1, pitch, platform.ubAlign, shortRows) >
                  UbUsable(platform));
        }
    }
    // Split exactly when rows are multi-pass and at most half the vector cores: coresPerRow = as many cores
    // as the rows leave each, but no more than the row's chunks; the parts cover the chunks in order.
    const uint64_t chunks = t.multiPass ? CeilDiv(p.rowLength, t.chunkLen) : 1;
    const bool split = t.multiPass && p.rows * 2 <= platform.aivNum;
    CHECK_EQ(t.coresPerRow, split ? std::min<uint64_t>(platform.aivNum / p.rows, chunks) : 1u);
    if (split) {
        CHECK(t.coresPerRow >= 2);
        CHECK_EQ(t.rowsFormer, 1u);
        CHECK_EQ(t.rowFormerNum, p.rows);
        uint64_t next = 0;
        for (uint32_t k = 0; k < t.coresPerRow; ++k) {
            const uint64_t count = k < t.partFormerNum ? t.partChunks : t.partChunks - 1;
            CHECK(count >= 1);
            next += count;
        }
        CHECK_EQ(next, chunks);
        // The row's partials pass through a chunk-sized work tile of the compute type.
        CHECK(static_cast<uint64_t>(t.chunkLen) * DispersionComputeSize(dtype) >= t.coresPerRow * kDispersionPartialBytes);
        CHECK_EQ(plan.workspaceBytes, plan.blockDim * uint64_t{kDispersionPartialBytes});
        CHECK_EQ(plan.gmWorkspaceBytesWritten, plan.workspaceBytes);
        CHECK_EQ(plan.gmWorkspaceBytesRead, plan.blockDim * t.coresPerRow * uint64_t{kDispersionPartialBytes});
    } else {
        CHECK_EQ(plan.workspaceBytes, 0u);
        CHECK_EQ(plan.gmWorkspaceBytesRead, 0u);
        CHECK_EQ(plan.gmWorkspaceBytesWritten, 0u);
    }
    const uint64_t inputs = p.backward ? (t.readX ? 2 : 1) : 1;
    CHECK_EQ(plan.gmElemsRead, p.rows * p.rowLength * inputs * (t.multiPass ? 2 : 1));
    CHECK_EQ(plan.gmElemsWritten, p.rows * p.rowLength);
}

}  // namespace

TEST_CASE("every row belongs to one row group, tiles fit, multi-pass exactly when a row does not fit: grid of shapes, dtypes, modes, platforms")
{
    const uint64_t ds[] = {1, 7, 8, 63, 64, 65, 1000, 4096, 7000, 7808, 7809, 9000, 100000, 3000000};
    const uint64_t rows[] = {0, 1, 3, 47, 48, 49, 10000, 1000003};
    for (const PlatformInfo* platform : kPlatforms) {
        for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kFloat64}) {
            for (uint64_t d : ds) {
                for (uint64_t r : rows) {
                    for (uint32_t mode : {0u, 1u}) {
                        for (bool backward : {false, true}) {
                            DispersionCorrectionProblem p;
                            p.rows = r;
                            p.rowLength = d;
                            p.mode = mode;
                            p.backward = backward;
                            CheckPlan(p, dtype, *platform);
                        }
                    }
                }
            }
        }
    }
}

TEST_CASE("alpha and eps reach the kernel in float and in double")
{
    DispersionCorrectionProblem p;
    p.rows = 2;
    p.rowLength = 5;
    p.alpha = 0.1;
    p.eps = 1e-7;
    const DispersionCorrectionPlan plan = ComputeDispersionCorrectionTiling(p, DType::kFloat32, kAscend910B2);
    CHECK(plan.tiling.alpha == 0.1f && plan.tiling.alpha64 == 0.1);
    CHECK(plan.tiling.eps == 1e-7f && plan.tiling.eps64 == 1e-7);
}

TEST_CASE("sizes beyond 32 bits stay exact")
{
    DispersionCorrectionProblem p;
    p.rows = (1ull << 31) + 5;
    p.rowLength = 3;
    const DispersionCorrectionPlan plan = ComputeDispersionCorrectionTiling(p, DType::kFloat16, kAscend910B2);
    CHECK_EQ(plan.blockDim, kAscend910B2.aivNum);
    CHECK_EQ(plan.gmElemsRead, p.rows * 3);
    CheckPlan(p, DType::kFloat16, kAscend910B2);
    p.rows = 3;
    p.rowLength = (1ull << 32) + 64;  // one row of 2^32 + 64 elements: multi-pass, chunk offsets in 64 bits
    const DispersionCorrectionPlan longRow = ComputeDispersionCorrectionTiling(p, DType::kFloat32, kAscend910B2);
    CHECK_EQ(longRow.tiling.multiPass, 1u);
    CHECK_EQ(longRow.gmElemsRead, 2 * 3 * p.rowLength);
    CHECK_EQ(longRow.tiling.coresPerRow, 16u);  // 3 rows share the 48 vector cores
    CheckPlan(p, DType::kFloat32, kAscend910B2);
}

TEST_CASE("few long rows are split across cores: rows = 1 and 3 with D = 3e6")
{
    DispersionCorrectionProblem p;
    p.rows = 1;
    p.rowLength = 3000000;
    DispersionCorrectionPlan plan = ComputeDispersionCorrectionTiling(p, DType::kFloat32, kAscend910B2);
    CHECK_EQ(plan.blockDim, 48u);
    CHECK_EQ(plan.tiling.coresPerRow, 48u);
    CHECK_EQ(plan.workspaceBytes, 48u * 64u);
    p.rows = 3;
    plan = ComputeDispersionCorrectionTiling(p, DType::kFloat32, kAscend910B3);
    CHECK_EQ(plan.blockDim, 39u);  // 40 vector cores: 13 per row
    CHECK_EQ(plan.tiling.coresPerRow, 13u);
    p.rows = 25;  // more than half the cores: one core per row
    plan = ComputeDispersionCorrectionTiling(p, DType::kFloat32, kAscend910B2);
    CHECK_EQ(plan.tiling.coresPerRow, 1u);
    CHECK_EQ(plan.blockDim, 25u);
}

TEST_CASE("the op's workspace: none unless split rows exchange partials, then the system part in front")
{
    constexpr uint64_t kSystem = 16ull << 20;  // GetLibApiWorkSpaceSize() on A2
    DispersionCorrectionProblem p;
    p.rows = 1000;
    p.rowLength = 512;
    const DispersionCorrectionPlan packed = ComputeDispersionCorrectionTiling(p, DType::kFloat32, kAscend910B2);
    CHECK_EQ(packed.workspaceBytes, 0u);
    CHECK_EQ(OpWorkspaceBytes(kSystem, false, packed.workspaceBytes), 0u);
    p.rows = 2;
    p.rowLength = 3000000;
    const DispersionCorrectionPlan split = ComputeDispersionCorrectionTiling(p, DType::kFloat32, kAscend910B2);
    CHECK(split.workspaceBytes > 0);
    // The op build's kernel wrapper passes workspace + RESERVED_WORKSPACE as the user workspace.
    CHECK_EQ(OpWorkspaceBytes(kSystem, false, split.workspaceBytes), kSystem + split.workspaceBytes);
    CHECK_EQ(OpWorkspaceBytes(kSystem, false, 0), 0u);      // vector_add: no API, no scratch
    CHECK_EQ(OpWorkspaceBytes(kSystem, true, 0), kSystem);  // matmul: the Matmul object's
}

// ---- DecodeDispersionCorrectionProblem: shape + attrs -> the problem (CPU adapter and NPU TilingFunc) ----

TEST_CASE("decode: rows along the last dimension, the attrs as given")
{
    const int64_t dims[3] = {4, 5, 6};
    const DispersionCorrectionDecoded r = DecodeDispersionCorrectionProblem(dims, 3, 0.75, 0, 1e-3, true);
    CHECK(r.error == nullptr);
    CHECK_EQ(r.problem.rows, 20u);
    CHECK_EQ(r.problem.rowLength, 6u);
    CHECK_EQ(r.problem.mode, static_cast<uint32_t>(kDispersionScale));
    CHECK_EQ(r.problem.alpha, 0.75);
    CHECK_EQ(r.problem.eps, 1e-3);
    CHECK(r.problem.backward);
    const int64_t emptyRows[2] = {0, 6};
    const DispersionCorrectionDecoded e = DecodeDispersionCorrectionProblem(emptyRows, 2, 1.0, 1, 1e-5, false);
    CHECK(e.error == nullptr);
    CHECK_EQ(e.problem.rows, 0u);
}

TEST_CASE("decode: no dimension, an empty or negative one, an unknown mode are errors")
{
    const int64_t dims[2] = {3, 4}, emptyRow[2] = {3, 0}, negative[2] = {-1, 4};
    CHECK(DecodeDispersionCorrectionProblem(dims, 0, 1.0, 1, 1e-5, false).error != nullptr);
    CHECK(DecodeDispersionCorrectionProblem(emptyRow, 2, 1.0, 1, 1e-5, false).error != nullptr);
    CHECK(DecodeDispersionCorrectionProblem(negative, 2, 1.0, 1, 1e-5, false).error != nullptr);
    CHECK(DecodeDispersionCorrectionProblem(dims, 2, 1.0, 2, 1e-5, false).error != nullptr);
    CHECK(DecodeDispersionCorrectionProblem(dims, 2, 1.0, -1, 1e-5, false).error != nullptr);
}

TEST_MAIN()
