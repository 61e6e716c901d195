// The cores' GM records as the cross-core checks read them (twin/src/core_records.h, twin/src/launch.cpp).
// - A core's reads of rows with gaps between them (a DataCopy of several blocks `srcStride` apart, a cube operand's
//   tile read row by row) are one strided record (GmRead). The checks must see exactly the rows: a write by another
//   core into a row read in the same launch with nothing ordering the two is a race, a write into a gap between the
//   rows, or before the first or after the last, is not.
// - The cores' writes are put in address order once for the checks (each core's, then merged): a core writing its
//   blocks in any order must still have an overlap with another core's found.
// Each planted kernel has a counterpart that must run clean and copy the right numbers.
#include <cstdlib>
#include <string>
#include <vector>

#include "check.h"
#include "kernel_operator.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

const bool kOneThread = [] { return setenv("ASCEND_TWIN_THREADS", "1", 1) == 0; }();

constexpr uint32_t kRows = 4, kCols = 16;  // y: 4 rows of 16 floats (64 bytes each)

using Kernel = void (*)(GM_ADDR, GM_ADDR, GM_ADDR);

// Runs kernel(x, y, z) on `cores` cores; returns "rule | detail" of the violation, "" when it ran clean.
std::string Run(Kernel kernel, std::vector<float>& x, std::vector<float>& y, std::vector<float>& z,
                uint32_t cores = 2)
{
    ascend_twin::LaunchSpec spec;
    spec.kernel = "gm_records";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(kernel);
    spec.blockDim = cores;
    spec.args = {{"x", x.data(), x.size() * 4}, {"y", y.data(), y.size() * 4}, {"z", z.data(), z.size() * 4}};
    try {
        ascend_twin::Launch(spec);
    } catch (const ascend_twin::RuleViolation& e) {
        return e.rule + " | " + e.what();
    }
    return "";
}

bool Clean(const std::string& got)
{
    if (got.empty()) return true;
    std::printf("  expected no violation, got '%s'\n", got.c_str());
    return false;
}

bool Has(const std::string& got, const std::string& part)
{
    if (got.find(part) != std::string::npos) return true;
    std::printf("  expected a violation with '%s', got '%s'\n", part.c_str(), got.c_str());
    return false;
}

// Core 0 copies x[0..8) over y[writeAt, writeAt + 8); core 1, with nothing ordering it after core 0, reads columns
// [col0, col0 + 8) of y's 4 rows in one DataCopy (4 blocks of 32 bytes, one block of gap between them: rows 64 bytes
// apart) and copies them out to z[0..32).
template <uint32_t col0, uint32_t writeAt>
void ReadRowsWhileAnotherCoreWrites(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), 8);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), kRows * kCols);
    zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), kRows * 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kRows * 32);
    LocalTensor<float> t = buf.Get<float>();
    if (GetBlockIdx() == 0) {
        DataCopy(t, xGm, 8);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm[writeAt], t, 8);
    } else {
        DataCopy(t, yGm[col0], DataCopyParams(kRows, 1, 1, 0));
        PipeBarrier<PIPE_ALL>();
        DataCopy(zGm, t, kRows * 8);
    }
    PipeBarrier<PIPE_ALL>();
}

// Runs ReadRowsWhileAnotherCoreWrites<col0, writeAt>: "" when clean (z then checked against y's rows), else the
// violation.
template <uint32_t col0, uint32_t writeAt>
std::string ReadRows()
{
    std::vector<float> x(8), y(kRows * kCols), z(kRows * 8, -1.0f);
    std::uniform_real_distribution<float> d(-8.0f, 8.0f);
    for (float& v : x) v = d(check::Rng());
    for (float& v : y) v = d(check::Rng());
    const std::vector<float> before = y;
    const std::string got = Run(&ReadRowsWhileAnotherCoreWrites<col0, writeAt>, x, y, z);
    if (got.empty()) {  // core 1 read none of the bytes core 0 wrote: its rows as they were
        for (uint32_t r = 0; r < kRows; ++r) {
            for (uint32_t c = 0; c < 8; ++c) CHECK_EQ(z[r * 8 + c], before[r * kCols + col0 + c]);
        }
        for (uint32_t i = 0; i < 8; ++i) CHECK_EQ(y[writeAt + i], x[i]);
    }
    return got;
}

const std::string kRace = "a core reads GM another core writes in the same launch only after SyncAll";

constexpr uint32_t kChunks = 5;  // each core's 8-float chunks of y

// Core i writes its kChunks chunks of 8 floats, chunk j (x[(i * kChunks + j) * 8, + 8)) at y[(j * cores + i) * 8], last
// chunk first: the cores' chunks interleave, each core's in descending address order. The core `strayCore` then writes
// its first chunk once more, over the chunk 2 of the core after it (of core 0 for the last core: its chunk 3).
template <uint32_t strayCore>
void WriteChunksBackwards(GM_ADDR x, GM_ADDR y, GM_ADDR)
{
    const uint32_t core = static_cast<uint32_t>(GetBlockIdx()), cores = static_cast<uint32_t>(GetBlockNum());
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), cores * kChunks * 8);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), (cores * kChunks + 1) * 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kChunks * 32);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm[core * kChunks * 8], kChunks * 8);
    PipeBarrier<PIPE_ALL>();
    for (uint32_t j = kChunks; j-- > 0;) DataCopy(yGm[(j * cores + core) * 8], t[j * 8], 8);
    if (core == strayCore) DataCopy(yGm[(2 * cores + core + 1) * 8], t, 8);  // over the next core's chunk 2
    PipeBarrier<PIPE_ALL>();
}

}  // namespace

TEST_CASE("a write into one of the rows another core reads with a strided DataCopy is a race, named by its bytes")
{
    CHECK(Has(ReadRows<0, 1 * kCols>(), kRace));  // the second row
    CHECK(Has(ReadRows<0, 1 * kCols>(), "core 1 read bytes [64, 96) of GM buffer 'y', which core 0 wrote"));
    CHECK(Has(ReadRows<8, 3 * kCols + 8>(), "bytes [224, 256) of GM buffer 'y'"));  // the last row
    CHECK(Has(ReadRows<0, 0>(), "bytes [0, 32) of GM buffer 'y'"));                 // the first row
    CHECK(Has(ReadRows<8, 2 * kCols + 4>(), "bytes [160, 176) of GM buffer 'y'"));  // half in a row, half in a gap
}

TEST_CASE("a write into the gaps between the rows, before the first or after the last, is not read")
{
    CHECK(Clean(ReadRows<8, 1 * kCols>()));      // the gap between rows 0 and 1
    CHECK(Clean(ReadRows<0, 2 * kCols + 8>()));  // the gap between rows 2 and 3
    CHECK(Clean(ReadRows<8, 0>()));              // before the first row
    CHECK(Clean(ReadRows<0, 3 * kCols + 8>()));  // after the last row
}

TEST_CASE("cores writing their chunks in descending order, interleaved with each other's: an overlap is found")
{
    for (uint32_t cores : {2u, 3u, 5u, 8u}) {
        std::vector<float> x(cores * kChunks * 8), y((cores * kChunks + 1) * 8, -3.0f), z(8);
        std::uniform_real_distribution<float> d(-8.0f, 8.0f);
        for (float& v : x) v = d(check::Rng());
        CHECK(Clean(Run(&WriteChunksBackwards<0xffffffffu>, x, y, z, cores)));
        for (uint32_t core = 0; core < cores; ++core) {
            for (uint32_t j = 0; j < kChunks; ++j) {
                const uint32_t at = (j * cores + core) * 8, from = (core * kChunks + j) * 8;
                for (uint32_t e = 0; e < 8; ++e) CHECK_EQ(y[at + e], x[from + e]);
            }
        }
        for (uint32_t stray : {0u, cores - 1}) {
            const std::string got = stray == 0 ? Run(&WriteChunksBackwards<0>, x, y, z, cores)
                                               : (cores == 2 ? Run(&WriteChunksBackwards<1>, x, y, z, cores)
                                                  : cores == 3 ? Run(&WriteChunksBackwards<2>, x, y, z, cores)
                                                  : cores == 5 ? Run(&WriteChunksBackwards<4>, x, y, z, cores)
                                                               : Run(&WriteChunksBackwards<7>, x, y, z, cores));
            CHECK(Has(got, "no two cores write the same GM bytes"));
        }
    }
}

TEST_MAIN()
