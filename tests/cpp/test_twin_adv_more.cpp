// GeGLU ("lib/activation/geglu.h"), Fmod ("lib/math/fmod.h") and the advanced Axpy ("lib/math/axpy.h") against
// float64 references written out from their docs' formulas, from fresh random inputs, float and half, every form;
// the host size functions; every run-time rule with a planted fault and a clean counterpart.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "check.h"
#include "fault_launch.h"
#include "lib/activation/geglu.h"
#include "lib/math/axpy.h"
#include "lib/math/fmod.h"
#include "tiling/activation/geglu_tiling.h"
#include "tiling/math/axpy_tiling.h"
#include "tiling/math/fmod_tiling.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

struct Case {
    bool fmod = false;  // GeGLU otherwise
    int form = 0;       // 0 tmp + calCount, 1 framework + calCount, 2 tmp, 3 framework (over src0's size)
    uint32_t n = 1;
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
    if (c.fmod) GetFmodMaxMinTmpSize(ge::Shape({static_cast<int64_t>(c.n)}), sizeof(T), false, mx, mn);
    else GetGeGLUMaxMinTmpSize(ge::Shape({static_cast<int64_t>(c.n)}), sizeof(T), false, mx, mn);
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
    if (c.fmod) {
        if (c.form == 0) Fmod<T>(y, a, b, tb.Get<uint8_t>(), c.n);
        else if (c.form == 1) Fmod<T>(y, a, b, c.n);
        else if (c.form == 2) Fmod<T>(y, a, b, tb.Get<uint8_t>());
        else Fmod<T>(y, a, b);
    } else {
        if (c.form == 0) GeGLU<T>(y, a, b, tb.Get<uint8_t>(), c.n);
        else if (c.form == 1) GeGLU<T>(y, a, b, c.n);
        else if (c.form == 2) GeGLU<T>(y, a, b, tb.Get<uint8_t>());
        else GeGLU<T>(y, a, b);
    }
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

float Uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(Rng()); }

// GeGLU: x0 * Gelu(x1), Gelu's tanh form 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))) (the docs').
double GeGLURef(double x0, double x1)
{
    return x0 * 0.5 * x1 * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x1 + 0.044715 * x1 * x1 * x1)));
}

// Fmod: a - trunc(a / b) * b, the three steps rounded to float as A2's float instructions round them.
double FmodRef(double a, double b)
{
    const double q = static_cast<float>(a / b);
    const double m = static_cast<float>((q < 0 ? std::ceil(q) : std::floor(q)) * b);
    return static_cast<float>(a - m);
}

template <typename T>
int CheckType(bool fmod)
{
    const bool isFloat = std::is_same_v<T, float>;
    // GeGLU: the constants a, b agree with the tanh form to 1e-8; half rounds once at the end.
    const double rel = isFloat ? 2e-6 : 2e-3;
    int failed = 0;
    for (int form = 0; form < 4; ++form) {
        Case c;
        c.fmod = fmod;
        c.form = form;
        c.n = form == 0 ? 1000 : 333;
        std::vector<T> in(2 * c.n);
        for (uint32_t i = 0; i < c.n; ++i) {
            in[i] = T(fmod ? Uniform(-300.0f, 300.0f) : Uniform(-5.0f, 5.0f));
            const float sign = Uniform(0.0f, 1.0f) < 0.5f ? -1.0f : 1.0f;
            in[c.n + i] = T(fmod ? sign * Uniform(0.25f, 20.0f) : Uniform(-5.0f, 5.0f));
        }
        std::vector<T> out(c.n);
        gCase = c;
        ascend_twin::LaunchSpec spec;
        spec.kernel = fmod ? "fmod" : "geglu";
        spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&Kernel<T>);
        spec.blockDim = 1;
        spec.args = {{"in", in.data(), in.size() * sizeof(T)}, {"out", out.data(), out.size() * sizeof(T)}};
        ascend_twin::Launch(spec);
        int bad = 0;
        for (uint32_t i = 0; i < c.n; ++i) {
            const double x0 = D(in[i]);
            const double x1 = D(in[c.n + i]);
            const double ref = fmod ? FmodRef(x0, x1) : GeGLURef(x0, x1);
            // Fmod: exact in float; half: one rounding of the float result. GeGLU: relative, plus a floor.
            const double tol = fmod ? (isFloat ? 0.0 : std::fabs(ref) * 1e-3) : rel * std::fabs(ref) + 1e-6;
            if (std::fabs(D(out[i]) - ref) > tol && bad++ < 3) {
                std::printf("  %s form %d: (%g, %g) -> %.9g, expected %.9g\n", fmod ? "Fmod" : "GeGLU", form, x0, x1,
                            D(out[i]), ref);
            }
        }
        failed += bad != 0 ? 1 : 0;
    }
    return failed;
}

// Axpy<T, U> over n elements: dst starts at in[n..2n) (as T), src in[0..n) (as U).
constexpr int32_t kAxpyN = 512;

template <typename T, typename U>
int CheckAxpy()
{
    constexpr uint32_t n = kAxpyN;
    static std::vector<float> input;
    input.resize(2 * n);
    for (float& v : input) v = Uniform(-50.0f, 50.0f);
    const float scalar = Uniform(-3.0f, 3.0f);
    static float gScalar;
    gScalar = scalar;
    auto kernel = [](GM_ADDR in, GM_ADDR out) {
        LocalMemAllocator<Hardware::UB> ub;
        LocalTensor<float> fin = ub.Alloc<float, 2 * n>();
        LocalTensor<U> s = ub.Alloc<U, 512>();
        LocalTensor<T> d = ub.Alloc<T, 512>();
        LocalTensor<uint8_t> t = ub.Alloc<uint8_t, 1024>();  // a half source: GetAxpyMaxMinTmpSize's minimum
        GlobalTensor<float> i, o;
        i.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
        o.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
        DataCopy(fin, i, 2 * kAxpyN);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        if constexpr (std::is_same_v<U, float>) Adds(s, fin, 0.0f, kAxpyN);
        else Cast(s, fin, RoundMode::CAST_RINT, kAxpyN);
        if constexpr (std::is_same_v<T, float>) Adds(d, fin[kAxpyN], 0.0f, kAxpyN);
        else Cast(d, fin[kAxpyN], RoundMode::CAST_RINT, kAxpyN);
        PipeBarrier<PIPE_V>();
        Axpy<T, U>(d, s, static_cast<U>(gScalar), t, kAxpyN);
        PipeBarrier<PIPE_V>();
        LocalTensor<float> res = fin;  // as float, for the copy out
        if constexpr (std::is_same_v<T, float>) Adds(res, d, 0.0f, kAxpyN);
        else Cast(res, d, RoundMode::CAST_NONE, kAxpyN);
        if constexpr (std::is_same_v<U, float>) Adds(res[kAxpyN], s, 0.0f, kAxpyN);
        else Cast(res[kAxpyN], s, RoundMode::CAST_NONE, kAxpyN);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(o, res, 2 * kAxpyN);
    };
    std::vector<float> out(2 * n);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "axpy_adv";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(static_cast<void (*)(GM_ADDR, GM_ADDR)>(kernel));
    spec.blockDim = 1;
    spec.args = {{"in", input.data(), input.size() * 4}, {"out", out.data(), out.size() * 4}};
    ascend_twin::Launch(spec);
    const double k = D(static_cast<U>(scalar));
    int bad = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const double src = out[n + i];  // the source as the kernel held it (U), unchanged by Axpy
        const double dst0 = D(static_cast<T>(input[n + i]));
        const double ref = dst0 + src * k;
        const double tol = std::is_same_v<T, half> ? 1e-3 * std::fabs(ref) + 0.03 : 3e-7 * std::fabs(ref) + 1e-5;
        if (std::fabs(out[i] - ref) > tol && bad++ < 3) {
            std::printf("  Axpy: dst %g + src %g * %g -> %.9g, expected %.9g\n", dst0, src, k, out[i], ref);
        }
    }
    return bad;
}

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<half> a = ub.Alloc<half, 256>();
    LocalTensor<half> b = ub.Alloc<half, 256>();
    LocalTensor<half> y = ub.Alloc<half, 256>();
    LocalTensor<uint8_t> t = ub.Alloc<uint8_t, 2048>();  // half Fmod: 8 * 256
    LocalTensor<float> fy = ub.Alloc<float, 256>();
    Duplicate(a, half(5.5f), 256);
    Duplicate(b, half(1.5f), 256);
    Duplicate(fy, 0.0f, 256);
    LocalTensor<uint8_t> t1024 = t;
    t1024.SetSize(1024);  // half GeGLU's and Axpy's minimum: 4 * 256
    LocalTensor<uint8_t> t1000 = t;
    t1000.SetSize(992);
    if constexpr (kFault == 0) GeGLU<half>(y, a, b, t1024, 256);  // the clean counterparts
    if constexpr (kFault == 1) Fmod<half>(y, a, b, t, 256);
    if constexpr (kFault == 2) GeGLU<half>(y, a, b, t1000, 256);
    if constexpr (kFault == 3) {
        LocalTensor<uint8_t> small = t;
        small.SetSize(2016);
        Fmod<half>(y, a, b, small, 256);
    }
    if constexpr (kFault == 4) {
        LocalTensor<half> shortB = b;
        shortB.SetSize(128);
        Fmod<half>(y, a, shortB, t, 100);
    }
    if constexpr (kFault == 5) GeGLU<half>(b, a, b, t1024, 256);  // dst is src1
    if constexpr (kFault == 6) Fmod<half>(y, a, b, t, 257);
    if constexpr (kFault == 7) {  // float Fmod: Trunc's 256 bytes
        LocalTensor<uint8_t> small = t;
        small.SetSize(224);
        Fmod<float>(fy, a.ReinterpretCast<float>(), b.ReinterpretCast<float>(), small, 128);
    }
    if constexpr (kFault == 8) {
        LocalTensor<uint8_t> exact = t;
        exact.SetSize(256);
        Fmod<float>(fy, a.ReinterpretCast<float>(), b.ReinterpretCast<float>(), exact, 128);
    }
    if constexpr (kFault == 9) GeGLU<half>(y, a, b, 256);  // the framework form without a TPipe
    if constexpr (kFault == 10) Axpy<float, half>(fy, a, half(2.0f), t1024, 256);  // the mix pair
    if constexpr (kFault == 11) Axpy<float, half>(fy, a, half(2.0f), t1000, 256);
    if constexpr (kFault == 12) {  // float source: no buffer needed (A2 runs the basic Axpy)
        LocalTensor<uint8_t> none = t;
        none.SetSize(0);
        Axpy<float, float>(fy, b.ReinterpretCast<float>(), 2.0f, none, 128);
    }
    if constexpr (kFault == 13) Axpy<half, half>(a, a, half(2.0f), t1024, 256);  // dst is src
    if constexpr (kFault == 14) {  // dst inside the temporary buffer
        LocalTensor<half> inside = t.ReinterpretCast<half>();
        inside.SetSize(256);
        Axpy<half, half>(inside, a, half(2.0f), t1024, 128);
    }
    if constexpr (kFault == 15) Axpy<half, half>(y, a, half(2.0f), t1024, 300);
    if constexpr (kFault == 16) {  // src0 inside the temporary buffer
        LocalTensor<half> inside = t.ReinterpretCast<half>();
        inside.SetSize(256);
        Fmod<half>(y, inside, b, t, 64);
    }
}

using fault::Broke;

}  // namespace

TEST_CASE("GeGLU float and half: four forms against double references")
{
    CHECK_EQ(CheckType<float>(false), 0);
    CHECK_EQ(CheckType<half>(false), 0);
}

TEST_CASE("Fmod float and half: four forms against the docs' formula in float")
{
    CHECK_EQ(CheckType<float>(true), 0);
    CHECK_EQ(CheckType<half>(true), 0);
}

TEST_CASE("the advanced Axpy: half/half, float/float, float/half against double references")
{
    CHECK_EQ((CheckAxpy<half, half>()), 0);
    CHECK_EQ((CheckAxpy<float, float>()), 0);
    CHECK_EQ((CheckAxpy<float, half>()), 0);
}

TEST_CASE("GetGeGLU/GetFmod/GetAxpy MaxMinTmpSize and TmpBufferFactorSize return A2's sizes")
{
    uint32_t mx = 1, mn = 1;
    GetGeGLUMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn);
    CHECK_EQ(mn, 1024u);
    CHECK_EQ(mx, 8000u);
    GetGeGLUMaxMinTmpSize(ge::Shape({1000}), 4, false, mx, mn);
    CHECK_EQ(mn + mx, 0u);
    GetFmodMaxMinTmpSize(ge::Shape({1000}), 4, false, mx, mn);
    CHECK_EQ(mn, 256u);
    CHECK_EQ(mx, 4000u);
    GetFmodMaxMinTmpSize(ge::Shape({100}), 2, false, mx, mn);
    CHECK_EQ(mn, 2048u);
    CHECK_EQ(mx, 2048u);  // 8 * max(200, 256)
    GetAxpyMaxMinTmpSize(ge::Shape({512}), 2, false, mx, mn);
    CHECK_EQ(mn, 1024u);
    CHECK_EQ(mx, 4096u);
    GetAxpyMaxMinTmpSize(ge::Shape({512}), 4, false, mx, mn);
    CHECK_EQ(mn + mx, 0u);
    mx = mn = 7;  // refused: the outputs stay
    GetFmodMaxMinTmpSize(ge::Shape(std::vector<int64_t>{0}), 4, false, mx, mn);
    CHECK_EQ(mn, 7u);
    GetGeGLUMaxMinTmpSize(ge::Shape({10}), 8, false, mx, mn);
    CHECK_EQ(mx, 7u);
    uint32_t live = 9, extra = 9;
    GetFmodTmpBufferFactorSize(2, live, extra);
    CHECK_EQ(live, 8u);
    CHECK_EQ(extra, 0u);
    GetFmodTmpBufferFactorSize(4, live, extra);
    CHECK_EQ(live, 1u);
    GetGeGLUTmpBufferFactorSize(2, live, extra);
    CHECK_EQ(live, 4u);
    GetAxpyTmpBufferFactorSize(2, live, extra);
    CHECK_EQ(live, 4u);
    GetAxpyTmpBufferFactorSize(4, live, extra);
    CHECK_EQ(live, 1u);
}

TEST_CASE("GeGLU, Fmod, Axpy rules: planted faults and clean counterparts")
{
    const std::string minimum = "sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum";
    const std::string overlap = "src and dst do not overlap (docs: 不支持源操作数与目的操作数地址重叠)";
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, ""));
    CHECK(Broke(&FaultKernel<2>, "GeGLU: " + minimum));
    CHECK(Broke(&FaultKernel<3>, "Fmod: " + minimum));
    CHECK(Broke(&FaultKernel<4>, "Fmod: srcTensor0 and srcTensor1 hold the same number of elements (A2's check)"));
    CHECK(Broke(&FaultKernel<5>, "GeGLU: " + overlap));
    CHECK(Broke(&FaultKernel<6>, "Fmod: calCount is at most the number of elements dstTensor and the source tensors hold"));
    CHECK(Broke(&FaultKernel<7>, "Fmod: " + minimum));
    CHECK(Broke(&FaultKernel<8>, ""));
    CHECK(Broke(&FaultKernel<9>,
                "GeGLU: without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 bytes) holds "
                "the API's minimum temporary size"));
    CHECK(Broke(&FaultKernel<10>, ""));
    CHECK(Broke(&FaultKernel<11>, "Axpy: " + minimum));
    CHECK(Broke(&FaultKernel<12>, ""));
    CHECK(Broke(&FaultKernel<13>, "Axpy: " + overlap));
    CHECK(Broke(&FaultKernel<14>, "Axpy: sharedTmpBuffer does not overlap src or dst"));
    CHECK(Broke(&FaultKernel<15>, "Axpy: calCount is at most the number of elements dstTensor and srcTensor hold"));
    CHECK(Broke(&FaultKernel<16>, "Fmod: sharedTmpBuffer does not overlap src or dst"));
}

TEST_MAIN()
