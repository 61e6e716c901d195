// The rule checks of the Sum reduce API (twin/include/twin/kernel_adv_sum.h).
#include "twin/kernel_adv_sum.h"

#include "adv_common.h"

namespace AscendC::twin_detail {

void CheckSum(uint32_t typeSize, const MathOperand& dst, const MathOperand& src, const MathOperand& tmp, bool framework,
              uint32_t outter, uint32_t inner, uint32_t n)
{
    const char* call = "Sum";
    const char* posRule = "the advanced math API's operands are at VECIN, VECCALC or VECOUT";
    for (const auto& [name, op] : {std::pair<const char*, const MathOperand*>{"dstTensor", &dst}, {"srcTensor", &src},
                                   {"sharedTmpBuffer", &tmp}}) {
        if (framework && op == &tmp) continue;
        if (op->pos != TPosition::VECIN && op->pos != TPosition::VECCALC && op->pos != TPosition::VECOUT) {
            ascend_twin::FailF(call, posRule, "%s is at %s", name, PositionName(op->pos));
        }
        ascend_twin::CheckUbAligned(call, name, op->addr);
    }
    if (inner == 0 || (static_cast<uint64_t>(inner) * typeSize) % 32 != 0) {
        ascend_twin::FailF(call, "sumParams.inner is greater than 0 and a whole number of 32-byte blocks",
                           "inner = %u elements of %u bytes", inner, typeSize);
    }
    if (n < 1 || n > inner) {
        ascend_twin::FailF(call, "1 <= sumParams.n <= sumParams.inner", "n = %u, inner = %u", n, inner);
    }
    const uint64_t srcBytes = static_cast<uint64_t>(outter) * inner * typeSize;
    if (src.bytes < srcBytes) {
        ascend_twin::FailF(call, "srcTensor holds outter * inner elements (docs)",
                           "outter = %u, inner = %u, srcTensor holds %llu", outter, inner, U(src.bytes / typeSize));
    }
    const uint64_t dstBytes = (static_cast<uint64_t>(outter) * typeSize + 31) / 32 * 32;
    if (dst.bytes < dstBytes) {
        ascend_twin::FailF(call, "dstTensor holds outter results rounded up to 32 bytes (docs)",
                           "outter = %u, dstTensor holds %llu elements, %llu needed", outter, U(dst.bytes / typeSize),
                           U(dstBytes / typeSize));
    }
    if (Overlap(src.addr, srcBytes, dst.addr, dstBytes)) {
        ascend_twin::FailF(call, "src and dst do not overlap (docs: 不支持源操作数与目的操作数地址重叠)",
                           "srcTensor [UB %llu, +%llu bytes) and dstTensor [UB %llu, +%llu bytes) share bytes",
                           U(ascend_twin::UbOffset(src.addr)), U(srcBytes), U(ascend_twin::UbOffset(dst.addr)),
                           U(dstBytes));
    }
    const uint32_t need = SumTmpBytes(n, typeSize);
    const uint32_t perRep = 256 / typeSize;
    if (n <= perRep) return;  // one repeat a row: straight into dst, no temporary buffer
    if (tmp.bytes < need) {
        ascend_twin::FailF(call,
                           framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 "
                                       "bytes) holds the API's minimum temporary size"
                                     : "sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum",
                           "%llu bytes, GetSumMaxMinTmpSize gives %u for n = %u", U(tmp.bytes), need, n);
    }
    const char* which = Overlap(tmp.addr, need, src.addr, srcBytes)   ? "srcTensor"
                        : Overlap(tmp.addr, need, dst.addr, dstBytes) ? "dstTensor"
                                                                      : nullptr;
    if (which != nullptr) {
        ascend_twin::FailF(call, "sharedTmpBuffer does not overlap src or dst",
                           "the %u bytes of the temporary buffer Sum writes (from UB %llu) share bytes with %s", need,
                           U(ascend_twin::UbOffset(tmp.addr)), which);
    }
}

}  // namespace AscendC::twin_detail
