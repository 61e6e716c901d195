// The rule checks of LayerNormGrad and LayerNormGradBeta (twin/include/twin/kernel_adv_layernorm_grad.h); the
// computation is A2's own sequence of basic instructions in the header.
#include "twin/kernel_adv_layernorm_grad.h"

#include "adv_common.h"

namespace AscendC::twin_detail {

void LayerNormGradCheck(const LayerNormGradCall& c)
{
    const char* call = c.api;
    const bool beta = c.nIns == 2;
    const char* outNames[2] = {beta ? "outputPdGamma" : "outputPdX", beta ? "outputPdBeta" : "resForGamma"};
    const char* inNames[5] = {beta ? "resForGamma" : "inputDy", beta ? "inputDy" : "inputX", "inputVariance",
                              "inputMean", "inputGamma"};
    if (beta) {
        CheckVecOperands(call, {{outNames[0], &c.outs[0]}, {outNames[1], &c.outs[1]}, {inNames[0], &c.ins[0]},
                                {inNames[1], &c.ins[1]}, {"sharedTmpBuffer", &c.tmp}},
                         c.framework ? &c.tmp : nullptr);
    } else {
        CheckVecOperands(call, {{outNames[0], &c.outs[0]}, {outNames[1], &c.outs[1]}, {inNames[0], &c.ins[0]},
                                {inNames[1], &c.ins[1]}, {inNames[2], &c.ins[2]}, {inNames[3], &c.ins[3]},
                                {inNames[4], &c.ins[4]}, {"sharedTmpBuffer", &c.tmp}},
                         c.framework ? &c.tmp : nullptr);
    }
    if (c.isReuseSource && c.typeSize == 2) {
        ascend_twin::FailF(call, "isReuseSource is for float inputs only (A2's check)", "%s<half, true> was called",
                           call);
    }
    if (c.h == 0 || c.h * c.typeSize % 32 != 0 || c.oriH == 0 || c.oriH > c.h) {
        ascend_twin::FailF(call,
                           "tiling.hLength is 32-byte aligned and 0 < tiling.originalHLength <= tiling.hLength (docs: "
                           "the H axis padded to 32 bytes with zeros)",
                           "hLength %u, originalHLength %u, %u-byte elements", c.h, c.oriH, c.typeSize);
    }
    const uint64_t bsh = static_cast<uint64_t>(c.b) * c.s * c.h;
    if (c.oneCalSize == 0 || c.oneCalSize != static_cast<uint64_t>(c.rowsPerRound) * c.h ||
        static_cast<uint64_t>(c.rounds) * c.oneCalSize + c.tailSize != bsh ||
        c.tailSize != static_cast<uint64_t>(c.tailRows) * c.h) {
        ascend_twin::FailF(call,
                           "the tiling's rounds cover its shape as the tiling function writes them (rounds of whole "
                           "rows, their lengths a round's, the rounds and the tail = bLength * sLength * hLength)",
                           "b %u, s %u, h %u; rounds %u of %u elements (%u rows), tail %u (%u rows)", c.b, c.s, c.h,
                           c.rounds, c.oneCalSize, c.rowsPerRound, c.tailSize, c.tailRows);
    }
    const uint64_t rows = static_cast<uint64_t>(c.b) * c.s;
    for (uint32_t i = 0; i < 2 + c.nIns; ++i) {
        const MathOperand& op = i < 2 ? c.outs[i] : c.ins[i - 2];
        const char* name = i < 2 ? outNames[i] : inNames[i - 2];
        const bool isH = beta ? i < 2 : i == 6;
        const bool isRows = !beta && (i == 4 || i == 5);
        const uint64_t need = (isH ? c.h : isRows ? rows : bsh) * c.typeSize;
        if (op.bytes < need) {
            ascend_twin::FailF(call,
                               beta ? "resForGamma and inputDy hold tiling.bLength * sLength * hLength elements, the "
                                      "outputs hLength"
                                    : "outputPdX, resForGamma, inputDy and inputX hold tiling.bLength * sLength * "
                                      "hLength elements, inputVariance and inputMean bLength * sLength, inputGamma "
                                      "hLength",
                               "%s holds %llu, %llu needed", name, U(op.bytes / c.typeSize), U(need / c.typeSize));
        }
        if (isH && op.bytes % 32 != 0) {
            ascend_twin::FailF(call,
                               beta ? "outputPdGamma's and outputPdBeta's lengths are 32-byte multiples (A2's check)"
                                    : "inputGamma's length is a 32-byte multiple (A2's check)",
                               "%s holds %llu bytes", name, U(op.bytes));
        }
    }
    if (c.tmp.bytes < c.tmpBytes || c.tmp.bytes < c.usedFloats * 4) {
        ascend_twin::FailF(call,
                           c.framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers holds "
                                         "tiling.stackBufferSize and the buffers the tiling places there"
                                       : "sharedTmpBuffer holds tiling.stackBufferSize (A2's check) and the buffers the "
                                         "tiling places there",
                           "%llu bytes; stackBufferSize %u bytes, the tiling's buffers end at %llu bytes",
                           U(c.tmp.bytes), c.tmpBytes, U(c.usedFloats * 4));
    }
    const uint64_t used = c.usedFloats * 4;
    for (uint32_t i = 0; i < 2 + c.nIns; ++i) {
        const MathOperand& op = i < 2 ? c.outs[i] : c.ins[i - 2];
        if (Overlap(c.tmp.addr, used, op.addr, op.bytes)) {
            ascend_twin::FailF(call, "sharedTmpBuffer overlaps no operand",
                               "the %llu bytes of the temporary buffer the tiling uses (from UB %llu) share bytes "
                               "with %s",
                               U(used), U(ascend_twin::UbOffset(c.tmp.addr)), i < 2 ? outNames[i] : inNames[i - 2]);
        }
    }
}

}  // namespace AscendC::twin_detail
