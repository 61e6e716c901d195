// Semantics of the twin's ReduceSum (count form) and Sqrt, each inside a one-core kernel.
#include <cmath>
#include <vector>

#include "check.h"
#include "kernel_operator.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

ascend_twin::LaunchStats Run(void (*kernel)(GM_ADDR, GM_ADDR), std::vector<float>& in, std::vector<float>& out)
{
    ascend_twin::LaunchSpec spec;
    spec.kernel = "reduce_unary_test";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(kernel);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size() * sizeof(float)}, {"out", out.data(), out.size() * sizeof(float)}};
    return ascend_twin::Launch(spec);
}

// out[0] = sum of the first 128 inputs, out[1] = of the first 70, out[2] untouched by a count-0 ReduceSum,
// out[8] = the sum of inputs 64..79 as halves.
void ReduceKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> src, dst, tmp, halves, halfSum, wide;
    pipe.InitBuffer(src, 128 * 4);
    pipe.InitBuffer(dst, 32);
    pipe.InitBuffer(tmp, 32);
    pipe.InitBuffer(halves, 32);
    pipe.InitBuffer(halfSum, 32);
    pipe.InitBuffer(wide, 32);
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> s = src.Get<float>();
    LocalTensor<float> d = dst.Get<float>();
    DataCopy(s, inGm, 128);
    PipeBarrier<PIPE_ALL>();  // orders the copy with the vector pipe
    Duplicate(d, 99.0f, 8);
    PipeBarrier<PIPE_V>();
    ReduceSum(d[0], s, tmp.Get<float>(), 128);
    ReduceSum(d[1], s, tmp.Get<float>(), 70);  // dst needs element alignment only
    ReduceSum(d[2], s, tmp.Get<float>(), 0);
    LocalTensor<half> h = halves.Get<half>();
    LocalTensor<half> hs = halfSum.Get<half>();
    LocalTensor<float> w = wide.Get<float>();
    Cast(h, s[64], RoundMode::CAST_NONE, 16);
    PipeBarrier<PIPE_V>();
    ReduceSum(hs, h, tmp.Get<half>(), 16);
    Duplicate(w, 0.0f, 8);
    PipeBarrier<PIPE_V>();
    Cast(w, hs, RoundMode::CAST_NONE, 1);
    PipeBarrier<PIPE_ALL>();  // orders the vector pipe with the copies out
    DataCopy(outGm, d, 8);
    DataCopy(outGm[8], w, 8);
}

void SqrtKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * 4);
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> x = buf.Get<float>();
    DataCopy(x, inGm, 64);
    PipeBarrier<PIPE_ALL>();
    Sqrt(x, x, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm, x, 64);
}

void ReduceTooFewKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> src, dst;
    pipe.InitBuffer(src, 64 * 4);
    pipe.InitBuffer(dst, 32);
    LocalTensor<float> d = dst.Get<float>();
    ReduceSum(d, src.Get<float>(), d, 65);
}

}  // namespace

TEST_CASE("ReduceSum sums each 256-byte repeat as a binary tree and the repeats in order")
{
    std::vector<float> in(128, 1.0f), out(16, 0.0f);
    in[0] = 16777216.0f;  // 2^24: 2^24 + 1 rounds back to 2^24, 2^24 + 2 is exact
    const ascend_twin::LaunchStats stats = Run(&ReduceKernel, in, out);
    // Repeat 0 as a tree: (2^24 + 1) loses its 1 once, the other 62 ones arrive in pairs: 2^24 + 62.
    // A left-to-right sum would give 2^24, an exact one 2^24 + 63. Repeat 1 (64 ones) adds 64.
    CHECK_EQ(out[0], 16777278.0f + 64.0f);
    CHECK_EQ(out[1], 16777278.0f + 6.0f);  // 70 elements: the second repeat holds 6
    CHECK_EQ(out[2], 99.0f);                // count 0 writes nothing
    CHECK_EQ(out[8], 16.0f);                // 16 halves of 1
    CHECK_EQ(stats.cores[0].vecElementOps[static_cast<uint32_t>(ascend_twin::VecOp::kReduceSum)], 128ull + 70 + 16);
}

TEST_CASE("Sqrt is the correctly rounded square root")
{
    std::vector<float> in(64), out(64);
    for (int i = 0; i < 64; ++i) in[i] = static_cast<float>(i * i) + (i == 63 ? 0.5f : 0.0f);
    in[62] = -1.0f;
    const ascend_twin::LaunchStats stats = Run(&SqrtKernel, in, out);
    for (int i = 0; i < 62; ++i) CHECK_EQ(out[i], static_cast<float>(i));
    CHECK(std::isnan(out[62]));
    CHECK_EQ(out[63], std::sqrt(63.0f * 63.0f + 0.5f));
    CHECK_EQ(stats.cores[0].vecElementOps[static_cast<uint32_t>(ascend_twin::VecOp::kSqrt)], 64ull);
}

TEST_CASE("ReduceSum over more elements than the source holds is a rule violation")
{
    std::vector<float> in(8), out(8);
    bool raised = false;
    try {
        Run(&ReduceTooFewKernel, in, out);
    } catch (const ascend_twin::RuleViolation& e) {
        raised = e.call == "ReduceSum";
    }
    CHECK(raised);
}

TEST_MAIN()
