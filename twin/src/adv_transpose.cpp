// The rule checks and the data movement of the confusion Transpose (twin/include/twin/kernel_adv_transpose.h).
#include "twin/kernel_adv_transpose.h"

#include <cstring>

#include "adv_common.h"

namespace AscendC::twin_detail {

void ConfusionTransposeRun(uint32_t typeSize, const MathOperand& dst, const MathOperand& src, const MathOperand& tmp,
                           bool framework, uint8_t transposeType, const tiling::ConfusionTransposeTiling& tiling)
{
    const char* call = "Transpose";
    CheckVecOperands(call, {{"dst", &dst}, {"src", &src}, {"sharedTmpBuffer", &tmp}}, framework ? &tmp : nullptr);
    const auto type = static_cast<TransposeType>(transposeType);
    if (type == TransposeType::TRANSPOSE_TYPE_NONE || transposeType >= 8) {
        ascend_twin::FailF(call, "transposeType is one of A2's scenarios 1..7 (docs: TRANSPOSE_ND_UB_GM .. "
                                 "TRANSPOSE_NHWC2NCHW 当前不支持; TRANSPOSE_TYPE_NONE does nothing)",
                           "transposeType = %u", transposeType);
    }
    if (type != TransposeType::TRANSPOSE_NZ2ND_0213 && type != TransposeType::TRANSPOSE_NZ2NZ_0213) {
        ascend_twin::FailF(call, "the twin models scenarios 1 and 2 (TRANSPOSE_NZ2ND_0213, TRANSPOSE_NZ2NZ_0213) of the "
                                 "confusion Transpose (a twin gap: A2 runs scenarios 3..7 too)",
                           "transposeType = %u", transposeType);
    }
    // GetTransposeTilingInfo's fields for scenarios 1 and 2 (param0.. in the order it sets them).
    const uint64_t blockSize = tiling.param0, batches = tiling.param1, a1 = tiling.param2, alignA3 = tiling.param3;
    const uint64_t alignA2 = tiling.param4, newPopSize = tiling.param6;
    if (blockSize != 32 / typeSize) {
        ascend_twin::FailF(call, "the tiling is GetTransposeTilingInfo's for this T (its blockSize, param0, is 32 / "
                                 "sizeof(T))",
                           "param0 = %llu, sizeof(T) = %u", U(blockSize), typeSize);
    }
    if (alignA2 % 16 != 0 || alignA3 % 16 != 0 || alignA2 == 0 || alignA3 == 0 || a1 == 0 || batches == 0) {
        ascend_twin::FailF(call, "the tiling's shape is GetTransposeTilingInfo's (B, A1 positive; A2, A3 rounded up to 16)",
                           "B = %llu, A1 = %llu, A2 = %llu, A3 = %llu", U(batches), U(a1), U(alignA2), U(alignA3));
    }
    const uint64_t n = batches * a1 * alignA2 * alignA3;
    const uint64_t bytes = n * typeSize;
    if (src.bytes < bytes || dst.bytes < bytes) {
        ascend_twin::FailF(call, "src and dst hold B * A1 * A2 * A3 elements (A2, A3 rounded up to 16)",
                           "%llu needed, src holds %llu, dst %llu", U(n), U(src.bytes / typeSize),
                           U(dst.bytes / typeSize));
    }
    if (Overlap(dst.addr, bytes, src.addr, bytes)) {
        ascend_twin::FailF(call, "dst and src do not overlap (the data moves between layouts)",
                           "dst [UB %llu) and src [UB %llu) share bytes over %llu bytes",
                           U(ascend_twin::UbOffset(dst.addr)), U(ascend_twin::UbOffset(src.addr)), U(bytes));
    }
    if (newPopSize == 0 || newPopSize % 256 != 0) {
        ascend_twin::FailF(call, "the tiling's newPopSize (param6) is a positive multiple of 256 elements "
                                 "(GetTransposeTilingInfo given at least GetTransposeMaxMinTmpSize's minimum)",
                           "newPopSize = %llu", U(newPopSize));
    }
    const uint64_t used = newPopSize * typeSize;
    if (tmp.bytes < used) {
        ascend_twin::FailF(call,
                           framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers holds the tiling's "
                                       "newPopSize elements"
                                     : "sharedTmpBuffer holds the tiling's newPopSize elements",
                           "%llu bytes, newPopSize = %llu elements of %u bytes", U(tmp.bytes), U(newPopSize), typeSize);
    }
    if (Overlap(tmp.addr, used, src.addr, bytes) || Overlap(tmp.addr, used, dst.addr, bytes)) {
        ascend_twin::FailF(call, "the temporary buffer overlaps neither src nor dst",
                           "the %llu bytes A2 uses from UB %llu share bytes with %s", U(used),
                           U(ascend_twin::UbOffset(tmp.addr)),
                           Overlap(tmp.addr, used, src.addr, bytes) ? "src" : "dst");
    }
    {
        ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
        instr.Read("src", src.addr, bytes);
        instr.Write(framework ? "the framework's temporary buffer" : "sharedTmpBuffer", tmp.addr, used);
        instr.Write("dst", dst.addr, bytes);
    }
    const uint8_t* s = static_cast<const uint8_t*>(src.addr);
    uint8_t* d = static_cast<uint8_t*>(const_cast<void*>(dst.addr));
    const bool nd = type == TransposeType::TRANSPOSE_NZ2ND_0213;
    const uint64_t batch = a1 * alignA2 * alignA3;
    for (uint64_t b = 0; b < batches; ++b) {
        for (uint64_t i = 0; i < a1; ++i) {
            for (uint64_t j = 0; j < alignA3 / 16; ++j) {
                for (uint64_t row = 0; row < alignA2; ++row) {
                    // src NZ: [B, A1, A3/16, A2, 16]; element (b, i, row, j * 16 + c)
                    const uint64_t from = b * batch + i * alignA2 * alignA3 + j * alignA2 * 16 + row * 16;
                    // dst ND [B, A2, A1, A3] or NZ [B, A2, A3/16, A1, 16]
                    const uint64_t to = b * batch + row * a1 * alignA3 + (nd ? i * alignA3 + j * 16 : j * a1 * 16 + i * 16);
                    std::memcpy(d + to * typeSize, s + from * typeSize, 16 * typeSize);
                }
            }
        }
    }
    std::memset(const_cast<void*>(tmp.addr), 0xff, used);
    ascend_twin::CountVec(ascend_twin::VecOp::kCopy, n, ascend_twin::CountFormRepeats(2 * n, typeSize));
}

}  // namespace AscendC::twin_detail
