// The rule checks of AscendQuant (twin/include/twin/kernel_adv_ascend_quant.h); the computation is A2's own sequence
// of basic instructions in the header.
#include "twin/kernel_adv_ascend_quant.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "adv_common.h"

namespace AscendC::twin_detail {

namespace {

void Need(bool ok, const char* rule, const char* fmt, uint64_t a, uint64_t b)
{
    if (!ok) ascend_twin::FailF("AscendQuant", rule, fmt, U(a), U(b));
}

}  // namespace

uint32_t AscendQuantCheck(const AscendQuantCall& c)
{
    const char* call = "AscendQuant";
    const bool perTensor = c.form == QuantForm::kPerTensor;
    const bool offsetTensor = c.form == QuantForm::kScaleOffsetTensors;
    if (perTensor) {
        CheckVecOperands(call, {{"dstTensor", &c.dst}, {"srcTensor", &c.src}, {"sharedTmpBuffer", &c.tmp}},
                         c.framework ? &c.tmp : nullptr);
    } else if (!offsetTensor) {
        CheckVecOperands(call, {{"dstTensor", &c.dst}, {"srcTensor", &c.src}, {"sharedTmpBuffer", &c.tmp},
                                {"scaleTensor", &c.scale}},
                         c.framework ? &c.tmp : nullptr);
    } else {
        CheckVecOperands(call, {{"dstTensor", &c.dst}, {"srcTensor", &c.src}, {"sharedTmpBuffer", &c.tmp},
                                {"scaleTensor", &c.scale}, {"offsetTensor", &c.offset}},
                         c.framework ? &c.tmp : nullptr);
    }
    const uint64_t srcElems = c.src.bytes / c.typeSize;
    const uint64_t dstElems = c.dst.bytes;
    const uint64_t scaleElems = c.scale.bytes / c.typeSize;
    const uint64_t offsetElems = c.offset.bytes / c.typeSize;
    const AscendQuantConfig& k = c.config;
    const char* both = "%llu elements, the tensor holds %llu";
    Need(c.calCount <= srcElems && c.calCount <= dstElems,
         "calCount <= the sizes of srcTensor and dstTensor (A2's check)", both, c.calCount,
         srcElems < dstElems ? srcElems : dstElems);
    Need(k.calcCount <= srcElems && k.calcCount <= dstElems,
         "config.calcCount <= the sizes of srcTensor and dstTensor (A2's check)", both, k.calcCount,
         srcElems < dstElems ? srcElems : dstElems);
    Need(k.workLocalSize <= c.tmp.bytes, "config.workLocalSize <= sharedTmpBuffer's size (A2's check)",
         "workLocalSize %llu, sharedTmpBuffer %llu bytes", k.workLocalSize, c.tmp.bytes);
    if (!perTensor) {
        Need(c.scaleCount > 0 && c.scaleCount <= scaleElems,
             "0 < scaleCount <= scaleTensor's size (A2's check)", "scaleCount %llu, scaleTensor holds %llu",
             c.scaleCount, scaleElems);
        if (offsetTensor) {
            Need(c.offsetCount == c.scaleCount && c.offsetCount <= offsetElems,
                 "offsetCount equals scaleCount and is <= offsetTensor's size (A2's check)",
                 "offsetCount %llu, scaleCount %llu", c.offsetCount, c.scaleCount);
        }
        Need(c.calCount > 0 && c.calCount % c.scaleCount == 0,
             "calCount is a non-zero multiple of scaleCount (A2's check)", "calCount %llu, scaleCount %llu",
             c.calCount, c.scaleCount);
        Need(k.scaleCount <= scaleElems && k.scaleCount % 32 == 0 &&
                 (k.scaleCount == 0 || k.calcCount % k.scaleCount == 0),
             "config.scaleCount is a multiple of 32 within scaleTensor that divides config.calcCount (A2's check)",
             "config.scaleCount %llu, config.calcCount %llu", k.scaleCount, k.calcCount);
        if (offsetTensor) {
            Need(k.offsetCount == k.scaleCount && k.offsetCount <= offsetElems,
                 "config.offsetCount equals config.scaleCount and is <= offsetTensor's size (A2's check)",
                 "config.offsetCount %llu, config.scaleCount %llu", k.offsetCount, k.scaleCount);
        }
    }
    // The chunk: config.workLocalSize's when config fixes the sizes, else the buffer's; halves rounded down to 32.
    const bool fixedChunk = k.workLocalSize != 0 && (perTensor ? k.calcCount != 0 : k.scaleCount != 0);
    const uint64_t split = (fixedChunk ? k.workLocalSize : c.tmp.bytes) / 2 / 32 * 32;
    if (split == 0) {
        ascend_twin::FailF(call,
                           c.framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers holds a chunk of "
                                         "32 halves (A2's check: splitSize should not be zero)"
                                       : "the temporary buffer (config.workLocalSize when set) holds a chunk of 32 "
                                         "halves: 64 bytes (A2's check: splitSize should not be zero)",
                           "%llu bytes", U(fixedChunk ? k.workLocalSize : c.tmp.bytes));
    }
    uint64_t total = c.calCount;
    uint64_t perRow = c.scaleCount;
    if (perTensor) {
        if (k.workLocalSize != 0 && k.calcCount != 0) total = k.calcCount;
    } else if (k.scaleCount != 0 && k.calcCount != 0) {
        total = k.calcCount;
        perRow = k.scaleCount;
    }
    const uint64_t srcBytes = total * c.typeSize;
    const uint64_t tmpUsed = std::min<uint64_t>(split, perTensor ? total : perRow) * 2;
    const uint64_t paramBytes = perTensor ? 0 : perRow * c.typeSize;
    if (c.dst.addr != c.src.addr && Overlap(c.dst.addr, total, c.src.addr, srcBytes)) {
        ascend_twin::FailF(call,
                           "dstTensor and srcTensor start together or do not overlap (docs: they may share their "
                           "space)",
                           "dstTensor UB %llu (+%llu bytes), srcTensor UB %llu (+%llu bytes)",
                           U(ascend_twin::UbOffset(c.dst.addr)), U(total), U(ascend_twin::UbOffset(c.src.addr)),
                           U(srcBytes));
    }
    const bool floatParams = c.typeSize == 4;  // converted to half in place: written too
    for (const auto& [name, op] : {std::pair<const char*, const MathOperand*>{"scaleTensor", &c.scale},
                                   {"offsetTensor", &c.offset}}) {
        if (op->addr == nullptr) continue;
        if (Overlap(op->addr, paramBytes, c.dst.addr, total) ||
            (floatParams && Overlap(op->addr, paramBytes, c.src.addr, srcBytes))) {
            ascend_twin::FailF(call,
                               "scaleTensor and offsetTensor overlap neither dstTensor nor (float: A2 converts them "
                               "to half in place) srcTensor",
                               "%s [UB %llu, +%llu bytes)", name, U(ascend_twin::UbOffset(op->addr)), U(paramBytes));
        }
    }
    if (floatParams && offsetTensor && Overlap(c.scale.addr, paramBytes, c.offset.addr, paramBytes)) {
        ascend_twin::FailF(call, "float scaleTensor and offsetTensor do not overlap: A2 converts each to half in place",
                           "scaleTensor UB %llu, offsetTensor UB %llu, %llu bytes each",
                           U(ascend_twin::UbOffset(c.scale.addr)), U(ascend_twin::UbOffset(c.offset.addr)),
                           U(paramBytes));
    }
    for (const auto& [name, addr, n] :
         {std::tuple<const char*, const void*, uint64_t>{"dstTensor", c.dst.addr, total}, {"srcTensor", c.src.addr, srcBytes},
          {"scaleTensor", c.scale.addr, paramBytes}, {"offsetTensor", c.offset.addr, paramBytes}}) {
        if (Overlap(c.tmp.addr, tmpUsed, addr, n)) {
            ascend_twin::FailF(call, "sharedTmpBuffer overlaps no operand",
                               "the %llu bytes of the temporary buffer the call uses (from UB %llu) share bytes with %s",
                               U(tmpUsed), U(ascend_twin::UbOffset(c.tmp.addr)), name);
        }
    }
    return static_cast<uint32_t>(split);
}

}  // namespace AscendC::twin_detail
