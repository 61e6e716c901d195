// The rule checks of LayerNorm and WelfordUpdate (twin/include/twin/kernel_adv_layernorm.h) and DeepNorm
// (twin/include/twin/kernel_adv_deepnorm.h), which shares LayerNorm's tiling layout; the computation is A2's own
// sequence of basic instructions in the headers.
#include "twin/kernel_adv_layernorm.h"
#include "twin/kernel_adv_deepnorm.h"
#include "twin/kernel_adv_normalize.h"

#include <tuple>

#include "adv_common.h"

namespace AscendC::twin_detail {

namespace {

// The tiling's fields agree with each other as GetLayerNormNDTilingInfo (GetDeepNormTilingInfo) writes them.
template <class Tiling>
bool LayerNormTilingConsistent(const Tiling& t, uint32_t buffers)
{
    const uint64_t total = static_cast<uint64_t>(t.bLength) * t.sLength * t.hLength;
    const uint64_t rows = static_cast<uint64_t>(t.bLength) * t.sLength;
    const uint64_t lastPos = buffers == 3 ? t.thirdTmpStartPos : t.secondTmpStartPos;
    return t.oneTmpSize > 0 && t.oneTmpSize % t.hLength == 0 && t.inputXSize == total && t.meanVarSize == rows &&
           t.inputRoundSize == t.oneTmpSize && t.loopRound > 0 &&
           static_cast<uint64_t>(t.loopRound) * t.inputRoundSize + t.inputTailSize == total &&
           t.inputTailPos == total - t.inputTailSize &&
           static_cast<uint64_t>(t.meanVarRoundSize) * t.hLength == t.inputRoundSize &&
           static_cast<uint64_t>(t.meanVarTailSize) * t.hLength == t.inputTailSize &&
           t.meanVarTailPos == rows - t.meanVarTailSize &&
           t.secondTmpStartPos == static_cast<uint64_t>(t.firstTmpStartPos) + t.oneTmpSize &&
           (buffers == 2 || t.thirdTmpStartPos == static_cast<uint64_t>(t.secondTmpStartPos) + t.oneTmpSize) &&
           lastPos + t.oneTmpSize <= t.tmpBufSize;
}

}  // namespace

void LayerNormCheck(const LayerNormCall& c)
{
    const char* call = "LayerNorm";
    CheckVecOperands(call, {{"output", &c.output}, {"outputMean", &c.mean}, {"outputVariance", &c.variance},
                            {"inputX", &c.x}, {"gamma", &c.gamma}, {"beta", &c.beta}, {"sharedTmpBuffer", &c.tmp}},
                     c.framework ? &c.tmp : nullptr);
    if (c.isReuseSource && c.typeSize == 2) {
        ascend_twin::Fail(call, "isReuseSource is for float inputs only (docs; A2's check)",
                          "LayerNorm<half, true> was called");
    }
    const LayerNormTiling& t = c.tiling;
    if (t.hLength == 0 || t.hLength * c.typeSize % 32 != 0 || t.originalHLength == 0 ||
        t.originalHLength > t.hLength) {
        ascend_twin::FailF(call,
                           "tiling.hLength is 32-byte aligned and 0 < tiling.originalHLength <= tiling.hLength (docs: "
                           "the H axis padded to 32 bytes with zeros)",
                           "hLength %u, originalHLength %u, %u-byte elements", t.hLength, t.originalHLength,
                           c.typeSize);
    }
    const uint32_t buffers = c.typeSize == 4 && c.isReuseSource ? 2 : 3;
    if (!LayerNormTilingConsistent(t, buffers)) {
        ascend_twin::FailF(call,
                           "the tiling's rounds cover its shape as GetLayerNormNDTilingInfo writes them (oneTmpSize > 0 "
                           "a multiple of hLength = inputRoundSize, the round buffers inside tmpBufSize, loopRound "
                           "rounds and the tail = bLength * sLength * hLength, the mean/variance rounds and tail "
                           "agreeing)",
                           "tiling = {b %u, s %u, h %u, inputXSize %u, meanVarSize %u, tmpBufSize %u, oneTmpSize %u, "
                           "tmp at %u/%u/%u, loopRound %u, inputRoundSize %u, inputTailSize %u, inputTailPos %u, "
                           "meanVarRoundSize %u, meanVarTailSize %u, meanVarTailPos %u}",
                           t.bLength, t.sLength, t.hLength, t.inputXSize, t.meanVarSize, t.tmpBufSize, t.oneTmpSize,
                           t.firstTmpStartPos, t.secondTmpStartPos, t.thirdTmpStartPos, t.loopRound, t.inputRoundSize,
                           t.inputTailSize, t.inputTailPos, t.meanVarRoundSize, t.meanVarTailSize, t.meanVarTailPos);
    }
    if (t.bshCurLength != t.inputRoundSize || t.bsCurLength != t.meanVarRoundSize) {
        ascend_twin::FailF(call,
                           "tiling.bshCurLength and bsCurLength are a round's (inputRoundSize, meanVarRoundSize): a "
                           "call with a tail leaves the tail's lengths in the tiling it is given, and A2 would run the "
                           "next call's rounds at those (the twin is stricter: pass each call a fresh copy)",
                           "bshCurLength %u, bsCurLength %u; inputRoundSize %u, meanVarRoundSize %u", t.bshCurLength,
                           t.bsCurLength, t.inputRoundSize, t.meanVarRoundSize);
    }
    if (c.typeSize == 2) {  // the means and variances in float before the round buffers
        const uint64_t mvEnd = static_cast<uint64_t>(t.varianceTmpTensorPos) + t.meanVarSize;
        if (static_cast<uint64_t>(t.meanTmpTensorPos) + t.meanVarSize > t.varianceTmpTensorPos ||
            mvEnd > t.firstTmpStartPos) {
            ascend_twin::FailF(call,
                               "for half, the tiling keeps meanVarSize floats of means, then of variances, before the "
                               "round buffers (meanTmpTensorPos, varianceTmpTensorPos, firstTmpStartPos)",
                               "meanVarSize %u, positions %u, %u, %u", t.meanVarSize, t.meanTmpTensorPos,
                               t.varianceTmpTensorPos, t.firstTmpStartPos);
        }
    }
    const uint64_t bytes = static_cast<uint64_t>(t.inputXSize) * c.typeSize;
    const uint64_t mvBytes = static_cast<uint64_t>(t.meanVarSize) * c.typeSize;
    const uint64_t hBytes = static_cast<uint64_t>(t.hLength) * c.typeSize;
    for (const auto& [name, op, need, what] :
         {std::tuple<const char*, const MathOperand*, uint64_t, const char*>{
              "output", &c.output, bytes, "output and inputX hold tiling.bLength * sLength * hLength elements"},
          {"inputX", &c.x, bytes, "output and inputX hold tiling.bLength * sLength * hLength elements"},
          {"outputMean", &c.mean, mvBytes, "outputMean and outputVariance hold tiling.bLength * sLength elements"},
          {"outputVariance", &c.variance, mvBytes,
           "outputMean and outputVariance hold tiling.bLength * sLength elements"},
          {"gamma", &c.gamma, hBytes, "gamma and beta hold tiling.hLength elements"},
          {"beta", &c.beta, hBytes, "gamma and beta hold tiling.hLength elements"}}) {
        if (op->bytes < need) {
            ascend_twin::FailF(call, what, "%s holds %llu, %llu needed", name, U(op->bytes / c.typeSize),
                               U(need / c.typeSize));
        }
    }
    for (const auto& [name, op] : {std::pair<const char*, const MathOperand*>{"gamma", &c.gamma}, {"beta", &c.beta}}) {
        if (op->bytes % 32 != 0) {
            ascend_twin::FailF(call, "gamma's and beta's lengths are 32-byte multiples (A2's check)",
                               "%s holds %llu bytes", name, U(op->bytes));
        }
    }
    const uint64_t tmpBytes = static_cast<uint64_t>(t.tmpBufSize) * 4;
    if (c.tmp.bytes < tmpBytes) {
        ascend_twin::FailF(call,
                           c.framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers holds "
                                         "tiling.tmpBufSize floats"
                                       : "sharedTmpBuffer holds tiling.tmpBufSize floats",
                           "%llu bytes, %llu needed", U(c.tmp.bytes), U(tmpBytes));
    }
    if (c.output.addr != c.x.addr && Overlap(c.output.addr, bytes, c.x.addr, bytes)) {
        ascend_twin::FailF(call, "output and inputX are the same or do not overlap (docs: output and inputX may share "
                           "their space)",
                           "output UB %llu, inputX UB %llu, %llu bytes each", U(ascend_twin::UbOffset(c.output.addr)),
                           U(ascend_twin::UbOffset(c.x.addr)), U(bytes));
    }
    using Range = std::tuple<const char*, const void*, uint64_t>;
    const Range outputs[] = {{"output", c.output.addr, bytes},
                             {"outputMean", c.mean.addr, mvBytes},
                             {"outputVariance", c.variance.addr, mvBytes}};
    const Range inputs[] = {{"inputX", c.x.addr, bytes}, {"gamma", c.gamma.addr, hBytes}, {"beta", c.beta.addr, hBytes}};
    for (size_t i = 0; i < 3; ++i) {
        const auto& [oName, oAddr, oBytes] = outputs[i];
        for (size_t j = i + 1; j < 3; ++j) {
            const auto& [pName, pAddr, pBytes] = outputs[j];
            if (Overlap(oAddr, oBytes, pAddr, pBytes)) {
                ascend_twin::FailF(call, "the outputs do not overlap each other (docs, A2's check)",
                                   "%s and %s share bytes", oName, pName);
            }
        }
        for (const auto& [iName, iAddr, iBytes] : inputs) {
            if (oAddr == c.output.addr && iAddr == c.x.addr) continue;  // checked above
            if (Overlap(oAddr, oBytes, iAddr, iBytes)) {
                ascend_twin::FailF(call,
                                   "no output overlaps an input but output and inputX being the same (docs: 其他输出与"
                                   "输入的空间不可复用)",
                                   "%s and %s share bytes", oName, iName);
            }
        }
    }
    for (const auto& ranges : {outputs, inputs}) {
        for (size_t i = 0; i < 3; ++i) {
            const auto& [name, addr, n] = ranges[i];
            if (Overlap(c.tmp.addr, tmpBytes, addr, n)) {
                ascend_twin::FailF(call, "sharedTmpBuffer overlaps no operand",
                                   "the %llu bytes of the temporary buffer the tiling uses (from UB %llu) share bytes "
                                   "with %s",
                                   U(tmpBytes), U(ascend_twin::UbOffset(c.tmp.addr)), name);
            }
        }
    }
}

void DeepNormCheck(const DeepNormCall& c)
{
    const char* call = "DeepNorm";
    CheckVecOperands(call, {{"dstLocal", &c.dst}, {"meanLocal", &c.mean}, {"rstdLocal", &c.rstd}, {"srcLocal", &c.src},
                            {"gxLocal", &c.gx}, {"betaLocal", &c.beta}, {"gammaLocal", &c.gamma},
                            {"sharedTmpBuffer", &c.tmp}},
                     c.framework ? &c.tmp : nullptr);
    if (c.isReuseSrc && c.typeSize == 2) {
        ascend_twin::Fail(call, "isReuseSrc is for float inputs only (A2's check)", "DeepNorm<half, true> was called");
    }
    const DeepNormTiling& t = c.tiling;
    for (const auto& [name, op] : {std::pair<const char*, const MathOperand*>{"gammaLocal", &c.gamma},
                                   {"betaLocal", &c.beta}}) {
        if (op->bytes % 32 != 0 || op->bytes / c.typeSize > 2040) {
            ascend_twin::FailF(call, "gammaLocal's and betaLocal's lengths are 32-byte multiples of at most 2040 "
                               "elements (A2's check)", "%s holds %llu bytes", name, U(op->bytes));
        }
    }
    if (t.hLength == 0 || t.hLength * c.typeSize % 32 != 0 || t.originalHLength == 0 ||
        t.originalHLength > t.hLength) {
        ascend_twin::FailF(call,
                           "tiling.hLength is 32-byte aligned and 0 < tiling.originalHLength <= tiling.hLength (docs: "
                           "the H axis padded to 32 bytes with zeros)",
                           "hLength %u, originalHLength %u, %u-byte elements", t.hLength, t.originalHLength,
                           c.typeSize);
    }
    if (c.isBasicBlock && (t.hLength % 64 != 0 || t.originalHLength % 64 != 0 || t.bLength * t.sLength % 8 != 0)) {
        ascend_twin::FailF(call,
                           "with isBasicBlock, hLength and originalHLength are multiples of 64 and B * S of 8 (docs; "
                           "A2's check, A2 returns without computing otherwise)",
                           "hLength %u, originalHLength %u, B * S %u", t.hLength, t.originalHLength,
                           t.bLength * t.sLength);
    }
    const uint32_t buffers = c.typeSize == 4 && c.isReuseSrc ? 2 : 3;
    if (!LayerNormTilingConsistent(t, buffers) || t.numberOfTmpBuf != buffers) {
        ascend_twin::FailF(call,
                           "the tiling's rounds cover its shape as GetDeepNormTilingInfo writes them (numberOfTmpBuf, "
                           "oneTmpSize > 0 a multiple of hLength = inputRoundSize, the round buffers inside tmpBufSize, "
                           "loopRound rounds and the tail = bLength * sLength * hLength)",
                           "tiling = {b %u, s %u, h %u, inputXSize %u, meanVarSize %u, numberOfTmpBuf %u (%u expected), "
                           "tmpBufSize %u, oneTmpSize %u, tmp at %u/%u/%u, loopRound %u, inputTailSize %u}",
                           t.bLength, t.sLength, t.hLength, t.inputXSize, t.meanVarSize, t.numberOfTmpBuf, buffers,
                           t.tmpBufSize, t.oneTmpSize, t.firstTmpStartPos, t.secondTmpStartPos, t.thirdTmpStartPos,
                           t.loopRound, t.inputTailSize);
    }
    if (t.bshCurLength != t.inputRoundSize || t.bsCurLength != t.meanVarRoundSize) {
        ascend_twin::FailF(call,
                           "tiling.bshCurLength and bsCurLength are a round's (inputRoundSize, meanVarRoundSize): a "
                           "call with a tail leaves the tail's lengths in the tiling it is given, and A2 would run the "
                           "next call's rounds at those (the twin is stricter: pass each call a fresh copy)",
                           "bshCurLength %u, bsCurLength %u; inputRoundSize %u, meanVarRoundSize %u", t.bshCurLength,
                           t.bsCurLength, t.inputRoundSize, t.meanVarRoundSize);
    }
    if (c.typeSize == 2 && (static_cast<uint64_t>(t.meanTmpTensorPos) + t.meanVarSize > t.varianceTmpTensorPos ||
                            static_cast<uint64_t>(t.varianceTmpTensorPos) + t.meanVarSize > t.firstTmpStartPos)) {
        ascend_twin::FailF(call,
                           "for half, the tiling keeps meanVarSize floats of means, then of variances, before the "
                           "round buffers (meanTmpTensorPos, varianceTmpTensorPos, firstTmpStartPos)",
                           "meanVarSize %u, positions %u, %u, %u", t.meanVarSize, t.meanTmpTensorPos,
                           t.varianceTmpTensorPos, t.firstTmpStartPos);
    }
    const uint64_t bytes = static_cast<uint64_t>(t.inputXSize) * c.typeSize;
    const uint64_t mvBytes = static_cast<uint64_t>(t.meanVarSize) * c.typeSize;
    const uint64_t hBytes = static_cast<uint64_t>(t.hLength) * c.typeSize;
    using Sized = std::tuple<const char*, const MathOperand*, uint64_t>;
    const Sized outputs[] = {{"dstLocal", &c.dst, bytes}, {"meanLocal", &c.mean, mvBytes},
                             {"rstdLocal", &c.rstd, mvBytes}};
    const Sized inputs[] = {{"srcLocal", &c.src, bytes}, {"gxLocal", &c.gx, bytes}, {"betaLocal", &c.beta, hBytes},
                            {"gammaLocal", &c.gamma, hBytes}};
    for (const auto* ranges : {static_cast<const Sized*>(outputs), static_cast<const Sized*>(inputs)}) {
        for (size_t i = 0; i < (ranges == outputs ? 3u : 4u); ++i) {
            const auto& [name, op, need] = ranges[i];
            if (op->bytes < need) {
                ascend_twin::FailF(call,
                                   "srcLocal, gxLocal and dstLocal hold tiling.bLength * sLength * hLength elements, "
                                   "meanLocal and rstdLocal bLength * sLength, gammaLocal and betaLocal hLength",
                                   "%s holds %llu, %llu needed", name, U(op->bytes / c.typeSize), U(need / c.typeSize));
            }
        }
    }
    const uint64_t tmpBytes = static_cast<uint64_t>(t.tmpBufSize) * 4;
    if (c.tmp.bytes < tmpBytes) {
        ascend_twin::FailF(call,
                           c.framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers holds "
                                         "tiling.tmpBufSize floats"
                                       : "sharedTmpBuffer holds tiling.tmpBufSize floats (A2's check)",
                           "%llu bytes, %llu needed", U(c.tmp.bytes), U(tmpBytes));
    }
    for (size_t i = 0; i < 3; ++i) {
        const auto& [oName, o, oBytes] = outputs[i];
        for (size_t j = i + 1; j < 3; ++j) {
            const auto& [pName, p, pBytes] = outputs[j];
            if (Overlap(o->addr, oBytes, p->addr, pBytes)) {
                ascend_twin::FailF(call, "the outputs do not overlap each other", "%s and %s share bytes", oName, pName);
            }
        }
        for (const auto& [iName, in, iBytes] : inputs) {
            if (!Overlap(o->addr, oBytes, in->addr, iBytes)) continue;
            if (o == &c.dst && in == &c.src) {
                if (c.isReuseSrc && o->addr == in->addr) continue;
                ascend_twin::FailF(call,
                                   "srcLocal and dstLocal do not overlap (docs: with isReuseSrc false their space is "
                                   "not shared; with isReuseSrc they may be the same tensor)",
                                   "dstLocal UB %llu, srcLocal UB %llu, %llu bytes each", U(ascend_twin::UbOffset(o->addr)),
                                   U(ascend_twin::UbOffset(in->addr)), U(bytes));
            }
            ascend_twin::FailF(call, "no output overlaps an input but dstLocal and srcLocal with isReuseSrc",
                               "%s and %s share bytes", oName, iName);
        }
    }
    for (const auto* ranges : {static_cast<const Sized*>(outputs), static_cast<const Sized*>(inputs)}) {
        for (size_t i = 0; i < (ranges == outputs ? 3u : 4u); ++i) {
            const auto& [name, op, n] = ranges[i];
            if (Overlap(c.tmp.addr, tmpBytes, op->addr, n)) {
                ascend_twin::FailF(call, "sharedTmpBuffer overlaps no operand",
                                   "the %llu bytes of the temporary buffer the tiling uses (from UB %llu) share bytes "
                                   "with %s",
                                   U(tmpBytes), U(ascend_twin::UbOffset(c.tmp.addr)), name);
            }
        }
    }
}

void WelfordUpdateCheck(const WelfordUpdateCall& c)
{
    const char* call = "WelfordUpdate";
    CheckVecOperands(call, {{"outputMean", &c.outMean}, {"outputVariance", &c.outVar}, {"inputMean", &c.inMean},
                            {"inputVariance", &c.inVar}, {"inputX", &c.x}, {"sharedTmpBuffer", &c.tmp}},
                     c.framework ? &c.tmp : nullptr);
    const WelfordUpdateParam& p = c.para;
    if (p.rnLength != 1) {
        ascend_twin::FailF(call, "para.rnLength is 1 (docs: reserved, fixed at 1)", "rnLength %u", p.rnLength);
    }
    if (p.abLength == 0 || p.abLength * c.typeSize % 32 != 0) {
        ascend_twin::FailF(call, "para.abLength is a non-zero multiple of 32 / sizeof(T) (docs)",
                           "abLength %u, %u-byte inputX elements", p.abLength, c.typeSize);
    }
    if (p.abComputeLength == 0 || p.abComputeLength > p.abLength) {
        ascend_twin::FailF(call, "0 < para.abComputeLength <= para.abLength (docs, A2's check)",
                           "abComputeLength %u, abLength %u", p.abComputeLength, p.abLength);
    }
    const uint64_t n = static_cast<uint64_t>(p.rnLength) * p.abLength;
    for (const auto& [name, op, size] :
         {std::tuple<const char*, const MathOperand*, uint32_t>{"outputMean", &c.outMean, 4},
          {"outputVariance", &c.outVar, 4}, {"inputMean", &c.inMean, 4}, {"inputVariance", &c.inVar, 4},
          {"inputX", &c.x, c.typeSize}}) {
        if (op->bytes < n * size) {
            ascend_twin::FailF(call, "each operand holds para.rnLength * para.abLength elements (A2's check)",
                               "%s holds %llu, %llu needed", name, U(op->bytes / size), U(n));
        }
    }
    const uint64_t tmpBytes = 256ull * c.tmpBuffers;
    if (c.tmp.bytes < tmpBytes) {
        ascend_twin::FailF(call,
                           c.framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers holds "
                                         "GetWelfordUpdateMaxMinTmpSize's minimum (256 bytes per float buffer: 3 "
                                         "for half inputX, 1 for float with isReuseSource, else 2)"
                                       : "sharedTmpBuffer holds GetWelfordUpdateMaxMinTmpSize's minimum (256 bytes per "
                                         "float buffer: 3 for half inputX, 1 for float with isReuseSource, else 2)",
                           "%llu bytes, %llu needed", U(c.tmp.bytes), U(tmpBytes));
    }
    using Range = std::tuple<const char*, const void*, uint64_t>;
    const Range dsts[] = {{"outputMean", c.outMean.addr, n * 4}, {"outputVariance", c.outVar.addr, n * 4}};
    const Range srcs[] = {{"inputMean", c.inMean.addr, n * 4}, {"inputVariance", c.inVar.addr, n * 4},
                          {"inputX", c.x.addr, n * c.typeSize}};
    if (Overlap(c.outMean.addr, n * 4, c.outVar.addr, n * 4)) {
        ascend_twin::Fail(call, "outputMean and outputVariance do not overlap", "they share bytes");
    }
    for (const auto& [dName, dAddr, dBytes] : dsts) {
        for (const auto& [sName, sAddr, sBytes] : srcs) {
            if (Overlap(dAddr, dBytes, sAddr, sBytes)) {
                ascend_twin::FailF(call, "no source overlaps a destination (docs: 不支持源操作数与目的操作数地址重叠)",
                                   "%s and %s share bytes", dName, sName);
            }
        }
    }
    // The part of the temporary buffer A2 uses: whole 256-byte units per float buffer.
    const uint64_t used = c.tmp.bytes / tmpBytes * tmpBytes;
    for (const auto& ranges : {static_cast<const Range*>(dsts), static_cast<const Range*>(srcs)}) {
        const size_t count = ranges == dsts ? 2 : 3;
        for (size_t i = 0; i < count; ++i) {
            const auto& [name, addr, bytes] = ranges[i];
            if (Overlap(c.tmp.addr, used, addr, bytes)) {
                ascend_twin::FailF(call, "sharedTmpBuffer overlaps no operand (docs)",
                                   "the %llu bytes of the temporary buffer (from UB %llu) share bytes with %s",
                                   U(used), U(ascend_twin::UbOffset(c.tmp.addr)), name);
            }
        }
    }
}

namespace {

struct Span {
    const char* name;
    const void* addr;
    uint64_t bytes;
};

// Each output shares no byte with another output or with any other operand listed (A2's TensorReuse checks).
void CheckNoOutputOverlap(const char* call, std::initializer_list<Span> outputs, std::initializer_list<Span> others)
{
    for (auto o = outputs.begin(); o != outputs.end(); ++o) {
        for (auto p = o + 1; p != outputs.end(); ++p) {
            if (Overlap(o->addr, o->bytes, p->addr, p->bytes)) {
                ascend_twin::FailF(call, "the outputs do not overlap each other (A2's check)", "%s and %s share bytes",
                                   o->name, p->name);
            }
        }
        for (const Span& i : others) {
            if (Overlap(o->addr, o->bytes, i.addr, i.bytes)) {
                ascend_twin::FailF(call, "no output overlaps another operand (A2's check; docs: 源操作数和目的操作数"
                                   "的Tensor空间不能复用)",
                                   "%s and %s share bytes", o->name, i.name);
            }
        }
    }
}

// The [A, R] shape's rules Normalize and the [A, R] LayerNorm share.
void CheckArShape(const char* call, uint32_t typeSizeT, uint32_t aLength, uint32_t rLength, uint32_t rPad)
{
    if (aLength == 0 || rLength == 0 || rLength > rPad || rPad * typeSizeT % 32 != 0) {
        ascend_twin::FailF(call,
                           "para.aLength > 0, 0 < para.rLength <= para.rLengthWithPadding and "
                           "para.rLengthWithPadding * sizeof(T) a multiple of 32 (A2's check, docs)",
                           "aLength %u, rLength %u, rLengthWithPadding %u, %u-byte T", aLength, rLength, rPad,
                           typeSizeT);
    }
}

void CheckHolds(const char* call, const char* name, const MathOperand& op, uint64_t need, uint32_t typeSize,
                const char* what)
{
    if (op.bytes < need * typeSize) {
        ascend_twin::FailF(call, what, "%s holds %llu, %llu needed", name, U(op.bytes / typeSize), U(need));
    }
}

}  // namespace

void NormalizeCheck(const NormalizeCall& c)
{
    const char* call = "Normalize";
    CheckVecOperands(call, {{"output", &c.output}, {"outputRstd", &c.rstd}, {"inputMean", &c.mean},
                            {"inputVariance", &c.variance}, {"inputX", &c.x}, {"gamma", &c.gamma}, {"beta", &c.beta},
                            {"sharedTmpBuffer", &c.tmp}},
                     c.framework ? &c.tmp : nullptr);
    if (c.isReuseSource) {
        ascend_twin::Fail(call, "isReuseSource is false (A2's check: Normalize does not reuse its source)",
                          "Normalize<U, T, true> was called");
    }
    if (c.reducePattern != ReducePattern::AR) {
        ascend_twin::FailF(call, "config.reducePattern is ReducePattern::AR (A2's check)", "reducePattern %u",
                           static_cast<unsigned>(c.reducePattern));
    }
    const NormalizePara& p = c.para;
    if (c.configALength != -1 && static_cast<int64_t>(c.configALength) != static_cast<int64_t>(p.aLength)) {
        ascend_twin::FailF(call, "config.aLength is -1 or para.aLength (A2's check)",
                           "config.aLength %d, para.aLength %u", c.configALength, p.aLength);
    }
    CheckArShape(call, c.typeSizeT, p.aLength, p.rLength, p.rLengthWithPadding);
    const uint64_t ar = static_cast<uint64_t>(p.aLength) * p.rLengthWithPadding;
    const char* arWhat = "inputX and output hold para.aLength * para.rLengthWithPadding elements (A2 checks aLength * "
                         "rLength and reads and writes the padded rows: the twin asks for them)";
    CheckHolds(call, "inputX", c.x, ar, c.typeSizeT, arWhat);
    CheckHolds(call, "output", c.output, ar, c.typeSizeT, arWhat);
    const char* aWhat = "inputMean, inputVariance and outputRstd hold para.aLength floats";
    CheckHolds(call, "inputMean", c.mean, p.aLength, 4, aWhat);
    CheckHolds(call, "inputVariance", c.variance, p.aLength, 4, aWhat);
    CheckHolds(call, "outputRstd", c.rstd, p.aLength, 4, aWhat);
    const char* rWhat = "gamma and beta hold para.rLength elements";
    CheckHolds(call, "gamma", c.gamma, p.rLength, c.typeSizeU, rWhat);
    CheckHolds(call, "beta", c.beta, p.rLength, c.typeSizeU, rWhat);
    const uint64_t floats = c.tmp.bytes / 4, r2 = 2ull * p.rLengthWithPadding;
    const uint64_t rows = c.typeSizeU == 4 ? floats / r2 : (floats < r2 ? 0 : (floats - r2) / r2);
    if (floats < p.aLength || rows == 0) {
        ascend_twin::FailF(call,
                           c.framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers holds at least "
                                         "para.aLength floats and one round (2 * rLengthWithPadding floats, 4 * for "
                                         "half gamma/beta; GetNormalizeMaxMinTmpSize's minimum)"
                                       : "sharedTmpBuffer holds at least para.aLength floats and one round (2 * "
                                         "rLengthWithPadding floats, 4 * for half gamma/beta; "
                                         "GetNormalizeMaxMinTmpSize's minimum)",
                           "%llu bytes for aLength %u, rLengthWithPadding %u", U(c.tmp.bytes), p.aLength,
                           p.rLengthWithPadding);
    }
    const uint64_t arT = ar * c.typeSizeT, aF = p.aLength * 4ull, rU = 1ull * p.rLength * c.typeSizeU;
    const uint64_t n = rows < p.aLength ? rows : p.aLength;
    const uint64_t tmpUsed = (c.typeSizeU == 4 ? 2 * n * p.rLengthWithPadding : (2 * n + 2) * p.rLengthWithPadding) * 4;
    CheckNoOutputOverlap(call, {{"output", c.output.addr, arT}, {"outputRstd", c.rstd.addr, aF}},
                         {{"inputMean", c.mean.addr, aF},
                          {"inputVariance", c.variance.addr, aF},
                          {"inputX", c.x.addr, arT},
                          {"gamma", c.gamma.addr, rU},
                          {"beta", c.beta.addr, rU},
                          {"sharedTmpBuffer", c.tmp.addr, tmpUsed > c.tmp.bytes ? c.tmp.bytes : tmpUsed}});
}

void LayerNormRstdCheck(const LayerNormRstdCall& c)
{
    const char* call = "LayerNorm";
    CheckVecOperands(call, {{"output", &c.output}, {"outputMean", &c.mean}, {"outputRstd", &c.rstd},
                            {"inputX", &c.x}, {"gamma", &c.gamma}, {"beta", &c.beta}, {"sharedTmpBuffer", &c.tmp}},
                     c.framework ? &c.tmp : nullptr);
    if (c.isReuseSource && c.typeSizeT == 2) {
        ascend_twin::Fail(call, "isReuseSource is false for half inputs (A2's check)",
                          "LayerNorm<U, half, true, config> ([A, R] form) was called");
    }
    const LayerNormPara& p = c.para;
    CheckArShape(call, c.typeSizeT, p.aLength, p.rLength, p.rLengthWithPadding);
    const LayerNormSeparateTiling& t = c.tiling;
    const uint64_t total = static_cast<uint64_t>(p.aLength) * p.rLengthWithPadding;
    const uint32_t rp = p.rLengthWithPadding;
    const bool consistent =
        t.aLength == p.aLength && t.rLength == p.rLength && t.inputXSize == total && t.meanVarSize == p.aLength &&
        t.oneTmpSize > 0 && t.oneTmpSize % rp == 0 && t.inputRoundSize == t.oneTmpSize && t.loopRound > 0 &&
        static_cast<uint64_t>(t.loopRound) * t.inputRoundSize + t.inputTailSize == total &&
        t.inputTailPos == total - t.inputTailSize && static_cast<uint64_t>(t.meanVarRoundSize) * rp == t.inputRoundSize &&
        static_cast<uint64_t>(t.meanVarTailSize) * rp == t.inputTailSize &&
        t.meanVarTailPos == p.aLength - t.meanVarTailSize &&
        static_cast<uint64_t>(t.varianceTmpTensorPos) + p.aLength <= t.firstTmpStartPos &&
        t.secondTmpStartPos == static_cast<uint64_t>(t.firstTmpStartPos) + t.oneTmpSize &&
        static_cast<uint64_t>(t.secondTmpStartPos) + t.oneTmpSize <= t.tmpBufSize;
    if (!consistent) {
        ascend_twin::FailF(call,
                           "the tiling's rounds cover para's shape as GetLayerNormNDTilingInfo writes them (aLength and "
                           "rLength para's, oneTmpSize > 0 a multiple of rLengthWithPadding = inputRoundSize, loopRound "
                           "rounds and the tail = aLength * rLengthWithPadding, the variances before the round buffers, "
                           "secondTmpStartPos + oneTmpSize <= tmpBufSize: A2 asserts the last)",
                           "para = {%u, %u, %u}; tiling = {aLength %u, rLength %u, inputXSize %u, meanVarSize %u, "
                           "tmpBufSize %u, oneTmpSize %u, variance at %u, tmp at %u/%u, loopRound %u, inputRoundSize "
                           "%u, inputTailSize %u, inputTailPos %u, meanVarRoundSize %u, meanVarTailSize %u, "
                           "meanVarTailPos %u}",
                           p.aLength, p.rLength, rp, t.aLength, t.rLength, t.inputXSize, t.meanVarSize, t.tmpBufSize,
                           t.oneTmpSize, t.varianceTmpTensorPos, t.firstTmpStartPos, t.secondTmpStartPos, t.loopRound,
                           t.inputRoundSize, t.inputTailSize, t.inputTailPos, t.meanVarRoundSize, t.meanVarTailSize,
                           t.meanVarTailPos);
    }
    if (t.arCurLength != t.inputRoundSize || t.aCurLength != t.meanVarRoundSize) {
        ascend_twin::FailF(call,
                           "tiling.arCurLength and aCurLength are a round's (inputRoundSize, meanVarRoundSize): a call "
                           "with a tail leaves the tail's lengths in the tiling it is given, and A2 would run the next "
                           "call's rounds at those (the twin is stricter: pass each call a fresh copy)",
                           "arCurLength %u, aCurLength %u; inputRoundSize %u, meanVarRoundSize %u", t.arCurLength,
                           t.aCurLength, t.inputRoundSize, t.meanVarRoundSize);
    }
    const uint64_t floats = c.tmp.bytes / 4;
    if (floats <= rp || floats < t.tmpBufSize) {
        ascend_twin::FailF(call,
                           c.framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers holds more than "
                                         "para.rLengthWithPadding floats and at least tiling.tmpBufSize (A2's asserts)"
                                       : "sharedTmpBuffer holds more than para.rLengthWithPadding floats and at least "
                                         "tiling.tmpBufSize (A2's asserts)",
                           "%llu bytes; rLengthWithPadding %u, tmpBufSize %u floats", U(c.tmp.bytes), rp,
                           t.tmpBufSize);
    }
    const char* arWhat = "inputX and output hold para.aLength * para.rLengthWithPadding elements (A2 checks aLength * "
                         "rLength and reads and writes the padded rows: the twin asks for them)";
    CheckHolds(call, "inputX", c.x, total, c.typeSizeT, arWhat);
    CheckHolds(call, "output", c.output, total, c.typeSizeT, arWhat);
    CheckHolds(call, "outputMean", c.mean, p.aLength, 4, "outputMean and outputRstd hold para.aLength floats");
    CheckHolds(call, "outputRstd", c.rstd, p.aLength, 4, "outputMean and outputRstd hold para.aLength floats");
    CheckHolds(call, "gamma", c.gamma, p.rLength, c.typeSizeU, "gamma and beta hold para.rLength elements");
    CheckHolds(call, "beta", c.beta, p.rLength, c.typeSizeU, "gamma and beta hold para.rLength elements");
    const uint64_t arT = total * c.typeSizeT, aF = p.aLength * 4ull, rU = 1ull * p.rLength * c.typeSizeU;
    const uint64_t tmpUsed = (c.tmp.bytes < t.tmpBufSize * 4ull ? c.tmp.bytes : t.tmpBufSize * 4ull);
    CheckNoOutputOverlap(call,
                         {{"output", c.output.addr, arT}, {"outputMean", c.mean.addr, aF},
                          {"outputRstd", c.rstd.addr, aF}, {"sharedTmpBuffer", c.tmp.addr, tmpUsed}},
                         {{"inputX", c.x.addr, arT}, {"gamma", c.gamma.addr, rU}, {"beta", c.beta.addr, rU}});
}

}  // namespace AscendC::twin_detail
