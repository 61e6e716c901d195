// Power ("lib/math/power.h") against float64 references from fresh random inputs: tensor^tensor, tensor^scalar
// and scalar^tensor, float, half and int32_t (negative bases with integer exponents, negative integer exponents),
// each with sharedTmpBuffer at GetPowerMaxMinTmpSize's minimum, the framework's buffer and the forms without
// calCount; the host size functions; every run-time rule with a planted fault and a clean counterpart.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "check.h"
#include "fault_launch.h"
#include "lib/math/power.h"
#include "tiling/math/power_tiling.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

struct Case {
    int kind = 0;  // 0 tensor^tensor, 1 tensor^scalar, 2 scalar^tensor
    int form = 0;  // 0 tmp + calCount, 1 framework + calCount, 2 tmp, 3 framework (over the tensor's size)
    uint32_t n = 1;
    double scalar = 0.0;
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
    GetPowerMaxMinTmpSize(ge::Shape({c.kind == 2 ? 1 : static_cast<int64_t>(c.n)}),
                          ge::Shape({c.kind == 1 ? 1 : static_cast<int64_t>(c.n)}), std::is_same_v<T, int32_t>,
                          sizeof(T), false, mx, mn);
    const bool framework = c.form == 1 || c.form == 3;
    if (!framework) pipe.InitBuffer(tb, AlignUp(mn, 32));
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
    const T s = static_cast<T>(c.scalar);
    LocalTensor<uint8_t> tmp;
    if (!framework) tmp = tb.Get<uint8_t>();
    switch (c.kind * 4 + c.form) {
        case 0: Power(y, a, b, tmp, c.n); break;
        case 1: Power(y, a, b, c.n); break;
        case 2: Power(y, a, b, tmp); break;
        case 3: Power(y, a, b); break;
        case 4: Power(y, a, s, tmp, c.n); break;
        case 5: Power(y, a, s, c.n); break;
        case 6: Power(y, a, s, tmp); break;
        case 7: Power(y, a, s); break;
        case 8: Power(y, s, b, tmp, c.n); break;
        case 9: Power(y, s, b, c.n); break;
        case 10: Power(y, s, b, tmp); break;
        default: Power(y, s, b); break;
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopyPad(outGm, y, copy);
}

using check::Rng;

double U(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(Rng()); }
int I(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(Rng()); }

template <typename T>
double D(T v)
{
    if constexpr (std::is_same_v<T, half>) return static_cast<double>(static_cast<float>(v));
    else return static_cast<double>(v);
}

// The reference: x^y by definition (integer exponents by repeated multiplication, so negative bases keep the
// parity's sign); int32_t: A2's documented integer power, 1/x^|y| truncated for negative y.
double RefPow(double x, double y)
{
    if (y == std::floor(y) && std::fabs(y) < 64) {
        double r = 1.0;
        for (int i = 0; i < static_cast<int>(std::fabs(y)); ++i) r *= x;
        return y < 0 ? 1.0 / r : r;
    }
    return std::exp(y * std::log(x));  // x > 0 here
}

int64_t RefPowInt(int64_t x, int64_t y)
{
    int64_t r = 1;
    for (int64_t i = 0; i < (y < 0 ? -y : y); ++i) r *= x;
    if (y >= 0) return r;
    if (r == 0) return 0;
    return r == 1 ? 1 : (r == -1 ? -1 : 0);
}

template <typename T>
int CheckType()
{
    const bool isInt = std::is_same_v<T, int32_t>;
    const double rel = std::is_same_v<T, float> ? 1e-6 : 2e-3;
    int failed = 0;
    for (int kind = 0; kind < 3; ++kind) {
        for (int form = 0; form < 4; ++form) {
            Case c;
            c.kind = kind;
            c.form = form;
            c.n = form == 0 ? 1000 : 333;
            c.scalar = isInt ? (kind == 1 ? 3 : -2) : (kind == 1 ? 2.5 : 1.75);
            std::vector<T> in(2 * c.n);
            for (uint32_t i = 0; i < c.n; ++i) {
                if (isInt) {
                    in[i] = static_cast<T>(I(-9, 9));
                    in[c.n + i] = static_cast<T>(I(-3, 7));
                } else if (i % 3 == 0) {  // a negative base with an integer exponent
                    in[i] = T(-U(0.5, 3.0));
                    in[c.n + i] = T(static_cast<float>(I(-3, 4)));
                } else {
                    in[i] = T(U(0.1, 4.0));
                    in[c.n + i] = T(U(-2.5, 2.5));
                }
            }
            if (kind == 1 && !isInt) {  // a positive base for the non-integer scalar exponent
                for (uint32_t i = 0; i < c.n; ++i) in[i] = T(U(0.1, 4.0));
            }
            std::vector<T> out(c.n);
            gCase = c;
            ascend_twin::LaunchSpec spec;
            spec.kernel = "power";
            spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&Kernel<T>);
            spec.blockDim = 1;
            spec.args = {{"in", in.data(), in.size() * sizeof(T)}, {"out", out.data(), out.size() * sizeof(T)}};
            ascend_twin::Launch(spec);
            int bad = 0;
            for (uint32_t i = 0; i < c.n; ++i) {
                const double x = kind == 2 ? D(static_cast<T>(c.scalar)) : D(in[i]);
                const double e = kind == 1 ? D(static_cast<T>(c.scalar)) : D(in[c.n + i]);
                const double got = D(out[i]);
                bool ok;
                double ref;
                if (isInt) {
                    ref = static_cast<double>(static_cast<int32_t>(RefPowInt(static_cast<int64_t>(x), static_cast<int64_t>(e))));
                    ok = got == ref;
                } else {
                    ref = RefPow(x, e);
                    ok = std::fabs(got - ref) <= rel * std::fabs(ref) + 1e-30;
                }
                if (!ok && bad++ < 3) {
                    std::printf("  kind %d form %d: %g ^ %g = %.9g, expected %.9g\n", kind, form, x, e, got, ref);
                }
            }
            failed += bad != 0 ? 1 : 0;
        }
    }
    return failed;
}

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    if constexpr (kFault < 10) {
        LocalMemAllocator<Hardware::UB> ub;
        LocalTensor<float> a = ub.Alloc<float, 256>();
        LocalTensor<float> b = ub.Alloc<float, 256>();
        LocalTensor<float> y = ub.Alloc<float, 256>();
        LocalTensor<uint8_t> t = ub.Alloc<uint8_t, 1536>();  // float tensor^scalar: 5 * 256 + 256
        LocalTensor<float> aA1 = LocalMemAllocator<Hardware::L1>().Alloc<TPosition::A1, float, 256>();
        Duplicate(a, 1.5f, 256);
        Duplicate(b, 2.0f, 256);
        if constexpr (kFault == 0) Power(y, a, 2.0f, t, 256);  // the clean counterpart
        if constexpr (kFault == 1) Power(b, a, b, t, 256);      // dst is src1
        if constexpr (kFault == 2) {
            LocalTensor<uint8_t> small = t;
            small.SetSize(1504);
            Power(y, a, 2.0f, small, 256);
        }
        if constexpr (kFault == 3) {
            LocalTensor<uint8_t> small = t;
            small.SetSize(1280);  // tensor^tensor needs only 4 * 256 + 256
            Power(y, a, b, small, 256);
        }
        if constexpr (kFault == 4) Power(y, a, b, t, 257);
        if constexpr (kFault == 5) Power(y, aA1, 2.0f, t, 8);
        if constexpr (kFault == 6) Power(y, t.ReinterpretCast<float>(), 2.0f, t, 8);  // tmp over src0
        if constexpr (kFault == 7) Power(y, 2.0f, b, 256);  // the framework form without a TPipe
    } else {  // Select's scratch at TMP_UB_OFFSET (184 KiB): free (10) or allocated by the kernel (11)
        TPipe pipe;
        TBuf<TPosition::VECCALC> big, tb;
        pipe.InitBuffer(tb, 2048);
        pipe.InitBuffer(big, kFault == 10 ? 4096 : 196608 - 2048 - 1024);
        LocalTensor<half> x = big.Get<half>();
        Duplicate(x, half(1.5f), 256);
        Power(x[256], x, half(2.0f), tb.Get<uint8_t>(), 256);
    }
}

using fault::Broke;

}  // namespace

TEST_CASE("Power float: tensor^tensor, tensor^scalar, scalar^tensor, every form") { CHECK_EQ(CheckType<float>(), 0); }
TEST_CASE("Power half: every kind and form") { CHECK_EQ(CheckType<half>(), 0); }
TEST_CASE("Power int32_t: every kind and form, negative exponents as A2 computes them")
{
    CHECK_EQ(CheckType<int32_t>(), 0);
}

TEST_CASE("GetPowerMaxMinTmpSize and GetPowerTmpBufferFactorSize return A2's sizes")
{
    const struct {
        std::vector<int64_t> s1, s2;
        bool isInt;
        uint32_t typeSize, min, max;
    } wants[] = {
        {{1000}, {1000}, false, 4, 4 * 256 + 256, 4 * 4000 + 256},
        {{1000}, {1}, false, 4, 5 * 256 + 256, 5 * 4000 + 256},
        {{1}, {1000}, false, 4, 5 * 256 + 256, 5 * 4000 + 256},
        {{1000}, {1000}, false, 2, 14 * 256 / 2 + 256, 14 * 2000 + 256},
        {{10}, {1}, false, 2, 14 * 256 / 2 + 256, 14 * 128 + 256},
        {{8, 125}, {8, 125}, true, 4, 6 * 256, 6 * 4000},
        {{10}, {1}, true, 4, 7 * 256, 7 * 256},
    };
    for (const auto& w : wants) {
        uint32_t mx = 1, mn = 1;
        GetPowerMaxMinTmpSize(ge::Shape(w.s1), ge::Shape(w.s2), w.isInt, w.typeSize, false, mx, mn);
        CHECK_EQ(mn, w.min);
        CHECK_EQ(mx, w.max);
    }
    uint32_t live = 0, extra = 0;
    GetPowerTmpBufferFactorSize(true, false, false, 4, live, extra);
    CHECK_EQ(live, 5u);
    CHECK_EQ(extra, 256u);
    GetPowerTmpBufferFactorSize(true, true, true, 4, live, extra);
    CHECK_EQ(live, 6u);
    CHECK_EQ(extra, 0u);
}

TEST_CASE("Power rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "Power: src and dst do not overlap (docs: 不支持源操作数与目的操作数地址重叠)"));
    CHECK(Broke(&FaultKernel<2>, "Power: sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum"));
    CHECK(Broke(&FaultKernel<3>, ""));
    CHECK(Broke(&FaultKernel<4>,
                "Power: calCount is at most the number of elements dstTensor and the source tensors hold"));
    CHECK(Broke(&FaultKernel<5>, "Power: the advanced math API's operands are at VECIN, VECCALC or VECOUT"));
    CHECK(Broke(&FaultKernel<6>, "Power: sharedTmpBuffer does not overlap src or dst"));
    CHECK(Broke(&FaultKernel<7>,
                "Power: without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 bytes) holds "
                "the API's minimum temporary size"));
    CHECK(Broke(&FaultKernel<10>, ""));
    CHECK(Broke(&FaultKernel<11>, "Power: Select modes 1 and 2 need the top 8 KiB of UB free (scratch at TMP_UB_OFFSET)"));
}

TEST_MAIN()
