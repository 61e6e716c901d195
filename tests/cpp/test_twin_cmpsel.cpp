// Compare, Compares, Select (all three modes), Duplicate's mask forms and GetSystemCycle, against
// hand-computed references; the scratch rule of Select modes 1 and 2 and the Compare count rule.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "kernel_operator.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr int kY = 384;
constexpr float kSentinel = -7.0f;

// in = a[0..128) ++ b[0..128); out = y (kY floats) ++ the 96 bytes of bits.
void CmpSelKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, bb;
    pipe.InitBuffer(xb, 256 * sizeof(float));
    pipe.InitBuffer(yb, kY * sizeof(float));
    pipe.InitBuffer(bb, 96);
    GlobalTensor<float> inGm, outGm;
    GlobalTensor<uint8_t> bitsGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    bitsGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out) + kY * sizeof(float));
    LocalTensor<float> x = xb.Get<float>();
    LocalTensor<float> y = yb.Get<float>();
    LocalTensor<uint8_t> bits = bb.Get<uint8_t>();
    LocalTensor<float> a = x, b = x[128];
    DataCopy(x, inGm, 256);
    Duplicate(y, kSentinel, 64, kY / 64, 1, 8);  // continuous-mask form over 6 repeats
    uint64_t zeros[2] = {0, 0};
    Duplicate(bits.ReinterpretCast<uint16_t>(), uint16_t(0), 48);
    Duplicate(bits.ReinterpretCast<uint16_t>(), uint16_t(0), zeros, 1, 1, 8);  // writes nothing
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Compare(bits, a, b, CMPMODE::LT, 128);                                  // bits[0..16)
    Compares(bits[32], a, 5.0f, CMPMODE::GE, 64);                           // bits[32..40)
    uint64_t ignored[2] = {1, 0};                                           // reserved on A2: all lanes
    Compare(bits[64], a, b, CMPMODE::EQ, ignored, 1, BinaryRepeatParams());  // bits[64..72)
    Select(y, bits, a, b, SELMODE::VSEL_CMPMASK_SPR, 128);                   // y[0..128): bits 0..63 twice
    Select(y[128], bits, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 128);       // y[128..256): bits 0..127
    Select(y[256], bits[32], a, 0.5f, SELMODE::VSEL_TENSOR_SCALAR_MODE, uint64_t(32), 1, BinaryRepeatParams());
    uint64_t odd[2] = {0xAAAAAAAAAAAAAAAAull, 0};
    Duplicate(y[320], 1.0f, odd, 1, 1, 8);  // odd lanes of y[320..384)
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, y, kY);
    DataCopy(bitsGm, bits, 96);
}

// Select mode 1 (or 0) with every byte of UB allocated, the scratch block included.
template <SELMODE mode>
void FullUbSelectKernel(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, rest;
    pipe.InitBuffer(xb, 1024);
    pipe.InitBuffer(rest, 192 * 1024 - 1024);
    LocalTensor<float> x = xb.Get<float>();
    Duplicate(x, 1.0f, 256);
    LocalTensor<uint8_t> sel = rest.Get<uint8_t>();
    Duplicate(sel.ReinterpretCast<uint16_t>(), uint16_t(0xffff), 64);
    PipeBarrier<PIPE_V>();
    if constexpr (mode == SELMODE::VSEL_TENSOR_SCALAR_MODE) {
        Select(x, sel, x, 2.0f, mode, 64);
    } else {
        Select(x, sel, x, x[64], mode, 64);
    }
}

void CompareTailKernel(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, bb;
    pipe.InitBuffer(xb, 1024);
    pipe.InitBuffer(bb, 64);
    LocalTensor<float> x = xb.Get<float>();
    Duplicate(x, 1.0f, 256);
    PipeBarrier<PIPE_V>();
    Compare(bb.Get<uint8_t>(), x, x[128], CMPMODE::LT, 100);  // 400 bytes: not whole repeats
}

void CompareInt32LtKernel(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, bb;
    pipe.InitBuffer(xb, 1024);
    pipe.InitBuffer(bb, 64);
    LocalTensor<int32_t> x = xb.Get<int32_t>();
    Duplicate(x, 1, 256);
    PipeBarrier<PIPE_V>();
    Compare(bb.Get<uint8_t>(), x, x[128], CMPMODE::LT, 64);  // int32_t compares with EQ only
}

std::string Violation(void (*kernel)(GM_ADDR, GM_ADDR))
{
    std::vector<uint8_t> in(64), out(64);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "cmpsel_fault";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(kernel);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size()}, {"out", out.data(), out.size()}};
    try {
        ascend_twin::Launch(spec);
    } catch (const ascend_twin::RuleViolation& e) {
        return e.call + ": " + e.rule;
    }
    return "";
}

bool Broke(void (*kernel)(GM_ADDR, GM_ADDR), const std::string& expected)
{
    const std::string got = Violation(kernel);
    if (got != expected) std::printf("  expected '%s', got '%s'\n", expected.c_str(), got.c_str());
    return got == expected;
}

bool Bit(const uint8_t* bits, int i) { return (bits[i / 8] >> (i % 8)) & 1; }

}  // namespace

TEST_CASE("Compare/Compares bits, Select modes 0/1/2, Duplicate mask forms")
{
    std::vector<float> in(256);
    for (int i = 0; i < 128; ++i) {
        in[i] = static_cast<float>(i % 11);        // a
        in[128 + i] = static_cast<float>(i % 7);   // b
    }
    std::vector<float> out(kY + 24, 0.0f);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "cmpsel_test";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&CmpSelKernel);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size() * sizeof(float)}, {"out", out.data(), out.size() * sizeof(float)}};
    const ascend_twin::LaunchStats stats = ascend_twin::Launch(spec);
    const float* a = in.data();
    const float* b = in.data() + 128;
    const float* y = out.data();
    uint8_t bits[96];
    std::memcpy(bits, out.data() + kY, 96);
    for (int i = 0; i < 128; ++i) CHECK_EQ(Bit(bits, i), a[i] < b[i]);
    for (int i = 0; i < 64; ++i) CHECK_EQ(Bit(bits + 32, i), a[i] >= 5.0f);
    for (int i = 0; i < 64; ++i) CHECK_EQ(Bit(bits + 64, i), a[i] == b[i]);  // the mask is ignored on A2
    for (int i = 0; i < 128; ++i) CHECK_EQ(y[i], Bit(bits, i % 64) ? a[i] : b[i]);
    for (int i = 0; i < 128; ++i) CHECK_EQ(y[128 + i], a[i] < b[i] ? a[i] : b[i]);
    for (int i = 0; i < 32; ++i) CHECK_EQ(y[256 + i], a[i] >= 5.0f ? a[i] : 0.5f);
    for (int i = 32; i < 64; ++i) CHECK_EQ(y[256 + i], kSentinel);
    for (int i = 0; i < 64; ++i) CHECK_EQ(y[320 + i], i % 2 ? 1.0f : kSentinel);
    const auto& c = stats.cores[0];
    CHECK_EQ(c.vecElementOps[static_cast<uint32_t>(ascend_twin::VecOp::kCompare)], 128ull + 64);
    CHECK_EQ(c.vecElementOps[static_cast<uint32_t>(ascend_twin::VecOp::kSelect)], 128ull + 128 + 32);
    CHECK_EQ(c.vecCalls[static_cast<uint32_t>(ascend_twin::VecOp::kCompareScalar)], 1ull);
}

TEST_CASE("Select modes 1 and 2 need the top 8 KiB of UB free; mode 0 does not")
{
    CHECK(Broke(&FullUbSelectKernel<SELMODE::VSEL_TENSOR_SCALAR_MODE>,
                "Select: Select modes 1 and 2 need the top 8 KiB of UB free (scratch at TMP_UB_OFFSET)"));
    CHECK(Broke(&FullUbSelectKernel<SELMODE::VSEL_TENSOR_TENSOR_MODE>,
                "Select: Select modes 1 and 2 need the top 8 KiB of UB free (scratch at TMP_UB_OFFSET)"));
    CHECK(Broke(&FullUbSelectKernel<SELMODE::VSEL_CMPMASK_SPR>, ""));
}

TEST_CASE("Compare: count of partial repeats, int32_t other than EQ")
{
    CHECK(Broke(&CompareTailKernel, "Compare: count elements fill whole 256-byte repeats"));
    CHECK(Broke(&CompareInt32LtKernel, "Compare: int32_t compares only with CMPMODE::EQ on A2"));
}

TEST_CASE("GetSystemCycle counts up (50 MHz ticks)")
{
    const int64_t t0 = GetSystemCycle();
    const int64_t t1 = GetSystemCycle();
    CHECK(t0 > 0);
    CHECK(t1 >= t0);
}

TEST_MAIN()
