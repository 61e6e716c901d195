// The rule checks and the arithmetic of the reductions over a pattern (twin/include/twin/kernel_adv_reduce.h).
#include "twin/kernel_adv_reduce.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "adv_common.h"

namespace AscendC::twin_detail {

namespace {

using ascend_twin::ReduceFn;

double Load(const void* base, uint32_t typeSize, bool isFloat, uint64_t i)
{
    const uint8_t* p = static_cast<const uint8_t*>(base) + i * typeSize;
    if (!isFloat) return *p;
    if (typeSize == 4) {
        float v;
        std::memcpy(&v, p, 4);
        return v;
    }
    half h;
    std::memcpy(static_cast<void*>(&h), p, 2);
    return static_cast<float>(h);
}

void Store(void* base, uint32_t typeSize, bool isFloat, uint64_t i, double v)
{
    uint8_t* p = static_cast<uint8_t*>(base) + i * typeSize;
    if (!isFloat) {
        *p = static_cast<uint8_t>(v);
    } else if (typeSize == 4) {
        const float f = static_cast<float>(v);
        std::memcpy(p, &f, 4);
    } else {
        const half h(static_cast<float>(v));
        std::memcpy(p, static_cast<const void*>(&h), 2);
    }
}

ascend_twin::VecOp OpOf(ReduceFn fn)
{
    using ascend_twin::VecOp;
    switch (fn) {
        case ReduceFn::kSum: return VecOp::kPatternReduceSum;
        case ReduceFn::kMax: return VecOp::kPatternReduceMax;
        case ReduceFn::kMin: return VecOp::kPatternReduceMin;
        case ReduceFn::kProd: return VecOp::kPatternReduceProd;
        case ReduceFn::kMean: return VecOp::kPatternReduceMean;
        case ReduceFn::kAny: return VecOp::kPatternReduceAny;
        case ReduceFn::kAll: return VecOp::kPatternReduceAll;
        case ReduceFn::kCount: break;
    }
    return VecOp::kPatternReduceSum;
}

}  // namespace

void ReduceRun(const ReduceCall& c)
{
    const char* call = ascend_twin::ReduceFnName(c.fn);
    const struct {
        const char* name;
        const MathOperand* op;
    } ops[] = {{"dstTensor", &c.dst}, {"srcTensor", &c.src}, {"sharedTmpBuffer", &c.tmp}};
    for (const auto& o : ops) {
        if (c.framework && o.op == &c.tmp) continue;
        if (o.op->pos != TPosition::VECIN && o.op->pos != TPosition::VECCALC && o.op->pos != TPosition::VECOUT) {
            ascend_twin::FailF(call, "the reduction's operands are at VECIN, VECCALC or VECOUT (A2's check)",
                               "%s is at %s", o.name, PositionName(o.op->pos));
        }
        ascend_twin::CheckUbAligned(call, o.name, o.op->addr);
    }
    if (c.first == 0 || c.last == 0) {
        ascend_twin::FailF(call, "srcShape[0] and srcShape[1] are greater than 0 (A2's check)", "srcShape = {%u, %u}",
                           c.first, c.last);
    }
    if (!c.srcInnerPad) {
        ascend_twin::Fail(call,
                          "srcInnerPad is true on A2 (A2's check: the rows are read 32-byte padded, srcShape[1] "
                          "rounded up to a block apart)",
                          "srcInnerPad = false");
    }
    const uint32_t ts = c.typeSize;
    const uint32_t elePerBlk = 32 / ts;
    const uint64_t padLast = (static_cast<uint64_t>(c.last) + elePerBlk - 1) / elePerBlk * elePerBlk;
    const uint64_t srcBytes = c.first * padLast * ts;
    if (c.src.bytes < srcBytes) {
        ascend_twin::FailF(call, "srcTensor holds srcShape[0] * srcShape[1] elements, the rows padded to 32 bytes (A2's "
                                 "check)",
                           "srcShape = {%u, %u}: %llu elements needed, srcTensor holds %llu", c.first, c.last,
                           U(srcBytes / ts), U(c.src.bytes / ts));
    }
    const uint32_t outN = c.isAR ? c.first : c.last;
    const uint64_t dstBytes = static_cast<uint64_t>(outN) * ts;
    if (c.dst.bytes < dstBytes) {
        ascend_twin::FailF(call, c.isAR ? "with AR, dstTensor holds srcShape[0] elements (A2's check)"
                                        : "with RA, dstTensor holds srcShape[1] elements (A2's check)",
                           "srcShape = {%u, %u}, dstTensor holds %llu", c.first, c.last, U(c.dst.bytes / ts));
    }
    if (Overlap(c.dst.addr, dstBytes, c.src.addr, srcBytes)) {
        ascend_twin::FailF(call, "src and dst do not overlap (docs: 不支持源操作数与目的操作数地址重叠)",
                           "dstTensor [UB %llu, +%llu bytes) and srcTensor [UB %llu, +%llu bytes) share bytes",
                           U(ascend_twin::UbOffset(c.dst.addr)), U(dstBytes), U(ascend_twin::UbOffset(c.src.addr)),
                           U(srcBytes));
    }
    const uint32_t need = ascend_twin::ReduceTmpBytesA2(c.fn, ts, c.isAR, c.isReuseSource, c.first, c.last);
    if (c.tmp.bytes < need) {
        ascend_twin::FailF(call,
                           c.framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last "
                                         "128 bytes) holds the API's minimum temporary size"
                                       : "sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum",
                           "%llu bytes, GetReduceXxxMaxMinTmpSize gives %u for srcShape {%u, %u}%s", U(c.tmp.bytes),
                           need, c.first, c.last, c.isReuseSource ? " with isReuseSource" : "");
    }
    const char* hit = Overlap(c.tmp.addr, need, c.src.addr, srcBytes)   ? "srcTensor"
                      : Overlap(c.tmp.addr, need, c.dst.addr, dstBytes) ? "dstTensor"
                                                                        : nullptr;
    if (hit != nullptr) {
        ascend_twin::FailF(call, "sharedTmpBuffer overlaps neither src nor dst (docs: "
                                 "不支持sharedTmpBuffer与源操作数和目的操作数地址重叠)",
                           "the %u bytes of the temporary buffer the call uses (from UB %llu) share bytes with %s",
                           need, U(ascend_twin::UbOffset(c.tmp.addr)), hit);
    }
    {
        ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
        // The data columns (the padding of a row is read by some of A2's paths, but never reaches dst).
        if (padLast == c.last) {
            instr.Read("srcTensor", c.src.addr, srcBytes);
        } else {
            for (uint32_t i = 0; i < c.first; ++i) {
                instr.Read("srcTensor", static_cast<const uint8_t*>(c.src.addr) + i * padLast * ts,
                           static_cast<uint64_t>(c.last) * ts);
            }
        }
        if (need != 0) instr.Write(c.framework ? "the framework's temporary buffer" : "sharedTmpBuffer", c.tmp.addr, need);
        if (c.isReuseSource) instr.Write("srcTensor", c.src.addr, srcBytes);
        instr.Write("dstTensor", c.dst.addr, dstBytes);
    }
    const bool boolean = c.fn == ReduceFn::kAny || c.fn == ReduceFn::kAll;
    std::vector<double> x(static_cast<size_t>(c.first) * c.last);
    for (uint32_t i = 0; i < c.first; ++i) {
        for (uint32_t j = 0; j < c.last; ++j) {
            const double v = Load(c.src.addr, ts, c.isFloat, i * padLast + j);
            if (boolean && v != 0.0 && v != 1.0) {
                ascend_twin::FailF(call, "srcTensor holds 0 or 1 only (docs: 源操作数srcTensor的输入数据只能为0或1)",
                                   "element [%u][%u] is %g", i, j, v);
            }
            x[static_cast<size_t>(i) * c.last + j] = v;
        }
    }
    const uint32_t n = c.isAR ? c.last : c.first;
    for (uint32_t o = 0; o < outN; ++o) {
        double acc = 0.0;
        for (uint32_t r = 0; r < n; ++r) {
            const double v = c.isAR ? x[static_cast<size_t>(o) * c.last + r] : x[static_cast<size_t>(r) * c.last + o];
            if (r == 0) {
                acc = v;
                continue;
            }
            switch (c.fn) {
                case ReduceFn::kSum: case ReduceFn::kMean: acc += v; break;
                case ReduceFn::kProd: acc *= v; break;
                case ReduceFn::kMax: case ReduceFn::kAny:
                    acc = (std::isnan(acc) || std::isnan(v)) ? std::numeric_limits<double>::quiet_NaN() : std::max(acc, v);
                    break;
                case ReduceFn::kMin: case ReduceFn::kAll:
                    acc = (std::isnan(acc) || std::isnan(v)) ? std::numeric_limits<double>::quiet_NaN() : std::min(acc, v);
                    break;
                case ReduceFn::kCount: break;
            }
        }
        if (c.fn == ReduceFn::kMean) acc /= n;
        Store(const_cast<void*>(c.dst.addr), ts, c.isFloat, o, acc);
    }
    if (need != 0) std::memset(const_cast<void*>(c.tmp.addr), 0xff, need);
    if (c.isReuseSource) std::memset(const_cast<void*>(c.src.addr), 0xff, srcBytes);
    SetMaskNorm();
    ResetMask();
    const uint64_t elems = static_cast<uint64_t>(c.first) * c.last;
    ascend_twin::CountVec(OpOf(c.fn), elems, ascend_twin::CountFormRepeats(c.first * padLast, ts));
}

}  // namespace AscendC::twin_detail
