// The rule checks and the arithmetic of the advanced Select with a byte mask (twin/include/twin/kernel_adv_select.h).
#include "twin/kernel_adv_select.h"

#include <cstring>

#include "adv_common.h"

namespace AscendC::twin_detail {

void SelectBytesMaskRun(uint32_t typeSize, uint32_t maskTypeSize, bool isReuseMask, bool reverse, const MathOperand& dst,
                        const MathOperand& src, const void* scalar, const MathOperand& mask, const MathOperand& tmp,
                        const SelectWithBytesMaskShapeInfo& info)
{
    const char* call = "Select";
    const char* srcName = reverse ? "src1 (the tensor)" : "src0 (the tensor)";
    CheckVecOperands(call, {{"dst", &dst}, {srcName, &src}, {"mask", &mask}, {"sharedTmpBuffer", &tmp}}, nullptr);
    const uint64_t rows = info.firstAxis, k1 = info.srcLastAxis, k2 = info.maskLastAxis;
    const uint64_t n = rows * k1;
    if (src.bytes / typeSize != n) {
        ascend_twin::FailF(call, "info.firstAxis * info.srcLastAxis is the source tensor's size",
                           "%llu x %llu = %llu, the tensor holds %llu", U(rows), U(k1), U(n), U(src.bytes / typeSize));
    }
    if (mask.bytes / maskTypeSize != rows * k2) {
        ascend_twin::FailF(call, "info.firstAxis * info.maskLastAxis is the mask's size",
                           "%llu x %llu = %llu, mask holds %llu", U(rows), U(k2), U(rows * k2),
                           U(mask.bytes / maskTypeSize));
    }
    if (k2 < k1) {
        ascend_twin::FailF(call, "info.maskLastAxis >= info.srcLastAxis", "maskLastAxis = %llu, srcLastAxis = %llu",
                           U(k2), U(k1));
    }
    if (k2 * maskTypeSize % 32 != 0 || k2 % 16 != 0) {
        ascend_twin::FailF(call, "the mask's last axis is 32-byte aligned and a multiple of 16 elements (docs: "
                                 "maskTensor尾轴需32字节对齐且元素个数为16的倍数)",
                           "maskLastAxis = %llu of %u bytes", U(k2), maskTypeSize);
    }
    if (k1 * typeSize % 32 != 0) {
        ascend_twin::FailF(call, "the source tensor's last axis is 32-byte aligned (docs: 源操作数Tensor尾轴需32字节对齐)",
                           "srcLastAxis = %llu of %u bytes", U(k1), typeSize);
    }
    const bool compact = k1 != k2;
    const uint64_t maskExtra = compact && !isReuseMask ? (n * maskTypeSize + 31) / 32 * 32 : 0;
    if (tmp.bytes < 1024 + maskExtra) {
        ascend_twin::FailF(call,
                           maskExtra != 0 ? "sharedTmpBuffer holds 1024 bytes and the compacted mask (isReuseMask false, "
                                            "maskLastAxis != srcLastAxis; GetSelectMaxMinTmpSize's minimum)"
                                          : "sharedTmpBuffer holds at least 1024 bytes (GetSelectMaxMinTmpSize's minimum)",
                           "%llu bytes, %llu needed", U(tmp.bytes), U(1024 + maskExtra));
    }
    const uint64_t bytes = n * typeSize;
    if (dst.bytes < bytes) {
        ascend_twin::FailF(call, "dst holds info.firstAxis * info.srcLastAxis elements", "dst holds %llu, %llu needed",
                           U(dst.bytes / typeSize), U(n));
    }
    if (dst.addr != src.addr && Overlap(dst.addr, bytes, src.addr, bytes)) {
        ascend_twin::FailF(call, "dst is the source tensor or shares no byte with it (docs: 源操作数与目的操作数可以复用)",
                           "dst [UB %llu) and %s [UB %llu) overlap at different addresses",
                           U(ascend_twin::UbOffset(dst.addr)), srcName, U(ascend_twin::UbOffset(src.addr)));
    }
    const uint64_t maskBytes = rows * k2 * maskTypeSize;
    if (Overlap(dst.addr, bytes, mask.addr, maskBytes)) {
        ascend_twin::FailF(call, "dst and mask do not overlap", "dst [UB %llu, +%llu bytes) and mask [UB %llu, +%llu) share bytes",
                           U(ascend_twin::UbOffset(dst.addr)), U(bytes), U(ascend_twin::UbOffset(mask.addr)),
                           U(maskBytes));
    }
    for (const MathOperand* o : {&dst, &src, &mask}) {
        const uint64_t ob = o == &mask ? maskBytes : bytes;
        if (Overlap(tmp.addr, tmp.bytes, o->addr, ob)) {
            ascend_twin::FailF(call, "sharedTmpBuffer overlaps no operand", "sharedTmpBuffer [UB %llu, +%llu bytes) shares bytes with %s",
                               U(ascend_twin::UbOffset(tmp.addr)), U(tmp.bytes),
                               o == &dst ? "dst" : (o == &mask ? "mask" : srcName));
        }
    }
    const bool rewritesMask = compact && isReuseMask;
    {
        ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
        instr.Read(srcName, src.addr, bytes);
        instr.Read("mask", mask.addr, maskBytes);
        instr.Write("sharedTmpBuffer", tmp.addr, tmp.bytes);
        if (rewritesMask) instr.Write("mask", mask.addr, n * maskTypeSize);
        instr.Write("dst", dst.addr, bytes);
    }
    const uint8_t* s = static_cast<const uint8_t*>(src.addr);
    uint8_t* m = static_cast<uint8_t*>(const_cast<void*>(mask.addr));
    uint8_t* d = static_cast<uint8_t*>(const_cast<void*>(dst.addr));
    static const uint8_t kZero[4] = {0, 0, 0, 0};
    for (uint64_t r = 0; r < rows; ++r) {
        for (uint64_t c = 0; c < k1; ++c) {
            const uint64_t i = r * k1 + c;
            const bool set = std::memcmp(m + (r * k2 + c) * maskTypeSize, kZero, maskTypeSize) != 0;
            const bool takeTensor = set == reverse;  // mask 0: src0; set: src1
            if (takeTensor) std::memmove(d + i * typeSize, s + i * typeSize, typeSize);
            else std::memcpy(d + i * typeSize, scalar, typeSize);
        }
    }
    if (rewritesMask) {
        // A2's GatherMask into the mask itself: the rows' first srcLastAxis elements, packed (row by row, forward).
        for (uint64_t r = 0; r < rows; ++r) {
            std::memmove(m + r * k1 * maskTypeSize, m + r * k2 * maskTypeSize, k1 * maskTypeSize);
        }
    }
    std::memset(const_cast<void*>(tmp.addr), 0xff, tmp.bytes);
    SetMaskNorm();
    ResetMask();
    ascend_twin::CountVec(ascend_twin::VecOp::kSelect, n, ascend_twin::CountFormRepeats(n, typeSize));
}

}  // namespace AscendC::twin_detail
