// The advanced math library's elementwise functions ("lib/math/<fn>.h") against references computed here in
// double from fresh random inputs inside each function's documented domain (plus the edge values the docs
// name: Round's halves to even, Sign's zeros and NaN, Frac of negatives), float and half, every form: the
// sharedTmpBuffer form at GetXxxMaxMinTmpSize's minimum and maximum, the framework's buffer, and the forms
// without calCount. The host size functions against A2's formulas worked out by hand. Every run-time rule with
// a planted fault and a clean counterpart (the compile-time dtype rules: compile_fail/adv_math_a2.cpp).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "check.h"
#include "fault_launch.h"
#include "lib/math/acos.h"
#include "lib/math/clamp.h"
#include "lib/math/exp.h"
#include "lib/math/floor.h"
#include "lib/math/log.h"
#include "lib/math/sign.h"
#include "lib/math/sin.h"
#include "lib/math/trunc.h"
#include "lib/activation/gelu.h"
#include "lib/activation/sigmoid.h"
#include "lib/activation/silu.h"
#include "lib/activation/swish.h"
#include "tiling/activation/gelu_tiling.h"
#include "tiling/sigmoid/sigmoid_tiling.h"
#include "lib/activation/silu_tiling.h"
#include "tiling/swish/swish_tiling.h"
#include "tiling/math/clamp_tiling.h"
#include "tiling/math/exp_tiling.h"
#include "tiling/math/floor_tiling.h"
#include "tiling/math/log_tiling.h"
#include "tiling/math/round_tiling.h"
#include "tiling/math/sin_tiling.h"
#include "lib/math/acosh_tiling.h"
#include "lib/math/sign_tiling.h"
#include "twin/launch.h"

using namespace AscendC;
using ascend_twin::MathFn;

namespace {

constexpr uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// form 0: sharedTmpBuffer + calCount, 1: framework + calCount, 2: sharedTmpBuffer without calCount,
// 3: framework without calCount (the last two over the whole src tensor).
struct Case {
    MathFn fn = MathFn::kFloor;
    int form = 0;
    uint32_t n = 0;         // calCount (forms 2 and 3: the tensor's size)
    uint32_t tmpBytes = 0;  // forms 0 and 2
};

Case gCase;
bool gMaskNormalFull = false;
uint64_t gMaskLow = 0;
constexpr double kBeta = 1.5;  // Swish's scalarValue (exact in half and float)
constexpr double kClampBound = 12.5;  // ClampMin/ClampMax's scalar (exact in half and float)

template <typename T>
void Call(MathFn fn, int form, const LocalTensor<T>& y, const LocalTensor<T>& x, const LocalTensor<uint8_t>& tmp,
          uint32_t n)
{
#define TWIN_MATH_CASE(Name)                                      \
    case MathFn::k##Name:                                         \
        if (form == 0) Name(y, x, tmp, n);                        \
        else if (form == 1) Name(y, x, n);                        \
        else if (form == 2) Name(y, x, tmp);                      \
        else Name(y, x);                                          \
        return;
#define TWIN_MATH_COUNT_CASE(Name)                                \
    case MathFn::k##Name:                                         \
        if (form == 0 || form == 2) Name(y, x, tmp, n);           \
        else Name(y, x, n);                                       \
        return;
#define TWIN_MATH_NO_TMP_CASE(Name)                               \
    case MathFn::k##Name:                                         \
        if (form < 2) Name(y, x, n);                              \
        else Name(y, x);                                          \
        return;
#define TWIN_GELU_CASE(Name)                                      \
    case MathFn::k##Name:                                         \
        if (form == 0 || form == 2) Name(y, x, tmp, n);           \
        else Name<T, false, true>(y, x, n);                       \
        return;
    switch (fn) {
        TWIN_MATH_CASE(Acos) TWIN_MATH_CASE(Acosh) TWIN_MATH_CASE(Asin) TWIN_MATH_CASE(Asinh) TWIN_MATH_CASE(Atan)
        TWIN_MATH_CASE(Atanh) TWIN_MATH_COUNT_CASE(Ceil) TWIN_MATH_CASE(Cos) TWIN_MATH_CASE(Cosh) TWIN_MATH_CASE(Erf)
        TWIN_MATH_CASE(Erfc) TWIN_MATH_COUNT_CASE(Floor) TWIN_MATH_CASE(Frac) TWIN_MATH_NO_TMP_CASE(Log)
        TWIN_MATH_CASE(Log2) TWIN_MATH_NO_TMP_CASE(Log10) TWIN_MATH_COUNT_CASE(Round) TWIN_MATH_CASE(Sign)
        TWIN_MATH_CASE(Sin) TWIN_MATH_CASE(Sinh) TWIN_MATH_CASE(Tan) TWIN_MATH_CASE(Tanh) TWIN_MATH_CASE(Trunc)
        TWIN_MATH_CASE(Sigmoid) TWIN_GELU_CASE(Gelu) TWIN_GELU_CASE(FasterGelu) TWIN_GELU_CASE(FasterGeluV2)
        case MathFn::kSilu: Silu(y, x, n); return;
        case MathFn::kSwish: Swish(y, x, n, T(kBeta)); return;
        case MathFn::kExp:  // the advanced Exp, 10 Taylor terms (asc-devkit's recommended range is [10, 15])
            if (form == 0 || form == 2) Exp<T, 10, false>(y, x, tmp, n);
            else Exp<T, 10, false>(y, x, n);
            return;
        case MathFn::kClampMin:
            if (form == 0 || form == 2) ClampMin<T>(y, x, tmp, T(kClampBound), n);
            else ClampMin<T>(y, x, T(kClampBound), n);
            return;
        case MathFn::kClampMax:
            if (form == 0 || form == 2) ClampMax<T>(y, x, tmp, T(kClampBound), n);
            else ClampMax<T>(y, x, T(kClampBound), n);
            return;
        case MathFn::kCount: break;
    }
#undef TWIN_MATH_CASE
#undef TWIN_MATH_COUNT_CASE
#undef TWIN_MATH_NO_TMP_CASE
#undef TWIN_GELU_CASE
}

template <typename T>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const uint32_t bytes = AlignUp(c.n * sizeof(T), 32);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(inQ, 1, bytes);
    pipe.InitBuffer(outQ, 1, bytes);
    const bool framework = c.form == 1 || c.form == 3;
    if (!framework) pipe.InitBuffer(tmpBuf, c.tmpBytes == 0 ? 32 : c.tmpBytes);
    GlobalTensor<T> inGm;
    GlobalTensor<T> outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    LocalTensor<T> x = inQ.template AllocTensor<T>();
    const DataCopyExtParams copy{1, static_cast<uint32_t>(c.n * sizeof(T)), 0, 0, 0};
    DataCopyPad(x, inGm, copy, DataCopyPadExtParams<T>{false, 0, 0, T(0)});
    inQ.EnQue(x);
    x = inQ.template DeQue<T>();
    LocalTensor<T> y = outQ.template AllocTensor<T>();
    // forms 2 and 3 take the tensor's size: make it exactly n
    x.SetSize(c.n);
    LocalTensor<uint8_t> tmp = framework ? LocalTensor<uint8_t>() : tmpBuf.Get<uint8_t>();
    if (!framework && c.tmpBytes != 0) tmp.SetSize(c.tmpBytes);
    SetMaskCount();  // the call leaves the mask in normal mode with every lane on, as the device does
    Call<T>(c.fn, c.form, y, x, tmp, c.n);
    const ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    gMaskNormalFull = !core.maskCounter && core.maskHigh == ~0ull && core.maskLow == ~0ull;
    gMaskLow = core.maskCounter || core.maskHigh != 0 ? ~0ull : core.maskLow;
    outQ.EnQue(y);
    inQ.FreeTensor(x);
    y = outQ.template DeQue<T>();
    DataCopyPad(outGm, y, copy);
    outQ.FreeTensor(y);
}

using check::Rng;

double Uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(Rng()); }

// A random input inside fn's documented domain; element i may be an edge value the docs name.
double Input(MathFn fn, uint32_t i)
{
    switch (fn) {
        case MathFn::kAcos: case MathFn::kAsin: return Uniform(-1.0, 1.0);
        case MathFn::kAcosh: return Uniform(1.0, 200.0);
        case MathFn::kAsinh: return Uniform(-300.0, 300.0);
        case MathFn::kAtan: return Uniform(-60.0, 60.0);
        case MathFn::kAtanh: return (i % 2 ? -1.0 : 1.0) * Uniform(0.002, 0.98);
        case MathFn::kCos: case MathFn::kSin: return Uniform(-200.0, 200.0);
        case MathFn::kCosh: case MathFn::kSinh: case MathFn::kTanh: return Uniform(-9.0, 9.0);
        case MathFn::kErf: case MathFn::kErfc: return Uniform(-3.5, 3.5);
        case MathFn::kLog: case MathFn::kLog2: case MathFn::kLog10: return std::exp(Uniform(-9.0, 11.0));
        case MathFn::kTan: return Uniform(-1.5, 1.5);
        case MathFn::kRound:  // every fourth element a half: ties go to the even neighbour
            return i % 4 == 0 ? std::floor(Uniform(-500.0, 500.0)) + 0.5 : Uniform(-500.0, 500.0);
        case MathFn::kSign:
            if (i % 7 == 0) return 0.0;
            if (i % 7 == 1) return -0.0;
            if (i % 7 == 2) return std::numeric_limits<double>::quiet_NaN();
            if (i % 7 == 3) return (i % 2 ? -1 : 1) * std::numeric_limits<double>::infinity();
            return Uniform(-100.0, 100.0);
        case MathFn::kSigmoid: case MathFn::kSilu: case MathFn::kSwish: case MathFn::kGelu:
        case MathFn::kFasterGelu: case MathFn::kFasterGeluV2:
            return Uniform(-8.0, 8.0);
        case MathFn::kExp: return Uniform(-9.0, 11.0);  // e^11 < 65504
        case MathFn::kClampMin: case MathFn::kClampMax:  // some exactly at the bound
            return i % 5 == 0 ? kClampBound : Uniform(-40.0, 40.0);
        default: return Uniform(-1000.0, 1000.0);  // Ceil, Floor, Frac, Trunc
    }
}

// A constant as A2's implementation holds it (`const T coefficientsA = 0.044715;`).
double AsT(double c, bool isHalf) { return isHalf ? double(float(half(float(c)))) : double(float(c)); }

// The reference, written out from each function's definition (the Gelu family's with A2's constants as T).
double Reference(MathFn fn, double x, bool isHalf = false)
{
    switch (fn) {
        case MathFn::kSigmoid: return 1.0 / (1.0 + std::exp(-x));
        case MathFn::kSilu: return x * (1.0 / (1.0 + std::exp(-x)));
        case MathFn::kSwish: return x * (1.0 / (1.0 + std::exp(-kBeta * x)));
        case MathFn::kGelu: {  // 0.5 x (1 + tanh(z)) with 2z = the constant times (x + 0.044715 x^3)
            const double z = 0.5 * AsT(1.5957691216057308, isHalf) * (x + AsT(0.044715, isHalf) * x * x * x);
            return 0.5 * x * (1.0 + std::tanh(z));
        }
        case MathFn::kFasterGelu: return 0.5 * x * (1.0 + std::tanh(0.5 * -AsT(-1.702, isHalf) * x));
        case MathFn::kFasterGeluV2: {
            const double a = std::fabs(AsT(0.7071, isHalf) * x);
            const double c = (a < AsT(1.769, isHalf) ? a : AsT(1.769, isHalf)) - AsT(1.769, isHalf);
            const double x1 = AsT(-0.1444, isHalf) * c * c + 0.5;
            return x >= 0 ? x * (x1 + 0.5) : x * (0.5 - x1);
        }
        case MathFn::kAcos: return std::acos(x);
        case MathFn::kAcosh: return std::log(x + std::sqrt(x * x - 1.0));
        case MathFn::kAsin: return std::asin(x);
        case MathFn::kAsinh: return std::copysign(std::log(std::fabs(x) + std::sqrt(x * x + 1.0)), x);
        case MathFn::kAtan: return std::atan(x);
        case MathFn::kAtanh: return 0.5 * std::log((1.0 + x) / (1.0 - x));
        case MathFn::kCeil: return std::ceil(x);
        case MathFn::kCos: return std::cos(x);
        case MathFn::kCosh: return 0.5 * (std::exp(x) + std::exp(-x));
        case MathFn::kErf: return std::erf(x);
        case MathFn::kErfc: return std::erfc(x);
        case MathFn::kFloor: return std::floor(x);
        case MathFn::kFrac: return x - (x < 0 ? std::ceil(x) : std::floor(x));
        case MathFn::kLog: return std::log(x);
        case MathFn::kLog2: return std::log(x) / std::log(2.0);
        case MathFn::kLog10: return std::log(x) / std::log(10.0);
        case MathFn::kRound: {
            const double f = std::floor(x);
            const double d = x - f;
            if (d > 0.5) return f + 1.0;
            if (d < 0.5) return f;
            return std::fmod(f, 2.0) == 0.0 ? f : f + 1.0;
        }
        case MathFn::kSign: return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0);
        case MathFn::kSin: return std::sin(x);
        case MathFn::kSinh: return 0.5 * (std::exp(x) - std::exp(-x));
        case MathFn::kTan: return std::sin(x) / std::cos(x);
        case MathFn::kTanh: return std::tanh(x);
        case MathFn::kTrunc: return x < 0 ? std::ceil(x) : std::floor(x);
        case MathFn::kExp: return std::exp(x);  // 10 Taylor terms: within float rounding of e^x
        case MathFn::kClampMin: return x < kClampBound ? kClampBound : x;
        case MathFn::kClampMax: return x > kClampBound ? kClampBound : x;
        case MathFn::kCount: break;
    }
    return 0.0;
}

template <typename T>
double ToDouble(T v)
{
    if constexpr (std::is_same_v<T, half>) return static_cast<double>(static_cast<float>(v));
    else return static_cast<double>(v);
}

template <typename T>
ascend_twin::LaunchStats Run(const Case& c, std::vector<T>& in, std::vector<T>& out)
{
    gCase = c;
    ascend_twin::LaunchSpec spec;
    spec.kernel = "adv_math";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&Kernel<T>);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size() * sizeof(T)}, {"out", out.data(), out.size() * sizeof(T)}};
    return ascend_twin::Launch(spec);
}

// One function on n elements of T in every form; returns the number of failed runs.
template <typename T>
int CheckFn(MathFn fn, uint32_t n)
{
    const char* name = ascend_twin::MathFnName(fn);
    const bool isFloat = std::is_same_v<T, float>;
    const ascend_twin::MathTmpSize sz = ascend_twin::MathTmpSizeA2(fn, sizeof(T), n, false);
    const uint32_t lo = AlignUp(sz.minValue == 0 ? 32 : sz.minValue, 32);
    const uint32_t hi = AlignUp(sz.maxValue > lo ? sz.maxValue : lo, 32);
    const struct {
        int form;
        uint32_t tmp;
    } runs[] = {{0, lo}, {0, hi}, {1, 0}, {2, lo}, {3, 0}};
    // float: one rounding of the exact value (the twin); the NPU's polynomials are documented to a few ulp,
    // the tests hold the twin to its own 2 ulp. half: 2 ulp of half.
    const bool activation = fn >= MathFn::kSigmoid;
    const double rel = isFloat ? (activation ? 1e-6 : 2.5e-7) : (activation ? 3e-3 : 2.0e-3);
    const double abs = isFloat ? (activation ? 1e-7 : 1e-30) : (activation ? 1e-4 : 1e-7);
    int failed = 0;
    for (const auto& r : runs) {
        Case c;
        c.fn = fn;
        c.form = r.form;
        c.n = n;
        c.tmpBytes = r.tmp;
        std::vector<T> in(n);
        for (uint32_t i = 0; i < n; ++i) in[i] = T(Input(fn, i));
        std::vector<T> out(n);
        std::memset(out.data(), 0x5a, out.size() * sizeof(T));
        gMaskNormalFull = false;
        Run<T>(c, in, out);
        int bad = 0;
        for (uint32_t i = 0; i < n; ++i) {
            const double x = ToDouble(in[i]);
            const double ref = Reference(fn, x, !isFloat);
            const double got = ToDouble(out[i]);
            const bool ok = std::isnan(ref) ? std::isnan(got)
                                            : (got == ref || std::fabs(got - ref) <= rel * std::fabs(ref) + abs);
            if (!ok && bad++ < 3) {
                std::printf("  %s<%s> form %d tmp %u: x[%u] = %.9g -> %.9g, expected %.9g\n", name,
                            isFloat ? "float" : "half", r.form, r.tmp, i, x, got, ref);
            }
        }
        // Silu and Swish leave the mask normal, holding (0, n) as lane bits, as A2's do.
        const bool keepsCount = fn == MathFn::kSilu || fn == MathFn::kSwish;
        const bool maskOk = keepsCount ? gMaskLow == n : gMaskNormalFull;
        if (!maskOk) std::printf("  %s form %d: the mask is not what A2 leaves\n", name, r.form);
        failed += (bad != 0 || !maskOk) ? 1 : 0;
    }
    return failed;
}

// --- planted faults --------------------------------------------------------------------------------------

template <int kFault>
void FaultKernel(GM_ADDR in, GM_ADDR)
{
    if constexpr (kFault >= 20 && kFault < 30) {  // with a TPipe: the framework's buffer, and the pipes around the call
        TPipe pipe;
        TBuf<TPosition::VECCALC> sb, db, fill;
        pipe.InitBuffer(sb, 256);
        pipe.InitBuffer(db, 256);
        LocalTensor<half> s = sb.Get<half>();
        LocalTensor<half> d = db.Get<half>();
        if constexpr (kFault == 20 || kFault == 21) {
            // UB left for the framework's buffer: 480 bytes (half Floor's minimum 512 - 32), then exactly 512.
            const uint32_t left = kFault == 20 ? 480 : 512;
            pipe.InitBuffer(fill, 196608 - 128 - 512 - left);
            Duplicate(s, half(2.5f), 128);
            Floor(d, s, 128);
        } else {  // 22: src copied in without MTE2 -> V; 23: with it
            GlobalTensor<half> inGm;
            inGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(in));
            pipe.InitBuffer(fill, 512);
            LocalTensor<uint8_t> tmp = fill.Get<uint8_t>();
            DataCopy(s, inGm, 128);
            if constexpr (kFault == 23) {
                SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
                WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
            }
            Floor(d, s, tmp, 128);
        }
        return;
    } else {
        LocalMemAllocator<Hardware::UB> ub;
        LocalTensor<half> a = ub.Alloc<half, 256>();
        LocalTensor<half> b = ub.Alloc<half, 256>();
        LocalTensor<uint8_t> t = ub.Alloc<uint8_t, 1024>();
        LocalTensor<uint8_t> tA1 = LocalMemAllocator<Hardware::L1>().Alloc<TPosition::A1, uint8_t, 1024>();
        Duplicate(a, half(0.25f), 256);
        if constexpr (kFault == 0) Floor(b, a, t, 256);  // the clean counterpart
        if constexpr (kFault == 1) Floor(b, a, tA1, 256);
        if constexpr (kFault == 2) Floor(b, a[1], t, 128);
        if constexpr (kFault == 3) Floor(b, a[16], t, 128);
        if constexpr (kFault == 4) Floor(b, a, t, 257);  // calCount past what src and dst hold
        if constexpr (kFault == 5) {
            LocalTensor<half> shortDst = b;
            shortDst.SetSize(128);
            Floor(shortDst, a, t, 200);
        }
        if constexpr (kFault == 6) Floor(a, a, t, 256);          // in place: the docs forbid it
        if constexpr (kFault == 7) Floor(a[64], a, t, 128);      // partial overlap
        if constexpr (kFault == 8) Trunc(a, a, t, 256);          // Trunc's docs allow it
        if constexpr (kFault == 9) Log(a, a, 256);               // Log's docs forbid it
        if constexpr (kFault == 10 || kFault == 11) {
            LocalTensor<uint8_t> tmp = t;
            tmp.SetSize(kFault == 10 ? 480 : 512);  // half Floor: minimum 2 * 256
            Floor(b, a, tmp, 256);
        }
        if constexpr (kFault == 12) Floor(b, a, b.ReinterpretCast<uint8_t>(), 128);  // tmp over dst
        if constexpr (kFault == 13) {
            LocalTensor<float> fa = a.ReinterpretCast<float>();
            LocalTensor<float> fb = b.ReinterpretCast<float>();
            Floor(fb, fa, t[32], 128);  // float Floor uses no temporary buffer: a too small one is fine
            LocalTensor<uint8_t> none = t;
            none.SetSize(0);
            Floor(fb, fa, none, 128);
        }
        if constexpr (kFault == 14) Floor(b, a, 256);  // the framework form without a TPipe
        if constexpr (kFault == 15) Log(b, a, 256);    // no temporary buffer at all: no TPipe needed
        if constexpr (kFault == 16) Sin(b, a, t, 256); // half Sin: minimum 8 * 256 = 2048 bytes
        if constexpr (kFault == 17) Tan(b, a, tA1, 0); // calCount 0 still checks the operands
        if constexpr (kFault == 30) Sigmoid(a, a, t, 256);           // the docs forbid overlap
        if constexpr (kFault == 31) Gelu(a, a, t, 256);              // Gelu's docs allow it (复用)
        if constexpr (kFault == 32) Silu(a[16], a, 200);             // partial overlap
        if constexpr (kFault == 33) Swish(b, a, 256, half(1.0f));    // no temporary buffer, no TPipe needed
        if constexpr (kFault == 34 || kFault == 35) {
            LocalTensor<uint8_t> tmp = t;
            tmp.SetSize(kFault == 34 ? 736 : 768);  // the Gelu family: minimum 3 * 256
            FasterGeluV2(b, a, tmp, 256);
        }
        if constexpr (kFault == 36) Gelu(b, a, 256);                 // the framework form without a TPipe
        if constexpr (kFault == 40 || kFault == 41) {  // half Exp: 4 float copies, minimum 4 * 256
            LocalTensor<uint8_t> tmp = t;
            tmp.SetSize(kFault == 40 ? 992 : 1024);
            Exp<half, 10, false>(b, a, tmp, 256);
        }
        if constexpr (kFault == 42 || kFault == 43) {  // float Exp: 3 copies, 2 with isReuseSource
            LocalTensor<float> fa = a.ReinterpretCast<float>();
            LocalTensor<float> fb = b.ReinterpretCast<float>();
            LocalTensor<uint8_t> tmp = t;
            tmp.SetSize(512);
            if constexpr (kFault == 42) Exp<float, 12, true>(fb, fa, tmp, 128);
            else Exp<float, 12, false>(fb, fa, tmp, 128);
        }
        if constexpr (kFault == 44) {  // level 0 is the basic Exp: the temporary buffer is not used
            LocalTensor<uint8_t> tmp = t;
            tmp.SetSize(32);
            Exp<half, 0, false>(b, a, tmp, 256);
        }
        if constexpr (kFault == 45) Exp<half, 10, false>(a, a, t, 256);  // the docs forbid src/dst overlap
        if constexpr (kFault == 46 || kFault == 47) {  // half ClampMin: GetClampMaxMinTmpSize's minimum 128 bytes
            LocalTensor<uint8_t> tmp = t;
            tmp.SetSize(kFault == 46 ? 96 : 128);
            ClampMin<half>(b, a, tmp, half(0.5f), 256);
        }
        if constexpr (kFault == 48) ClampMax<half>(a[16], a, t, half(0.5f), 128);  // partial overlap
        if constexpr (kFault == 49) ClampMax<half>(b, a, b.ReinterpretCast<uint8_t>(), half(0.5f), 128);  // tmp over dst
        if constexpr (kFault == 50) ClampMin<half>(b, a, half(0.5f), 256);  // the framework form without a TPipe
    }
}

// Exp with `level` Taylor terms on float inputs x; returns the output.
template <uint8_t level, bool reuse>
std::vector<float> RunExpLevel(const std::vector<float>& x, std::vector<float>* srcAfter = nullptr)
{
    static std::vector<float> input;
    input = x;
    auto kernel = [](GM_ADDR in, GM_ADDR out) {
        LocalMemAllocator<Hardware::UB> ub;
        LocalTensor<float> a = ub.Alloc<float, 64>();
        LocalTensor<float> b = ub.Alloc<float, 64>();
        LocalTensor<uint8_t> t = ub.Alloc<uint8_t, 768>();
        GlobalTensor<float> i, o;
        i.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
        o.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
        DataCopy(a, i, 64);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        Exp<float, level, reuse>(b, a, t, 64);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(o, b, 64);
        DataCopy(o[64], a, 64);
    };
    std::vector<float> out(128);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "exp_level";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(static_cast<void (*)(GM_ADDR, GM_ADDR)>(kernel));
    spec.blockDim = 1;
    spec.args = {{"in", input.data(), input.size() * 4}, {"out", out.data(), out.size() * 4}};
    ascend_twin::Launch(spec);
    if (srcAfter != nullptr) srcAfter->assign(out.begin() + 64, out.end());
    out.resize(64);
    return out;
}

using fault::Broke;

}  // namespace

TEST_CASE("every elementwise math and activation function, float: every form against double references")
{
    for (uint32_t f = 0; f < static_cast<uint32_t>(MathFn::kCount); ++f) {
        CHECK_EQ(CheckFn<float>(static_cast<MathFn>(f), 1000), 0);
    }
}

TEST_CASE("every elementwise math and activation function, half: every form against double references")
{
    for (uint32_t f = 0; f < static_cast<uint32_t>(MathFn::kCount); ++f) {
        CHECK_EQ(CheckFn<half>(static_cast<MathFn>(f), 777), 0);
    }
}

TEST_CASE("inputs outside the documented domain give NaN (the NPU's output is invalid there)")
{
    const struct {
        MathFn fn;
        double x;
    } outside[] = {{MathFn::kAcos, 1.5}, {MathFn::kAsin, -2.0}, {MathFn::kAcosh, 0.5}, {MathFn::kAtanh, 0.0005},
                   {MathFn::kAtanh, 0.995}, {MathFn::kSin, 70000.0}, {MathFn::kCos, -1e6}, {MathFn::kTan, 65504.0}};
    for (const auto& o : outside) {
        Case c;
        c.fn = o.fn;
        c.form = 0;
        c.n = 8;
        c.tmpBytes = 4096;
        std::vector<float> in(8, o.fn == MathFn::kAcosh ? 2.0f : 0.5f), out(8, 0.0f);  // inside the domain
        in[3] = static_cast<float>(o.x);
        Run<float>(c, in, out);
        CHECK(std::isnan(out[3]));
        CHECK(!std::isnan(out[2]));
    }
}

TEST_CASE("Sin and Cos on float with isReuseSource use src as scratch: src is undefined afterwards")
{
    gCase = Case{};
    auto kernel = [](GM_ADDR, GM_ADDR out) {
        LocalMemAllocator<Hardware::UB> ub;
        LocalTensor<float> a = ub.Alloc<float, 64>();
        LocalTensor<float> b = ub.Alloc<float, 64>();
        LocalTensor<uint8_t> t = ub.Alloc<uint8_t, 512>();  // float with reuse: 2 * 256
        Duplicate(a, 0.5f, 64);
        Sin<float, true>(b, a, t, 64);
        PipeBarrier<PIPE_V>();
        Adds(a, a, 1.0f, 64);  // reads what Sin left in src
        GlobalTensor<float> o;
        o.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(o, a, 64);
        DataCopy(o[64], b, 64);
    };
    std::vector<float> in(8), out(128);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "sin_reuse";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(static_cast<void (*)(GM_ADDR, GM_ADDR)>(kernel));
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size() * 4}, {"out", out.data(), out.size() * 4}};
    ascend_twin::Launch(spec);
    CHECK(std::isnan(out[0]));
    CHECK(std::fabs(out[64] - std::sin(0.5)) < 1e-7);
}

TEST_CASE("Exp with few Taylor terms: A2's expansion e^floor(x) * sum (x - floor(x))^k / k!, not e^x")
{
    std::vector<float> x(64);
    for (float& v : x) v = static_cast<float>(Uniform(-6.0, 6.0));
    const std::vector<float> two = RunExpLevel<2, false>(x);
    const std::vector<float> ten = RunExpLevel<10, false>(x);
    std::vector<float> srcAfter;
    const std::vector<float> reused = RunExpLevel<15, true>(x, &srcAfter);
    int far = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        const double xi = x[i];
        const double w = std::floor(xi);
        const double d = xi - w;
        const double ref2 = std::exp(w) * (1.0 + d + d * d / 2.0);  // two terms past 1
        CHECK(std::fabs(two[i] - ref2) <= 2.5e-7 * ref2);
        CHECK(std::fabs(ten[i] - std::exp(xi)) <= 2.5e-7 * std::exp(xi));
        CHECK(std::fabs(reused[i] - std::exp(xi)) <= 2.5e-7 * std::exp(xi));
        far += std::fabs(two[i] - std::exp(xi)) > 1e-3 * std::exp(xi) ? 1 : 0;
        CHECK(std::isnan(srcAfter[i]));  // float with isReuseSource: src held x - floor(x), undefined after
    }
    CHECK(far > 10);  // two terms are visibly short of e^x, as the docs warn
}

TEST_CASE("a math call counts one V instruction of its own kind")
{
    Case c;
    c.fn = MathFn::kTanh;
    c.n = 1000;
    c.tmpBytes = 4096;
    std::vector<float> in(1000, 0.25f), out(1000);
    const ascend_twin::LaunchStats stats = Run<float>(c, in, out);
    const auto& k = stats.cores[0];
    const uint32_t op = static_cast<uint32_t>(ascend_twin::VecOp::kTanh);
    CHECK_EQ(k.vecElementOps[op], 1000ull);
    CHECK_EQ(k.vecCalls[op], 1ull);
    CHECK_EQ(k.vecRepeats[op], 16ull);  // 4000 bytes
    for (uint32_t f = 0; f < static_cast<uint32_t>(MathFn::kCount); ++f) {
        const auto op2 = static_cast<ascend_twin::VecOp>(static_cast<uint32_t>(ascend_twin::VecOp::kAcos) + f);
        // the advanced Exp counts as "Exp<taylorExpandLevel>", apart from the basic Exp
        CHECK_EQ(std::string(ascend_twin::VecOpName(op2)).rfind(ascend_twin::MathFnName(static_cast<MathFn>(f)), 0), 0u);
    }
}

TEST_CASE("GetXxxMaxMinTmpSize and GetXxxTmpBufferFactorSize return A2's sizes")
{
    struct Want {
        void (*fn)(const TensorShape&, const uint32_t, const bool, uint32_t&, uint32_t&);
        std::vector<int64_t> shape;
        uint32_t typeSize;
        bool reuse;
        uint32_t min, max;
    } wants[] = {
        {&GetFloorMaxMinTmpSize, {1000}, 2, false, 2 * 256, 2 * 2000},
        {&GetFloorMaxMinTmpSize, {1000}, 4, false, 0, 0},
        {&GetFloorMaxMinTmpSize, {10}, 2, false, 512, 512},  // max(20, 256) bytes, twice
        {&GetLogMaxMinTmpSize, {1000}, 2, false, 0, 0},
        {&GetLog10MaxMinTmpSize, {1000}, 4, false, 0, 0},
        {&GetLog2MaxMinTmpSize, {1000}, 2, false, 256, 4000},  // half: n floats
        {&GetLog2MaxMinTmpSize, {10}, 2, false, 256, 256},
        {&GetLog2MaxMinTmpSize, {1000}, 4, false, 0, 0},
        {&GetSinMaxMinTmpSize, {8, 125}, 4, false, 3 * 256, 3 * 4000},
        {&GetSinMaxMinTmpSize, {1000}, 4, true, 2 * 256, 2 * 4000},
        {&GetSinMaxMinTmpSize, {1000}, 2, false, 8 * 256, 8 * 2000},
        {&GetAcoshMaxMinTmpSize, {100}, 2, false, 2 * 256, 256 * 2},  // max(2 * 100, 256) * typeSize
        {&GetAcoshMaxMinTmpSize, {1000}, 4, false, 256, 1000 * 4},
        {&GetSignMaxMinTmpSize, {10}, 4, false, 768, 768},
        {&GetSignMaxMinTmpSize, {1000}, 2, false, 768, 6000},
        {&GetClampMaxMinTmpSize, {1000}, 4, false, 64, 1000},  // bytes = elements, as A2 has it
        {&GetClampMaxMinTmpSize, {100}, 2, false, 128, 128},
    };
    for (const Want& w : wants) {
        uint32_t mn = 1, mx = 1;
        w.fn(ge::Shape(w.shape), w.typeSize, w.reuse, mx, mn);
        CHECK_EQ(mn, w.min);
        CHECK_EQ(mx, w.max);
    }
    const platform_ascendc::PlatformAscendC& p = *platform_ascendc::PlatformAscendCManager::GetInstance();
    uint32_t mn = 1, mx = 1;
    GetRoundMaxMinTmpSize(p, ge::Shape({1000}), 2, false, mx, mn);
    CHECK_EQ(mn, 256u);
    CHECK_EQ(mx, 2000u);
    GetRoundMaxMinTmpSize(p, ge::Shape({1000}), 4, false, mx, mn);
    CHECK_EQ(mn, 0u);
    CHECK_EQ(mx, 0u);
    // Refused: the outputs stay as they were.
    mn = mx = 7;
    GetSinMaxMinTmpSize(ge::Shape({1000}), 2, true, mx, mn);  // half with isReuseSource
    CHECK_EQ(mn, 7u);
    GetFloorMaxMinTmpSize(ge::Shape(std::vector<int64_t>{0}), 2, false, mx, mn);  // no elements
    CHECK_EQ(mx, 7u);
    const struct {
        void (*fn)(const uint32_t, uint32_t&, uint32_t&);
        uint32_t typeSize, factor;
    } factors[] = {{&GetErfcTmpBufferFactorSize, 2, 16}, {&GetErfcTmpBufferFactorSize, 4, 7},
                   {&GetAtanTmpBufferFactorSize, 4, 5},  {&GetFloorTmpBufferFactorSize, 4, 0},
                   {&GetLog2TmpBufferFactorSize, 2, 2},  {&GetSinTmpBufferFactorSize, 4, 3},
                   {&GetTanTmpBufferFactorSize, 2, 10}};
    for (const auto& f : factors) {
        uint32_t live = 99, extra = 99;
        f.fn(f.typeSize, live, extra);
        CHECK_EQ(live, f.factor);
        CHECK_EQ(extra, 0u);
    }
    uint32_t live = 99, extra = 99;
    GetRoundTmpBufferFactorSize(p, 2, live, extra);
    CHECK_EQ(live, 1u);
    // The advanced Exp: float copies whatever T is; GetExpMaxMinTmpSize returns true.
    CHECK(GetExpMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn));
    CHECK_EQ(mn, 4u * 256);
    CHECK_EQ(mx, 4u * 4000);
    CHECK(GetExpMaxMinTmpSize(ge::Shape({1000}), 4, true, mx, mn));
    CHECK_EQ(mn, 2u * 256);
    CHECK_EQ(mx, 2u * 4000);
    CHECK(GetExpMaxMinTmpSize(ge::Shape({10}), 4, false, mx, mn));
    CHECK_EQ(mn, 3u * 256);
    CHECK_EQ(mx, 3u * 256);
    GetExpTmpBufferFactorSize(2, live, extra);
    CHECK_EQ(live, 8u);
    GetExpTmpBufferFactorSize(4, live, extra);
    CHECK_EQ(live, 3u);
    GetClampTmpBufferFactorSize(2, live, extra);
    CHECK_EQ(live, 1u);
    CHECK_EQ(extra, 0u);
}

TEST_CASE("activation host sizes: GetSigmoidMaxMinTmpSize, GetSiluTmpSize, GetSwishTmpSize, GetGelu*TmpSize")
{
    uint32_t mn = 1, mx = 1;
    GetSigmoidMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn);
    CHECK_EQ(mn, 256u);
    CHECK_EQ(mx, 2000u);
    GetSigmoidMaxMinTmpSize(ge::Shape({10}), 4, false, mx, mn);
    CHECK_EQ(mx, 256u);
    GetGeluMaxMinTmpSize(ge::Shape({1000}), 2, mx, mn);  // float intermediates for either dtype
    CHECK_EQ(mn, 768u);
    CHECK_EQ(mx, 12000u);
    CHECK_EQ(GetGeluMaxTmpSize(ge::Shape({10}), 4), 768u);
    CHECK_EQ(GetGeluMinTmpSize(ge::Shape({10}), 4), 768u);
    GetSiluTmpSize(ge::Shape({1000}), 4, false, mx, mn);
    CHECK_EQ(mx + mn, 0u);
    mx = mn = 5;
    GetSwishTmpSize(ge::Shape({1000}), 2, false, mx, mn);
    CHECK_EQ(mx + mn, 0u);
    mx = mn = 7;
    GetGeluMaxMinTmpSize(ge::Shape({1000}), 8, mx, mn);  // refused: typeSize 8
    CHECK_EQ(mx, 7u);
    GetSigmoidMaxMinTmpSize(ge::Shape(std::vector<int64_t>{0}), 4, false, mx, mn);  // refused: no elements
    CHECK_EQ(mn, 7u);
}

TEST_CASE("math rules: planted faults and clean counterparts")
{
    const std::string pos = "the advanced math API's operands are at VECIN, VECCALC or VECOUT";
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "Floor: " + pos));
    CHECK(Broke(&FaultKernel<2>, "Floor: UB operands start at a 32-byte aligned address"));
    CHECK(Broke(&FaultKernel<3>, ""));
    const std::string count = "calCount is at most the number of elements dstTensor and srcTensor hold";
    CHECK(Broke(&FaultKernel<4>, "Floor: " + count));
    CHECK(Broke(&FaultKernel<5>, "Floor: " + count));
    const std::string overlap = "src and dst do not overlap (docs: 不支持源操作数与目的操作数地址重叠)";
    CHECK(Broke(&FaultKernel<6>, "Floor: " + overlap));
    CHECK(Broke(&FaultKernel<7>, "Floor: " + overlap));
    CHECK(Broke(&FaultKernel<8>, ""));
    CHECK(Broke(&FaultKernel<9>, "Log: " + overlap));
    CHECK(Broke(&FaultKernel<10>, "Floor: sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum"));
    CHECK(Broke(&FaultKernel<11>, ""));
    CHECK(Broke(&FaultKernel<12>, "Floor: sharedTmpBuffer does not overlap src or dst"));
    CHECK(Broke(&FaultKernel<13>, ""));
    const std::string framework =
        "without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 bytes) holds the API's "
        "minimum temporary size";
    CHECK(Broke(&FaultKernel<14>, "Floor: " + framework));
    CHECK(Broke(&FaultKernel<15>, ""));
    CHECK(Broke(&FaultKernel<16>, "Sin: sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum"));
    CHECK(Broke(&FaultKernel<17>, "Tan: " + pos));
    CHECK(Broke(&FaultKernel<30>, "Sigmoid: " + overlap));
    CHECK(Broke(&FaultKernel<31>, ""));
    CHECK(Broke(&FaultKernel<32>, "Silu: " + overlap));
    CHECK(Broke(&FaultKernel<33>, ""));
    CHECK(Broke(&FaultKernel<34>, "FasterGeluV2: sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum"));
    CHECK(Broke(&FaultKernel<35>, ""));
    CHECK(Broke(&FaultKernel<36>, "Gelu: " + framework));
    CHECK(Broke(&FaultKernel<40>, "Exp: sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum"));
    CHECK(Broke(&FaultKernel<41>, ""));
    CHECK(Broke(&FaultKernel<42>, ""));
    CHECK(Broke(&FaultKernel<43>, "Exp: sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum"));
    CHECK(Broke(&FaultKernel<44>, ""));
    CHECK(Broke(&FaultKernel<45>, "Exp: " + overlap));
    CHECK(Broke(&FaultKernel<46>, "ClampMin: sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum"));
    CHECK(Broke(&FaultKernel<47>, ""));
    CHECK(Broke(&FaultKernel<48>, "ClampMax: " + overlap));
    CHECK(Broke(&FaultKernel<49>, "ClampMax: sharedTmpBuffer does not overlap src or dst"));
    CHECK(Broke(&FaultKernel<50>, "ClampMin: " + framework));
    CHECK(Broke(&FaultKernel<20>, "Floor: " + framework));
    CHECK(Broke(&FaultKernel<21>, ""));
    CHECK(Broke(&FaultKernel<22>, "Floor: accesses of different pipes to the same UB bytes are ordered by synchronisation"));
    CHECK(Broke(&FaultKernel<23>, ""));
}

TEST_MAIN()
