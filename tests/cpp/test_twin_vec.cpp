// The count forms of the unary, binary-scalar and bitwise vector families against plain C++ references.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "check.h"
#include "kernel_operator.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr int kN = 16;
constexpr int kOps = 12;  // results per input element, see FloatFamilies

void Launch(void (*kernel)(GM_ADDR, GM_ADDR), void* in, uint64_t inBytes, void* out, uint64_t outBytes)
{
    ascend_twin::LaunchSpec spec;
    spec.kernel = "vec_test";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(kernel);
    spec.blockDim = 1;
    spec.args = {{"in", in, inBytes}, {"out", out, outBytes}};
    ascend_twin::Launch(spec);
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

}  // namespace

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
