// The host-side size functions of the advanced math library's elementwise functions, with the real names and
// signatures (asc-devkit include/adv_api/math/<fn>_tiling.h):
//   void GetXxxMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
//                            const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
//   void GetXxxTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf);
// for Acos Acosh Asin Asinh Atan Atanh Ceil Cos Cosh Erf Erfc Floor Frac Log Log2 Log10 Sign Sin Sinh Tan Tanh
// Trunc, Clamp (ClampMin/ClampMax), Fmod, Axpy (the advanced one), Exp (GetExpMaxMinTmpSize returns bool),
// CumSum's GetCumSumMaxMinTmpSize(srcShape, typeSize, isLastAxis, isReuseSource, maxValue, minValue),
// Round's pair, which takes the platform first (its sizes differ between dav-2002 and dav-2201), and
// Power's GetPowerMaxMinTmpSize(srcShape1, srcShape2, typeIsInt, typeSize, isReuseSource, maxValue, minValue) and
// GetPowerTmpBufferFactorSize(baseIsTensor, expIsTensor, typeIsInt, typeSize, maxLiveNodeCount, extraBuffer).
// The Ascend 950 overloads taking a SinConfig/CosConfig are not provided.
//
// The sizes are A2's (twin/include/twin/adv_math_tmp_size.h, which the kernel side checks sharedTmpBuffer
// against). As the real functions do, an input they refuse (a shape of no elements; half Sin/Cos with
// isReuseSource) is reported on stderr and leaves maxValue and minValue unchanged. Defined inline here (CANN
// ships them in its tiling library), so host code needs no twin library to link them. Build host code with
// -I twin/host_include -I twin/include (see tiling/pad/broadcast_tiling.h).
#pragma once

#include <cstdint>
#include <cstdio>

#include "graph/tensor.h"
#include "tiling/platform/platform_ascendc.h"
#include "twin/adv_math_tmp_size.h"

namespace AscendC {

using TensorShape = ge::Shape;  // include/adv_api/utils/types.h

namespace twin_host {

inline void MathMaxMinTmpSize(ascend_twin::MathFn fn, const TensorShape& srcShape, uint32_t typeSize,
                              bool isReuseSource, uint32_t& maxValue, uint32_t& minValue)
{
    const int64_t n = srcShape.GetDimNum() == 0 ? 0 : srcShape.GetShapeSize();
    const ascend_twin::MathTmpSize s =
        ascend_twin::MathTmpSizeA2(fn, typeSize, n > 0 ? static_cast<uint64_t>(n) : 0, isReuseSource);
    if (s.error != nullptr) {
        std::fprintf(stderr, "[%s][Get%sMaxMinTmpSize] %s.\n", ascend_twin::MathFnName(fn), ascend_twin::MathFnName(fn),
                     s.error);
        return;
    }
    maxValue = s.maxValue;
    minValue = s.minValue;
}

inline void MathTmpBufferFactorSize(ascend_twin::MathFn fn, uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                    uint32_t& extraBuf)
{
    extraBuf = 0;
    maxLiveNodeCount = ascend_twin::MathTmpFactorA2(fn, typeSize == 4, false);
}

}  // namespace twin_host

#define ASCEND_TWIN_MATH_TILING(Name, Fn)                                                                        \
    inline void Get##Name##MaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,         \
                                         const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue)      \
    {                                                                                                           \
        twin_host::MathMaxMinTmpSize(ascend_twin::MathFn::Fn, srcShape, typeSize, isReuseSource, maxValue, minValue); \
    }                                                                                                           \
    inline void Get##Name##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) \
    {                                                                                                           \
        twin_host::MathTmpBufferFactorSize(ascend_twin::MathFn::Fn, typeSize, maxLiveNodeCount, extraBuf);      \
    }

ASCEND_TWIN_MATH_TILING(Acos, kAcos)
ASCEND_TWIN_MATH_TILING(Acosh, kAcosh)
ASCEND_TWIN_MATH_TILING(Asin, kAsin)
ASCEND_TWIN_MATH_TILING(Asinh, kAsinh)
ASCEND_TWIN_MATH_TILING(Atan, kAtan)
ASCEND_TWIN_MATH_TILING(Atanh, kAtanh)
ASCEND_TWIN_MATH_TILING(Ceil, kCeil)
ASCEND_TWIN_MATH_TILING(Cos, kCos)
ASCEND_TWIN_MATH_TILING(Cosh, kCosh)
ASCEND_TWIN_MATH_TILING(Erf, kErf)
ASCEND_TWIN_MATH_TILING(Erfc, kErfc)
ASCEND_TWIN_MATH_TILING(Floor, kFloor)
ASCEND_TWIN_MATH_TILING(Frac, kFrac)
ASCEND_TWIN_MATH_TILING(Log, kLog)
ASCEND_TWIN_MATH_TILING(Log2, kLog2)
ASCEND_TWIN_MATH_TILING(Log10, kLog10)
ASCEND_TWIN_MATH_TILING(Sign, kSign)
ASCEND_TWIN_MATH_TILING(Sin, kSin)
ASCEND_TWIN_MATH_TILING(Sinh, kSinh)
ASCEND_TWIN_MATH_TILING(Tan, kTan)
ASCEND_TWIN_MATH_TILING(Tanh, kTanh)
ASCEND_TWIN_MATH_TILING(Trunc, kTrunc)

#undef ASCEND_TWIN_MATH_TILING

// The advanced Exp: GetExpMaxMinTmpSize returns bool (true) and takes any shape; the factor is per dtype.
inline bool GetExpMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue)
{
    const int64_t n = srcShape.GetDimNum() == 0 ? 0 : srcShape.GetShapeSize();
    const ascend_twin::MathTmpSize s = ascend_twin::MathTmpSizeA2(ascend_twin::MathFn::kExp, typeSize,
                                                                  n > 0 ? static_cast<uint64_t>(n) : 0, isReuseSource);
    const uint32_t f = ascend_twin::MathTmpFactorA2(ascend_twin::MathFn::kExp, typeSize == 4, isReuseSource);
    minValue = f * 256;  // A2 asserts nothing here: an empty shape gives the one-repeat sizes
    maxValue = s.error == nullptr ? s.maxValue : minValue;
    return true;
}
inline void GetExpTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer)
{
    extraBuffer = 0;
    maxLiveNodeCount = ascend_twin::MathTmpSizeA2(ascend_twin::MathFn::kExp, typeSize, 1, false).maxLiveNodeCount;
}

// ClampMin and ClampMax share GetClampMaxMinTmpSize / GetClampTmpBufferFactorSize.
inline void GetClampMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                                  const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue)
{
    twin_host::MathMaxMinTmpSize(ascend_twin::MathFn::kClampMin, srcShape, typeSize, isReuseSource, maxValue, minValue);
}
inline void GetClampTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf)
{
    twin_host::MathTmpBufferFactorSize(ascend_twin::MathFn::kClampMin, typeSize, maxLiveNodeCount, extraBuf);
}

// Fmod and the advanced Axpy: sizes of their own (twin/adv_math_tmp_size.h); Axpy's typeSize is the source's.
#define ASCEND_TWIN_SIZED_TILING(Name)                                                                           \
    inline void Get##Name##MaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,         \
                                         const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue)      \
    {                                                                                                           \
        (void)isReuseSource;                                                                                    \
        const ascend_twin::MathTmpSize s = ascend_twin::CheckedTmpSizeA2(                                       \
            &ascend_twin::Name##TmpSizeA2, typeSize, srcShape.GetDimNum() == 0 ? 0 : srcShape.GetShapeSize());  \
        if (s.error != nullptr) {                                                                               \
            std::fprintf(stderr, "[" #Name "][Get" #Name "MaxMinTmpSize] %s.\n", s.error);                      \
            return;                                                                                             \
        }                                                                                                       \
        maxValue = s.maxValue;                                                                                  \
        minValue = s.minValue;                                                                                  \
    }                                                                                                           \
    inline void Get##Name##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) \
    {                                                                                                           \
        extraBuf = 0;                                                                                           \
        maxLiveNodeCount = ascend_twin::Name##TmpSizeA2(typeSize, 1).maxLiveNodeCount;                          \
    }
ASCEND_TWIN_SIZED_TILING(Fmod)
ASCEND_TWIN_SIZED_TILING(Axpy)
#undef ASCEND_TWIN_SIZED_TILING

// CumSum: a 2-D shape [outter, inner]; A2 refuses another rank, a typeSize other than 2/4 and an inner axis that
// is not a whole number of 32-byte blocks (stderr; the outputs stay).
inline void GetCumSumMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, const bool isLastAxis,
                                   const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue)
{
    (void)isReuseSource;
    const char* error = nullptr;
    if (srcShape.GetDimNum() != 2) error = "Now only support dim = 2";
    else if (typeSize != 2 && typeSize != 4) error = "Now only support half and float";
    else if (srcShape.GetDim(1) <= 0 || srcShape.GetDim(1) * typeSize % 32 != 0) error = "The inner dim should be 32B aligned";
    if (error != nullptr) {
        std::fprintf(stderr, "[CumSum][GetCumSumMaxMinTmpSize] %s.\n", error);
        return;
    }
    const ascend_twin::MathTmpSize s = ascend_twin::CumSumTmpSizeA2(
        typeSize, isLastAxis, static_cast<uint64_t>(srcShape.GetDim(0)), static_cast<uint64_t>(srcShape.GetDim(1)));
    maxValue = s.maxValue;
    minValue = s.minValue;
}

// Round: the sizes depend on the architecture; the twin knows A2's (dav-2201).
inline void GetRoundMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                  const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                                  const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue)
{
    if (ascendcPlatform.GetCurNpuArch() != NpuArch::DAV_2201) {
        std::fprintf(stderr, "[Round][GetRoundMaxMinTmpSize] the twin knows A2's (DAV_2201) sizes only\n");
        return;
    }
    twin_host::MathMaxMinTmpSize(ascend_twin::MathFn::kRound, srcShape, typeSize, isReuseSource, maxValue, minValue);
}

inline void GetRoundTmpBufferFactorSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                        const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf)
{
    if (ascendcPlatform.GetCurNpuArch() != NpuArch::DAV_2201) {
        std::fprintf(stderr, "[Round][GetRoundTmpBufferFactorSize] the twin knows A2's (DAV_2201) sizes only\n");
        return;
    }
    twin_host::MathTmpBufferFactorSize(ascend_twin::MathFn::kRound, typeSize, maxLiveNodeCount, extraBuf);
}

// Power: the sizes depend on the form (tensor^tensor or with a scalar, told by a shape of one element [1]) and
// on the architecture (the platform GetInstance() reports; the twin knows A2's).
inline void GetPowerMaxMinTmpSize(const AscendC::TensorShape& srcShape1, const AscendC::TensorShape& srcShape2,
                                  const bool typeIsInt, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue)
{
    (void)isReuseSource;
    const platform_ascendc::PlatformAscendC* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    if (platform == nullptr || platform->GetCurNpuArch() != NpuArch::DAV_2201) {
        std::fprintf(stderr, "[Power][GetPowerMaxMinTmpSize] the twin knows A2's (DAV_2201) sizes only\n");
        return;
    }
    const auto isTensor = [](const TensorShape& s) { return !(s.GetDimNum() == 1 && s.GetDim(0) == 1); };
    const bool t1 = isTensor(srcShape1);
    const bool t2 = isTensor(srcShape2);
    const TensorShape& sized = t1 ? srcShape1 : srcShape2;
    const int64_t n = sized.GetDimNum() == 0 ? 0 : sized.GetShapeSize();
    const ascend_twin::MathTmpSize s =
        ascend_twin::PowerTmpSizeA2(t1 && t2, typeIsInt, typeSize, n > 0 ? static_cast<uint64_t>(n) : 0);
    maxValue = s.maxValue;
    minValue = s.minValue;
}

inline void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor, const bool typeIsInt,
                                        const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer)
{
    const ascend_twin::MathTmpSize s = ascend_twin::PowerTmpSizeA2(baseIsTensor && expIsTensor, typeIsInt, typeSize, 1);
    maxLiveNodeCount = s.maxLiveNodeCount;
    extraBuffer = s.extraBuf;
}

}  // namespace AscendC
