// The rule checks and the arithmetic of the advanced math library's elementwise functions
// (twin/include/twin/kernel_adv_math.h).
#include "twin/kernel_adv_math.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "adv_common.h"

namespace AscendC::twin_detail {

namespace {

// A2's PopStackBuffer ends the framework's buffer at TOTAL_UB_SIZE - sizeof(KfcMsg): the last 128 bytes of
// UB carry the cube/vector message slot (dav_c220 kfc_comm.h).
constexpr uint64_t kKfcMsgBytes = 128;

bool IsVecPosition(TPosition p)
{
    return p == TPosition::VECIN || p == TPosition::VECCALC || p == TPosition::VECOUT;
}

// Whether the docs allow src and dst to overlap: Trunc says so ("支持源操作数与目的操作数地址重叠"), Round's
// docs say nothing; every other function here says "不支持源操作数与目的操作数地址重叠".
// The Gelu family's docs allow it too ("源操作数和目的操作数的Tensor空间可以复用").
bool OverlapAllowed(ascend_twin::MathFn fn)
{
    using ascend_twin::MathFn;
    return fn == MathFn::kTrunc || fn == MathFn::kRound || fn == MathFn::kGelu || fn == MathFn::kFasterGelu ||
           fn == MathFn::kFasterGeluV2;
}

// A constant as the A2 implementation holds it: a T (`const T coefficientsA = 0.044715;`).
double AsT(double c, bool isHalf)
{
    return isHalf ? static_cast<double>(static_cast<float>(half(c))) : static_cast<double>(static_cast<float>(c));
}

// The documented input domain on A2 (docs 约束说明); outside it the output is invalid.
bool InDomain(ascend_twin::MathFn fn, double x)
{
    using ascend_twin::MathFn;
    switch (fn) {
        case MathFn::kAcos: case MathFn::kAsin: return x >= -1.0 && x <= 1.0;
        case MathFn::kAcosh: return x >= 1.0 && x <= 65504.0;
        case MathFn::kAsinh: case MathFn::kSin: case MathFn::kCos: return x >= -65504.0 && x <= 65504.0;
        case MathFn::kAtanh: return (x > -0.99 && x < -0.001) || (x > 0.001 && x < 0.99);
        case MathFn::kTan: return x > -65504.0 && x < 65504.0;
        default: return true;
    }
}

double Apply(ascend_twin::MathFn fn, double x, bool isHalf, double scalar)
{
    using ascend_twin::MathFn;
    if (!std::isnan(x) && !InDomain(fn, x)) return std::numeric_limits<double>::quiet_NaN();
    switch (fn) {
        case MathFn::kAcos: return std::acos(x);
        case MathFn::kAcosh: return std::acosh(x);
        case MathFn::kAsin: return std::asin(x);
        case MathFn::kAsinh: return std::asinh(x);
        case MathFn::kAtan: return std::atan(x);
        case MathFn::kAtanh: return std::atanh(x);
        case MathFn::kCeil: return std::ceil(x);
        case MathFn::kCos: return std::cos(x);
        case MathFn::kCosh: return std::cosh(x);
        case MathFn::kErf: return std::erf(x);
        case MathFn::kErfc: return std::erfc(x);
        case MathFn::kFloor: return std::floor(x);
        case MathFn::kFrac: return std::isinf(x) ? std::copysign(0.0, x) : x - std::trunc(x);
        case MathFn::kLog: return std::log(x);
        case MathFn::kLog2: return std::log2(x);
        case MathFn::kLog10: return std::log10(x);
        case MathFn::kRound: return std::nearbyint(x);  // the default rounding: to nearest, half to even
        case MathFn::kSign: return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0);  // NaN -> 0, as A2's Compare/Select
        case MathFn::kSin: return std::sin(x);
        case MathFn::kSinh: return std::sinh(x);
        case MathFn::kTan: return std::tan(x);
        case MathFn::kTanh: return std::tanh(x);
        case MathFn::kTrunc: return std::trunc(x);
        case MathFn::kSigmoid: return 1.0 / (1.0 + std::exp(-x));
        case MathFn::kSilu: return x / (1.0 + std::exp(-x));
        case MathFn::kSwish: return x / (1.0 + std::exp(-scalar * x));  // beta as the kernel passed it (a T)
        case MathFn::kGelu: {  // x / (1 + exp(-1.5957691216057308 * (x + 0.044715 x^3))), A2's tanh form
            const double y = AsT(1.5957691216057308, isHalf) * (x + AsT(0.044715, isHalf) * x * x * x);
            return x / (1.0 + std::exp(-y));
        }
        case MathFn::kFasterGelu: return x / (1.0 + std::exp(AsT(-1.702, isHalf) * x));
        case MathFn::kFasterGeluV2: {  // x * (sgn(x) * (-0.1444 (min(|0.7071 x|, 1.769) - 1.769)^2 + 0.5) + 0.5)
            const double c = std::min(std::fabs(AsT(0.7071, isHalf) * x), AsT(1.769, isHalf)) - AsT(1.769, isHalf);
            const double x1 = AsT(-0.1444, isHalf) * c * c + 0.5;
            const double shifted = x + AsT(1e-12, isHalf);  // A2's sign: (x + 1e-12) / |x + 1e-12|
            const double sgn = shifted > 0 ? 1.0 : (shifted < 0 ? -1.0 : 0.0);
            return x * (sgn * x1 + 0.5);
        }
        case MathFn::kExp: {  // A2's Taylor form, `scalar` terms: e^floor(x) * sum_{k<=level} (x - floor(x))^k / k!
            if (!std::isfinite(x)) return std::exp(x);
            const double whole = std::floor(x);
            const double frac = x - whole;
            double term = 1.0;
            double sum = 1.0;
            for (int k = 1; k <= static_cast<int>(scalar); ++k) {
                term *= frac / k;
                sum += term;
            }
            return std::exp(whole) * sum;
        }
        case MathFn::kClampMin: return x < scalar ? scalar : x;  // Maxs
        case MathFn::kClampMax: return x > scalar ? scalar : x;  // Mins
        case MathFn::kCount: break;
    }
    return x;
}

}  // namespace

uint8_t* AdvFrameworkTmp(const char* call, const void* tpipe, uint64_t pipeEnd, uint64_t& bytes)
{
    const char* rule =
        "without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 bytes) holds the API's "
        "minimum temporary size";
    if (tpipe == nullptr) {
        ascend_twin::Fail(call, rule, "there is no TPipe (GetTPipePtr() is null): pass sharedTmpBuffer");
    }
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    const uint64_t end = core.platform->ubSize - kKfcMsgBytes;
    if (pipeEnd >= end) {
        ascend_twin::FailF(call, rule, "the TPipe's buffers end at UB %llu, nothing is left before %llu", U(pipeEnd),
                           U(end));
    }
    bytes = end - pipeEnd;
    return core.ub + pipeEnd;
}

uint64_t CheckMathUnary(ascend_twin::MathFn fn, uint32_t typeSize, bool isReuseSource, uint32_t calCount,
                        const MathOperand& dst, const MathOperand& src, const MathOperand& tmp, bool framework)
{
    const char* call = ascend_twin::MathFnName(fn);
    const char* posRule = "the advanced math API's operands are at VECIN, VECCALC or VECOUT";
    if (!IsVecPosition(dst.pos)) ascend_twin::FailF(call, posRule, "dstTensor is at %s", PositionName(dst.pos));
    if (!IsVecPosition(src.pos)) ascend_twin::FailF(call, posRule, "srcTensor is at %s", PositionName(src.pos));
    const bool tmpBound = tmp.addr != nullptr;
    if (!framework && tmpBound && !IsVecPosition(tmp.pos)) {
        ascend_twin::FailF(call, posRule, "sharedTmpBuffer is at %s", PositionName(tmp.pos));
    }
    ascend_twin::CheckUbAligned(call, "dstTensor", dst.addr);
    ascend_twin::CheckUbAligned(call, "srcTensor", src.addr);
    if (tmpBound) ascend_twin::CheckUbAligned(call, "sharedTmpBuffer", tmp.addr);

    const uint64_t bytes = static_cast<uint64_t>(calCount) * typeSize;
    const char* countRule = "calCount is at most the number of elements dstTensor and srcTensor hold";
    if (bytes > src.bytes) {
        ascend_twin::FailF(call, countRule, "calCount = %u, srcTensor holds %llu", calCount, U(src.bytes / typeSize));
    }
    if (bytes > dst.bytes) {
        ascend_twin::FailF(call, countRule, "calCount = %u, dstTensor holds %llu", calCount, U(dst.bytes / typeSize));
    }
    if (!OverlapAllowed(fn) && Overlap(src.addr, bytes, dst.addr, bytes)) {
        ascend_twin::FailF(call, "src and dst do not overlap (docs: 不支持源操作数与目的操作数地址重叠)",
                           "srcTensor [UB %llu, +%llu bytes) and dstTensor [UB %llu, +%llu bytes) share bytes",
                           U(ascend_twin::UbOffset(src.addr)), U(bytes), U(ascend_twin::UbOffset(dst.addr)), U(bytes));
    }
    // The kernel side uses the factor of the dtype it runs: isReuseSource matters for float Sin/Cos only.
    const ascend_twin::MathTmpSize need =
        ascend_twin::MathTmpSizeA2(fn, typeSize, calCount == 0 ? 1 : calCount, isReuseSource && typeSize == 4);
    if (need.minValue == 0) return 0;
    const bool clamp = fn == ascend_twin::MathFn::kClampMin || fn == ascend_twin::MathFn::kClampMax;
    const char* sizeFn = clamp ? "Clamp" : call;  // GetClampMaxMinTmpSize serves both
    if (tmp.bytes < need.minValue) {
        if (framework) {
            ascend_twin::FailF(call,
                               "without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 "
                               "bytes) holds the API's minimum temporary size",
                               "%llu bytes are left, Get%sMaxMinTmpSize's minimum is %u", U(tmp.bytes), sizeFn,
                               need.minValue);
        }
        ascend_twin::FailF(call, "sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum",
                           "sharedTmpBuffer holds %llu bytes, Get%sMaxMinTmpSize's minimum for %s is %u", U(tmp.bytes),
                           sizeFn, typeSize == 4 ? "float" : "half", need.minValue);
    }
    // A2's implementations split calCount into rounds of what the buffer holds: they write at most the maximum.
    uint64_t used = std::min<uint64_t>(tmp.bytes, need.maxValue);
    const char* which = Overlap(tmp.addr, used, src.addr, bytes) ? "srcTensor"
                        : Overlap(tmp.addr, used, dst.addr, bytes) ? "dstTensor"
                                                                   : nullptr;
    if (which != nullptr) {
        ascend_twin::FailF(call, "sharedTmpBuffer does not overlap src or dst",
                           "the %llu bytes of the temporary buffer %s writes (from UB %llu) share bytes with %s", U(used),
                           call, U(ascend_twin::UbOffset(tmp.addr)), which);
    }
    // ClampMin/ClampMax take the buffer (and its constraints) but A2's Maxs/Mins never write it.
    if (clamp) used = 0;
    return used;
}

void EvalMathUnary(ascend_twin::MathFn fn, uint32_t typeSize, const void* src, void* dst, uint32_t n, double scalar)
{
    if (typeSize == 4) {
        const float* s = static_cast<const float*>(src);
        float* d = static_cast<float*>(dst);
        for (uint32_t i = 0; i < n; ++i) d[i] = static_cast<float>(Apply(fn, static_cast<double>(s[i]), false, scalar));
    } else {
        const half* s = static_cast<const half*>(src);
        half* d = static_cast<half*>(dst);
        for (uint32_t i = 0; i < n; ++i) {
            d[i] = half(Apply(fn, static_cast<double>(static_cast<float>(s[i])), true, scalar));
        }
    }
}

ascend_twin::VecOp MathVecOp(ascend_twin::MathFn fn)
{
    return static_cast<ascend_twin::VecOp>(static_cast<uint32_t>(ascend_twin::VecOp::kAcos) + static_cast<uint32_t>(fn));
}

}  // namespace AscendC::twin_detail
