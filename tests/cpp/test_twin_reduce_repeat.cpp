// The reductions' mask/repeat forms (WholeReduce*, BlockReduce*, PairReduceSum, ReduceRepeat/DataBlock/
// PairElem) and ReduceMax/ReduceMin/ReduceSum with their work tensor, against hand-computed references.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "kernel_operator.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr int kIn = 512;   // floats copied in (x)
constexpr int kOut = 256;  // floats copied out (y), filled with kSentinel first
constexpr float kSentinel = -7.0f;

using Body = void (*)(const LocalTensor<float>& x, const LocalTensor<float>& y, const LocalTensor<float>& work);

// x = in[0, copyIn), y = kSentinel, then body(x, y, work), then out = y.
template <Body body, int copyIn = kIn>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, wb;
    pipe.InitBuffer(xb, kIn * sizeof(float));
    pipe.InitBuffer(yb, kOut * sizeof(float));
    pipe.InitBuffer(wb, 64 * sizeof(float));
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> x = xb.Get<float>();
    LocalTensor<float> y = yb.Get<float>();
    DataCopy(x, inGm, copyIn);
    Duplicate(y, kSentinel, kOut);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    body(x, y, wb.Get<float>());
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, y, kOut);
}

struct Result {
    std::vector<float> out;
    ascend_twin::LaunchStats stats;
};

Result Run(void (*kernel)(GM_ADDR, GM_ADDR), std::vector<float> in)
{
    in.resize(kIn, 0.0f);
    Result r;
    r.out.assign(kOut, 0.0f);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "reduce_repeat_test";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(kernel);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size() * sizeof(float)}, {"out", r.out.data(), r.out.size() * sizeof(float)}};
    r.stats = ascend_twin::Launch(spec);
    return r;
}

// The rule a launch broke ("" when it ran clean).
std::string Violation(void (*kernel)(GM_ADDR, GM_ADDR))
{
    try {
        Run(kernel, {});
    } catch (const ascend_twin::RuleViolation& e) {
        return e.call + ": " + e.rule;
    }
    return "";
}

// The launch broke exactly `expected` ("call: rule"; "" = ran clean).
bool Broke(void (*kernel)(GM_ADDR, GM_ADDR), const std::string& expected)
{
    const std::string got = Violation(kernel);
    if (got != expected) std::printf("  expected '%s', got '%s'\n", expected.c_str(), got.c_str());
    return got == expected;
}

uint32_t Bits(float f)
{
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

uint64_t Ops(const Result& r, ascend_twin::VecOp op) { return r.stats.cores[0].vecElementOps[static_cast<uint32_t>(op)]; }

// ---- bodies -----------------------------------------------------------------------------------------

void WholeSumBody(const LocalTensor<float>& x, const LocalTensor<float>& y, const LocalTensor<float>&)
{
    WholeReduceSum(y, x, 64, 2, 1, 1, 8);  // y[0], y[1]: sums of repeats 0 and 1
    uint64_t lanes03[2] = {0xF, 0};
    WholeReduceSum(y[8], x, lanes03, 2, 2, 1, 8);  // y[8], y[10]: lanes 0..3 of each repeat
}

// RepeatReduceSum (the deprecated name RmsNorm's A2 implementation calls): WholeReduceSum's continuous-mask form; its
// dstBlkStride is ignored.
void RepeatSumBody(const LocalTensor<float>& x, const LocalTensor<float>& y, const LocalTensor<float>&)
{
    RepeatReduceSum(y, x, 2, 64, 5, 1, 1, 8);  // y[0], y[1]
    RepeatReduceSum<float>(y[8], x, 2, 4, 0, 1, 2, 8);  // y[8], y[10]: lanes 0..3 of each repeat
}

void WholeExtremeBody(const LocalTensor<float>& x, const LocalTensor<float>& y, const LocalTensor<float>&)
{
    WholeReduceMax(y, x, 64, 2, 1, 1, 8);                                        // y[0..3]
    WholeReduceMin(y[8], x, 64, 1, 1, 1, 8, ReduceOrder::ORDER_INDEX_VALUE);    // y[8..9]
    WholeReduceMax(y[16], x, 64, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);    // y[16..17]
    uint64_t all[2] = {~0ull, 0};
    WholeReduceMax(y[24], x, all, 2, 2, 1, 8, ReduceOrder::ORDER_ONLY_INDEX);   // y[24], y[26]
    ReduceRepeat<ReduceType::MIN, float, float>(y[32], x[64], 64, 1, 1, 1, 8);  // y[32..33]
}

void BlockBody(const LocalTensor<float>& x, const LocalTensor<float>& y, const LocalTensor<float>&)
{
    BlockReduceSum(y, x, 2, 64, 1, 1, 8);   // y[0..15]
    BlockReduceMax(y[16], x, 1, 32, 1, 1, 8);  // y[16..19]; blocks 4..7 inactive: y[20..23] untouched
    uint64_t odd[2] = {0x2, 0};
    ReduceDataBlock<ReduceType::MIN, float, float>(y[24], x, odd, 1, 1, 1, 8);  // y[24] = x[1]
    uint64_t pairs[2] = {0x7, 0};  // lanes 0, 1, 2: pair 0 whole, pair 1 half, pairs 2.. inactive
    PairReduceSum(y[32], x, 1, pairs, 1, 1, 8);  // y[32], y[33]
    ReducePairElem<ReduceType::SUM, float, float>(y[64], x, 64, 2, 1, 1, 8);  // y[64..95]
}

void ReduceMaxCountBody(const LocalTensor<float>& x, const LocalTensor<float>& y, const LocalTensor<float>& w)
{
    ReduceMax(y, x, w, 150, true);        // y[0..1]
    ReduceMin(y[8], x, w, 150, false);    // y[8]
    ReduceMax(y[16], x, w, 20, true);     // within one repeat: y[16..17]
    uint64_t full[2] = {~0ull, 0};
    ReduceMin(y[24], x, w, full, 3, 8, true);  // y[24..25], a mask form
    ReduceMax(y[32], x, w, 32, 3, 16, true);   // first 32 lanes of repeats at 0, 128, 256
}

void ReduceSumMaskBody(const LocalTensor<float>& x, const LocalTensor<float>& y, const LocalTensor<float>& w)
{
    ReduceSum(y, x, w, 64, 3, 8);  // 192 elements, mode 2
    uint64_t lanes[2] = {0x1, 0};
    ReduceSum(y[8], x, w, lanes, 3, 8);  // x[0] + x[64] + x[128]
}

// Masked-off lanes are not read: only 8 floats were copied in, a mask of 8 reads only them.
void MaskedInitBody(const LocalTensor<float>& x, const LocalTensor<float>& y, const LocalTensor<float>&)
{
    WholeReduceSum(y, x, 8, 1, 1, 1, 8);
}
void UnmaskedInitBody(const LocalTensor<float>& x, const LocalTensor<float>& y, const LocalTensor<float>&)
{
    WholeReduceSum(y, x, 9, 1, 1, 1, 8);
}

// Planted faults.
void WorkTooSmallBody(const LocalTensor<float>& x, const LocalTensor<float>& y, const LocalTensor<float>& w)
{
    ReduceMax(y, x, w[56], 512, true);  // 8 floats of work; 8 repeats with index need 16 + 8
}
void WholeMaxMisalignedBody(const LocalTensor<float>& x, const LocalTensor<float>& y, const LocalTensor<float>&)
{
    WholeReduceMax(y[1], x, 64, 1, 1, 1, 8);  // [value, index] of float needs 8-byte alignment
}
void BlockMisalignedBody(const LocalTensor<float>& x, const LocalTensor<float>& y, const LocalTensor<float>&)
{
    BlockReduceSum(y[4], x, 1, 64, 1, 1, 8);  // float dst needs 32-byte alignment
}
void RepeatTooLargeBody(const LocalTensor<float>& x, const LocalTensor<float>& y, const LocalTensor<float>&)
{
    WholeReduceSum(y, x, 64, 256, 0, 1, 0);
}
void DstTooSmallBody(const LocalTensor<float>& x, const LocalTensor<float>& y, const LocalTensor<float>&)
{
    PairReduceSum(y[224], x, 2, 64, 1, 1, 8);  // the second repeat's 32 results end past y
}

// half: the index is stored as the 16 bits of a half. x = 1.0 everywhere, 3.0 at lane 100 and 120.
void HalfIndexKernel(GM_ADDR, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb;
    pipe.InitBuffer(xb, 128 * sizeof(half));
    pipe.InitBuffer(yb, 16 * sizeof(half));
    GlobalTensor<half> outGm;
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(out));
    LocalTensor<half> x = xb.Get<half>();
    LocalTensor<half> y = yb.Get<half>();
    Duplicate(x, half(1.0f), 128);
    Duplicate(y, half(0.0f), 16);
    PipeBarrier<PIPE_ALL>();
    x.SetValue(100, half(3.0f));
    x.SetValue(120, half(3.0f));
    PipeBarrier<PIPE_ALL>();
    WholeReduceMax(y, x, 128, 1, 1, 1, 8);
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm, y, 16);
}

}  // namespace

TEST_CASE("WholeReduceSum: one binary-tree sum per repeat, bitwise mask, dst stride")
{
    std::vector<float> in(128, 1.0f);
    in[0] = 16777216.0f;  // 2^24: the tree loses the lane-1 one once (see test_twin_reduce_unary)
    in[64] = 3.0f;
    const Result r = Run(&Kernel<WholeSumBody>, in);
    CHECK_EQ(r.out[0], 16777216.0f + 62.0f);
    CHECK_EQ(r.out[1], 66.0f);
    CHECK_EQ(r.out[8], 16777218.0f);  // (2^24 + 1) rounds to 2^24 (ties to even), (1 + 1) = 2, then 2^24 + 2
    CHECK_EQ(r.out[9], kSentinel);
    CHECK_EQ(r.out[10], 6.0f);
    CHECK_EQ(Ops(r, ascend_twin::VecOp::kWholeReduceSum), 128ull + 8);
}

void EightSumsBody(const LocalTensor<float>& x, const LocalTensor<float>& y, const LocalTensor<float>&)
{
    WholeReduceSum(y, x, 64, 8, 1, 1, 8);  // y[0..7]: the 8 full repeats of x (the twin's vectorised path)
    uint64_t all[2] = {~0ull, 0};
    WholeReduceSum(y[8], x, all, 4, 1, 1, 16);  // y[8..11]: repeats 0, 2, 4, 6 (the bitwise mask, full)
    WholeReduceSum(y[16], x, 64, 2, 1, 2, 16);  // y[16..17]: every other block (the lane by lane path)
}

TEST_CASE("WholeReduceSum over random full repeats: the adjacent-pair tree, bit for bit")
{
    // Values of mixed signs over 2^-20..2^20, so that a different pairing changes the rounded sum; the reference is
    // the tree computed here (a[2i] + a[2i+1], level by level, in float). Full repeats take the twin's vector path,
    // a block stride of 2 its lane by lane path.
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> mant(-1.0f, 1.0f);
    std::uniform_int_distribution<int> expo(-20, 20);
    auto tree = [](std::vector<float> l) {
        for (size_t width = l.size(); width > 1; width /= 2) {
            for (size_t i = 0; i < width / 2; ++i) l[i] = l[2 * i] + l[2 * i + 1];
        }
        return l[0];
    };
    for (int round = 0; round < 20; ++round) {
        std::vector<float> in(kIn);
        for (float& v : in) v = std::ldexp(mant(rng), expo(rng));
        const Result r = Run(&Kernel<EightSumsBody>, in);
        int wrong = 0;
        for (int rep = 0; rep < 8; ++rep) {
            const float want = tree(std::vector<float>(in.begin() + 64 * rep, in.begin() + 64 * rep + 64));
            wrong += Bits(r.out[rep]) != Bits(want);
            if (rep % 2 == 0) wrong += Bits(r.out[8 + rep / 2]) != Bits(want);
        }
        for (int rep = 0; rep < 2; ++rep) {  // blocks 0, 2, 4, ... 14 of repeat rep (16 blocks apart)
            std::vector<float> lanes;
            for (int b = 0; b < 8; ++b) {
                for (int k = 0; k < 8; ++k) lanes.push_back(in[128 * rep + 16 * b + k]);
            }
            wrong += Bits(r.out[16 + rep]) != Bits(tree(lanes));
        }
        CHECK_EQ(wrong, 0);
    }
}

TEST_CASE("RepeatReduceSum: WholeReduceSum's sums, dstBlkStride ignored")
{
    std::vector<float> in(128, 1.0f);
    in[64] = 3.0f;
    const Result r = Run(&Kernel<RepeatSumBody>, in);
    CHECK_EQ(r.out[0], 64.0f);
    CHECK_EQ(r.out[1], 66.0f);
    CHECK_EQ(r.out[8], 4.0f);
    CHECK_EQ(r.out[9], kSentinel);
    CHECK_EQ(r.out[10], 6.0f);
}

TEST_CASE("WholeReduceMax/Min: value and first lane index in every ReduceOrder; ReduceRepeat<MIN>")
{
    std::vector<float> in(128);
    for (int i = 0; i < 64; ++i) in[i] = 0.5f * i;
    in[37] = in[50] = 100.0f;  // a tie: the first lane wins
    in[20] = -3.0f;
    for (int j = 0; j < 64; ++j) in[64 + j] = -static_cast<float>(j);
    in[64 + 5] = 50.0f;
    const Result r = Run(&Kernel<WholeExtremeBody>, in);
    CHECK_EQ(r.out[0], 100.0f);
    CHECK_EQ(Bits(r.out[1]), 37u);
    CHECK_EQ(r.out[2], 50.0f);
    CHECK_EQ(Bits(r.out[3]), 5u);
    CHECK_EQ(Bits(r.out[8]), 20u);  // ORDER_INDEX_VALUE: [index, value]
    CHECK_EQ(r.out[9], -3.0f);
    CHECK_EQ(r.out[16], 100.0f);  // ORDER_ONLY_VALUE: one element per repeat
    CHECK_EQ(r.out[17], 50.0f);
    CHECK_EQ(r.out[18], kSentinel);
    CHECK_EQ(Bits(r.out[24]), 37u);  // ORDER_ONLY_INDEX: a uint32_t per repeat, dstRepStride 2
    CHECK_EQ(r.out[25], kSentinel);
    CHECK_EQ(Bits(r.out[26]), 5u);
    CHECK_EQ(r.out[32], -63.0f);
    CHECK_EQ(Bits(r.out[33]), 63u);
    CHECK_EQ(Ops(r, ascend_twin::VecOp::kWholeReduceMax), 128ull * 3);
    CHECK_EQ(Ops(r, ascend_twin::VecOp::kWholeReduceMin), 64ull * 2);
}

TEST_CASE("BlockReduceSum/Max, ReduceDataBlock<MIN>, PairReduceSum, ReducePairElem: inactive blocks and pairs untouched")
{
    std::vector<float> in(128);
    for (int i = 0; i < 128; ++i) in[i] = static_cast<float>(i);
    const Result r = Run(&Kernel<BlockBody>, in);
    for (int b = 0; b < 16; ++b) CHECK_EQ(r.out[b], 8.0f * (8 * b) + 28.0f);
    for (int b = 0; b < 4; ++b) CHECK_EQ(r.out[16 + b], 8.0f * b + 7.0f);
    for (int b = 4; b < 8; ++b) CHECK_EQ(r.out[16 + b], kSentinel);
    CHECK_EQ(r.out[24], 1.0f);
    for (int b = 25; b < 32; ++b) CHECK_EQ(r.out[b], kSentinel);
    CHECK_EQ(r.out[32], 1.0f);
    CHECK_EQ(r.out[33], 2.0f);
    for (int p = 34; p < 64; ++p) CHECK_EQ(r.out[p], kSentinel);
    for (int rep = 0; rep < 2; ++rep) {
        for (int p = 0; p < 32; ++p) CHECK_EQ(r.out[64 + rep * 32 + p], in[rep * 64 + 2 * p] + in[rep * 64 + 2 * p + 1]);
    }
    CHECK_EQ(Ops(r, ascend_twin::VecOp::kBlockReduceSum), 128ull);
    CHECK_EQ(Ops(r, ascend_twin::VecOp::kPairReduceSum), 3ull + 128);
}

TEST_CASE("ReduceMax/ReduceMin: count form with tail, one-repeat count, mask forms; index = first extreme's element")
{
    std::vector<float> in(192, 0.0f);
    for (int i = 0; i < 150; ++i) in[i] = static_cast<float>(i % 17);
    in[140] = in[145] = 100.0f;  // in the tail of the count form (128..149), tied
    in[3] = -5.0f;
    in[170] = -9.0f;  // outside count 150, inside the 3-repeat mask form
    const Result r = Run(&Kernel<ReduceMaxCountBody>, in);
    CHECK_EQ(r.out[0], 100.0f);
    CHECK_EQ(Bits(r.out[1]), 140u);
    CHECK_EQ(r.out[8], -5.0f);
    CHECK_EQ(r.out[9], kSentinel);  // without calIndex only the value is written
    CHECK_EQ(r.out[16], 16.0f);
    CHECK_EQ(Bits(r.out[17]), 16u);
    CHECK_EQ(r.out[24], -9.0f);
    CHECK_EQ(Bits(r.out[25]), 170u);
    CHECK_EQ(r.out[32], 100.0f);  // lanes 0..31 of repeats at 0, 128, 256: 140 = 128 + 12
    CHECK_EQ(Bits(r.out[33]), 140u);
    CHECK_EQ(Ops(r, ascend_twin::VecOp::kReduceMax), 150ull + 20 + 96);
}

TEST_CASE("ReduceSum mask forms: binary tree per repeat, then over the repeats' sums (A2 mode 2)")
{
    std::vector<float> in(192, 1.0f);
    in[0] = 16777216.0f;
    const Result r = Run(&Kernel<ReduceSumMaskBody>, in);
    CHECK_EQ(r.out[0], 16777216.0f + 190.0f);  // repeats: 2^24 + 62, 64, 64; tree: (2^24 + 126) + 64
    CHECK_EQ(r.out[1], kSentinel);
    CHECK_EQ(r.out[8], 16777216.0f);  // 2^24, 1, 1: (2^24 + 1) -> 2^24, then 2^24 + 1 -> 2^24
}

TEST_CASE("masked-off lanes are not read (initcheck), active ones are")
{
    CHECK(Broke(&Kernel<MaskedInitBody, 8>, ""));
    const std::string v = Violation(&Kernel<UnmaskedInitBody, 8>);
    CHECK(v.rfind("WholeReduceSum", 0) == 0);
}

TEST_CASE("planted faults: work tensor too small, misaligned dst, repeatTime > 255, dst too small")
{
    CHECK(Broke(&Kernel<WorkTooSmallBody>, "ReduceMax: sharedTmpBuffer holds the documented work space"));
    CHECK(Broke(&Kernel<WholeMaxMisalignedBody>, "WholeReduceMax: operand start alignment as documented for the instruction"));
    CHECK(Broke(&Kernel<BlockMisalignedBody>, "BlockReduceSum: operand start alignment as documented for the instruction"));
    CHECK(Broke(&Kernel<RepeatTooLargeBody>, "WholeReduceSum: repeatTime within its documented range"));
    CHECK(Broke(&Kernel<DstTooSmallBody>, "PairReduceSum: UB accesses stay inside the LocalTensor"));
}

TEST_CASE("half: WholeReduceMax stores the index as the bits of a half")
{
    std::vector<uint16_t> out(16, 0);
    std::vector<uint8_t> in(32);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "half_index";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&HalfIndexKernel);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size()}, {"out", out.data(), out.size() * 2}};
    ascend_twin::Launch(spec);
    CHECK_EQ(out[0], 0x4200u);  // 3.0 as half
    CHECK_EQ(out[1], 100u);
}

TEST_MAIN()
