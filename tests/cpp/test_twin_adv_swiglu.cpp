// SwiGLU ("lib/activation/swiglu.h") against float64 references (src0 * src1 / (1 + e^(-beta src1))) from fresh
// random inputs, float and half, its four forms; GetSwiGLUMaxMinTmpSize / GetSwiGLUTmpBufferFactorSize; every
// run-time rule with a planted fault and a clean counterpart.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "check.h"
#include "fault_launch.h"
#include "lib/activation/swiglu.h"
#include "tiling/swiglu/swiglu_tiling.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

struct Case {
    int form = 0;  // 0 tmp + calCount, 1 framework + calCount, 2 tmp, 3 framework (over src0's size)
    uint32_t n = 1;
    float beta = 1.0f;
};
Case gCase;

template <typename T>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const uint32_t bytes = AlignUp(c.n * sizeof(T), 32);
    TPipe pipe;
    TBuf<TPosition::VECIN> ab, bb;
    TBuf<TPosition::VECOUT> yb;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(ab, bytes);
    pipe.InitBuffer(bb, bytes);
    pipe.InitBuffer(yb, bytes);
    uint32_t mx = 0, mn = 0;
    GetSwiGLUMaxMinTmpSize(ge::Shape({static_cast<int64_t>(c.n)}), sizeof(T), mx, mn, false);
    const bool framework = c.form == 1 || c.form == 3;
    if (!framework) pipe.InitBuffer(tb, mn == 0 ? 32 : AlignUp(mn, 32));
    GlobalTensor<T> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    LocalTensor<T> a = ab.Get<T>();
    LocalTensor<T> b = bb.Get<T>();
    LocalTensor<T> y = yb.Get<T>();
    const DataCopyExtParams copy{1, static_cast<uint32_t>(c.n * sizeof(T)), 0, 0, 0};
    DataCopyPad(a, inGm, copy, DataCopyPadExtParams<T>{false, 0, 0, T(0)});
    DataCopyPad(b, inGm[c.n], copy, DataCopyPadExtParams<T>{false, 0, 0, T(0)});
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    a.SetSize(c.n);
    b.SetSize(c.n);
    if (c.form == 0) SwiGLU<T>(y, a, b, c.beta, tb.Get<uint8_t>(), c.n);
    else if (c.form == 1) SwiGLU<T>(y, a, b, c.beta, c.n);
    else if (c.form == 2) SwiGLU<T>(y, a, b, c.beta, tb.Get<uint8_t>());
    else SwiGLU<T>(y, a, b, c.beta);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopyPad(outGm, y, copy);
}

using check::Rng;

template <typename T>
double D(T v)
{
    if constexpr (std::is_same_v<T, half>) return static_cast<double>(static_cast<float>(v));
    else return static_cast<double>(v);
}

template <typename T>
int CheckType()
{
    const double rel = std::is_same_v<T, float> ? 1e-6 : 2e-3;
    int failed = 0;
    for (int form = 0; form < 4; ++form) {
        Case c;
        c.form = form;
        c.n = form == 0 ? 1000 : 333;
        c.beta = form % 2 == 0 ? 1.0f : 1.702f;
        std::vector<T> in(2 * c.n);
        for (T& v : in) v = T(std::uniform_real_distribution<float>(-6.0f, 6.0f)(Rng()));
        std::vector<T> out(c.n);
        gCase = c;
        ascend_twin::LaunchSpec spec;
        spec.kernel = "swiglu";
        spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&Kernel<T>);
        spec.blockDim = 1;
        spec.args = {{"in", in.data(), in.size() * sizeof(T)}, {"out", out.data(), out.size() * sizeof(T)}};
        ascend_twin::Launch(spec);
        int bad = 0;
        for (uint32_t i = 0; i < c.n; ++i) {
            const double x0 = D(in[i]);
            const double x1 = D(in[c.n + i]);
            const double ref = x0 * x1 / (1.0 + std::exp(-static_cast<double>(c.beta) * x1));
            if (std::fabs(D(out[i]) - ref) > rel * std::fabs(ref) + 1e-6 && bad++ < 3) {
                std::printf("  form %d: (%g, %g) -> %.9g, expected %.9g\n", form, x0, x1, D(out[i]), ref);
            }
        }
        failed += bad != 0 ? 1 : 0;
    }
    return failed;
}

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    if constexpr (kFault < 10) {
        LocalMemAllocator<Hardware::UB> ub;
        LocalTensor<half> a = ub.Alloc<half, 256>();
        LocalTensor<half> b = ub.Alloc<half, 256>();
        LocalTensor<half> y = ub.Alloc<half, 256>();
        LocalTensor<uint8_t> t = ub.Alloc<uint8_t, 1536>();  // half: 6 * 256
        Duplicate(a, half(0.5f), 256);
        Duplicate(b, half(1.5f), 256);
        if constexpr (kFault == 0) SwiGLU<half>(y, a, b, 1.0f, t, 256);  // the clean counterpart
        if constexpr (kFault == 1) {
            LocalTensor<half> shortB = b;
            shortB.SetSize(128);
            SwiGLU<half>(y, a, shortB, 1.0f, t, 100);
        }
        if constexpr (kFault == 2) SwiGLU<half>(a, a, b, 1.0f, t, 256);  // dst is src0
        if constexpr (kFault == 3) {
            LocalTensor<uint8_t> small = t;
            small.SetSize(1504);
            SwiGLU<half>(y, a, b, 1.0f, small, 256);
        }
        if constexpr (kFault == 4) SwiGLU<half>(y, a, b, 1.0f, t, 257);
        if constexpr (kFault == 5) {  // float needs no temporary buffer
            LocalTensor<float> fa = a.ReinterpretCast<float>();
            LocalTensor<float> fb = b.ReinterpretCast<float>();
            LocalTensor<float> fy = y.ReinterpretCast<float>();
            LocalTensor<uint8_t> none = t;
            none.SetSize(0);
            SwiGLU<float>(fy, fa, fb, 1.0f, none, 128);
        }
        if constexpr (kFault == 6) SwiGLU<half>(y, a, b, 1.0f, 256);  // the framework form without a TPipe
        if constexpr (kFault == 7) {
            LocalTensor<half> insideTmp = t.ReinterpretCast<half>();  // dst inside the temporary buffer
            SwiGLU<half>(insideTmp, a, b, 1.0f, t, 256);
        }
    }
}

using fault::Broke;

}  // namespace

TEST_CASE("SwiGLU float: four forms against double references") { CHECK_EQ(CheckType<float>(), 0); }
TEST_CASE("SwiGLU half: four forms against double references") { CHECK_EQ(CheckType<half>(), 0); }

TEST_CASE("GetSwiGLUMaxMinTmpSize and GetSwiGLUTmpBufferFactorSize return A2's sizes")
{
    uint32_t mx = 1, mn = 1;
    GetSwiGLUMaxMinTmpSize(ge::Shape({1000}), 2, mx, mn, false);
    CHECK_EQ(mn, 1536u);
    CHECK_EQ(mx, 12000u);
    GetSwiGLUMaxMinTmpSize(ge::Shape({1000}), 4, mx, mn, false);
    CHECK_EQ(mn + mx, 0u);
    mx = mn = 7;
    GetSwiGLUMaxMinTmpSize(ge::Shape({1000}), 8, mx, mn, false);  // refused
    CHECK_EQ(mn, 7u);
    uint32_t live = 9, extra = 9;
    GetSwiGLUTmpBufferFactorSize(2, live, extra);
    CHECK_EQ(live, 6u);
    CHECK_EQ(extra, 0u);
}

TEST_CASE("SwiGLU rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "SwiGLU: srcTensor0 and srcTensor1 hold the same number of elements (A2's check)"));
    CHECK(Broke(&FaultKernel<2>, "SwiGLU: src and dst do not overlap (docs: 不支持源操作数与目的操作数地址重叠)"));
    CHECK(Broke(&FaultKernel<3>, "SwiGLU: sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum"));
    CHECK(Broke(&FaultKernel<4>,
                "SwiGLU: calCount is at most the number of elements dstTensor and the source tensors hold"));
    CHECK(Broke(&FaultKernel<5>, ""));
    CHECK(Broke(&FaultKernel<6>,
                "SwiGLU: without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 bytes) holds "
                "the API's minimum temporary size"));
    CHECK(Broke(&FaultKernel<7>, "SwiGLU: sharedTmpBuffer does not overlap src or dst"));
}

TEST_MAIN()
