// The rule checks and the arithmetic of Power (twin/include/twin/kernel_adv_power.h).
#include "twin/kernel_adv_power.h"

#include <cmath>

#include "adv_common.h"

namespace AscendC::twin_detail {

namespace {

// x^|y| by repeated multiplication in 32 bits, then A2's handling of a negative exponent.
int32_t PowInt(int32_t x, int32_t y)
{
    uint32_t result = 1;
    uint32_t base = static_cast<uint32_t>(x);
    uint64_t e = y < 0 ? static_cast<uint64_t>(-static_cast<int64_t>(y)) : static_cast<uint64_t>(y);
    for (; e != 0; e >>= 1) {
        if (e & 1) result *= base;
        base *= base;
    }
    const int32_t r = static_cast<int32_t>(result);
    if (y >= 0) return r;
    if (r == 0) return 0;
    return static_cast<int32_t>(std::trunc(1.0f / static_cast<float>(r)));  // CAST_TRUNC of the float reciprocal
}

double Load(uint32_t typeSize, const void* p, uint32_t i)
{
    if (typeSize == 4) return static_cast<const float*>(p)[i];
    return static_cast<float>(static_cast<const half*>(p)[i]);
}

}  // namespace

uint64_t CheckPower(int kind, uint32_t typeSize, bool typeIsInt, uint32_t calCount, const MathOperand& dst,
                    const MathOperand& src0, const MathOperand& src1, const MathOperand& tmp, bool framework)
{
    const char* call = "Power";
    const char* posRule = "the advanced math API's operands are at VECIN, VECCALC or VECOUT";
    const struct {
        const char* name;
        const MathOperand* op;
    } ops[] = {{"dstTensor", &dst}, {"src0Tensor", &src0}, {"src1Tensor", &src1}, {"sharedTmpBuffer", &tmp}};
    for (const auto& o : ops) {
        if (o.op->addr == nullptr || (framework && o.op == &tmp)) continue;
        if (o.op->pos != TPosition::VECIN && o.op->pos != TPosition::VECCALC && o.op->pos != TPosition::VECOUT) {
            ascend_twin::FailF(call, posRule, "%s is at %s", o.name, PositionName(o.op->pos));
        }
        ascend_twin::CheckUbAligned(call, o.name, o.op->addr);
    }
    const uint64_t bytes = static_cast<uint64_t>(calCount) * typeSize;
    for (const auto& o : ops) {
        if (o.op->addr == nullptr || o.op == &tmp) continue;
        if (bytes > o.op->bytes) {
            ascend_twin::FailF(call, "calCount is at most the number of elements dstTensor and the source tensors hold",
                               "calCount = %u, %s holds %llu", calCount, o.name, U(o.op->bytes / typeSize));
        }
    }
    for (const MathOperand* s : {&src0, &src1}) {
        if (Overlap(dst.addr, bytes, s->addr, bytes)) {
            ascend_twin::FailF(call, "src and dst do not overlap (docs: 不支持源操作数与目的操作数地址重叠)",
                               "dstTensor [UB %llu, +%llu bytes) and %s share bytes", U(ascend_twin::UbOffset(dst.addr)),
                               U(bytes), s == &src0 ? "src0Tensor" : "src1Tensor");
        }
    }
    const ascend_twin::MathTmpSize need = ascend_twin::PowerTmpSizeA2(kind == 0, typeIsInt, typeSize, calCount);
    if (tmp.bytes < need.minValue) {
        ascend_twin::FailF(call,
                           framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 "
                                       "bytes) holds the API's minimum temporary size"
                                     : "sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum",
                           "%llu bytes, GetPowerMaxMinTmpSize's minimum for this form is %u", U(tmp.bytes),
                           need.minValue);
    }
    const uint64_t used = std::min<uint64_t>(tmp.bytes, need.maxValue);
    for (const MathOperand* s : {&dst, &src0, &src1}) {
        if (Overlap(tmp.addr, used, s->addr, bytes)) {
            ascend_twin::FailF(call, "sharedTmpBuffer does not overlap src or dst",
                               "the %llu bytes of the temporary buffer Power writes (from UB %llu) share bytes with %s",
                               U(used), U(ascend_twin::UbOffset(tmp.addr)),
                               s == &dst ? "dstTensor" : (s == &src0 ? "src0Tensor" : "src1Tensor"));
        }
    }
    return used;
}

void EvalPower(uint32_t typeSize, bool typeIsInt, void* dst, const void* src0, const void* src1, const void* scalar0,
               const void* scalar1, uint32_t n)
{
    if (typeIsInt) {
        const int32_t* a = static_cast<const int32_t*>(src0);
        const int32_t* b = static_cast<const int32_t*>(src1);
        int32_t* d = static_cast<int32_t*>(dst);
        const int32_t sa = scalar0 != nullptr ? *static_cast<const int32_t*>(scalar0) : 0;
        const int32_t sb = scalar1 != nullptr ? *static_cast<const int32_t*>(scalar1) : 0;
        for (uint32_t i = 0; i < n; ++i) d[i] = PowInt(a != nullptr ? a[i] : sa, b != nullptr ? b[i] : sb);
        return;
    }
    const double sa = scalar0 != nullptr ? Load(typeSize, scalar0, 0) : 0.0;
    const double sb = scalar1 != nullptr ? Load(typeSize, scalar1, 0) : 0.0;
    for (uint32_t i = 0; i < n; ++i) {
        const double x = src0 != nullptr ? Load(typeSize, src0, i) : sa;
        const double y = src1 != nullptr ? Load(typeSize, src1, i) : sb;
        const double r = std::pow(x, y);
        if (typeSize == 4) static_cast<float*>(dst)[i] = static_cast<float>(r);
        else static_cast<half*>(dst)[i] = half(static_cast<float>(r));  // A2 computes half through float
    }
}

}  // namespace AscendC::twin_detail
