// The count forms of the unary, binary-scalar and bitwise vector families against plain C++ references.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "check.h"
#include "kernel_operator.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr int kN = 16;
constexpr int kOps = 12;  // results per input element, see FloatFamilies

ascend_twin::LaunchStats Launch(void (*kernel)(GM_ADDR, GM_ADDR), void* in, uint64_t inBytes, void* out,
                                uint64_t outBytes)
{
    ascend_twin::LaunchSpec spec;
    spec.kernel = "vec_test";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(kernel);
    spec.blockDim = 1;
    spec.args = {{"in", in, inBytes}, {"out", out, outBytes}};
    return ascend_twin::Launch(spec);
}

// out[k * kN + i] = op_k(in[i]) for the float families.
void FloatFamilies(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> src, dst;
    pipe.InitBuffer(src, kN * sizeof(float));
    pipe.InitBuffer(dst, kOps * kN * sizeof(float));
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> x = src.Get<float>();
    LocalTensor<float> y = dst.Get<float>();
    DataCopy(x, inGm, kN);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Abs(y[0 * kN], x, kN);
    Exp(y[1 * kN], x, kN);
    Ln(y[2 * kN], y[0 * kN], kN);
    Sqrt(y[3 * kN], y[0 * kN], kN);
    Rsqrt(y[4 * kN], y[0 * kN], kN);
    Reciprocal(y[5 * kN], x, kN);
    Relu(y[6 * kN], x, kN);
    Maxs(y[7 * kN], x, 0.5f, kN);
    Mins(y[8 * kN], x, 0.5f, kN);
    LeakyRelu(y[9 * kN], x, 0.25f, kN);
    Duplicate(y[10 * kN], 3.0f, kN);
    Axpy(y[10 * kN], x, 2.0f, kN);
    Muls(y[11 * kN], x, -1.0f, kN);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, y, kOps * kN);
}

// out = [Not(a), And(a, b), Or(a, b)] over 16 int16 values; a in in[0..16), b in in[16..32).
void BitwiseFamilies(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> src, dst;
    pipe.InitBuffer(src, 2 * kN * sizeof(int16_t));
    pipe.InitBuffer(dst, 3 * kN * sizeof(int16_t));
    GlobalTensor<int16_t> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ int16_t*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ int16_t*>(out));
    LocalTensor<int16_t> ab = src.Get<int16_t>();
    LocalTensor<int16_t> r = dst.Get<int16_t>();
    DataCopy(ab, inGm, 2 * kN);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Not(r, ab, kN);
    And(r[kN], ab, ab[kN], kN);
    Or(r[2 * kN], ab, ab[kN], kN);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, r, 3 * kN);
}

// x = in[0..256) in UB, y = kOut floats of -1, body(x, y), out = y.
template <void (*body)(const LocalTensor<float>& x, const LocalTensor<float>& y), int kOut>
void InOut(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> src, dst;
    pipe.InitBuffer(src, 256 * sizeof(float));
    pipe.InitBuffer(dst, kOut * sizeof(float));
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> x = src.Get<float>();
    LocalTensor<float> y = dst.Get<float>();
    DataCopy(x, inGm, 256);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Duplicate(y, -1.0f, kOut);
    body(x, y);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, y, kOut);
}

// Mask/repeat forms over 256 floats: out[0..256) from five calls, see the test below.
void RepeatFormsBody(const LocalTensor<float>& x, const LocalTensor<float>& y)
{
    // Continuous mask 40, 2 repeats, default strides: elements 0..39 and 64..103.
    Add(y, x, x, 40, 2, BinaryRepeatParams(1, 1, 1, 8, 8, 8));
    // Bitwise mask, one repeat over elements 128..191: every other lane.
    uint64_t bits[2] = {0x5555555555555555ull, 0};
    Muls(y[128], x[128], 3.0f, bits, 1, UnaryRepeatParams(1, 1, 8, 8));
    // Counter mode: 20 elements from 192; dst blocks 2 apart (elements 192..199, 208..215, 224..227).
    SetMaskCount();
    uint64_t count[2] = {20, 0};
    Adds(y[192], x[192], 100.0f, count, 1, UnaryRepeatParams(2, 1, 8, 8));
    SetMaskNorm();
    ResetMask();
    // The mask register, set outside the call: lanes 0..3 of elements 240..255 (one block: 240..243).
    SetVectorMask<float>(0, 0xf);
    Abs<float, false>(y[240], x[240], MASK_PLACEHOLDER, 1, UnaryRepeatParams(1, 1, 8, 8));
    ResetMask();
}

// Whole repeats (64 lanes, block stride 1, repeat stride 8): out[0..256) = x * x + x, then out[256..384) =
// (x * x + x) - x over the first 2 repeats; out[384..512) a second operand of one block per repeat.
void WholeRepeatsBody(const LocalTensor<float>& x, const LocalTensor<float>& y)
{
    Mul(y, x, x, 64, 4, BinaryRepeatParams(1, 1, 1, 8, 8, 8));
    Add(y, y, x, 64, 4, BinaryRepeatParams(1, 1, 1, 8, 8, 8));  // in place
    Sub(y[256], y, x, 64, 2, BinaryRepeatParams(1, 1, 1, 8, 8, 8));
    // src1 one block read again (block stride 0), the next block each repeat: y[384 + 64r + k] = x[64r + k] + x[8 + 8r + k % 8]
    Add(y[384], x, x[8], 64, 2, BinaryRepeatParams(1, 1, 0, 8, 8, 1));
}

// Bug: 3 repeats of 64 floats run past a 128-float tensor.
void RepeatPastTheEnd(GM_ADDR in, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 128 * sizeof(float));
    LocalTensor<float> x = buf.Get<float>();
    Duplicate(x, 1.0f, 128);
    Add(x, x, x, 64, 3, BinaryRepeatParams(1, 1, 1, 8, 8, 8));
}

}  // namespace

TEST_CASE("mask/repeat forms: continuous and bitwise masks, block and repeat strides, counter mode, SetVectorMask")
{
    std::vector<float> in(256), out(256);
    for (int i = 0; i < 256; ++i) in[i] = (i % 2 ? -1.0f : 1.0f) * static_cast<float>(i);
    const ascend_twin::LaunchStats stats = Launch(&InOut<RepeatFormsBody, 256>, in.data(), 1024, out.data(), 1024);
    for (int i = 0; i < 128; ++i) {
        const bool on = (i % 64) < 40;
        CHECK_EQ(out[i], on ? in[i] * 2 : -1.0f);
    }
    for (int i = 128; i < 192; ++i) CHECK_EQ(out[i], (i % 2 == 0) ? in[i] * 3 : -1.0f);
    for (int i = 192; i < 240; ++i) {
        const int k = i - 192;  // dst lane k of block k / 8 sits at 16 * (k / 8) + k % 8
        const bool on = (k / 8) % 2 == 0 && (k / 16) * 8 + k % 8 < 20;
        CHECK_EQ(out[i], on ? in[192 + (k / 16) * 8 + k % 8] + 100.0f : -1.0f);
    }
    for (int i = 240; i < 256; ++i) CHECK_EQ(out[i], i < 244 ? std::fabs(in[i]) : -1.0f);
    const uint64_t* ops = stats.cores[0].vecElementOps;
    CHECK_EQ(ops[static_cast<uint32_t>(ascend_twin::VecOp::kAdd)], 80ull);
    CHECK_EQ(ops[static_cast<uint32_t>(ascend_twin::VecOp::kMuls)], 32ull);
    CHECK_EQ(ops[static_cast<uint32_t>(ascend_twin::VecOp::kAdds)], 20ull);
    CHECK_EQ(ops[static_cast<uint32_t>(ascend_twin::VecOp::kAbs)], 4ull);
}

TEST_CASE("whole repeats: every lane, in place too, and a block read again, as float arithmetic gives")
{
    std::vector<float> in(256), out(512);
    uint32_t state = 12345u + static_cast<uint32_t>(std::time(nullptr));
    for (float& v : in) {
        state = state * 1664525u + 1013904223u;
        v = static_cast<float>(static_cast<int32_t>(state >> 8) % 20000) / 997.0f;
    }
    const ascend_twin::LaunchStats stats = Launch(&InOut<WholeRepeatsBody, 512>, in.data(), 1024, out.data(), 2048);
    int wrong = 0;
    for (int i = 0; i < 256; ++i) {
        const float fma = in[i] * in[i] + in[i];  // float32 steps, as the instructions round
        wrong += out[i] != fma;
        if (i < 128) wrong += out[256 + i] != fma - in[i];
    }
    for (int i = 0; i < 128; ++i) wrong += out[384 + i] != in[i] + in[8 + 8 * (i / 64) + i % 8];
    CHECK_EQ(wrong, 0);
    const uint64_t* ops = stats.cores[0].vecElementOps;
    CHECK_EQ(ops[static_cast<uint32_t>(ascend_twin::VecOp::kMul)], 256ull);
    CHECK_EQ(ops[static_cast<uint32_t>(ascend_twin::VecOp::kAdd)], 256ull + 128);
    CHECK_EQ(ops[static_cast<uint32_t>(ascend_twin::VecOp::kSub)], 128ull);
}

TEST_CASE("a repeat past the operand's end is a violation")
{
    std::vector<float> in(8), out(8);
    std::string rule;
    try {
        Launch(&RepeatPastTheEnd, in.data(), 32, out.data(), 32);
    } catch (const ascend_twin::RuleViolation& e) {
        rule = e.rule + ": " + e.detail;
    }
    CHECK(rule.find("UB accesses stay inside the LocalTensor") != std::string::npos);
    CHECK(rule.find("repeat 2, lane 0 is element 128") != std::string::npos);
}

TEST_CASE("unary and binary-scalar float families match C++ references")
{
    std::vector<float> in(kN), out(kOps * kN);
    for (int i = 0; i < kN; ++i) in[i] = (i - 7.5f) * 0.375f;
    Launch(&FloatFamilies, in.data(), in.size() * 4, out.data(), out.size() * 4);
    for (int i = 0; i < kN; ++i) {
        const float x = in[i], a = std::fabs(x);
        CHECK_EQ(out[0 * kN + i], a);
        CHECK_EQ(out[1 * kN + i], std::exp(x));
        CHECK_EQ(out[2 * kN + i], std::log(a));
        CHECK_EQ(out[3 * kN + i], std::sqrt(a));
        CHECK_EQ(out[4 * kN + i], 1 / std::sqrt(a));
        CHECK_EQ(out[5 * kN + i], 1 / x);
        CHECK_EQ(out[6 * kN + i], x > 0 ? x : 0.0f);
        CHECK_EQ(out[7 * kN + i], x > 0.5f ? x : 0.5f);
        CHECK_EQ(out[8 * kN + i], x < 0.5f ? x : 0.5f);
        CHECK_EQ(out[9 * kN + i], x >= 0 ? x : x * 0.25f);
        CHECK_EQ(out[10 * kN + i], x * 2.0f + 3.0f);
        CHECK_EQ(out[11 * kN + i], -x);
    }
}

TEST_CASE("Not, And, Or on int16_t")
{
    std::vector<int16_t> in(2 * kN), out(3 * kN);
    for (int i = 0; i < kN; ++i) {
        in[i] = static_cast<int16_t>(i * 1237 - 9000);
        in[kN + i] = static_cast<int16_t>(0x0ff0 ^ (i * 77));
    }
    Launch(&BitwiseFamilies, in.data(), in.size() * 2, out.data(), out.size() * 2);
    for (int i = 0; i < kN; ++i) {
        CHECK_EQ(out[i], static_cast<int16_t>(~in[i]));
        CHECK_EQ(out[kN + i], static_cast<int16_t>(in[i] & in[kN + i]));
        CHECK_EQ(out[2 * kN + i], static_cast<int16_t>(in[i] | in[kN + i]));
    }
}

TEST_MAIN()
