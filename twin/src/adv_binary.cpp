// The rule checks and the arithmetic of SwiGLU, GeGLU and Fmod (twin/include/twin/kernel_adv_binary.h), and the
// advanced Axpy's rule checks (twin/include/twin/kernel_adv_more.h).
#include "twin/kernel_adv_binary.h"
#include "twin/kernel_adv_more.h"

#include <algorithm>
#include <cmath>

#include "adv_common.h"

namespace AscendC::twin_detail {

namespace {

ascend_twin::MathTmpSize BinaryTmpSize(AdvBinaryFn fn, uint32_t typeSize, uint64_t n)
{
    switch (fn) {
        case AdvBinaryFn::kSwiGLU: return ascend_twin::SwiGLUTmpSizeA2(typeSize, n);
        case AdvBinaryFn::kGeGLU: return ascend_twin::GeGLUTmpSizeA2(typeSize, n);
        case AdvBinaryFn::kFmod: break;
    }
    return ascend_twin::FmodTmpSizeA2(typeSize, n);
}

double Load(uint32_t typeSize, const void* p, uint32_t i)
{
    return typeSize == 4 ? static_cast<double>(static_cast<const float*>(p)[i])
                         : static_cast<double>(static_cast<float>(static_cast<const half*>(p)[i]));
}

// A2's Fmod in float: Div, Trunc, Mul, Sub, each result a float.
float FmodA2(float a, float b)
{
    const float q = std::trunc(a / b);
    const float m = q * b;
    return a - m;
}

}  // namespace

const char* AdvBinaryName(AdvBinaryFn fn)
{
    switch (fn) {
        case AdvBinaryFn::kSwiGLU: return "SwiGLU";
        case AdvBinaryFn::kGeGLU: return "GeGLU";
        case AdvBinaryFn::kFmod: break;
    }
    return "Fmod";
}

uint64_t CheckAdvBinary(AdvBinaryFn fn, uint32_t typeSize, uint32_t calCount, const MathOperand& dst,
                        const MathOperand& src0, const MathOperand& src1, const MathOperand& tmp, bool framework)
{
    const char* call = AdvBinaryName(fn);
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
    const ascend_twin::MathTmpSize need = BinaryTmpSize(fn, typeSize, calCount == 0 ? 1 : calCount);
    if (need.minValue == 0) return 0;
    if (tmp.bytes < need.minValue) {
        ascend_twin::FailF(call,
                           framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 "
                                       "bytes) holds the API's minimum temporary size"
                                     : "sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum",
                           "%llu bytes, Get%sMaxMinTmpSize's minimum for %s is %u", U(tmp.bytes), call,
                           typeSize == 4 ? "float" : "half", need.minValue);
    }
    const uint64_t used = std::min<uint64_t>(tmp.bytes, need.maxValue);
    for (const MathOperand* s : {&dst, &src0, &src1}) {
        if (Overlap(tmp.addr, used, s->addr, bytes)) {
            ascend_twin::FailF(call, "sharedTmpBuffer does not overlap src or dst",
                               "the %llu bytes of the temporary buffer %s writes (from UB %llu) share bytes with %s",
                               U(used), call, U(ascend_twin::UbOffset(tmp.addr)),
                               s == &dst ? "dstTensor" : (s == &src0 ? "srcTensor0" : "srcTensor1"));
        }
    }
    return used;
}

void EvalAdvBinary(AdvBinaryFn fn, uint32_t typeSize, void* dst, const void* src0, const void* src1, float beta,
                   uint32_t n)
{
    constexpr float kGeGLUA = -0.0713548162726f;  // A2's COEFF0, COEFF1 (floats)
    constexpr float kGeGLUB = 2.2363860002236e1f;
    for (uint32_t i = 0; i < n; ++i) {
        const double a = Load(typeSize, src0, i);
        const double b = Load(typeSize, src1, i);
        float r = 0.0f;
        if (fn == AdvBinaryFn::kFmod) {
            r = FmodA2(static_cast<float>(a), static_cast<float>(b));
        } else {
            const double e = fn == AdvBinaryFn::kSwiGLU ? -static_cast<double>(beta) * b
                                                        : static_cast<double>(kGeGLUA) * b * (b * b + kGeGLUB);
            r = static_cast<float>(a * b / (1.0 + std::exp(e)));
        }
        if (typeSize == 4) static_cast<float*>(dst)[i] = r;
        else static_cast<half*>(dst)[i] = half(r);  // A2 computes half through float
    }
}

uint64_t CheckAdvAxpy(uint32_t dstTypeSize, uint32_t srcTypeSize, uint32_t calCount, const MathOperand& dst,
                      const MathOperand& src, const MathOperand& tmp)
{
    const char* call = "Axpy";
    const bool halfSrc = srcTypeSize == 2;
    if (halfSrc) {
        CheckVecOperands(call, {{"dstTensor", &dst}, {"srcTensor", &src}, {"sharedTmpBuffer", &tmp}}, nullptr);
    } else {  // float: A2 runs the basic Axpy and never reads sharedTmpBuffer
        CheckVecOperands(call, {{"dstTensor", &dst}, {"srcTensor", &src}}, nullptr);
    }
    const uint64_t dstBytes = static_cast<uint64_t>(calCount) * dstTypeSize;
    const uint64_t srcBytes = static_cast<uint64_t>(calCount) * srcTypeSize;
    if (srcBytes > src.bytes || dstBytes > dst.bytes) {
        ascend_twin::FailF(call, "calCount is at most the number of elements dstTensor and srcTensor hold",
                           "calCount = %u, srcTensor holds %llu, dstTensor %llu", calCount, U(src.bytes / srcTypeSize),
                           U(dst.bytes / dstTypeSize));
    }
    if (Overlap(dst.addr, dstBytes, src.addr, srcBytes)) {
        ascend_twin::FailF(call, "src and dst do not overlap (docs: 不支持源操作数与目的操作数地址重叠)",
                           "dstTensor [UB %llu, +%llu bytes) and srcTensor [UB %llu, +%llu bytes) share bytes",
                           U(ascend_twin::UbOffset(dst.addr)), U(dstBytes), U(ascend_twin::UbOffset(src.addr)),
                           U(srcBytes));
    }
    const ascend_twin::MathTmpSize need = ascend_twin::AxpyTmpSizeA2(srcTypeSize, calCount == 0 ? 1 : calCount);
    if (need.minValue == 0) return 0;
    if (tmp.bytes < need.minValue) {
        ascend_twin::FailF(call, "sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum",
                           "sharedTmpBuffer holds %llu bytes, GetAxpyMaxMinTmpSize's minimum for a half source is %u",
                           U(tmp.bytes), need.minValue);
    }
    // A2 works in rounds of what the buffer holds (two float copies for a half dst, one for a float dst).
    const uint64_t used = std::min<uint64_t>(tmp.bytes, need.maxValue);
    for (const MathOperand* s : {&dst, &src}) {
        if (Overlap(tmp.addr, used, s->addr, s == &dst ? dstBytes : srcBytes)) {
            ascend_twin::FailF(call, "sharedTmpBuffer does not overlap src or dst",
                               "the %llu bytes of the temporary buffer Axpy writes (from UB %llu) share bytes with %s",
                               U(used), U(ascend_twin::UbOffset(tmp.addr)), s == &dst ? "dstTensor" : "srcTensor");
        }
    }
    return used;
}

}  // namespace AscendC::twin_detail
