// The rule checks and the arithmetic of the SoftMax family (twin/include/twin/kernel_adv_softmax.h).
#include "twin/kernel_adv_softmax.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "adv_common.h"

namespace AscendC::twin_detail {

namespace {

using ascend_twin::SoftmaxApi;

bool Overlap(const uint8_t* a, uint64_t aBytes, const uint8_t* b, uint64_t bBytes)
{
    return a != nullptr && b != nullptr && aBytes != 0 && bBytes != 0 && a < b + bBytes && b < a + aBytes;
}

bool IsVec(TPosition p) { return p == TPosition::VECIN || p == TPosition::VECCALC || p == TPosition::VECOUT; }

double Load(const SmTensor& t, uint64_t i)
{
    if (t.typeSize == 4) {
        float v;
        std::memcpy(&v, t.addr + i * 4, 4);
        return v;
    }
    half h;
    std::memcpy(static_cast<void*>(&h), t.addr + i * 2, 2);
    return static_cast<float>(h);
}

void Store(const SmTensor& t, uint64_t i, double v)
{
    if (t.typeSize == 4) {
        const float f = static_cast<float>(v);
        std::memcpy(t.addr + i * 4, &f, 4);
    } else {
        const half h(static_cast<float>(v));  // A2 computes half through float
        std::memcpy(t.addr + i * 2, static_cast<const void*>(&h), 2);
    }
}

ascend_twin::VecOp OpOf(SoftmaxApi api)
{
    using ascend_twin::VecOp;
    switch (api) {
        case SoftmaxApi::kSoftMax: return VecOp::kSoftMax;
        case SoftmaxApi::kSimpleSoftMax: return VecOp::kSimpleSoftMax;
        case SoftmaxApi::kLogSoftMax: return VecOp::kLogSoftMax;
        case SoftmaxApi::kSoftmaxFlash: return VecOp::kSoftmaxFlash;
        case SoftmaxApi::kSoftmaxFlashV2: case SoftmaxApi::kSoftmaxFlashV3: return VecOp::kSoftmaxFlashV2;
        case SoftmaxApi::kSoftmaxGrad: return VecOp::kSoftmaxGrad;
        case SoftmaxApi::kSoftmaxGradFront: return VecOp::kSoftmaxGradFront;
    }
    return VecOp::kSoftMax;
}

// One operand of the call: the bytes it accesses, its direction and its documented in-place partner.
struct Access {
    const char* name;
    const SmTensor* t;
    uint64_t bytes;
    bool output;
    const SmTensor* partner;  // may start at the same address (the docs' reuse)
};

class Call {
public:
    explicit Call(SoftmaxCall& c) : c_(c), name_(c.name) {}

    void Run()
    {
        if (c_.isDataFormatNZ) {
            ascend_twin::Fail(name_, "the twin models the ND layout of the SoftMax family",
                              "isDataFormatNZ = true (the NZ layout) is not modelled by the twin");
        }
        t1_ = c_.src.typeSize;
        t2_ = c_.api == SoftmaxApi::kSoftmaxGrad || c_.api == SoftmaxApi::kSoftmaxGradFront ? t1_
              : c_.sum.present                                                              ? c_.sum.typeSize
              : c_.inSum.present                                                            ? c_.inSum.typeSize
                                                                                            : t1_;
        CheckShape();
        CheckPositions();
        ResolveTiling();
        CheckSizes();
        const std::vector<Access> acc = Accesses();
        CheckTmp(acc);
        CheckOverlaps(acc);
        {
            ascend_twin::Instr instr(name_, ascend_twin::Pipe::kV);
            for (const Access& a : acc) {
                if (!a.output && a.bytes != 0) instr.Read(a.name, a.t->addr, a.bytes);
            }
            if (tmpUsed_ != 0) instr.Write(c_.framework ? "the framework's temporary buffer" : "sharedTmpBuffer",
                                           c_.tmp.addr, tmpUsed_);
            for (const Access& a : acc) {
                if (a.output && a.bytes != 0) instr.Write(a.name, a.t->addr, a.bytes);
            }
        }
        CheckStatBlocks();
        Compute();
        if (tmpUsed_ != 0) std::memset(c_.tmp.addr, 0xff, tmpUsed_);
        SetMaskNorm();
        ResetMask();
        const uint64_t elems = static_cast<uint64_t>(rows_) * srcK_;
        ascend_twin::CountVec(OpOf(c_.api), elems, ascend_twin::CountFormRepeats(elems, t1_));
    }

private:
    void CheckShape()
    {
        const SoftMaxShapeInfo& s = c_.shape;
        if (s.srcM == 0 || s.srcK == 0) {
            ascend_twin::FailF(name_,
                               "softmaxShapeInfo gives srcM and srcK (with 0 A2 takes the shape from srcTensor's "
                               "ShapeInfo, which the twin does not model)",
                               "softmaxShapeInfo = {srcM %u, srcK %u, oriSrcM %u, oriSrcK %u}", s.srcM, s.srcK,
                               s.oriSrcM, s.oriSrcK);
        }
        srcM_ = s.srcM;
        srcK_ = s.srcK;
        if ((static_cast<uint64_t>(srcK_) * t1_) % 32 != 0) {
            ascend_twin::FailF(name_, "softmaxShapeInfo.srcK * sizeof(T) is a multiple of 32 bytes (A2's check; pad "
                               "the rows to srcK and give the data's length as oriSrcK)",
                               "srcK = %u elements of %u bytes", srcK_, t1_);
        }
        oriK_ = (c_.cfgOriSrcM != 0 && c_.cfgOriSrcK != 0) ? c_.cfgOriSrcK : s.oriSrcK;
        if (oriK_ == 0 || oriK_ > srcK_) {
            ascend_twin::FailF(name_, "1 <= oriSrcK <= srcK: the reductions cover the oriSrcK data columns of a row",
                               "oriSrcK = %u, srcK = %u%s", oriK_, srcK_,
                               (c_.cfgOriSrcM != 0 && c_.cfgOriSrcK != 0) ? " (config.oriSrcK)" : "");
        }
        if (s.oriSrcM > srcM_) {
            ascend_twin::FailF(name_, "oriSrcM <= srcM: the rows are padded up to srcM, never cut",
                               "oriSrcM = %u, srcM = %u", s.oriSrcM, srcM_);
        }
        if (c_.api == SoftmaxApi::kSoftmaxFlashV3) CheckFlashV3Params();
        if (c_.isBasicBlock) {
            const bool ok = srcK_ < 2048 && srcK_ >= 256 / t1_ && srcK_ % 64 == 0 && srcM_ % 8 == 0;
            if (!ok) {
                ascend_twin::FailF(name_,
                                   "with isBasicBlock, srcK < 2048, srcK >= 256 / sizeof(T), srcK a multiple of 64 "
                                   "and srcM a multiple of 8 (A2's check; the basic-block path computes wrong rows "
                                   "otherwise)",
                                   "srcM = %u, srcK = %u, sizeof(T) = %u", srcM_, srcK_, t1_);
            }
        }
    }

    // SoftmaxFlashV3's params (A2's check and the docs: n >= 512 and a multiple of 64, m a multiple of 8, no
    // padding, splitMeanCnt 8, loopCnt >= 1 with isUpdate).
    void CheckFlashV3Params() const
    {
        const SoftMaxParams& p = c_.params;
        if (p.srcK < 512 || p.srcK % 64 != 0 || p.srcM % 8 != 0) {
            ascend_twin::FailF(name_, "params.srcK >= 512 and a multiple of 64, params.srcM a multiple of 8 (docs; A2 "
                               "asserts srcK >= 512)", "srcM %u, srcK %u", p.srcM, p.srcK);
        }
        if (p.srcM != p.oriSrcM || p.srcK != p.oriSrcK) {
            ascend_twin::FailF(name_, "params.oriSrcM = srcM and oriSrcK = srcK (docs, A2's check: no padded shapes)",
                               "srcM %u, oriSrcM %u, srcK %u, oriSrcK %u", p.srcM, p.oriSrcM, p.srcK, p.oriSrcK);
        }
        if (p.splitMeanCnt != 8) {
            ascend_twin::FailF(name_, "params.splitMeanCnt is 8 (docs, A2's check)", "splitMeanCnt %u", p.splitMeanCnt);
        }
        if (c_.isUpdate && p.loopCnt < 1) {
            ascend_twin::FailF(name_, "params.loopCnt >= 1 with isUpdate (docs, A2's check)", "loopCnt %u", p.loopCnt);
        }
        if (!(p.alpha != 1.0f)) {
            ascend_twin::FailF(name_, "params.alpha is not 1 (the formula divides by 1 - alpha)", "alpha %g",
                               static_cast<double>(p.alpha));
        }
    }

    void CheckPositions()
    {
        const struct {
            const char* name;
            const SmTensor* t;
        } all[] = {{"dstTensor", &c_.dst},       {"srcTensor", &c_.src},      {"gradTensor", &c_.grad},
                   {"sumTensor", &c_.sum},       {"maxTensor", &c_.max},      {"expMaxTensor", &c_.expMax},
                   {"inSumTensor", &c_.inSum},   {"inMaxTensor", &c_.inMax},  {"outReduceMax", &c_.reduceMax},
                   {"meanTensor", &c_.mean},     {"inMeanTensor", &c_.inMean}, {"sharedTmpBuffer", &c_.tmp}};
        for (const auto& o : all) {
            if (!o.t->present || (o.t == &c_.tmp && c_.framework)) continue;
            if (!IsVec(o.t->pos)) {
                ascend_twin::FailF(name_, "the SoftMax family's operands are at VECIN, VECCALC or VECOUT (A2's check)",
                                   "%s is at %s", o.name, PositionName(o.t->pos));
            }
            ascend_twin::CheckUbAligned(name_, o.name, o.t->addr);
        }
    }

    // The floats a row of a part takes in A2's implementation: the kernel-side tiling's row size, but for
    // SoftmaxFlash without update, which runs SoftMax's implementation (its kernel-side tiling divides by more).
    uint32_t RowFloats() const
    {
        ascend_twin::SoftmaxKernelOptions o;
        o.isBasicBlock = c_.isBasicBlock;
        o.isUpdate = c_.isUpdate;
        o.isFront = c_.isFront;
        const SoftmaxApi api = c_.api == SoftmaxApi::kSoftmaxFlash && !c_.isUpdate ? SoftmaxApi::kSoftMax : c_.api;
        return ascend_twin::SoftmaxKernelRowFloatsA2(api, srcM_, srcK_, t1_, t2_, o);
    }

    void ResolveTiling()
    {
        const tiling::SoftMaxTiling& given = *c_.tiling;
        const bool mismatch = given.srcM != srcM_ || given.srcK != srcK_;
        const uint32_t workFloats = static_cast<uint32_t>(c_.tmp.bytes / 4);
        if (c_.alwaysRecompute || (mismatch && c_.checkTiling)) {
            ascend_twin::SoftmaxKernelOptions o;
            o.isBasicBlock = c_.isBasicBlock;
            o.isUpdate = c_.isUpdate;
            o.isFront = c_.isFront;
            t_ = ascend_twin::SoftmaxKernelTilingA2<tiling::SoftMaxTiling>(c_.api, srcM_, srcK_, c_.shape.oriSrcM, t1_,
                                                                           t2_, workFloats, o, c_.withoutBrc);
            recomputed_ = true;
            const bool softmaxRows = c_.api == SoftmaxApi::kSoftMax || c_.api == SoftmaxApi::kSimpleSoftMax ||
                                     c_.api == SoftmaxApi::kLogSoftMax;
            if (t_.splitM == 0 && softmaxRows && c_.shape.oriSrcM == 0) {
                ascend_twin::FailF(name_, "oriSrcM > 0 when the API recomputes the tiling (its parts cover oriSrcM rows)",
                                   "the shape {srcM %u, srcK %u} is not the tiling's {srcM %u, srcK %u} and oriSrcM is 0",
                                   srcM_, srcK_, given.srcM, given.srcK);
            }
            if (t_.splitM == 0) {
                ascend_twin::FailF(name_,
                                   "the temporary buffer holds at least one row's share (the minimum of the API's "
                                   "GetXxxMinTmpSize)",
                                   "the shape {srcM %u, srcK %u} is not the tiling's {srcM %u, srcK %u}, so the API "
                                   "recomputes the tiling from the temporary buffer's %llu bytes, and a row needs %u "
                                   "bytes",
                                   srcM_, srcK_, given.srcM, given.srcK, U(c_.tmp.bytes), RowFloats() * 4);
            }
        } else {
            if (mismatch) {
                ascend_twin::FailF(name_,
                                   c_.outReduceMax ? "the tiling is for the call's srcM and srcK (the outReduceMax form "
                                                     "runs the tiling as given)"
                                                   : "with config.isCheckTiling false the tiling is for the call's srcM "
                                                     "and srcK (the API runs it as given)",
                                   "the tiling is for {srcM %u, srcK %u}, softmaxShapeInfo says {srcM %u, srcK %u}",
                                   given.srcM, given.srcK, srcM_, srcK_);
            }
            t_ = given;
        }
        const tiling::SoftMaxTiling& t = t_;
        const char* rule = "the tiling is one A2's tiling functions produce for this shape (SoftMaxTilingFunc & co.; a "
                           "tiling read from the wrong offset or for another API breaks this)";
        if (t.splitM == 0) {
            ascend_twin::FailF(name_, rule,
                               "splitM = 0: the local workspace given to the tiling function held no row (below "
                               "GetXxxMinTmpSize)");
        }
        if (t.splitK != srcK_ || t.splitSize != t.splitM * srcK_ || t.reduceM != t.splitM ||
            t.tailSplitSize != t.tailM * srcK_ || t.rangeM == 0 || t.tailM >= t.splitM ||
            t.reduceSize != t.splitM * t.reduceK || t.tailReduceSize != t.tailM * t.reduceK) {
            ascend_twin::FailF(name_, rule,
                               "srcK %u; splitM %u, splitK %u, splitSize %u, reduceM %u, reduceK %u, reduceSize %u, "
                               "rangeM %u, tailM %u, tailSplitSize %u, tailReduceSize %u",
                               srcK_, t.splitM, t.splitK, t.splitSize, t.reduceM, t.reduceK, t.reduceSize, t.rangeM,
                               t.tailM, t.tailSplitSize, t.tailReduceSize);
        }
        const uint64_t rows = static_cast<uint64_t>(t.rangeM) * t.splitM + t.tailM;
        if (rows > srcM_) {
            ascend_twin::FailF(name_, rule, "its parts cover %llu rows, srcM is %u (rangeM %u x splitM %u + tailM %u)",
                               U(rows), srcM_, t.rangeM, t.splitM, t.tailM);
        }
        rows_ = static_cast<uint32_t>(rows);
        if (c_.withoutBrc && (t.rangeM > 1 || t.tailM != 0) && t.splitM % (32 / t1_) != 0) {
            ascend_twin::FailF(name_,
                               "with SOFTMAX_OUTPUT_WITHOUT_BRC and more than one part, splitM is a multiple of a "
                               "32-byte block of T (A2 asserts it: each part's statistics start 32-byte aligned)",
                               "splitM = %u, rangeM = %u, tailM = %u, sizeof(T) = %u", t.splitM, t.rangeM, t.tailM, t1_);
        }
    }

    // Elements of a statistics tensor a row takes.
    uint32_t StatElems(const SmTensor& t) const { return c_.withoutBrc ? 1 : 32 / t.typeSize; }

    void CheckSizes()
    {
        const uint64_t need = static_cast<uint64_t>(srcM_) * srcK_ * t1_;
        for (const auto& [name, t] : {std::pair<const char*, const SmTensor*>{"srcTensor", &c_.src},
                                      {"gradTensor", &c_.grad}}) {
            if (t->present && t->bytes < need) {
                ascend_twin::FailF(name_, "srcTensor (and gradTensor) hold srcM * srcK elements (A2's check)",
                                   "%s holds %llu elements, srcM %u x srcK %u = %llu", name, U(t->bytes / t1_), srcM_,
                                   srcK_, U(need / t1_));
            }
        }
        if (!DstIsBlocks() && c_.dst.bytes < need) {
            ascend_twin::FailF(name_, "dstTensor has the shape of srcTensor (docs): it holds srcM * srcK elements",
                               "dstTensor holds %llu elements, srcM %u x srcK %u = %llu", U(c_.dst.bytes / t1_),
                               srcM_, srcK_, U(need / t1_));
        }
    }

    bool DstIsBlocks() const
    {
        return c_.api == SoftmaxApi::kSoftmaxGradFront || (c_.api == SoftmaxApi::kSoftmaxGrad && c_.isFront);
    }

    uint64_t StatBytes(const SmTensor& t) const { return static_cast<uint64_t>(rows_) * StatElems(t) * t.typeSize; }

    std::vector<Access> Accesses() const
    {
        std::vector<Access> acc;
        const uint64_t rowBytes = static_cast<uint64_t>(rows_) * srcK_ * t1_;
        const bool inPlaceDst = c_.api != SoftmaxApi::kLogSoftMax;  // LogSoftMax: 不支持源操作数与目的操作数地址重叠
        const uint64_t dstBytes = DstIsBlocks() ? rows_ * 32ull : rowBytes;
        acc.push_back({"srcTensor", &c_.src, rowBytes, false, inPlaceDst ? &c_.dst : nullptr});
        if (c_.grad.present) acc.push_back({"gradTensor", &c_.grad, rowBytes, false, nullptr});
        if (c_.inSum.present) acc.push_back({"inSumTensor", &c_.inSum, StatBytes(c_.inSum), false, &c_.sum});
        if (c_.inMax.present) acc.push_back({"inMaxTensor", &c_.inMax, StatBytes(c_.inMax), false, &c_.max});
        if (c_.inMean.present) acc.push_back({"inMeanTensor", &c_.inMean, StatBytes(c_.inMean), false, &c_.mean});
        if (c_.mean.present) acc.push_back({"meanTensor", &c_.mean, StatBytes(c_.mean), true, &c_.inMean});
        acc.push_back({"dstTensor", &c_.dst, dstBytes, true, inPlaceDst ? &c_.src : nullptr});
        if (c_.sum.present) acc.push_back({"sumTensor", &c_.sum, StatBytes(c_.sum), true, &c_.inSum});
        if (c_.max.present) acc.push_back({"maxTensor", &c_.max, StatBytes(c_.max), true, &c_.inMax});
        if (c_.expMax.present) acc.push_back({"expMaxTensor", &c_.expMax, StatBytes(c_.expMax), true, nullptr});
        if (c_.reduceMax.present) {
            acc.push_back({"outReduceMax", &c_.reduceMax, rows_ * uint64_t(c_.reduceMax.typeSize), true, nullptr});
        }
        return acc;
    }

    void CheckTmp(const std::vector<Access>& acc)
    {
        for (const Access& a : acc) {
            if (a.t != &c_.src && a.t != &c_.grad && a.t != &c_.dst && a.t->bytes < a.bytes) {
                ascend_twin::FailF(name_,
                                   c_.withoutBrc ? "with SOFTMAX_OUTPUT_WITHOUT_BRC a statistics tensor holds one "
                                                   "element for every row computed"
                                                 : "a statistics tensor holds one 32-byte block for every row computed "
                                                   "(docs: its last axis is 32 bytes)",
                                   "%s holds %llu bytes, %u rows need %llu", a.name, U(a.t->bytes), rows_, U(a.bytes));
            }
            if (a.t == &c_.dst && a.t->bytes < a.bytes) {
                ascend_twin::FailF(name_, "with isFront the result is one 32-byte block a row: dstTensor holds them all",
                                   "dstTensor holds %llu bytes, %u rows need %llu", U(a.t->bytes), rows_, U(a.bytes));
            }
        }
        uint64_t need = static_cast<uint64_t>(t_.splitM) * RowFloats() * 4;
        if (c_.api == SoftmaxApi::kSoftmaxFlashV3) {
            // A2's layout (softmax_flashv3_impl.h): splitSize, splitM * 64, reduceSize for each of the mean and
            // max temporaries and shifts (three without update), then one row of srcK
            need = (static_cast<uint64_t>(t_.splitM) * (srcK_ + 64) + static_cast<uint64_t>(t_.reduceSize) *
                    (c_.isUpdate ? 4 : 3) + srcK_) * 4;
        }
        if (c_.tmp.bytes < need) {
            ascend_twin::FailF(name_,
                               c_.framework
                                   ? "without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 "
                                     "bytes) holds what the tiling's parts use (splitM rows of the API's row size)"
                                   : "sharedTmpBuffer holds what the tiling's parts use: splitM rows of the API's row "
                                     "size (a tiling computed for a larger local workspace overruns it)",
                               "%llu bytes; splitM = %u%s needs %llu (%u floats a row)", U(c_.tmp.bytes), t_.splitM,
                               recomputed_ ? " (recomputed)" : "", U(need), RowFloats());
        }
        tmpUsed_ = need;
        for (const Access& a : acc) {
            if (Overlap(c_.tmp.addr, tmpUsed_, a.t->addr, a.bytes)) {
                ascend_twin::FailF(name_, "sharedTmpBuffer overlaps no operand (docs: 不支持sharedTmpBuffer与源操作数和目的操作数地址重叠)",
                                   "the %llu bytes of the temporary buffer the call uses (from UB %llu) share bytes with %s",
                                   U(tmpUsed_), U(ascend_twin::UbOffset(c_.tmp.addr)), a.name);
            }
        }
    }

    void CheckOverlaps(const std::vector<Access>& acc) const
    {
        for (const Access& o : acc) {
            if (!o.output) continue;
            for (const Access& x : acc) {
                if (&x == &o || !Overlap(o.t->addr, o.bytes, x.t->addr, x.bytes)) continue;
                if (x.output && &x < &o) continue;  // reported once
                const bool partner = o.partner == x.t || x.partner == o.t;
                if (partner && o.t->addr == x.t->addr) continue;
                ascend_twin::FailF(name_,
                                   partner ? "an output and its documented in-place input are the same tensor or do not "
                                             "overlap"
                                   : c_.api == SoftmaxApi::kLogSoftMax && x.t == &c_.src
                                       ? "src and dst do not overlap (LogSoftMax docs: 不支持源操作数与目的操作数地址重叠)"
                                       : "an output overlaps no other operand but its documented in-place partner "
                                         "(src/dst; maxTensor/inMaxTensor and sumTensor/inSumTensor for the Flash APIs)",
                                   "%s [UB %llu, +%llu bytes) and %s [UB %llu, +%llu bytes) share bytes", o.name,
                                   U(ascend_twin::UbOffset(o.t->addr)), U(o.bytes), x.name,
                                   U(ascend_twin::UbOffset(x.t->addr)), U(x.bytes));
            }
        }
    }

    // Input statistics hold one value a block (docs: "该datablock中的所有数据为同一个值"): A2 subtracts/divides
    // lane by lane with the block repeated, so differing values make columns differ.
    void CheckStatBlocks() const
    {
        if (c_.withoutBrc) return;
        for (const auto& [name, t] : {std::pair<const char*, const SmTensor*>{"inMaxTensor", &c_.inMax},
                                      {"inSumTensor", &c_.inSum}, {"inMeanTensor", &c_.inMean}}) {
            if (!t->present) continue;
            const uint32_t ts = t->typeSize;
            for (uint32_t r = 0; r < rows_; ++r) {
                const uint8_t* b = t->addr + static_cast<uint64_t>(r) * 32;
                for (uint32_t j = 1; j < 32 / ts; ++j) {
                    if (std::memcmp(b, b + j * ts, ts) != 0) {
                        ascend_twin::FailF(name_,
                                           "every element of an input statistics block holds the row's value (docs: "
                                           "该datablock中的所有数据为同一个值)",
                                           "%s, row %u: element %u = %g, element 0 = %g", name, r, j,
                                           Load(*t, static_cast<uint64_t>(r) * (32 / ts) + j),
                                           Load(*t, static_cast<uint64_t>(r) * (32 / ts)));
                    }
                }
            }
        }
    }

    double StatIn(const SmTensor& t, uint32_t r) const { return Load(t, static_cast<uint64_t>(r) * StatElems(t)); }

    void StatOut(const SmTensor& t, uint32_t r, double v) const
    {
        if (!t.present) return;
        const uint32_t n = StatElems(t);
        for (uint32_t j = 0; j < n; ++j) Store(t, static_cast<uint64_t>(r) * n + j, v);
    }

    static double MaxNan(double a, double b) { return (std::isnan(a) || std::isnan(b)) ? std::nan("") : std::max(a, b); }

    // SoftmaxFlashV3, a row at a time in A2's order of reads and writes, so that the documented in-place pairs
    // (meanTensor/inMeanTensor, maxTensor/inMaxTensor, expSumTensor/inExpSumTensor) see what A2's sequence sees:
    // A2 writes the new mean and the new max before it reads inMeanTensor and inMaxTensor again.
    void ComputeFlashV3()
    {
        const uint32_t K = srcK_, baseK = K / 8;
        const double s = static_cast<double>(c_.params.alpha) / (1.0 - static_cast<double>(c_.params.alpha));
        const double loops = c_.params.loopCnt;
        std::vector<double> x(K);
        for (uint32_t r = 0; r < rows_; ++r) {
            const uint64_t base = static_cast<uint64_t>(r) * K;
            double local[8], global = 0;
            for (uint32_t c = 0; c < 8; ++c) {
                local[c] = 0;
                for (uint32_t j = 0; j < baseK; ++j) local[c] += Load(c_.src, base + c * baseK + j);
                local[c] /= baseK;
                global += local[c] / 8;
            }
            double rowMax = -std::numeric_limits<double>::infinity();
            for (uint32_t j = 0; j < K; ++j) {  // the source shifted by each eighth's mean
                x[j] = Load(c_.src, base + j) - (global - local[j / baseK]) * s;
                rowMax = MaxNan(rowMax, x[j]);
            }
            double shiftCurr = 0, expMax = 1, inSum = 0;
            if (!c_.isUpdate) {
                StatOut(c_.mean, r, global);
                StatOut(c_.max, r, rowMax + (global - StatIn(c_.mean, r)) * s);
                shiftCurr = (global - StatIn(c_.mean, r)) * s;
            } else {
                StatOut(c_.mean, r, (StatIn(c_.inMean, r) * (loops - 1) + global) / loops);
                const double mean = StatIn(c_.mean, r);
                shiftCurr = (global - mean) * s;
                StatOut(c_.max, r, rowMax + shiftCurr);
                const double shiftPrev = (StatIn(c_.inMean, r) - mean) * s;  // inMean read again: maybe the new mean
                const double prevMax = StatIn(c_.inMax, r) + shiftPrev;
                StatOut(c_.max, r, MaxNan(StatIn(c_.max, r), prevMax));
                expMax = std::exp(StatIn(c_.inMax, r) - StatIn(c_.max, r) + shiftPrev);
                inSum = StatIn(c_.inSum, r);
            }
            const double shift = StatIn(c_.max, r) - shiftCurr;
            double sum = 0;
            for (uint32_t j = 0; j < K; ++j) {
                const double e = std::exp(x[j] - shift);
                sum += e;
                Store(c_.dst, base + j, e);
            }
            StatOut(c_.sum, r, c_.isUpdate ? expMax * inSum + sum : sum);
            if (c_.isUpdate) StatOut(c_.expMax, r, expMax);
        }
    }

    void Compute()
    {
        if (c_.api == SoftmaxApi::kSoftmaxFlashV3) {
            ComputeFlashV3();
            return;
        }
        const uint32_t K = srcK_;
        std::vector<double> x(K), g(K), out(K);
        for (uint32_t r = 0; r < rows_; ++r) {
            const uint64_t base = static_cast<uint64_t>(r) * K;
            for (uint32_t c = 0; c < K; ++c) x[c] = Load(c_.src, base + c);
            if (c_.grad.present) {
                for (uint32_t c = 0; c < K; ++c) g[c] = Load(c_.grad, base + c);
            }
            // Statistics inputs first: they may be the outputs' tensors.
            const double inMax = c_.inMax.present ? StatIn(c_.inMax, r) : 0.0;
            const double inSum = c_.inSum.present ? StatIn(c_.inSum, r) : 0.0;
            double rowMax = -std::numeric_limits<double>::infinity();
            for (uint32_t c = 0; c < oriK_; ++c) rowMax = MaxNan(rowMax, x[c]);
            switch (c_.api) {
                case SoftmaxApi::kSoftMax: case SoftmaxApi::kLogSoftMax: {
                    bool valid = true;
                    if (c_.api == SoftmaxApi::kLogSoftMax) {
                        for (uint32_t c = 0; c < K; ++c) valid = valid && std::fabs(x[c]) <= 2147483647.0;
                    }
                    double s = 0.0;
                    for (uint32_t c = 0; c < oriK_; ++c) s += std::exp(x[c] - rowMax);
                    for (uint32_t c = 0; c < K; ++c) {
                        const double p = std::exp(x[c] - rowMax) / s;
                        out[c] = c_.api == SoftmaxApi::kLogSoftMax ? std::log10(p) : p;
                        if (!valid) out[c] = std::nan("");
                    }
                    StatOut(c_.max, r, valid ? rowMax : std::nan(""));
                    StatOut(c_.sum, r, valid ? s : std::nan(""));
                    break;
                }
                case SoftmaxApi::kSimpleSoftMax:
                    for (uint32_t c = 0; c < K; ++c) out[c] = std::exp(x[c] - inMax) / inSum;
                    break;
                case SoftmaxApi::kSoftmaxFlash: case SoftmaxApi::kSoftmaxFlashV2: case SoftmaxApi::kSoftmaxFlashV3: {
                    const double mx = c_.isUpdate ? MaxNan(inMax, rowMax) : rowMax;
                    double s = 0.0;
                    for (uint32_t c = 0; c < oriK_; ++c) s += std::exp(x[c] - mx);
                    double expMax = 0.0;
                    if (c_.isUpdate) {
                        expMax = std::exp(inMax - mx);
                        s = expMax * inSum + s;
                    }
                    const bool normalise = c_.api == SoftmaxApi::kSoftmaxFlash;
                    for (uint32_t c = 0; c < K; ++c) out[c] = std::exp(x[c] - mx) / (normalise ? s : 1.0);
                    if (c_.isUpdate) {
                        StatOut(c_.expMax, r, normalise ? expMax * inSum / s : expMax);
                        if (c_.reduceMax.present) Store(c_.reduceMax, r, rowMax);
                    }
                    StatOut(c_.max, r, mx);
                    StatOut(c_.sum, r, s);
                    break;
                }
                case SoftmaxApi::kSoftmaxGrad: case SoftmaxApi::kSoftmaxGradFront: {
                    double d = 0.0;
                    for (uint32_t c = 0; c < oriK_; ++c) d += g[c] * x[c];
                    if (DstIsBlocks()) {
                        const uint32_t n = 32 / t1_;
                        for (uint32_t j = 0; j < n; ++j) Store(c_.dst, static_cast<uint64_t>(r) * n + j, d);
                        continue;
                    }
                    for (uint32_t c = 0; c < K; ++c) out[c] = (g[c] - d) * x[c];
                    break;
                }
            }
            for (uint32_t c = 0; c < K; ++c) Store(c_.dst, base + c, out[c]);
        }
    }

    SoftmaxCall& c_;
    const char* name_;
    uint32_t t1_ = 0, t2_ = 0;
    uint32_t srcM_ = 0, srcK_ = 0, oriK_ = 0, rows_ = 0;
    tiling::SoftMaxTiling t_{};
    bool recomputed_ = false;
    uint64_t tmpUsed_ = 0;
};

}  // namespace

void SoftmaxRun(SoftmaxCall& call) { Call(call).Run(); }

}  // namespace AscendC::twin_detail
