// The SoftMax family ("lib/activation/softmax.h", simplesoftmax.h, softmaxflash.h, softmaxflashv2.h, logsoftmax.h,
// softmaxgrad.h) against float64 references computed here from fresh random inputs: float, half and the half/float
// forms; padded rows (oriSrcK < srcK), tilings of several parts with a tail, the tiling recomputed on the kernel side
// when the call's shape is not the tiling's, the framework's temporary buffer, the broadcast statistics blocks and
// SOFTMAX_OUTPUT_WITHOUT_BRC; the host tiling functions against A2's numbers; AdjustSoftMaxRes; every run-time rule
// with a planted fault and a clean counterpart.
#include <algorithm>
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
#include "lib/activation/logsoftmax.h"
#include "lib/activation/simplesoftmax.h"
#include "lib/activation/softmax.h"
#include "lib/activation/softmaxflash.h"
#include "lib/activation/softmaxflashv2.h"
#include "lib/activation/softmaxgrad.h"
#include "tiling/activation/logsoftmax_tiling.h"
#include "tiling/activation/softmax_tiling.h"
#include "twin/launch.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // SoftmaxFlash is deprecated, as in the real header

using namespace AscendC;

namespace {

constexpr uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
constexpr SoftmaxConfig kNoBrc = {false, 0, 0, SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};
constexpr SoftmaxConfig kNoBrcChecked = {true, 0, 0, SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};

enum class Api { kSoftMax, kSimple, kFlash, kFlashV2, kLog, kGrad, kGradFront };

struct Case {
    Api api = Api::kSoftMax;
    int form = 0;  // 0 sharedTmpBuffer, 1 the framework's buffer, 2 no statistics (SoftMax), 3 outReduceMax (FlashV2)
    uint32_t m = 8, k = 64, oriM = 8, oriK = 64;
    uint32_t tmpBytes = 0;  // sharedTmpBuffer's size
    bool update = false, front = false, noBrc = false, kernelTiling = false;
    SoftMaxTiling tiling{};
};
Case gCase;

// GM layout: in = src | grad | inMax | inSum, out = dst | max | sum | expMax | reduceMax; each part 32-byte aligned.
struct Layout {
    uint32_t rowsBytes, statBytes2, statBytes1;
    uint32_t src, grad, inMax, inSum, inEnd;
    uint32_t dst, max, sum, expMax, reduceMax, outEnd;
};

template <typename T1, typename T2>
Layout LayoutOf(const Case& c)
{
    Layout l{};
    l.rowsBytes = c.m * c.k * sizeof(T1);
    l.statBytes2 = AlignUp(c.m * (c.noBrc ? 1 : 32 / sizeof(T2)) * sizeof(T2), 32);
    l.statBytes1 = AlignUp(c.m * (c.noBrc ? 1 : 32 / sizeof(T1)) * sizeof(T1), 32);
    l.src = 0;
    l.grad = l.src + l.rowsBytes;
    l.inMax = l.grad + l.rowsBytes;
    l.inSum = l.inMax + l.statBytes2;
    l.inEnd = l.inSum + l.statBytes2;
    l.dst = 0;
    l.max = l.dst + l.rowsBytes;
    l.sum = l.max + l.statBytes2;
    l.expMax = l.sum + l.statBytes2;
    l.reduceMax = l.expMax + l.statBytes1;
    l.outEnd = l.reduceMax + l.statBytes2;
    return l;
}

template <typename T>
LocalTensor<T> Load(TPipe& pipe, TBuf<TPosition::VECCALC>& buf, GM_ADDR gm, uint32_t offset, uint32_t bytes)
{
    pipe.InitBuffer(buf, bytes);
    LocalTensor<T> t = buf.Get<T>();
    GlobalTensor<uint8_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(gm) + offset);
    DataCopyPad(t.template ReinterpretCast<uint8_t>(), g, DataCopyExtParams{1, bytes, 0, 0, 0},
                DataCopyPadExtParams<uint8_t>{false, 0, 0, 0});
    return t;
}

template <typename T>
void Store(GM_ADDR gm, uint32_t offset, const LocalTensor<T>& t, uint32_t bytes)
{
    GlobalTensor<uint8_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(gm) + offset);
    DataCopyPad(g, t.template ReinterpretCast<uint8_t>(), DataCopyExtParams{1, bytes, 0, 0, 0});
}

template <typename T1, typename T2, const SoftmaxConfig& cfg>
void FlashV2Call(const Case& c, const LocalTensor<T1>& dst, const LocalTensor<T2>& rm, const LocalTensor<T2>& sm,
                 const LocalTensor<T2>& mx, const LocalTensor<T1>& src, const LocalTensor<T1>& em,
                 const LocalTensor<T2>& inSum, const LocalTensor<T2>& inMax, const LocalTensor<uint8_t>& tmp,
                 const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shape)
{
    if (c.update) {
        if (c.form == 0) SoftmaxFlashV2<T1, true, false, false, false, cfg>(dst, sm, mx, src, em, inSum, inMax, tmp, tiling, shape);
        if (c.form == 1) SoftmaxFlashV2<T1, true, false, false, false, cfg>(dst, sm, mx, src, em, inSum, inMax, tiling, shape);
        if constexpr (std::is_same_v<T1, T2>) {
            if (c.form == 3) {
                SoftmaxFlashV2<T1, true, false, false, false, cfg>(dst, rm, sm, mx, src, em, inSum, inMax, tmp, tiling,
                                                                   shape);
            }
        }
    } else {
        if (c.form == 0) SoftmaxFlashV2<T1, false, false, false, false, cfg>(dst, sm, mx, src, em, inSum, inMax, tmp, tiling, shape);
        if (c.form == 1) SoftmaxFlashV2<T1, false, false, false, false, cfg>(dst, sm, mx, src, em, inSum, inMax, tiling, shape);
    }
}

template <typename T1, typename T2, bool noBrc>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const Layout l = LayoutOf<T1, T2>(c);
    TPipe pipe;
    TBuf<TPosition::VECCALC> srcB, gradB, inMaxB, inSumB, dstB, maxB, sumB, expB, redB, tmpB;
    LocalTensor<T1> src = Load<T1>(pipe, srcB, in, l.src, l.rowsBytes);
    LocalTensor<T1> grad = Load<T1>(pipe, gradB, in, l.grad, l.rowsBytes);
    LocalTensor<T2> inMax = Load<T2>(pipe, inMaxB, in, l.inMax, l.statBytes2);
    LocalTensor<T2> inSum = Load<T2>(pipe, inSumB, in, l.inSum, l.statBytes2);
    pipe.InitBuffer(dstB, l.rowsBytes);
    pipe.InitBuffer(maxB, l.statBytes2);
    pipe.InitBuffer(sumB, l.statBytes2);
    pipe.InitBuffer(expB, l.statBytes1);
    pipe.InitBuffer(redB, l.statBytes2);
    LocalTensor<T1> dst = dstB.Get<T1>();
    LocalTensor<T2> mx = maxB.Get<T2>();
    LocalTensor<T2> sm = sumB.Get<T2>();
    LocalTensor<T1> em = expB.Get<T1>();
    LocalTensor<T2> rm = redB.Get<T2>();
    // Outputs start as zeros: what an API leaves unwritten comes back as zeros.
    Duplicate(dst, T1(0.0f), static_cast<int32_t>(dst.GetSize()));
    Duplicate(mx, T2(0.0f), static_cast<int32_t>(mx.GetSize()));
    Duplicate(sm, T2(0.0f), static_cast<int32_t>(sm.GetSize()));
    Duplicate(em, T1(0.0f), static_cast<int32_t>(em.GetSize()));
    Duplicate(rm, T2(0.0f), static_cast<int32_t>(rm.GetSize()));
    const bool framework = c.form == 1 || (c.api == Api::kSoftMax && c.form == 3);
    if (!framework) pipe.InitBuffer(tmpB, c.tmpBytes);
    LocalTensor<uint8_t> tmp = framework ? LocalTensor<uint8_t>() : tmpB.Get<uint8_t>();
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    const SoftMaxShapeInfo shape{c.m, c.k, c.oriM, c.oriK};
    SoftMaxTiling tiling = c.tiling;
    if (c.kernelTiling) {
        tiling = SoftMaxFlashV2TilingFunc(shape, sizeof(T1), sizeof(T2), tmp.GetSize(), c.update, false, false, noBrc);
    }
    constexpr bool kSame = std::is_same_v<T1, T2>;
    switch (c.api) {
        case Api::kSoftMax:
            if constexpr (kSame) {
                if (c.form == 0) SoftMax<T1>(dst, sm, mx, src, tmp, tiling, shape);
                if (c.form == 1) SoftMax<T1>(dst, sm, mx, src, tiling, shape);
                if (c.form == 2) SoftMax<T1>(dst, src, tmp, tiling, shape);
                if (c.form == 3) SoftMax<T1>(dst, src, tiling, shape);
            } else {
                if (c.form == 0) SoftMax<T1>(dst, sm, mx, src, tmp, tiling, shape);
                if (c.form == 1) SoftMax<T1>(dst, sm, mx, src, tiling, shape);
            }
            break;
        case Api::kSimple:
            if (c.form == 0) SimpleSoftMax<T1>(dst, inSum, inMax, src, tmp, tiling, shape);
            if (c.form == 1) SimpleSoftMax<T1>(dst, inSum, inMax, src, tiling, shape);
            break;
        case Api::kFlash:
            if (c.form == 0) SoftmaxFlash<T1>(dst, sm, mx, src, em, inSum, inMax, tmp, tiling, c.update, shape);
            if (c.form == 1) SoftmaxFlash<T1>(dst, sm, mx, src, em, inSum, inMax, tiling, c.update, shape);
            break;
        case Api::kFlashV2:
            if constexpr (noBrc) FlashV2Call<T1, T2, kNoBrc>(c, dst, rm, sm, mx, src, em, inSum, inMax, tmp, tiling, shape);
            else FlashV2Call<T1, T2, SOFTMAX_DEFAULT_CFG>(c, dst, rm, sm, mx, src, em, inSum, inMax, tmp, tiling, shape);
            break;
        case Api::kLog:
            if constexpr (kSame) {
                LogSoftMaxTiling lt;
                std::memcpy(&lt, &tiling, sizeof(lt));
                LogSoftMax<T1>(dst, sm, mx, src, tmp, lt, shape);
            }
            break;
        case Api::kGrad:
            if constexpr (kSame) {
                if (c.form == 0) SoftmaxGrad<T1>(dst, grad, src, tmp, tiling, c.front, shape);
                if (c.form == 1) SoftmaxGrad<T1>(dst, grad, src, tiling, c.front, shape);
            }
            break;
        case Api::kGradFront:
            if constexpr (kSame) {
                if (c.form == 0) SoftmaxGradFront<T1>(dst, grad, src, tmp, tiling, shape);
                if (c.form == 1) SoftmaxGradFront<T1>(dst, grad, src, tiling, shape);
            }
            break;
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    Store(out, l.dst, dst, l.rowsBytes);
    Store(out, l.max, mx, l.statBytes2);
    Store(out, l.sum, sm, l.statBytes2);
    Store(out, l.expMax, em, l.statBytes1);
    Store(out, l.reduceMax, rm, l.statBytes2);
}

using check::Rng;

template <typename T>
double D(T v)
{
    if constexpr (std::is_same_v<T, half>) return static_cast<double>(static_cast<float>(v));
    else return static_cast<double>(v);
}

template <typename T>
double Get(const std::vector<uint8_t>& bytes, uint32_t offset, uint32_t i)
{
    T v;
    std::memcpy(static_cast<void*>(&v), bytes.data() + offset + i * sizeof(T), sizeof(T));
    return D(v);
}

template <typename T>
void Put(std::vector<uint8_t>& bytes, uint32_t offset, uint32_t i, double v)
{
    const T t = T(static_cast<float>(v));
    std::memcpy(bytes.data() + offset + i * sizeof(T), static_cast<const void*>(&t), sizeof(T));
}

template <typename T>
double Tol()
{
    return std::is_same_v<T, float> ? 2e-6 : 2e-3;
}

struct Expect {
    std::vector<double> dst, max, sum, expMax, reduceMax;
    uint32_t rows = 0;
};

// The float64 reference of one case (the docs' formulas), rows the tiling covers.
template <typename T1, typename T2>
Expect Reference(const Case& c, const std::vector<uint8_t>& in, uint32_t rows)
{
    const Layout l = LayoutOf<T1, T2>(c);
    const uint32_t b2 = c.noBrc ? 1 : 32 / sizeof(T2);
    Expect e;
    e.rows = rows;
    e.dst.assign(static_cast<size_t>(rows) * c.k, 0.0);
    e.max.assign(rows, 0.0);
    e.sum.assign(rows, 0.0);
    e.expMax.assign(rows, 0.0);
    e.reduceMax.assign(rows, 0.0);
    for (uint32_t r = 0; r < rows; ++r) {
        std::vector<double> x(c.k), g(c.k);
        for (uint32_t j = 0; j < c.k; ++j) {
            x[j] = Get<T1>(in, l.src, r * c.k + j);
            g[j] = Get<T1>(in, l.grad, r * c.k + j);
        }
        const double inMax = Get<T2>(in, l.inMax, r * b2);
        const double inSum = Get<T2>(in, l.inSum, r * b2);
        double rowMax = -INFINITY;
        for (uint32_t j = 0; j < c.oriK; ++j) rowMax = std::max(rowMax, x[j]);
        const double mx = (c.update && (c.api == Api::kFlash || c.api == Api::kFlashV2)) ? std::max(rowMax, inMax) : rowMax;
        double s = 0.0, d = 0.0;
        for (uint32_t j = 0; j < c.oriK; ++j) {
            s += std::exp(x[j] - mx);
            d += g[j] * x[j];
        }
        const double em = std::exp(inMax - mx);
        const bool upd = c.update && (c.api == Api::kFlash || c.api == Api::kFlashV2);
        if (upd) s = em * inSum + s;
        e.max[r] = mx;
        e.sum[r] = c.api == Api::kGrad || c.api == Api::kGradFront ? d : s;
        e.expMax[r] = c.api == Api::kFlash ? em * inSum / s : em;
        e.reduceMax[r] = rowMax;
        for (uint32_t j = 0; j < c.k; ++j) {
            double v = 0.0;
            switch (c.api) {
                case Api::kSoftMax: v = std::exp(x[j] - mx) / s; break;
                case Api::kLog: v = std::log10(std::exp(x[j] - mx) / s); break;
                case Api::kSimple: v = std::exp(x[j] - inMax) / inSum; break;
                case Api::kFlash: v = std::exp(x[j] - mx) / s; break;
                case Api::kFlashV2: v = std::exp(x[j] - mx); break;
                case Api::kGrad: v = c.front ? d : (g[j] - d) * x[j]; break;
                case Api::kGradFront: v = d; break;
            }
            e.dst[static_cast<size_t>(r) * c.k + j] = v;
        }
    }
    return e;
}

// Relative to the value, and for half half a step of its subnormals (2^-25) absolute.
bool Near(double got, double want, double rel)
{
    return std::fabs(got - want) <= rel * std::fabs(want) + (rel > 1e-4 ? 3.0e-8 : 1e-38);
}

// Runs one case against its reference; returns the number of mismatching values (prints the first few).
template <typename T1, typename T2>
int RunCase(Case c, const char* what)
{
    gCase = c;
    const Layout l = LayoutOf<T1, T2>(c);
    std::vector<uint8_t> in(l.inEnd), out(l.outEnd, 0);
    const uint32_t b2 = c.noBrc ? 1 : 32 / sizeof(T2);
    for (uint32_t i = 0; i < c.m * c.k; ++i) {
        Put<T1>(in, l.src, i, std::uniform_real_distribution<double>(-4.0, 4.0)(Rng()));
        Put<T1>(in, l.grad, i, std::uniform_real_distribution<double>(-1.0, 1.0)(Rng()));
    }
    for (uint32_t r = 0; r < c.m; ++r) {  // in statistics: one value a block, as the docs require
        const double im = std::uniform_real_distribution<double>(-1.0, 4.5)(Rng());
        const double is = std::uniform_real_distribution<double>(0.5, 30.0)(Rng());
        for (uint32_t j = 0; j < b2; ++j) {
            Put<T2>(in, l.inMax, r * b2 + j, im);
            Put<T2>(in, l.inSum, r * b2 + j, is);
        }
    }
    ascend_twin::LaunchSpec spec;
    spec.kernel = "softmax";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(c.noBrc ? &Kernel<T1, T2, true> : &Kernel<T1, T2, false>);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size()}, {"out", out.data(), out.size()}};
    try {
        ascend_twin::Launch(spec);
    } catch (const ascend_twin::RuleViolation& e) {
        std::printf("  %s: %s: %s (%s)\n", what, e.call.c_str(), e.rule.c_str(), e.detail.c_str());
        return 1;
    }
    // Rows the parts cover: srcM for a host tiling, oriSrcM where SoftMax-like APIs recompute.
    const bool recompute = c.api == Api::kLog || c.kernelTiling || c.tiling.srcM != c.m || c.tiling.srcK != c.k;
    const bool oriRows = recompute && (c.api == Api::kSoftMax || c.api == Api::kSimple || c.api == Api::kLog);
    const Expect e = Reference<T1, T2>(c, in, oriRows ? c.oriM : c.m);
    const double rel1 = Tol<T1>(), rel2 = Tol<T2>();
    int bad = 0;
    const auto check = [&](const char* name, double got, double want, double rel, uint32_t r, uint32_t j) {
        if (!Near(got, want, rel)) {
            if (bad < 4) std::printf("  %s: %s[%u][%u] = %.9g, expected %.9g\n", what, name, r, j, got, want);
            ++bad;
        }
    };
    const bool blocksDst = c.api == Api::kGradFront || (c.api == Api::kGrad && c.front);
    for (uint32_t r = 0; r < e.rows; ++r) {
        if (blocksDst) {
            for (uint32_t j = 0; j < 32 / sizeof(T1); ++j) {
                check("dst", Get<T1>(out, l.dst, r * (32 / sizeof(T1)) + j), e.dst[r * c.k], rel1, r, j);
            }
        } else {
            for (uint32_t j = 0; j < c.k; ++j) check("dst", Get<T1>(out, l.dst, r * c.k + j), e.dst[r * c.k + j], rel1, r, j);
        }
        const bool stats = !(c.api == Api::kSoftMax && c.form >= 2) && c.api != Api::kSimple && c.api != Api::kGrad && c.api != Api::kGradFront;
        for (uint32_t j = 0; stats && j < b2; ++j) {
            check("max", Get<T2>(out, l.max, r * b2 + j), e.max[r], rel2, r, j);
            check("sum", Get<T2>(out, l.sum, r * b2 + j), e.sum[r], rel2, r, j);
        }
        const uint32_t b1 = c.noBrc ? 1 : 32 / sizeof(T1);
        for (uint32_t j = 0; c.update && j < b1; ++j) {
            check("expMax", Get<T1>(out, l.expMax, r * b1 + j), e.expMax[r], rel1, r, j);
        }
        if (c.form == 3 && c.api == Api::kFlashV2) check("outReduceMax", Get<T2>(out, l.reduceMax, r), e.reduceMax[r], rel2, r, 0);
    }
    // Rows past the ones computed stay as they were (zero).
    for (uint32_t i = e.rows * c.k; !blocksDst && i < c.m * c.k; ++i) {
        if (Get<T1>(out, l.dst, i) != 0.0 && bad++ < 4) std::printf("  %s: dst element %u written past the rows\n", what, i);
    }
    return bad;
}

// A host tiling of the API for the case's shape and workspace.
void HostTiling(Case& c, uint32_t ws, uint32_t t1, uint32_t t2)
{
    const ge::Shape shape({static_cast<int64_t>(c.m), static_cast<int64_t>(c.k)});
    switch (c.api) {
        case Api::kSoftMax: case Api::kSimple: SoftMaxTilingFunc(shape, t1, ws, c.tiling); break;
        case Api::kFlash: SoftMaxFlashTilingFunc(shape, t1, ws, c.tiling, c.update); break;
        case Api::kFlashV2: SoftMaxFlashV2TilingFunc(shape, t1, t2, ws, c.tiling, c.update, false, c.noBrc); break;
        case Api::kLog: {
            LogSoftMaxTiling lt;
            LogSoftMaxTilingFunc(shape, t1, ws, lt);
            std::memcpy(&c.tiling, &lt, sizeof(lt));
            break;
        }
        case Api::kGrad: case Api::kGradFront:
            SoftMaxGradTilingFunc(shape, t1, ws, c.tiling, c.api == Api::kGradFront || c.front);
            break;
    }
}

Case WithHostTiling(Case c, uint32_t t1, uint32_t t2)
{
    HostTiling(c, c.tmpBytes, t1, t2);
    return c;
}

// The API over several shapes: one part, several parts with a tail (a small workspace), padded rows, the
// framework's buffer, and a tiling for another shape (recomputed on the kernel side).
template <typename T1, typename T2>
int Sweep(Api api, bool update, bool front, bool noBrc, int forms)
{
    int failed = 0;
    const uint32_t blkK = 32 / sizeof(T1);
    for (int variant = 0; variant < 4; ++variant) {
        for (int form : {0, 1, 2, 3}) {
            if (!(forms & (1 << form))) continue;
            Case c;
            c.api = api;
            c.form = form;
            c.update = update;
            c.front = front;
            c.noBrc = noBrc;
            c.m = variant == 0 ? 8 : (variant == 1 ? 37 : 24);
            c.k = variant == 3 ? 4 * blkK : 10 * blkK;
            c.oriM = c.m;
            c.oriK = variant == 2 ? c.k - 5 : c.k;
            uint32_t maxTmp = 0;
            if (api == Api::kFlashV2) {
                maxTmp = GetSoftMaxFlashV2MaxTmpSize(ge::Shape({c.m, c.k}), sizeof(T1), sizeof(T2), update);
            } else if (api == Api::kGrad || api == Api::kGradFront) {
                maxTmp = GetSoftMaxGradMaxTmpSize(ge::Shape({c.m, c.k}), sizeof(T1), front || api == Api::kGradFront, false);
            } else if (api == Api::kFlash) {
                maxTmp = GetSoftMaxFlashMaxTmpSize(ge::Shape({c.m, c.k}), sizeof(T1), update, false);
            } else {
                maxTmp = GetSoftMaxMaxTmpSize(ge::Shape({c.m, c.k}), sizeof(T1), false);
            }
            // variant 1: a workspace of a few rows (several parts and a tail; WITHOUT_BRC parts of whole blocks of
            // statistics: 17 rows, rounded to 16); others the maximum.
            const uint32_t partRows = noBrc ? 17 : 5;
            c.tmpBytes = AlignUp(variant == 1 ? maxTmp / c.m * partRows + 32 : maxTmp, 32);
            HostTiling(c, c.tmpBytes, sizeof(T1), sizeof(T2));
            if (variant == 3) {  // a tiling for a shape of twice the rows: the API recomputes it from the buffer
                Case other = c;
                other.m = 2 * c.m;
                HostTiling(other, c.tmpBytes, sizeof(T1), sizeof(T2));
                c.tiling = other.tiling;
                c.oriM = c.m - 3;
                if (api == Api::kFlashV2 && noBrc) {  // kNoBrc does not check the tiling: compute it in the kernel
                    c.kernelTiling = form != 1;
                    if (form == 1) c.tiling = WithHostTiling(c, sizeof(T1), sizeof(T2)).tiling;
                    c.oriM = c.m;
                }
            }
            if (variant == 1 && c.tiling.rangeM < 2) {
                std::printf("  variant 1 should split into parts (splitM %u of %u)\n", c.tiling.splitM, c.m);
                ++failed;
            }
            char what[160];
            std::snprintf(what, sizeof(what), "api %d update %d front %d noBrc %d variant %d form %d", int(api), update,
                          front, noBrc, variant, form);
            failed += RunCase<T1, T2>(c, what) != 0 ? 1 : 0;
        }
    }
    return failed;
}

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    TPipe pipe;  // the framework forms need it
    (void)pipe;
    LocalMemAllocator<Hardware::UB> ub;
    constexpr uint32_t M = 8, K = 64;
    LocalTensor<float> src = ub.Alloc<float, M * K + 64>();
    LocalTensor<float> dst = ub.Alloc<float, M * K>();
    LocalTensor<float> mx = ub.Alloc<float, M * 8>();
    LocalTensor<float> sm = ub.Alloc<float, M * 8>();
    LocalTensor<float> em = ub.Alloc<float, M * 8>();
    LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, M * (8 + K + 64) * 4>();
    Duplicate(src, 0.25f, M * K + 64);
    Duplicate(mx, 1.0f, M * 8);
    Duplicate(sm, 2.0f, M * 8);
    SoftMaxTiling t;
    SoftMaxTilingFunc(ge::Shape({M, K}), 4, tmp.GetSize(), t);
    SoftMaxShapeInfo shape{M, K, M, K};
    if constexpr (kFault == 0) SoftMax<float>(dst, sm, mx, src, tmp, t, shape);  // clean
    if constexpr (kFault == 1) SoftMax<float>(dst, sm, mx, src, tmp, t, SoftMaxShapeInfo{M, 60, M, 60});  // srcK unaligned
    if constexpr (kFault == 2) SoftMax<float>(dst, sm, mx, src, tmp, t, SoftMaxShapeInfo{M, K, M, K + 8});  // oriSrcK > srcK
    if constexpr (kFault == 3) SoftMax<float>(dst, sm, mx, src, tmp, t, SoftMaxShapeInfo{});  // no shape
    if constexpr (kFault == 4) {  // the tiling computed for a larger workspace than sharedTmpBuffer holds
        SoftMaxTiling big;
        SoftMaxTilingFunc(ge::Shape({M, K}), 4, 64 * 1024, big);
        LocalTensor<uint8_t> small = tmp;
        small.SetSize(2 * (8 + 64) * 4);
        SoftMax<float>(dst, sm, mx, src, small, big, shape);
    }
    if constexpr (kFault == 5) {  // a garbled tiling
        SoftMaxTiling bad = t;
        bad.splitSize += 8;
        SoftMax<float>(dst, sm, mx, src, tmp, bad, shape);
    }
    if constexpr (kFault == 6) SoftMax<float>(dst, sm, mx, src, src.ReinterpretCast<uint8_t>(), t, shape);  // tmp is src
    if constexpr (kFault == 7) SoftMax<float>(dst, mx, mx, src, tmp, t, shape);  // sum and max the same tensor
    if constexpr (kFault == 9) SoftMax<float>(src[8], sm, mx, src, tmp, t, shape);  // dst partly over src
    if constexpr (kFault == 10) SoftMax<float>(src, sm, mx, src, tmp, t, shape);   // in place: allowed
    if constexpr (kFault == 11) {  // a statistics tensor of 8 elements a row, one row short
        LocalTensor<float> shortMax = mx;
        shortMax.SetSize((M - 1) * 8);
        SoftMax<float>(dst, sm, shortMax, src, tmp, t, shape);
    }
    if constexpr (kFault == 12) {  // SimpleSoftMax: an inMax block holding different values
        mx.SetValue(3, 5.0f);
        SimpleSoftMax<float>(dst, sm, mx, src, tmp, t, shape);
    }
    if constexpr (kFault == 13) SimpleSoftMax<float>(dst, sm, mx, src, tmp, t, shape);  // clean counterpart
    if constexpr (kFault == 14) LogSoftMax<float>(src, sm, mx, src, tmp, *reinterpret_cast<LogSoftMaxTiling*>(&t), shape);
    if constexpr (kFault == 15) LogSoftMax<float>(dst, sm, mx, src, tmp, *reinterpret_cast<LogSoftMaxTiling*>(&t), shape);
    if constexpr (kFault == 16) SoftMax<float, false, true>(dst, sm, mx, src, tmp, t, SoftMaxShapeInfo{M, 40, M, 40});  // basic block: srcK % 64
    if constexpr (kFault == 17) SoftMax<float, false, true>(dst, sm, mx, src, tmp, t, shape);  // basic block: clean
    if constexpr (kFault == 18) SoftMax<float, false, false, true>(dst, sm, mx, src, tmp, t, shape);  // NZ
    if constexpr (kFault == 19) {  // FlashV2 update in place on max/inMax and sum/inSum: allowed
        SoftmaxFlashV2<float, true>(dst, sm, mx, src, em, sm, mx, tmp, t, shape);
    }
    if constexpr (kFault == 20) {  // FlashV2: expMax over inSum
        SoftmaxFlashV2<float, true>(dst, sm, mx, src, sm, sm, mx, tmp, t, shape);
    }
    if constexpr (kFault == 21) {  // FlashV2 with isCheckTiling false and a tiling for another shape
        SoftMaxTiling other;
        SoftMaxFlashV2TilingFunc(ge::Shape({2 * M, K}), 4, 4, tmp.GetSize(), other, false);
        SoftmaxFlashV2<float, false, false, false, false, kNoBrc>(dst, sm, mx, src, em, sm, mx, tmp, other, shape);
    }
    if constexpr (kFault == 22) {  // a workspace below one row when the API recomputes
        LocalTensor<uint8_t> small = tmp;
        small.SetSize(64);
        SoftMax<float>(dst, sm, mx, src, small, SoftMaxTiling{}, shape);
    }
    if constexpr (kFault == 23) SoftMax<float>(dst, sm, mx, src, tmp, t, SoftMaxShapeInfo{M, K, M + 1, K});  // oriSrcM > srcM
    if constexpr (kFault == 24) {  // srcTensor one row short
        LocalTensor<float> shortSrc = src;
        shortSrc.SetSize((M - 1) * K);
        SoftMax<float>(dst, sm, mx, shortSrc, tmp, t, shape);
    }
    if constexpr (kFault == 25) {  // dstTensor one row short
        LocalTensor<float> shortDst = dst;
        shortDst.SetSize((M - 1) * K);
        SoftMax<float>(shortDst, sm, mx, src, tmp, t, shape);
    }
    if constexpr (kFault == 26) SoftMax<float>(dst, sm, mx, src, tmp, SoftMaxTiling{}, SoftMaxShapeInfo{M, K, 0, K});
    if constexpr (kFault == 27) SoftMax<float>(dst, sm, mx, src, tmp, SoftMaxTiling{}, shape);  // recomputed: clean
    if constexpr (kFault == 28 || kFault == 29) {  // FlashV2 with SOFTMAX_OUTPUT_WITHOUT_BRC: one element a row
        SoftMaxTiling own;
        SoftMaxFlashV2TilingFunc(ge::Shape({M, K}), 4, 4, tmp.GetSize(), own, false);
        LocalTensor<float> stat = mx;
        stat.SetSize(kFault == 28 ? M : M - 1);
        SoftmaxFlashV2<float, false, false, false, false, kNoBrc>(dst, sm, stat, src, em, sm, stat, tmp, own, shape);
    }
    if constexpr (kFault == 32) {  // WITHOUT_BRC over parts of 3 rows: their statistics would start mid-block
        LocalTensor<uint8_t> small = tmp;
        small.SetSize(1024);
        SoftMaxTiling parts;
        SoftMaxFlashV2TilingFunc(ge::Shape({M, K}), 4, 4, small.GetSize(), parts, false);  // splitM 3, 2 parts + 2
        LocalTensor<float> stat = mx;
        stat.SetSize(M);
        SoftmaxFlashV2<float, false, false, false, false, kNoBrc>(dst, sm, stat, src, em, sm, stat, small, parts, shape);
    }
    if constexpr (kFault == 30 || kFault == 31) {  // SoftmaxGradFront: one 32-byte block a row
        LocalTensor<float> blocks = dst;
        blocks.SetSize(kFault == 30 ? M * 8 : (M - 1) * 8);
        SoftmaxGradFront<float>(blocks, src, src, tmp, t, shape);
    }
}

// AdjustSoftMaxRes fetches its V->S event id from the TPipe: without one it has nowhere to take it from.
template <bool kWithPipe>
void AdjustWithPipe(GM_ADDR, GM_ADDR)
{
    constexpr uint32_t M = 8, K = 64;
    TPipe* pipe = kWithPipe ? new TPipe : nullptr;
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> res = ub.Alloc<float, M * K>();
    LocalTensor<float> mx = ub.Alloc<float, M * 8>();
    Duplicate(res, 0.5f, M * K);
    Duplicate(mx, 1.0f, M * 8);
    (void)AdjustSoftMaxRes<float, float>(res, mx, 0x3f800000u, 7.0f, SoftMaxShapeInfo{M, K, M, K});
    delete pipe;
}

// AdjustSoftMaxRes: rows whose max (block element 0, or element r with stepSizeMode 1) has the bits of `from`
// become `to`; the result says whether one did.
bool gAdjusted[2] = {false, false};

template <typename T, uint8_t step>
void AdjustKernel(GM_ADDR in, GM_ADDR out)
{
    constexpr uint32_t M = 6, K = 32;
    constexpr uint32_t B = step == 0 ? 32 / sizeof(T) : 1;
    TPipe pipe;
    TBuf<TPosition::VECCALC> resB, maxB;
    LocalTensor<T> res = Load<T>(pipe, resB, in, 0, M * K * sizeof(T));
    LocalTensor<T> mx = Load<T>(pipe, maxB, in, M * K * sizeof(T), AlignUp(M * B * sizeof(T), 32));
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    const uint32_t from = sizeof(T) == 4 ? 0xFF800000u : 0xFC00u;  // -inf
    gAdjusted[step] = AdjustSoftMaxRes<T, T, false, step>(res, mx, from, T(7.0f), SoftMaxShapeInfo{M, K, M, K});
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    Store(out, 0, res, M * K * sizeof(T));
}

template <typename T, uint8_t step>
int CheckAdjust()
{
    constexpr uint32_t M = 6, K = 32;
    constexpr uint32_t B = step == 0 ? 32 / sizeof(T) : 1;
    std::vector<uint8_t> in(M * K * sizeof(T) + AlignUp(M * B * sizeof(T), 32)), out(M * K * sizeof(T));
    for (uint32_t i = 0; i < M * K; ++i) Put<T>(in, 0, i, std::uniform_real_distribution<double>(0.0, 1.0)(Rng()));
    const bool hit[M] = {false, true, false, false, true, false};
    for (uint32_t r = 0; r < M; ++r) {
        for (uint32_t j = 0; j < B; ++j) Put<T>(in, M * K * sizeof(T), r * B + j, hit[r] ? -INFINITY : 0.5 * r);
    }
    ascend_twin::LaunchSpec spec;
    spec.kernel = "adjust";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&AdjustKernel<T, step>);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size()}, {"out", out.data(), out.size()}};
    ascend_twin::Launch(spec);
    int bad = gAdjusted[step] ? 0 : 1;
    for (uint32_t r = 0; r < M; ++r) {
        for (uint32_t j = 0; j < K; ++j) {
            const double want = hit[r] ? 7.0 : Get<T>(in, 0, r * K + j);
            if (Get<T>(out, 0, r * K + j) != want) ++bad;
        }
    }
    return bad;
}

using fault::Broke;

}  // namespace

TEST_CASE("SoftMax float: forms, parts, padding, recomputed tilings against float64")
{
    CHECK_EQ((Sweep<float, float>(Api::kSoftMax, false, false, false, 0xf)), 0);
}
TEST_CASE("SoftMax half and half/float") 
{
    CHECK_EQ((Sweep<half, half>(Api::kSoftMax, false, false, false, 0xf)), 0);
    CHECK_EQ((Sweep<half, float>(Api::kSoftMax, false, false, false, 0x3)), 0);
}
TEST_CASE("SimpleSoftMax float, half, half/float")
{
    CHECK_EQ((Sweep<float, float>(Api::kSimple, false, false, false, 0x3)), 0);
    CHECK_EQ((Sweep<half, half>(Api::kSimple, false, false, false, 0x3)), 0);
    CHECK_EQ((Sweep<half, float>(Api::kSimple, false, false, false, 0x3)), 0);
}
TEST_CASE("SoftmaxFlashV2: without and with update, broadcast and WITHOUT_BRC statistics, outReduceMax")
{
    CHECK_EQ((Sweep<float, float>(Api::kFlashV2, false, false, false, 0x3)), 0);
    CHECK_EQ((Sweep<float, float>(Api::kFlashV2, true, false, false, 0x3)), 0);
    CHECK_EQ((Sweep<half, half>(Api::kFlashV2, true, false, false, 0x3)), 0);
    CHECK_EQ((Sweep<half, float>(Api::kFlashV2, true, false, false, 0x3)), 0);
    CHECK_EQ((Sweep<float, float>(Api::kFlashV2, true, false, true, 0xb)), 0);
    CHECK_EQ((Sweep<half, half>(Api::kFlashV2, true, false, true, 0x9)), 0);
    CHECK_EQ((Sweep<float, float>(Api::kFlashV2, false, false, true, 0x1)), 0);
}
TEST_CASE("SoftmaxFlash: without and with update")
{
    CHECK_EQ((Sweep<float, float>(Api::kFlash, false, false, false, 0x3)), 0);
    CHECK_EQ((Sweep<float, float>(Api::kFlash, true, false, false, 0x3)), 0);
    CHECK_EQ((Sweep<half, half>(Api::kFlash, true, false, false, 0x1)), 0);
}
TEST_CASE("LogSoftMax float and half (log10 of the softmax, as A2)")
{
    CHECK_EQ((Sweep<float, float>(Api::kLog, false, false, false, 0x1)), 0);
    CHECK_EQ((Sweep<half, half>(Api::kLog, false, false, false, 0x1)), 0);
}
TEST_CASE("SoftmaxGrad (isFront false and true) and SoftmaxGradFront")
{
    CHECK_EQ((Sweep<float, float>(Api::kGrad, false, false, false, 0x3)), 0);
    CHECK_EQ((Sweep<half, half>(Api::kGrad, false, false, false, 0x1)), 0);
    CHECK_EQ((Sweep<float, float>(Api::kGrad, false, true, false, 0x1)), 0);
    CHECK_EQ((Sweep<float, float>(Api::kGradFront, false, false, false, 0x3)), 0);
    CHECK_EQ((Sweep<half, half>(Api::kGradFront, false, false, false, 0x1)), 0);
}

TEST_CASE("AdjustSoftMaxRes: the rows whose max is `from` become `to`, both step modes")
{
    CHECK_EQ((CheckAdjust<float, 0>()), 0);
    CHECK_EQ((CheckAdjust<float, 1>()), 0);
    CHECK_EQ((CheckAdjust<half, 0>()), 0);
}

TEST_CASE("The host functions return A2's sizes and tilings")
{
    // SoftMax: blk + k + 64 floats a row (half blk 16, float 8).
    CHECK_EQ(GetSoftMaxMaxTmpSize(ge::Shape({8, 128}), 2, false), 8u * (16 + 128 + 64) * 4);
    CHECK_EQ(GetSoftMaxMinTmpSize(ge::Shape({8, 128}), 4, false), (8u + 128 + 64) * 4);
    CHECK_EQ(GetSoftMaxMaxTmpSize(ge::Shape({0, 128}), 4, false), 0u);
    CHECK_EQ(GetSoftMaxMaxTmpSize(ge::Shape({8, 128}), 8, false), 0u);
    SoftMaxTiling t;
    SoftMaxTilingFunc(ge::Shape({37, 80}), 4, (8 + 80 + 64) * 4 * 12, t);  // 12 rows fit: 8 a part, tail 5
    CHECK_EQ(t.srcM, 37u);
    CHECK_EQ(t.splitM, 8u);
    CHECK_EQ(t.rangeM, 4u);
    CHECK_EQ(t.tailM, 5u);
    CHECK_EQ(t.splitSize, 8u * 80);
    CHECK_EQ(t.reduceK, 8u);
    CHECK_EQ(t.tailReduceSize, 5u * 8);
    SoftMaxTilingFunc(ge::Shape({64, 128}), 4, 64 * 1024, t);  // basic block: a divisor of 64, under 255 repeats
    CHECK_EQ(t.splitM, 64u);
    CHECK(IsBasicBlockInSoftMax(t, 4));
    SoftMaxTilingFunc(ge::Shape({64, 256}), 4, 1024 * 1024, t);
    CHECK_EQ(t.splitM, 32u);  // 64 * 256 >= 64 * 256: halved
    SoftMaxTilingFunc(ge::Shape({4, 128}), 2, 10, t);
    CHECK_EQ(t.splitM + t.rangeM, 0u);
    // SoftmaxFlash: update 4 blk + 2 k.
    CHECK_EQ(GetSoftMaxFlashMaxTmpSize(ge::Shape({4, 64}), 4, true, false), 4u * (32 + 128) * 4);
    CHECK_EQ(GetSoftMaxFlashMinTmpSize(ge::Shape({4, 64}), 2, false, false), (16u + 64 + 64) * 4);
    // SoftmaxGrad: half 2 blk + 3 k + 64; float front blk + k + 64, else 2 blk + k + 64.
    CHECK_EQ(GetSoftMaxGradMinTmpSize(ge::Shape({4, 64}), 2, false, false), (32u + 192 + 64) * 4);
    CHECK_EQ(GetSoftMaxGradMinTmpSize(ge::Shape({4, 64}), 4, true, false), (8u + 64 + 64) * 4);
    CHECK_EQ(GetSoftMaxGradMaxTmpSize(ge::Shape({4, 64}), 4, false, false), 4u * (16 + 64 + 64) * 4);
    // SoftmaxFlashV2 (blk from dataTypeSize2): half 2 blk + k + 64, float blk + 64.
    CHECK_EQ(GetSoftMaxFlashV2MinTmpSize(ge::Shape({16, 64}), 2, 4, true), (16u + 64 + 64) * 4);
    CHECK_EQ(GetSoftMaxFlashV2MaxTmpSize(ge::Shape({16, 64}), 4, 4, true), 16u * (8 + 64) * 4);
    CHECK_EQ(GetSoftMaxFlashV2MinTmpSize(ge::Shape({16, 64}), 2, 2, true, false, true), (32u + 64 + 64) * 4 * 16);
    CHECK_EQ(GetSoftMaxFlashV2MaxTmpSize(ge::Shape({16, 256}), 2, 2, true, true), 16u * (16 + 256 + 64) * 4);
    SoftMaxFlashV2TilingFunc(ge::Shape({40, 64}), 2, 2, (32 + 64 + 64) * 4 * 20, t, true, false, true);
    CHECK_EQ(t.splitM, 16u);  // rounded to a block of half with isFlashOutputBrc
    CHECK_EQ(t.reduceK, 16u);
    // The kernel-side SoftMaxFlashV2TilingFunc (workspace in bytes).
    constexpr SoftMaxTiling kt = SoftMaxFlashV2TilingFunc(SoftMaxShapeInfo{24, 64, 24, 60}, 4, 4, 72 * 4 * 10);
    static_assert(kt.splitM == 8 && kt.rangeM == 3 && kt.tailM == 0, "constexpr, as A2's");
    // SoftmaxFlashV3 (half/float only): 5 blk + 2 k + 64.
    uint32_t mx = 0, mn = 0;
    GetSoftMaxFlashV3MaxMinTmpSize(ge::Shape({4, 64}), 2, 4, mx, mn, true);
    CHECK_EQ(mn, (40u + 128 + 64) * 4);
    CHECK_EQ(mx, 4 * mn);
    // LogSoftMax: as SoftMax.
    CHECK_EQ(GetLogSoftMaxMaxTmpSize(ge::Shape({8, 64}), 4, false), 8u * (8 + 64 + 64) * 4);
    LogSoftMaxTiling lt;
    LogSoftMaxTilingFunc(ge::Shape({8, 64}), 4, 100000, lt);
    CHECK_EQ(lt.splitM, 8u);
}

TEST_CASE("SoftMax-family rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "SoftMax: softmaxShapeInfo.srcK * sizeof(T) is a multiple of 32 bytes (A2's check; pad "
                                 "the rows to srcK and give the data's length as oriSrcK)"));
    CHECK(Broke(&FaultKernel<2>, "SoftMax: 1 <= oriSrcK <= srcK: the reductions cover the oriSrcK data columns of a row"));
    CHECK(Broke(&FaultKernel<3>, "SoftMax: softmaxShapeInfo gives srcM and srcK (with 0 A2 takes the shape from "
                                 "srcTensor's ShapeInfo, which the twin does not model)"));
    CHECK(Broke(&FaultKernel<4>, "SoftMax: sharedTmpBuffer holds what the tiling's parts use: splitM rows of the API's "
                                 "row size (a tiling computed for a larger local workspace overruns it)"));
    CHECK(Broke(&FaultKernel<5>, "SoftMax: the tiling is one A2's tiling functions produce for this shape "
                                 "(SoftMaxTilingFunc & co.; a tiling read from the wrong offset or for another API "
                                 "breaks this)"));
    CHECK(Broke(&FaultKernel<6>, "SoftMax: sharedTmpBuffer overlaps no operand (docs: "
                                 "不支持sharedTmpBuffer与源操作数和目的操作数地址重叠)"));
    CHECK(Broke(&FaultKernel<7>, "SoftMax: an output overlaps no other operand but its documented in-place partner "
                                 "(src/dst; maxTensor/inMaxTensor and sumTensor/inSumTensor for the Flash APIs)"));
    CHECK(Broke(&FaultKernel<9>, "SoftMax: an output and its documented in-place input are the same tensor or do not "
                                 "overlap"));
    CHECK(Broke(&FaultKernel<10>, ""));
    CHECK(Broke(&FaultKernel<11>, "SoftMax: a statistics tensor holds one 32-byte block for every row computed (docs: "
                                  "its last axis is 32 bytes)"));
    CHECK(Broke(&FaultKernel<12>, "SimpleSoftMax: every element of an input statistics block holds the row's value "
                                  "(docs: 该datablock中的所有数据为同一个值)"));
    CHECK(Broke(&FaultKernel<13>, ""));
    CHECK(Broke(&FaultKernel<14>, "LogSoftMax: src and dst do not overlap (LogSoftMax docs: "
                                  "不支持源操作数与目的操作数地址重叠)"));
    CHECK(Broke(&FaultKernel<15>, ""));
    CHECK(Broke(&FaultKernel<16>, "SoftMax: with isBasicBlock, srcK < 2048, srcK >= 256 / sizeof(T), srcK a multiple of "
                                  "64 and srcM a multiple of 8 (A2's check; the basic-block path computes wrong rows "
                                  "otherwise)"));
    CHECK(Broke(&FaultKernel<17>, ""));
    CHECK(Broke(&FaultKernel<18>, "SoftMax: the twin models the ND layout of the SoftMax family"));
    CHECK(Broke(&FaultKernel<19>, ""));
    CHECK(Broke(&FaultKernel<20>, "SoftmaxFlashV2: an output overlaps no other operand but its documented in-place "
                                  "partner (src/dst; maxTensor/inMaxTensor and sumTensor/inSumTensor for the Flash APIs)"));
    CHECK(Broke(&FaultKernel<21>, "SoftmaxFlashV2: with config.isCheckTiling false the tiling is for the call's srcM and "
                                  "srcK (the API runs it as given)"));
    CHECK(Broke(&FaultKernel<22>, "SoftMax: the temporary buffer holds at least one row's share (the minimum of the "
                                  "API's GetXxxMinTmpSize)"));
    CHECK(Broke(&FaultKernel<23>, "SoftMax: oriSrcM <= srcM: the rows are padded up to srcM, never cut"));
    CHECK(Broke(&FaultKernel<24>, "SoftMax: srcTensor (and gradTensor) hold srcM * srcK elements (A2's check)"));
    CHECK(Broke(&FaultKernel<25>, "SoftMax: dstTensor has the shape of srcTensor (docs): it holds srcM * srcK elements"));
    CHECK(Broke(&FaultKernel<26>, "SoftMax: oriSrcM > 0 when the API recomputes the tiling (its parts cover oriSrcM "
                                  "rows)"));
    CHECK(Broke(&FaultKernel<27>, ""));
    CHECK(Broke(&FaultKernel<28>, ""));
    CHECK(Broke(&FaultKernel<29>, "SoftmaxFlashV2: with SOFTMAX_OUTPUT_WITHOUT_BRC a statistics tensor holds one "
                                  "element for every row computed"));
    CHECK(Broke(&FaultKernel<32>, "SoftmaxFlashV2: with SOFTMAX_OUTPUT_WITHOUT_BRC and more than one part, splitM is "
                                  "a multiple of a 32-byte block of T (A2 asserts it: each part's statistics start "
                                  "32-byte aligned)"));
    CHECK(Broke(&AdjustWithPipe<true>, ""));
    CHECK(Broke(&AdjustWithPipe<false>, "AdjustSoftMaxRes: AdjustSoftMaxRes takes its V->S event from the TPipe "
                                         "(FetchEventID)"));
    CHECK(Broke(&FaultKernel<30>, ""));
    CHECK(Broke(&FaultKernel<31>, "SoftmaxGradFront: with isFront the result is one 32-byte block a row: dstTensor "
                                  "holds them all"));
}

TEST_MAIN()
