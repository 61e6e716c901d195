// Semantics of individual twin API calls, each inside a one-core kernel.
#include <cmath>
#include <cstring>
#include <vector>

#include "check.h"
#include "kernel_operator.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

ascend_twin::LaunchStats Run(void (*kernel)(GM_ADDR, GM_ADDR), std::vector<float>& in, std::vector<float>& out)
{
    ascend_twin::LaunchSpec spec;
    spec.kernel = "api_test";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(kernel);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size() * sizeof(float)}, {"out", out.data(), out.size() * sizeof(float)}};
    return ascend_twin::Launch(spec);
}

// 3 blocks of 5 floats, 2 floats apart in GM, padded with 1 element left and -1 fill.
void PadKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * 32);
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> local = buf.Get<float>();
    DataCopyPad(local, inGm, DataCopyExtParams{3, 5 * sizeof(float), 2 * sizeof(float), 0, 0},
                DataCopyPadExtParams<float>{true, 1, 0, -1.0f});
    PipeBarrier<PIPE_ALL>();  // orders the copy with the pipes before it
    DataCopy(outGm, local, 24);
}

// Strided DataCopy: 2 blocks of 8 floats, skipping one 32-byte block between them in GM.
void StridedKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> local = buf.Get<float>();
    DataCopy(local, inGm, DataCopyParams{2, 1, 1, 0});
    PipeBarrier<PIPE_ALL>();  // orders the copy with the pipes before it
    DataCopy(outGm, local, DataCopyParams{2, 1, 0, 1});
}

// float -> bfloat16 under each round mode, back to float.
void CastKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> f32, b16;
    pipe.InitBuffer(f32, 64 * 4);
    pipe.InitBuffer(b16, 64 * 2);
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> x = f32.Get<float>();
    LocalTensor<bfloat16_t> y = b16.Get<bfloat16_t>();
    const RoundMode modes[] = {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                               RoundMode::CAST_TRUNC, RoundMode::CAST_ROUND};
    for (uint32_t m = 0; m < 5; ++m) {
        PipeBarrier<PIPE_ALL>();  // orders the copy with the pipes before it
        DataCopy(x, inGm, 8);
        PipeBarrier<PIPE_ALL>();  // orders the copy with the pipes before it
        Cast(y, x, modes[m], 8);
        Cast(x, y, RoundMode::CAST_NONE, 8);
        PipeBarrier<PIPE_ALL>();  // orders the copy with the pipes before it
        DataCopy(outGm[m * 8], x, 8);
    }
}

// out = in * 0.5 + in over 8 floats (Axpy float/float), then out += half(in) * 2 (Axpy float/half).
void AxpyKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> f32, acc, f16;
    pipe.InitBuffer(f32, 32);
    pipe.InitBuffer(acc, 32);
    pipe.InitBuffer(f16, 32);
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> x = f32.Get<float>();
    LocalTensor<float> y = acc.Get<float>();
    LocalTensor<half> h = f16.Get<half>();
    DataCopy(x, inGm, 8);
    DataCopy(y, inGm, 8);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Axpy(y, x, 0.5f, 8);
    Cast(h, x, RoundMode::CAST_NONE, 8);
    Axpy(y, h, half(2.0f), 8);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, y, 8);
}

}  // namespace

TEST_CASE("Axpy: dst += src * scalar, float/float and float/half")
{
    std::vector<float> in(8), out(8);
    for (int i = 0; i < 8; ++i) in[i] = static_cast<float>(i) + 0.25f;
    const ascend_twin::LaunchStats stats = Run(&AxpyKernel, in, out);
    for (int i = 0; i < 8; ++i) CHECK_EQ(out[i], in[i] * 3.5f);
    CHECK_EQ(stats.cores[0].vecElementOps[static_cast<uint32_t>(ascend_twin::VecOp::kAxpy)], 16ull);
}

TEST_CASE("DataCopyPad places each block on a 32-byte slot with its padding")
{
    std::vector<float> in(21), out(24, 99.0f);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
    const ascend_twin::LaunchStats stats = Run(&PadKernel, in, out);
    for (int b = 0; b < 3; ++b) {
        CHECK_EQ(out[b * 8], -1.0f);  // left padding
        for (int e = 0; e < 5; ++e) CHECK_EQ(out[b * 8 + 1 + e], static_cast<float>(b * 7 + e));
        CHECK_EQ(out[b * 8 + 6], -1.0f);  // filled up to the slot end
        CHECK_EQ(out[b * 8 + 7], -1.0f);
    }
    CHECK_EQ(stats.cores[0].gmBytesRead, 3ull * 5 * 4);
    CHECK_EQ(stats.cores[0].dataCopyCalls, 2ull);
}

TEST_CASE("DataCopyParams strides count 32-byte blocks on both sides")
{
    std::vector<float> in(24), out(24, 0.0f);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i + 1);
    Run(&StridedKernel, in, out);
    for (int e = 0; e < 8; ++e) {
        CHECK_EQ(out[e], in[e]);
        CHECK_EQ(out[8 + e], 0.0f);  // the gap in the destination is untouched
        CHECK_EQ(out[16 + e], in[16 + e]);
    }
}

TEST_CASE("Cast to bfloat16 honours each round mode")
{
    // 1.005859375 = 1 + 2^-8 + 2^-9 lies between the bf16 neighbours 1 and 1 + 2^-7, nearer the upper one.
    const float values[8] = {1.00390625f, 1.005859375f, -1.005859375f, 1.0f, 3.0e38f, -2.5e-3f, 0.0f, 7.0f};
    std::vector<float> in(8), out(40);
    std::memcpy(in.data(), values, sizeof values);
    Run(&CastKernel, in, out);
    const float lo = 1.0f, hi = 1.0078125f;  // the bf16 neighbours of 1.005859375
    CHECK_EQ(out[0 * 8 + 1], hi);            // RINT: nearest
    CHECK_EQ(out[1 * 8 + 1], lo);            // FLOOR
    CHECK_EQ(out[2 * 8 + 1], hi);            // CEIL
    CHECK_EQ(out[3 * 8 + 1], lo);            // TRUNC
    CHECK_EQ(out[4 * 8 + 1], hi);            // ROUND
    CHECK_EQ(out[1 * 8 + 2], -hi);           // FLOOR of a negative goes away from zero
    CHECK_EQ(out[3 * 8 + 2], -lo);           // TRUNC toward zero
    CHECK_EQ(out[0 * 8 + 0], 1.0f);          // 1 + 2^-8 is a tie: to even
    CHECK_EQ(out[4 * 8 + 0], hi);            // ROUND: ties away from zero
    for (int m = 0; m < 5; ++m) CHECK_EQ(out[m * 8 + 7], 7.0f);  // exact values stay exact
}

TEST_MAIN()
