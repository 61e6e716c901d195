// The hazard detector shares one record among the UB blocks an access leaves alike. These cases check
// that a range meeting several records, or partly written blocks inside it, is reported exactly as a
// block-by-block walk reports it (the first offending block and byte), and that the record table stays
// correct when it is collected during a long kernel.
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "kernel_operator.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr uint32_t kFloats = 256;

// The violation a one-core launch reports ("" when it runs clean).
std::string Violation(void (*kernel)(GM_ADDR, GM_ADDR), std::vector<float>& in, std::vector<float>& out)
{
    ascend_twin::LaunchSpec spec;
    spec.kernel = "hazard_records";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(kernel);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size() * sizeof(float)}, {"out", out.data(), out.size() * sizeof(float)}};
    try {
        ascend_twin::Launch(spec);
    } catch (const ascend_twin::RuleViolation& e) {
        return e.what();
    }
    return "";
}

bool Contains(const std::string& text, const std::string& part)
{
    if (text.find(part) != std::string::npos) return true;
    std::printf("  expected '%s' in '%s'\n", part.c_str(), text.c_str());
    return false;
}

// Bytes [256, 384) of the operand are never written; whole written blocks lie on both sides.
void GapBetweenCopies(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 128 * sizeof(float));
    GlobalTensor<float> inGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in), kFloats);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, inGm, 64);
    DataCopy(t[96], inGm[96], 32);
    PipeBarrier<PIPE_ALL>();
    Add(t, t, t, 128);
}

// The block [160, 192) holds 3 written floats: the first unwritten byte is 172.
void PartlyWrittenBlock(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 1.0f, 40);
    Duplicate(t[40], 1.0f, 3);
    Duplicate(t[48], 1.0f, 16);
    Add(t, t, t, 64);
}

// The first half was copied in before the flag, the second after it: the conflict starts at byte 128.
void RaceInSecondHalf(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    GlobalTensor<float> inGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in), kFloats);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, inGm, 32);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    DataCopy(t[32], inGm[32], 32);
    Add(t, t, t, 64);
}

// The copy-out reads UB that V wrote in alternating blocks with and without a V -> MTE3 flag between.
void AlternatingWriters(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    GlobalTensor<float> outGm;
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), kFloats);
    LocalTensor<float> t = buf.Get<float>();
    for (uint32_t b = 0; b < 8; b += 2) Duplicate(t[b * 8], 2.0f, 8);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    for (uint32_t b = 1; b < 8; b += 2) Duplicate(t[b * 8], 3.0f, 8);
    DataCopy(outGm, t, 64);
}

// A long run of blocks with one record and, at block kOddBlock, one block written again with nothing ordering it
// before the copy out: the runs of eight equal blocks the walk skips must stop at it, wherever it lies in them.
constexpr uint32_t kLongFloats = 64 * 8;  // 64 blocks
template <uint32_t kOddBlock, bool ordered>
void OneOddBlockInLongRun(GM_ADDR in, GM_ADDR out)
{
    (void)in;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kLongFloats * sizeof(float));
    GlobalTensor<float> outGm;
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), kLongFloats);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 2.0f, kLongFloats);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    Duplicate(t[kOddBlock * 8], 3.0f, 8);
    if (ordered) {
        SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
    }
    DataCopy(outGm, t, kLongFloats);
}

// Many instructions over the same blocks, in an interleaved pattern: the record table is collected
// several times. Then everything is ordered and copied out (clean), or a never written block is read.
template <bool readUnwritten>
void LongKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 136 * sizeof(float));
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in), kFloats);
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), kFloats);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, inGm, 128);
    PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < 20000; ++i) {
        const uint32_t at = (i % 4) * 32;
        Adds(t[at], t[at], 1.0f, (i % 3) == 0 ? 32 : 24);
    }
    if constexpr (readUnwritten) {
        Add(t, t, t, 136);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm, t, 128);
}

}  // namespace

TEST_CASE("initcheck names the first unwritten byte between two written ranges")
{
    std::vector<float> in(kFloats, 1.0f), out(kFloats, 0.0f);
    const std::string v = Violation(GapBetweenCopies, in, out);
    CHECK(Contains(v, "operand 'src0' reads UB bytes [0, 512); byte 256 was never written"));
}

TEST_CASE("initcheck names the first unwritten byte of a partly written block")
{
    std::vector<float> in(kFloats, 1.0f), out(kFloats, 0.0f);
    const std::string v = Violation(PartlyWrittenBlock, in, out);
    CHECK(Contains(v, "reads UB bytes [0, 256); byte 172 was never written"));
}

TEST_CASE("a race in the second of two records is reported at its first block")
{
    std::vector<float> in(kFloats, 1.0f), out(kFloats, 0.0f);
    const std::string v = Violation(RaceInSecondHalf, in, out);
    CHECK(Contains(v, "RAW hazard: 'Add' on pipe V reads UB bytes [0, 256), which 'DataCopy(GM->UB)' on pipe MTE2"));
    CHECK(Contains(v, "first conflict in the block at UB offset 128"));
}

TEST_CASE("alternating records: the first unordered block is reported")
{
    std::vector<float> in(kFloats, 1.0f), out(kFloats, 0.0f);
    const std::string v = Violation(AlternatingWriters, in, out);
    CHECK(Contains(v, "RAW hazard: 'DataCopy(UB->GM)' on pipe MTE3 reads UB bytes [0, 256), which 'Duplicate'"));
    CHECK(Contains(v, "first conflict in the block at UB offset 32"));
}

template <uint32_t kOddBlock>
void CheckOddBlock()
{
    std::vector<float> in(kLongFloats, 0.0f), out(kLongFloats, 0.0f);
    const std::string v = Violation(OneOddBlockInLongRun<kOddBlock, false>, in, out);
    CHECK(Contains(v, "RAW hazard: 'DataCopy(UB->GM)' on pipe MTE3 reads UB bytes [0, 2048), which 'Duplicate'"));
    CHECK(Contains(v, "first conflict in the block at UB offset " + std::to_string(kOddBlock * 32) + ")"));
    const std::string clean = Violation(OneOddBlockInLongRun<kOddBlock, true>, in, out);
    CHECK(clean.empty());
    for (uint32_t i = 0; i < kLongFloats; ++i) CHECK_EQ(out[i], i / 8 == kOddBlock ? 3.0f : 2.0f);
}

TEST_CASE("a block of another record inside a long run is found at every lane of the eight-block steps")
{
    // The walk takes the first block alone, then steps of eight from block 1: these land on every lane of a
    // step, in the first and the last steps and in the tail after the last whole step.
    CheckOddBlock<1>();
    CheckOddBlock<4>();
    CheckOddBlock<5>();
    CheckOddBlock<8>();
    CheckOddBlock<9>();
    CheckOddBlock<14>();
    CheckOddBlock<15>();
    CheckOddBlock<22>();
    CheckOddBlock<62>();
    CheckOddBlock<63>();
}

TEST_CASE("records stay exact across collections of the record table")
{
    std::vector<float> in(kFloats), out(kFloats, 0.0f);
    for (uint32_t i = 0; i < kFloats; ++i) in[i] = static_cast<float>(i);
    const std::string clean = Violation(LongKernel<false>, in, out);
    CHECK(clean.empty());
    if (!clean.empty()) std::printf("  %s\n", clean.c_str());
    for (uint32_t i = 0; i < 128; ++i) {
        const uint32_t quarter = i / 32, lane = i % 32;
        uint32_t adds = 0;
        for (uint32_t k = quarter; k < 20000; k += 4) adds += ((k % 3) == 0 || lane < 24) ? 1 : 0;
        CHECK_EQ(out[i], in[i] + static_cast<float>(adds));
    }
    const std::string v = Violation(LongKernel<true>, in, out);
    CHECK(Contains(v, "reads UB bytes [0, 544); byte 512 was never written"));
}

TEST_MAIN()
