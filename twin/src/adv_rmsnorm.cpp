// The rule checks of RmsNorm (twin/include/twin/kernel_adv_rmsnorm.h); the computation is A2's own sequence of basic
// instructions in the header.
#include "twin/kernel_adv_rmsnorm.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "adv_common.h"

namespace AscendC::twin_detail {

void RmsNormCheck(const RmsNormCall& c)
{
    const char* call = "RmsNorm";
    CheckVecOperands(call, {{"dstLocal", &c.dst}, {"srcLocal", &c.src}, {"gammaLocal", &c.gamma},
                            {"sharedTmpBuffer", &c.tmp}},
                     c.framework ? &c.tmp : nullptr);
    const RmsNormTiling& t = c.tiling;
    if (t.hLength == 0 || t.hLength * c.typeSize % 32 != 0 || t.originalHLength == 0 ||
        t.originalHLength > t.hLength) {
        ascend_twin::FailF(call,
                           "tiling.hLength is 32-byte aligned and 0 < tiling.originalHLength <= tiling.hLength (docs: "
                           "the H axis padded to 32 bytes)",
                           "hLength %u, originalHLength %u, %u-byte elements", t.hLength, t.originalHLength,
                           c.typeSize);
    }
    const uint64_t total = static_cast<uint64_t>(t.bLength) * t.sLength * t.hLength;
    const bool chunksOk = t.mainBsLength > 0 && t.mainBshLength == static_cast<uint64_t>(t.mainBsLength) * t.hLength &&
                          t.mainBsLengthAlign >= t.mainBsLength && t.mainBsLengthAlign % 8 == 0 &&
                          static_cast<uint64_t>(t.loopRound) * t.mainBshLength + t.tailBshLength == total &&
                          t.inputTailPos == static_cast<uint64_t>(t.loopRound) * t.mainBshLength &&
                          t.tailBshLength == static_cast<uint64_t>(t.tailBsLength) * t.hLength;
    if (!chunksOk) {
        ascend_twin::FailF(call,
                           "the tiling's chunks cover its shape as GetRmsNormTilingInfo writes them (mainBshLength = "
                           "mainBsLength * hLength, mainBsLengthAlign a multiple of 8 >= mainBsLength, loopRound "
                           "chunks and the tail = bLength * sLength * hLength, inputTailPos and tailBsLength agreeing)",
                           "tiling = {b %u, s %u, h %u, mainBsLength %u, mainBshLength %u, mainBsLengthAlign %u, "
                           "loopRound %u, inputTailPos %u, tailBsLength %u, tailBshLength %u}",
                           t.bLength, t.sLength, t.hLength, t.mainBsLength, t.mainBshLength, t.mainBsLengthAlign,
                           t.loopRound, t.inputTailPos, t.tailBsLength, t.tailBshLength);
    }
    const uint32_t rows = t.bLength * t.sLength;
    if (c.isBasicBlock) {
        if (t.hLength % 64 != 0 || t.hLength >= 2048 || rows % 8 != 0) {
            ascend_twin::FailF(call,
                               "with isBasicBlock, hLength is a multiple of 64 below 2048 and bLength * sLength a "
                               "multiple of 8 (docs)",
                               "hLength %u, bLength * sLength %u", t.hLength, rows);
        }
    } else if (t.mainBsLength > 255) {
        ascend_twin::FailF(call,
                           "without isBasicBlock, tiling.mainBsLength <= 255: A2 uses the rows of a chunk as a repeat "
                           "count (GetRmsNormTilingInfo caps it)",
                           "mainBsLength %u", t.mainBsLength);
    }
    const uint64_t bytes = total * c.typeSize;
    for (const auto& [name, op] : {std::pair<const char*, const MathOperand*>{"dstLocal", &c.dst}, {"srcLocal", &c.src}}) {
        if (op->bytes < bytes) {
            ascend_twin::FailF(call, "srcLocal and dstLocal hold tiling.bLength * sLength * hLength elements",
                               "%s holds %llu, %llu needed", name, U(op->bytes / c.typeSize), U(total));
        }
    }
    const uint64_t gammaBytes = static_cast<uint64_t>(t.hLength) * c.typeSize;
    if (c.gamma.bytes < gammaBytes) {
        ascend_twin::FailF(call, "gammaLocal holds tiling.hLength elements", "gammaLocal holds %llu, hLength %u",
                           U(c.gamma.bytes / c.typeSize), t.hLength);
    }
    const uint64_t tmpBytes =
        (static_cast<uint64_t>(t.mainBsLengthAlign) + static_cast<uint64_t>(t.mainBshLength) * (c.typeSize == 2 ? 2 : 1)) * 4;
    if (c.tmp.bytes < tmpBytes) {
        ascend_twin::FailF(call,
                           c.framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers holds the tiling's "
                                         "floats: mainBsLengthAlign + mainBshLength (twice for half)"
                                       : "sharedTmpBuffer holds the tiling's floats: mainBsLengthAlign + mainBshLength "
                                         "(twice for half)",
                           "%llu bytes, %llu needed", U(c.tmp.bytes), U(tmpBytes));
    }
    if (Overlap(c.dst.addr, bytes, c.gamma.addr, gammaBytes)) {
        ascend_twin::FailF(call, "dstLocal and gammaLocal do not overlap (docs: 不允许复用)",
                           "dstLocal UB %llu (+%llu bytes), gammaLocal UB %llu (+%llu bytes)",
                           U(ascend_twin::UbOffset(c.dst.addr)), U(bytes), U(ascend_twin::UbOffset(c.gamma.addr)),
                           U(gammaBytes));
    }
    if (c.dst.addr != c.src.addr && Overlap(c.dst.addr, bytes, c.src.addr, bytes)) {
        ascend_twin::FailF(call,
                           "srcLocal and dstLocal are the same or do not overlap (通用说明和约束: partial overlaps are "
                           "not supported)",
                           "dstLocal UB %llu, srcLocal UB %llu, %llu bytes each", U(ascend_twin::UbOffset(c.dst.addr)),
                           U(ascend_twin::UbOffset(c.src.addr)), U(bytes));
    }
    for (const auto& [name, addr, n] :
         {std::tuple<const char*, const void*, uint64_t>{"dstLocal", c.dst.addr, bytes}, {"srcLocal", c.src.addr, bytes},
          {"gammaLocal", c.gamma.addr, gammaBytes}}) {
        if (Overlap(c.tmp.addr, tmpBytes, addr, n)) {
            ascend_twin::FailF(call, "sharedTmpBuffer overlaps no operand",
                               "the %llu bytes of the temporary buffer the tiling uses (from UB %llu) share bytes with %s",
                               U(tmpBytes), U(ascend_twin::UbOffset(c.tmp.addr)), name);
        }
    }
}

}  // namespace AscendC::twin_detail
