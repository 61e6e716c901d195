// The rule checks of WelfordFinalize (twin/include/twin/kernel_adv_welford.h); the computation is A2's own sequence
// of basic instructions in the header.
#include "twin/kernel_adv_welford.h"

#include <cmath>
#include <tuple>

#include "adv_common.h"

namespace AscendC::twin_detail {

void WelfordFinalizeCheck(const WelfordFinalizeCall& c)
{
    const char* call = "WelfordFinalize";
    if (c.hasCounts) {
        CheckVecOperands(call, {{"outputMean", &c.outMean}, {"outputVariance", &c.outVar}, {"inputMean", &c.inMean},
                                {"inputVariance", &c.inVar}, {"counts", &c.counts}, {"sharedTmpBuffer", &c.tmp}},
                         c.framework ? &c.tmp : nullptr);
    } else {
        CheckVecOperands(call, {{"outputMean", &c.outMean}, {"outputVariance", &c.outVar}, {"inputMean", &c.inMean},
                                {"inputVariance", &c.inVar}, {"sharedTmpBuffer", &c.tmp}},
                         c.framework ? &c.tmp : nullptr);
    }
    const WelfordFinalizePara& p = c.para;
    if (p.abLength == 0 || p.abLength % 8 != 0) {
        ascend_twin::FailF(call, "para.abLength is a non-zero multiple of 32 / sizeof(float) (docs, A2's check)",
                           "abLength %u", p.abLength);
    }
    if (static_cast<uint64_t>(p.headCountLength) + p.tailCountLength != p.abLength) {
        ascend_twin::FailF(call, "para.headCountLength + para.tailCountLength = para.abLength (docs, A2's check)",
                           "headCountLength %u, tailCountLength %u, abLength %u", p.headCountLength,
                           p.tailCountLength, p.abLength);
    }
    if (p.tailCount == 0 && p.tailCountLength != 0) {
        ascend_twin::FailF(call, "para.tailCountLength is 0 when para.tailCount is 0 (docs: on A2; A2's check)",
                           "tailCountLength %u", p.tailCountLength);
    }
    const double rec = 1.0 / p.abLength;
    if (!(p.abRec - rec > -1e-4 && p.abRec - rec < 1e-4)) {
        ascend_twin::FailF(call, "para.abRec is 1 / para.abLength within 1e-4 (A2's check)",
                           "abRec %g, abLength %u (1 / abLength = %g)", static_cast<double>(p.abRec), p.abLength, rec);
    }
    const uint64_t n = p.abLength;
    using Sized = std::tuple<const char*, const MathOperand*, uint64_t>;
    for (const auto& [name, op, count] : {Sized{"inputMean", &c.inMean, n}, Sized{"inputVariance", &c.inVar, n},
                                          Sized{"counts", c.hasCounts ? &c.counts : nullptr, n},
                                          Sized{"outputMean", &c.outMean, 8}, Sized{"outputVariance", &c.outVar, 8}}) {
        if (op != nullptr && op->bytes < count * 4) {
            ascend_twin::FailF(call,
                               "inputMean, inputVariance and counts hold para.abLength elements, outputMean and "
                               "outputVariance 8 (A2's check)",
                               "%s holds %llu, %llu needed", name, U(op->bytes / 4), U(count));
        }
    }
    constexpr uint64_t kMinTmp = 1024;  // GetWelfordFinalizeMaxMinTmpSize's minimum on A2: 4 rows of 64 floats
    if (c.tmp.bytes < kMinTmp) {
        ascend_twin::FailF(call,
                           c.framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers holds "
                                         "GetWelfordFinalizeMaxMinTmpSize's minimum (1024 bytes)"
                                       : "sharedTmpBuffer holds GetWelfordFinalizeMaxMinTmpSize's minimum (1024 bytes)",
                           "%llu bytes", U(c.tmp.bytes));
    }
    using Range = std::tuple<const char*, const void*, uint64_t>;
    const Range dsts[] = {{"outputMean", c.outMean.addr, 32}, {"outputVariance", c.outVar.addr, 32}};
    const Range srcs[] = {{"inputMean", c.inMean.addr, n * 4}, {"inputVariance", c.inVar.addr, n * 4},
                          {"counts", c.hasCounts ? c.counts.addr : nullptr, n * 4}};
    if (Overlap(c.outMean.addr, 32, c.outVar.addr, 32)) {
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
    // The part of the temporary buffer A2 uses: two rows of 64 floats and two of computeLength.
    const uint64_t floats = c.tmp.bytes / 4;
    const uint64_t used = (128 + (floats - 128) / 128 * 128) * 4;
    for (const auto* ranges : {static_cast<const Range*>(dsts), static_cast<const Range*>(srcs)}) {
        const size_t count = ranges == dsts ? 2 : 3;
        for (size_t i = 0; i < count; ++i) {
            const auto& [name, addr, bytes] = ranges[i];
            if (Overlap(c.tmp.addr, used, addr, bytes)) {
                ascend_twin::FailF(call,
                                   "sharedTmpBuffer overlaps no operand (docs: 不支持sharedTmpBuffer与源操作数和目的"
                                   "操作数地址重叠)",
                                   "the %llu bytes of the temporary buffer (from UB %llu) share bytes with %s",
                                   U(used), U(ascend_twin::UbOffset(c.tmp.addr)), name);
            }
        }
    }
}

}  // namespace AscendC::twin_detail
