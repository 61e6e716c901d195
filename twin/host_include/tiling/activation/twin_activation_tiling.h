// The host-side size functions of the elementwise activation functions, with the real names and signatures
// (asc-devkit include/adv_api/activation/{sigmoid,silu,swish,gelu}_tiling.h):
//   void GetSigmoidMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
//                                bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
//   void GetSiluTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);   0 and 0
//   void GetSwishTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);  0 and 0
//   uint32_t GetGeluMinTmpSize(srcShape, typeSize); uint32_t GetGeluMaxTmpSize(srcShape, typeSize);
//   void GetGeluMaxMinTmpSize(srcShape, typeSize, maxValue, minValue);  (Gelu, FasterGelu, FasterGeluV2)
//   void GetSwiGLUMaxMinTmpSize(srcShape, typeSize, maxValue, minValue, isReuseSource);
//   void GetSwiGLUTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuffer);
//   void GetGeGLUMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
//   void GetGeGLUTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf);
// A2's sizes (twin/include/twin/adv_math_tmp_size.h, which the kernel side checks against). As the real
// functions do, a shape of no elements or a typeSize other than 2 and 4 is reported on stderr (the void
// functions then leave maxValue and minValue unchanged; the Gelu getters return 0). Inline: nothing to link.
#pragma once

#include <cstdint>
#include <cstdio>

#include "graph/tensor.h"
#include "twin/adv_math_tmp_size.h"

namespace AscendC {

using TensorShape = ge::Shape;  // include/adv_api/utils/types.h

namespace twin_host {

inline bool ActivationSizes(ascend_twin::MathFn fn, const char* getter, const TensorShape& srcShape,
                            uint32_t typeSize, ascend_twin::MathTmpSize& out)
{
    const int64_t n = srcShape.GetDimNum() == 0 ? 0 : srcShape.GetShapeSize();
    if (typeSize != 2 && typeSize != 4) {
        std::fprintf(stderr, "[%s] typeSize is %u, should be 2 (half) or 4 (float).\n", getter, typeSize);
        return false;
    }
    if (n <= 0 && fn != ascend_twin::MathFn::kSilu && fn != ascend_twin::MathFn::kSwish) {
        std::fprintf(stderr, "[%s] Input Shape size must be greater than 0.\n", getter);
        return false;
    }
    out = ascend_twin::MathTmpSizeA2(fn, typeSize, n > 0 ? static_cast<uint64_t>(n) : 1, false);
    return true;
}

}  // namespace twin_host

inline void GetSigmoidMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue)
{
    (void)isReuseSource;
    ascend_twin::MathTmpSize s;
    if (!twin_host::ActivationSizes(ascend_twin::MathFn::kSigmoid, "GetSigmoidMaxMinTmpSize", srcShape, typeSize, s)) {
        return;
    }
    maxValue = s.maxValue;
    minValue = s.minValue;
}

inline void GetSiluTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                           uint32_t& maxValue, uint32_t& minValue)
{
    (void)srcShape, (void)typeSize, (void)isReuseSource;
    maxValue = 0U;
    minValue = 0U;
}

inline void GetSwishTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                            uint32_t& maxValue, uint32_t& minValue)
{
    (void)srcShape, (void)typeSize, (void)isReuseSource;
    maxValue = 0U;
    minValue = 0U;
}

inline uint32_t GetGeluMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize)
{
    ascend_twin::MathTmpSize s;
    return twin_host::ActivationSizes(ascend_twin::MathFn::kGelu, "GetGeluMinTmpSize", srcShape, typeSize, s)
               ? s.minValue
               : 0;
}

inline uint32_t GetGeluMaxTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize)
{
    ascend_twin::MathTmpSize s;
    return twin_host::ActivationSizes(ascend_twin::MathFn::kGelu, "GetGeluMaxTmpSize", srcShape, typeSize, s)
               ? s.maxValue
               : 0;
}

inline void GetGeluMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                 uint32_t& minValue)
{
    ascend_twin::MathTmpSize s;
    if (!twin_host::ActivationSizes(ascend_twin::MathFn::kGelu, "GetGeluMaxMinTmpSize", srcShape, typeSize, s)) {
        return;
    }
    maxValue = s.maxValue;
    minValue = s.minValue;
}

// SwiGLU (include/adv_api/activation/swiglu_tiling.h): isReuseSource comes last here.
inline void GetSwiGLUMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                   uint32_t& minValue, const bool isReuseSource)
{
    (void)isReuseSource;
    const ascend_twin::MathTmpSize s = ascend_twin::CheckedTmpSizeA2(
        &ascend_twin::SwiGLUTmpSizeA2, typeSize, srcShape.GetDimNum() == 0 ? 0 : srcShape.GetShapeSize());
    if (s.error != nullptr) {
        std::fprintf(stderr, "[GetSwiGLUMaxMinTmpSize] %s.\n", s.error);
        return;
    }
    maxValue = s.maxValue;
    minValue = s.minValue;
}

inline void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer)
{
    extraBuffer = 0;
    maxLiveNodeCount = ascend_twin::SwiGLUTmpSizeA2(typeSize, 1).maxLiveNodeCount;
}

// GeGLU (include/adv_api/activation/geglu_tiling.h): A2's sizes, half 4 * 256 minimum, float 0.
inline void GetGeGLUMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                                  const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue)
{
    (void)isReuseSource;
    const ascend_twin::MathTmpSize s = ascend_twin::CheckedTmpSizeA2(
        &ascend_twin::GeGLUTmpSizeA2, typeSize, srcShape.GetDimNum() == 0 ? 0 : srcShape.GetShapeSize());
    if (s.error != nullptr) {
        std::fprintf(stderr, "[GetGeGLUMaxMinTmpSize] %s.\n", s.error);
        return;
    }
    maxValue = s.maxValue;
    minValue = s.minValue;
}

inline void GetGeGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf)
{
    extraBuf = 0;
    maxLiveNodeCount = ascend_twin::GeGLUTmpSizeA2(typeSize, 1).maxLiveNodeCount;
}

}  // namespace AscendC
