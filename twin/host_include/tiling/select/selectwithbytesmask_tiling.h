// The advanced Select's (SelectWithBytesMask's) size functions for host tiling code on the twin, with the real names
// and signatures (asc-devkit include/adv_api/select/selectwithbytesmask_tiling.h; host code reaches them as
// "tiling/select/selectwithbytesmask_tiling.h", "lib/select/selectwithbytesmask_tiling.h" or "tiling/tiling_api.h"):
//   void GetSelectMaxMinTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape, const uint32_t srcTypeSize,
//                               const TensorShape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask,
//                               uint32_t& maxValue, uint32_t& minValue);
//   uint32_t GetSelectMaxTmpSize(...), GetSelectMinTmpSize(...) (the same shapes, sizes and isReuseMask), and the
//   older names GetSelectWithBytesMaskMaxMinTmpSize, GetSelectWithBytesMaskMaxTmpSize, GetSelectWithBytesMaskMinTmpSize.
// A2's sizes (impl/adv_api/tiling/select/selectwithbytesmask_tiling_impl.cpp): the tensor operand is the one that is
// not a scalar (a shape of no dimension or of one element); max(1024, ceil32(elements) * 2 + 512) bytes, the
// minimum with the elements capped at 4096; plus the compacted mask (elements * maskTypeSize rounded up to 32 bytes)
// when isReuseMask is false and the mask's last axis (above 1) differs from the tensor's. As A2's: a maskTypeSize other
// than 1, 2 or 4, no 2-D source shape and a mask shape not 2-D are reported on stderr and the computation goes on.
// Inline: nothing to link.
#pragma once

#include <cstdint>
#include <cstdio>

#include "graph/tensor.h"

namespace AscendC {

using TensorShape = ge::Shape;  // include/adv_api/utils/types.h

namespace twin_host {

inline bool SelectIsScalar(const AscendC::TensorShape& s) { return s.GetDimNum() == 0 || s.GetShapeSize() == 1; }

inline void SelectCheck(const AscendC::TensorShape& src0Shape, const AscendC::TensorShape& src1Shape,
                        const AscendC::TensorShape& maskShape, const uint32_t maskTypeSize, const char* fn)
{
    if (maskTypeSize != 1 && maskTypeSize != 2 && maskTypeSize != 4) {
        std::fprintf(stderr, "[Select][%s] The value of maskTypeSize is %u, should be 1 or 2 or 4.\n", fn, maskTypeSize);
    }
    if (src0Shape.GetDimNum() != 2 && src1Shape.GetDimNum() != 2) {
        std::fprintf(stderr,
                     "[Select][%s] The src0Shape dimension number is %zu, the src1Shape dimension number is %zu, one "
                     "of them should be 2.\n",
                     fn, static_cast<size_t>(src0Shape.GetDimNum()), static_cast<size_t>(src1Shape.GetDimNum()));
    }
    if (maskShape.GetDimNum() != 2) {
        std::fprintf(stderr, "[Select][%s] The dims of maskShape is %zu, should be 2.\n", fn,
                     static_cast<size_t>(maskShape.GetDimNum()));
    }
}

inline uint32_t SelectBufferSize(const AscendC::TensorShape& src0Shape, const AscendC::TensorShape& src1Shape,
                                 const AscendC::TensorShape& maskShape, const uint32_t maskTypeSize,
                                 const bool isReuseMask, const bool isMinBuffer)
{
    const bool src0Scalar = SelectIsScalar(src0Shape);
    const AscendC::TensorShape& t = src0Scalar ? src1Shape : src0Shape;
    const int64_t srcSize = t.GetShapeSize();
    const int64_t maskLast = maskShape.GetDimNum() == 0 ? 0 : maskShape.GetDim(maskShape.GetDimNum() - 1);
    const int64_t srcLast = t.GetDimNum() == 0 ? 0 : t.GetDim(t.GetDimNum() - 1);
    const uint32_t calSize = static_cast<uint32_t>(isMinBuffer && srcSize > 4096 ? 4096 : srcSize);
    const uint32_t padded = (calSize + 31) / 32 * 32 * 2;
    uint32_t required = padded + 512 > 1024 ? padded + 512 : 1024;
    if (maskLast != srcLast && !isReuseMask && maskLast > 1) {
        required += static_cast<uint32_t>((srcSize * maskTypeSize + 31) / 32 * 32);
    }
    return required;
}

}  // namespace twin_host

inline uint32_t GetSelectMinTmpSize(const AscendC::TensorShape& src0Shape, const AscendC::TensorShape& src1Shape,
                                    const uint32_t srcTypeSize, const AscendC::TensorShape& maskShape,
                                    const uint32_t maskTypeSize, const bool isReuseMask)
{
    (void)srcTypeSize;  // not in A2's formula
    twin_host::SelectCheck(src0Shape, src1Shape, maskShape, maskTypeSize, "GetSelectMinTmpSize");
    return twin_host::SelectBufferSize(src0Shape, src1Shape, maskShape, maskTypeSize, isReuseMask, true);
}

inline uint32_t GetSelectMaxTmpSize(const AscendC::TensorShape& src0Shape, const AscendC::TensorShape& src1Shape,
                                    const uint32_t srcTypeSize, const AscendC::TensorShape& maskShape,
                                    const uint32_t maskTypeSize, const bool isReuseMask)
{
    (void)srcTypeSize;
    twin_host::SelectCheck(src0Shape, src1Shape, maskShape, maskTypeSize, "GetSelectMaxTmpSize");
    return twin_host::SelectBufferSize(src0Shape, src1Shape, maskShape, maskTypeSize, isReuseMask, false);
}

inline void GetSelectMaxMinTmpSize(const AscendC::TensorShape& src0Shape, const AscendC::TensorShape& src1Shape,
                                   const uint32_t srcTypeSize, const AscendC::TensorShape& maskShape,
                                   const uint32_t maskTypeSize, const bool isReuseMask, uint32_t& maxValue,
                                   uint32_t& minValue)
{
    maxValue = GetSelectMaxTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
    minValue = GetSelectMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}

inline uint32_t GetSelectWithBytesMaskMinTmpSize(const AscendC::TensorShape& src0Shape,
                                                 const AscendC::TensorShape& src1Shape, const uint32_t srcTypeSize,
                                                 const AscendC::TensorShape& maskShape, const uint32_t maskTypeSize,
                                                 const bool isReuseMask)
{
    return GetSelectMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}

inline uint32_t GetSelectWithBytesMaskMaxTmpSize(const AscendC::TensorShape& src0Shape,
                                                 const AscendC::TensorShape& src1Shape, const uint32_t srcTypeSize,
                                                 const AscendC::TensorShape& maskShape, const uint32_t maskTypeSize,
                                                 const bool isReuseMask)
{
    return GetSelectMaxTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}

inline void GetSelectWithBytesMaskMaxMinTmpSize(const AscendC::TensorShape& src0Shape,
                                                const AscendC::TensorShape& src1Shape, const uint32_t srcTypeSize,
                                                const AscendC::TensorShape& maskShape, const uint32_t maskTypeSize,
                                                const bool isReuseMask, uint32_t& maxValue, uint32_t& minValue)
{
    GetSelectMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask, maxValue, minValue);
}

}  // namespace AscendC
