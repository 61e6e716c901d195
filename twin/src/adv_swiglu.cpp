// The rule checks and the arithmetic of SwiGLU (twin/include/twin/kernel_adv_swiglu.h).
#include "twin/kernel_adv_swiglu.h"

#include <algorithm>
#include <cmath>

#include "adv_common.h"

namespace AscendC::twin_detail {

uint64_t CheckSwiGLU(uint32_t typeSize, uint32_t calCount, const MathOperand& dst, const MathOperand& src0,
                     const MathOperand& src1, const MathOperand& tmp, bool framework)
{
    const char* call = "SwiGLU";
    CheckVecOperands(call,
                     {{"dstTensor", &dst}, {"srcTensor0", &src0}, {"srcTensor1", &src1}, {"sharedTmpBuffer", &tmp}},
                     framework ? &tmp : nullptr);
    if (src0.bytes != src1.bytes) {
        ascend_twin::FailF(call, "srcTensor0 and srcTensor1 hold the same number of elements (A2's check)",
                           "srcTensor0 holds %llu, srcTensor1 %llu", U(src0.bytes / typeSize), U(src1.bytes / typeSize));
    }
    const uint64_t bytes = static_cast<uint64_t>(calCount) * typeSize;
    if (bytes > src0.bytes || bytes > dst.bytes) {
        ascend_twin::FailF(call, "calCount is at most the number of elements dstTensor and the source tensors hold",
                           "calCount = %u, srcTensor0 holds %llu, dstTensor %llu", calCount, U(src0.bytes / typeSize),
                           U(dst.bytes / typeSize));
    }
    for (const MathOperand* s : {&src0, &src1}) {
        if (Overlap(dst.addr, bytes, s->addr, bytes)) {
            ascend_twin::FailF(call, "src and dst do not overlap (docs: 不支持源操作数与目的操作数地址重叠)",
                               "dstTensor [UB %llu, +%llu bytes) and %s share bytes", U(ascend_twin::UbOffset(dst.addr)),
                               U(bytes), s == &src0 ? "srcTensor0" : "srcTensor1");
        }
    }
    const ascend_twin::MathTmpSize need = ascend_twin::SwiGLUTmpSizeA2(typeSize, calCount == 0 ? 1 : calCount);
    if (need.minValue == 0) return 0;
    if (tmp.bytes < need.minValue) {
        ascend_twin::FailF(call,
                           framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 "
                                       "bytes) holds the API's minimum temporary size"
                                     : "sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum",
                           "%llu bytes, GetSwiGLUMaxMinTmpSize's minimum for half is %u", U(tmp.bytes), need.minValue);
    }
    const uint64_t used = std::min<uint64_t>(tmp.bytes, need.maxValue);
    for (const MathOperand* s : {&dst, &src0, &src1}) {
        if (Overlap(tmp.addr, used, s->addr, bytes)) {
            ascend_twin::FailF(call, "sharedTmpBuffer does not overlap src or dst",
                               "the %llu bytes of the temporary buffer SwiGLU writes (from UB %llu) share bytes with %s",
                               U(used), U(ascend_twin::UbOffset(tmp.addr)),
                               s == &dst ? "dstTensor" : (s == &src0 ? "srcTensor0" : "srcTensor1"));
        }
    }
    return used;
}

void EvalSwiGLU(uint32_t typeSize, void* dst, const void* src0, const void* src1, float beta, uint32_t n)
{
    const auto load = [typeSize](const void* p, uint32_t i) {
        return typeSize == 4 ? static_cast<double>(static_cast<const float*>(p)[i])
                             : static_cast<double>(static_cast<float>(static_cast<const half*>(p)[i]));
    };
    for (uint32_t i = 0; i < n; ++i) {
        const double a = load(src0, i);
        const double b = load(src1, i);
        const double r = a * b / (1.0 + std::exp(-static_cast<double>(beta) * b));
        if (typeSize == 4) static_cast<float*>(dst)[i] = static_cast<float>(r);
        else static_cast<half*>(dst)[i] = half(static_cast<float>(r));  // A2 computes half through float
    }
}

}  // namespace AscendC::twin_detail
