// The rule checks of DropOut (twin/include/twin/kernel_adv_dropout.h); the computation is A2's own sequence of
// basic instructions in the header.
#include "twin/kernel_adv_dropout.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "adv_common.h"

namespace AscendC::twin_detail {

uint32_t DropOutCheck(const DropOutCall& c)
{
    const char* call = "DropOut";
    if (c.dropOutMode > 4) {
        ascend_twin::FailF(call, "dropOutMode is 0, 1, 2, 3 or 4 (A2's check)", "dropOutMode %u", c.dropOutMode);
    }
    CheckVecOperands(call, {{"dstLocal", &c.dst}, {"srcLocal", &c.src}, {"maskLocal", &c.mask},
                            {"sharedTmpBuffer", &c.tmp}},
                     c.framework ? &c.tmp : nullptr);
    if (!(c.keepProb > 0.0f && c.keepProb < 1.0f)) {
        ascend_twin::FailF(call, "keepProb is in (0, 1) (A2's check)", "keepProb %g", static_cast<double>(c.keepProb));
    }
    const DropOutShapeInfo& in = c.info;
    if (in.firstAxis == 0 || in.srcLastAxis == 0 || in.maskLastAxis == 0) {
        ascend_twin::FailF(call, "info.firstAxis, info.srcLastAxis and info.maskLastAxis are > 0 (A2's check)",
                           "info = {firstAxis %u, srcLastAxis %u, maskLastAxis %u}", in.firstAxis, in.srcLastAxis,
                           in.maskLastAxis);
    }
    if ((c.dropOutMode == 1 || c.dropOutMode == 4) && in.maskLastAxis % 2 != 0) {
        ascend_twin::FailF(call, "info.maskLastAxis is even when dropOutMode is 1 or 4 (A2's check)",
                           "dropOutMode %u, maskLastAxis %u", c.dropOutMode, in.maskLastAxis);
    }
    uint32_t mode = c.dropOutMode;
    if (mode == 0) {  // A2's inference from the shape
        if (in.srcLastAxis < in.maskLastAxis) mode = DROPOUT_MODE_BYTE_MISALIGN;
        else if (in.srcLastAxis == in.maskLastAxis) mode = DROPOUT_MODE_BYTE_ALIGN;
        else if (in.srcLastAxis == in.maskLastAxis * 8) mode = DROPOUT_MODE_BIT_ALIGN;
        else mode = DROPOUT_MODE_BIT_MISALIGN;
    }
    const bool bits = mode == DROPOUT_MODE_BIT_ALIGN || mode == DROPOUT_MODE_BIT_MISALIGN;
    const bool padded = mode == DROPOUT_MODE_BYTE_MISALIGN || mode == DROPOUT_MODE_BIT_MISALIGN;
    if (padded) {
        // A2 packs each row's valid bytes with a GatherMask whose rows are maskLastAxis / 32 blocks apart and which
        // takes the valid bytes in pairs (uint16_t).
        const uint32_t validBytes = bits ? in.srcLastAxis / 8 : in.srcLastAxis;
        const uint32_t unit = bits ? 16 : 2;
        if (in.maskLastAxis % 32 != 0) {
            ascend_twin::FailF(call,
                               "with padded mask rows (dropOutMode 1 or 4, or inferred), info.maskLastAxis is a "
                               "multiple of 32 (docs: the rows are padded to 32 bytes; A2 steps rows by maskLastAxis "
                               "/ 32 blocks)",
                               "dropOutMode %u (runs %u), maskLastAxis %u", c.dropOutMode, mode, in.maskLastAxis);
        }
        if (in.srcLastAxis % unit != 0 || validBytes > in.maskLastAxis) {
            ascend_twin::FailF(call,
                               bits ? "with padded mask rows in bit mode, info.srcLastAxis is a multiple of 16 and its "
                                      "srcLastAxis / 8 mask bytes fit a row (docs: the valid mask bytes are an even "
                                      "number)"
                                    : "with padded mask rows in byte mode, info.srcLastAxis is even and at most "
                                      "info.maskLastAxis (docs: the valid mask bytes are an even number)",
                               "dropOutMode %u (runs %u), srcLastAxis %u, maskLastAxis %u", c.dropOutMode, mode,
                               in.srcLastAxis, in.maskLastAxis);
        }
    }
    const uint64_t data = static_cast<uint64_t>(in.firstAxis) * in.srcLastAxis;
    const uint64_t dataBytes = data * c.typeSize;
    for (const auto& [name, op] : {std::pair<const char*, const MathOperand*>{"dstLocal", &c.dst}, {"srcLocal", &c.src}}) {
        if (op->bytes < dataBytes) {
            ascend_twin::FailF(call, "srcLocal and dstLocal hold info.firstAxis * info.srcLastAxis elements",
                               "%s holds %llu, info = {firstAxis %u, srcLastAxis %u}", name, U(op->bytes / c.typeSize),
                               in.firstAxis, in.srcLastAxis);
        }
    }
    const uint64_t maskBytes = padded ? static_cast<uint64_t>(in.firstAxis) * in.maskLastAxis
                                      : (bits ? (data + 7) / 8 : data);
    if (c.mask.bytes < maskBytes) {
        ascend_twin::FailF(call,
                           "maskLocal holds the bytes the mode reads (firstAxis * maskLastAxis with padded rows, "
                           "else one byte or one bit an element)",
                           "mode %u: %llu bytes needed, maskLocal holds %llu", mode, U(maskBytes), U(c.mask.bytes));
    }
    uint64_t tmpUsed = 0;
    if (bits) {
        tmpUsed = c.isInitBitMode ? 0 : 256;
        if (c.tmp.bytes < tmpUsed) {
            ascend_twin::FailF(call,
                               c.framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers holds the 256 "
                                             "bytes bit mode zeroes for CMPMASK (A2: sharedTmpBuffer length need >= "
                                             "256 Byte)"
                                           : "in bit mode without isInitBitMode, sharedTmpBuffer holds 256 bytes (A2: "
                                             "sharedTmpBuffer length need >= 256 Byte)",
                               "%llu bytes", U(c.tmp.bytes));
        }
    } else {
        const uint64_t perElem = c.typeSize == 2 ? 2 : 6;  // half: a half; float: a half and a float
        const uint64_t chunk = c.tmp.bytes / perElem / 32 * 32;
        if (chunk == 0) {
            ascend_twin::FailF(call,
                               c.framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers holds a chunk "
                                             "of 32 elements (A2's check: Insufficient temporary space)"
                                           : "in byte mode, sharedTmpBuffer holds a chunk of 32 elements: 64 bytes for "
                                             "half, 192 for float (A2's check: Insufficient temporary space)",
                               "%llu bytes", U(c.tmp.bytes));
        }
        tmpUsed = std::min<uint64_t>(chunk, data) * perElem;
        if (c.typeSize == 4) tmpUsed = chunk * 2 + std::min<uint64_t>(chunk, data) * 4;
    }
    if (c.dst.addr != c.src.addr && Overlap(c.dst.addr, dataBytes, c.src.addr, dataBytes)) {
        ascend_twin::FailF(call,
                           "srcLocal and dstLocal are the same or do not overlap (docs: they may share their space; "
                           "通用说明和约束: partial overlaps are not supported)",
                           "dstLocal UB %llu, srcLocal UB %llu, %llu bytes each", U(ascend_twin::UbOffset(c.dst.addr)),
                           U(ascend_twin::UbOffset(c.src.addr)), U(dataBytes));
    }
    if (Overlap(c.mask.addr, maskBytes, c.dst.addr, dataBytes)) {
        ascend_twin::FailF(call, "maskLocal does not overlap dstLocal",
                           "maskLocal [UB %llu, +%llu bytes) shares bytes with dstLocal", U(ascend_twin::UbOffset(c.mask.addr)),
                           U(maskBytes));
    }
    for (const auto& [name, addr, bytes] :
         {std::tuple<const char*, const void*, uint64_t>{"dstLocal", c.dst.addr, dataBytes},
          {"srcLocal", c.src.addr, dataBytes}, {"maskLocal", c.mask.addr, maskBytes}}) {
        if (Overlap(c.tmp.addr, tmpUsed, addr, bytes)) {
            ascend_twin::FailF(call, "sharedTmpBuffer overlaps no operand",
                               "the %llu bytes of the temporary buffer the call uses (from UB %llu) share bytes with %s",
                               U(tmpUsed), U(ascend_twin::UbOffset(c.tmp.addr)), name);
        }
    }
    return mode;
}

}  // namespace AscendC::twin_detail
