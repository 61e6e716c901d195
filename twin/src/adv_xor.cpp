// The rule checks and the arithmetic of Xor (twin/include/twin/kernel_adv_xor.h).
#include "twin/kernel_adv_xor.h"

#include <algorithm>
#include <cstring>

#include "adv_common.h"

namespace AscendC::twin_detail {

void XorRun(const MathOperand& dst, const MathOperand& src0, const MathOperand& src1, const MathOperand& tmp,
            bool framework, bool sameSizeRule, uint32_t calCount)
{
    const char* call = "Xor";
    CheckVecOperands(call,
                     {{"dstTensor", &dst}, {"src0Tensor", &src0}, {"src1Tensor", &src1}, {"sharedTmpBuffer", &tmp}},
                     framework ? &tmp : nullptr);
    if (sameSizeRule && src0.bytes != src1.bytes) {
        ascend_twin::FailF(call, "without calCount, src0Tensor and src1Tensor hold the same number of elements (docs)",
                           "src0Tensor holds %llu, src1Tensor %llu", U(src0.bytes / 2), U(src1.bytes / 2));
    }
    const uint64_t bytes = static_cast<uint64_t>(calCount) * 2;
    if (bytes > dst.bytes || bytes > src0.bytes || bytes > src1.bytes) {
        ascend_twin::FailF(call, "calCount is at most the number of elements dstTensor and the source tensors hold",
                           "calCount = %u, dstTensor holds %llu, src0Tensor %llu, src1Tensor %llu", calCount,
                           U(dst.bytes / 2), U(src0.bytes / 2), U(src1.bytes / 2));
    }
    for (const MathOperand* s : {&src0, &src1}) {
        if (Overlap(dst.addr, bytes, s->addr, bytes)) {
            ascend_twin::FailF(call, "src and dst do not overlap (docs: 不支持源操作数与目的操作数地址重叠)",
                               "dstTensor [UB %llu, +%llu bytes) and %s share bytes", U(ascend_twin::UbOffset(dst.addr)),
                               U(bytes), s == &src0 ? "src0Tensor" : "src1Tensor");
        }
    }
    if (tmp.bytes < 256) {
        ascend_twin::FailF(call,
                           framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 "
                                       "bytes) holds the API's minimum temporary size"
                                     : "sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum",
                           "%llu bytes, GetXorMaxMinTmpSize's minimum is 256", U(tmp.bytes));
    }
    // A2 works in parts of the buffer's size rounded down to 32 elements.
    const uint64_t part = tmp.bytes / 2 / 32 * 32;
    const uint64_t used = std::min<uint64_t>(part, calCount) * 2;
    for (const MathOperand* s : {&dst, &src0, &src1}) {
        if (Overlap(tmp.addr, used, s->addr, bytes)) {
            ascend_twin::FailF(call, "sharedTmpBuffer does not overlap src or dst",
                               "the %llu bytes of the temporary buffer Xor writes (from UB %llu) share bytes with %s",
                               U(used), U(ascend_twin::UbOffset(tmp.addr)),
                               s == &dst ? "dstTensor" : (s == &src0 ? "src0Tensor" : "src1Tensor"));
        }
    }
    {
        ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
        instr.Read("src0Tensor", src0.addr, bytes);
        instr.Read("src1Tensor", src1.addr, bytes);
        if (used != 0) instr.Write(framework ? "the framework's temporary buffer" : "sharedTmpBuffer", tmp.addr, used);
        instr.Write("dstTensor", dst.addr, bytes);
    }
    const uint16_t* a = static_cast<const uint16_t*>(src0.addr);
    const uint16_t* b = static_cast<const uint16_t*>(src1.addr);
    uint16_t* d = static_cast<uint16_t*>(const_cast<void*>(dst.addr));
    for (uint32_t i = 0; i < calCount; ++i) d[i] = static_cast<uint16_t>(a[i] ^ b[i]);
    if (used != 0) std::memset(const_cast<void*>(tmp.addr), 0xff, used);
    SetMaskNorm();
    ResetMask();
    ascend_twin::CountVec(ascend_twin::VecOp::kXor, calCount, ascend_twin::CountFormRepeats(calCount, 2));
}

}  // namespace AscendC::twin_detail
