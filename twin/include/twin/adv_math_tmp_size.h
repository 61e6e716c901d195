// The elementwise functions of the advanced math library (include/adv_api/math/) and of the activation family
// (include/adv_api/activation/: Sigmoid, Silu, Swish, Gelu, FasterGelu, FasterGeluV2) the twin implements, and
// A2's (dav-2201) temporary-buffer sizes for each: what GetXxxMaxMinTmpSize and GetXxxTmpBufferFactorSize
// return on the host (twin/host_include/tiling/math/), and the minimum the kernel side holds sharedTmpBuffer
// (or the framework's buffer) to. Shared by host and kernel code: no AscendC types here.
//
// Checked against asc-devkit impl/adv_api/tiling/math/<fn>_tiling*.cpp. Almost every function follows one
// pattern with a per-dtype factor F (the impl's CALC_PROC / CALC_FAC, the number of live temporary copies
// of the input): minValue = F * 256 (one repeat each), maxValue = F * max(inputSize * typeSize, 256),
// maxLiveNodeCount = F, extraBuf = 0. The exceptions, as the A2 code has them:
//   Acosh   maxValue = max(F * inputSize, 256) * typeSize (the units differ from the others; kept as is)
//   Log, Log10: no temporary buffer (a single Ln, or Ln and Muls, in place)
//   Log2    float 0; half minValue 256, maxValue max(inputSize * 4, 256), maxLiveNodeCount 2
//   Floor, Frac: float 0 (one Cast with CAST_FLOOR / a Cast and a Sub in dst)
//   Round   A2: float 0; half F = 1 (the host function takes the platform: dav-2002 differs)
//   Sin, Cos float F = 3, or 2 with isReuseSource (src serves as scratch then); half F = 8 and
//           isReuseSource is refused by the host function (it asserts and returns 0)
//   Sign    maxValue = max(3 * inputSize * typeSize, 768)  (the same numbers as the pattern)
// The activation functions have sizes of their own (impl/adv_api/tiling/activation/):
//   Sigmoid minValue 256, maxValue max(inputSize * typeSize, 256) (GetSigmoidMaxMinTmpSize)
//   Silu, Swish: no temporary buffer (GetSiluTmpSize, GetSwishTmpSize: 0 and 0)
//   Gelu, FasterGelu, FasterGeluV2: minValue 3 * 256, maxValue max(3 * inputSize * 4, 768) for either dtype
//           (GetGeluMaxMinTmpSize; the kernel works in float for half with highPrecision)
// And the functions added since (impl/adv_api/tiling/math/exp_tiling_impl.cpp, clamp_tiling_impl.cpp):
//   Exp     (the advanced one, with taylorExpandLevel) float copies: F = 4 for half, 3 for float, 2 for float
//           with isReuseSource (src holds x - floor(x) then); minValue F * 256, maxValue F * max(inputSize * 4,
//           256) for either dtype; GetExpTmpBufferFactorSize reports 8 for half (F float copies per half), 3
//           for float (it ignores isReuseSource). GetExpMaxMinTmpSize returns true.
//   ClampMin, ClampMax: minValue 64 bytes (float) / 128 (half), maxValue max(inputSize, that) (bytes, not
//           elements: as A2 has it), maxLiveNodeCount 1; A2's kernel (one Maxs / Mins) never touches it.
#pragma once

#include <algorithm>
#include <cstdint>

namespace ascend_twin {

enum class MathFn : uint8_t {
    kAcos, kAcosh, kAsin, kAsinh, kAtan, kAtanh, kCeil, kCos, kCosh, kErf, kErfc, kFloor, kFrac,
    kLog, kLog2, kLog10, kRound, kSign, kSin, kSinh, kTan, kTanh, kTrunc,
    kSigmoid, kSilu, kSwish, kGelu, kFasterGelu, kFasterGeluV2,
    kExp, kClampMin, kClampMax,  // the advanced Exp (taylorExpandLevel > 0); ClampMin/ClampMax (a scalar bound)
    kCount
};

inline const char* MathFnName(MathFn fn)
{
    static const char* const kNames[] = {"Acos", "Acosh", "Asin", "Asinh", "Atan",  "Atanh", "Ceil",  "Cos",
                                         "Cosh", "Erf",   "Erfc", "Floor", "Frac",  "Log",   "Log2",  "Log10",
                                         "Round", "Sign", "Sin",  "Sinh",  "Tan",   "Tanh",  "Trunc",
                                         "Sigmoid", "Silu", "Swish", "Gelu", "FasterGelu", "FasterGeluV2",
                                         "Exp", "ClampMin", "ClampMax"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<unsigned>(MathFn::kCount), "one name a function");
    return kNames[static_cast<unsigned>(fn)];
}

struct MathTmpSize {
    uint32_t minValue = 0;
    uint32_t maxValue = 0;
    uint32_t maxLiveNodeCount = 0;
    uint32_t extraBuf = 0;
    const char* error = nullptr;  // what A2's host function refuses (it then leaves max/min unchanged)
};

// The per-dtype factor F of the common pattern (see above); isFloat = typeSize 4.
inline uint32_t MathTmpFactorA2(MathFn fn, bool isFloat, bool isReuseSource)
{
    switch (fn) {
        case MathFn::kAcos: case MathFn::kAsin: case MathFn::kCosh: return isFloat ? 2 : 6;
        case MathFn::kAcosh: return isFloat ? 1 : 2;
        case MathFn::kAsinh: return 3;
        case MathFn::kAtan: return isFloat ? 5 : 12;
        case MathFn::kAtanh: case MathFn::kSinh: case MathFn::kTanh: return isFloat ? 1 : 4;
        case MathFn::kCeil: case MathFn::kTrunc: return isFloat ? 1 : 2;
        case MathFn::kSin: case MathFn::kCos: return isFloat ? (isReuseSource ? 2 : 3) : 8;
        case MathFn::kErf: return isFloat ? 3 : 8;
        case MathFn::kErfc: return isFloat ? 7 : 16;
        case MathFn::kFloor: return isFloat ? 0 : 2;
        case MathFn::kFrac: return isFloat ? 0 : 4;
        case MathFn::kRound: return isFloat ? 0 : 1;
        case MathFn::kSign: return 3;
        case MathFn::kTan: return isFloat ? 4 : 10;
        case MathFn::kLog: case MathFn::kLog10: return 0;
        case MathFn::kLog2: return isFloat ? 0 : 2;
        case MathFn::kSigmoid: return 1;
        case MathFn::kSilu: case MathFn::kSwish: return 0;
        case MathFn::kGelu: case MathFn::kFasterGelu: case MathFn::kFasterGeluV2: return 3;
        case MathFn::kExp: return isFloat ? (isReuseSource ? 2 : 3) : 4;
        case MathFn::kClampMin: case MathFn::kClampMax: return 1;
        case MathFn::kCount: break;
    }
    return 0;
}

// What A2's GetXxxMaxMinTmpSize / GetXxxTmpBufferFactorSize compute for inputSize elements of typeSize bytes.
inline MathTmpSize MathTmpSizeA2(MathFn fn, uint32_t typeSize, uint64_t inputSize, bool isReuseSource)
{
    constexpr uint64_t kRepeat = 256;
    MathTmpSize s;
    const bool isFloat = typeSize == 4;
    const uint32_t f = MathTmpFactorA2(fn, isFloat, isReuseSource);
    s.maxLiveNodeCount = f;
    if ((fn == MathFn::kSin || fn == MathFn::kCos) && !isFloat && isReuseSource) {
        s.error = "when the input data type is half, isReuseSource is not supported";
        return s;
    }
    if (fn == MathFn::kLog || fn == MathFn::kLog10 || fn == MathFn::kSilu || fn == MathFn::kSwish) {
        return s;  // 0 and 0, whatever the shape
    }
    if (inputSize == 0) {
        s.error = "Input Shape size must be greater than 0";
        return s;
    }
    const uint64_t bytes = inputSize * typeSize;
    if (fn == MathFn::kLog2) {
        if (!isFloat) {
            s.minValue = static_cast<uint32_t>(kRepeat);
            s.maxValue = static_cast<uint32_t>(std::max<uint64_t>(inputSize * 4, kRepeat));
        }
        return s;
    }
    if (fn == MathFn::kClampMin || fn == MathFn::kClampMax) {
        const uint64_t least = isFloat ? 64 : 128;
        s.minValue = static_cast<uint32_t>(least);
        s.maxValue = static_cast<uint32_t>(std::max<uint64_t>(inputSize, least));
        return s;
    }
    s.minValue = static_cast<uint32_t>(f * kRepeat);
    if (fn == MathFn::kExp) {  // float copies whatever T is; GetExpTmpBufferFactorSize reports 8 for half
        s.maxValue = static_cast<uint32_t>(f * std::max<uint64_t>(inputSize * 4, kRepeat));
        if (!isFloat) s.maxLiveNodeCount = 8;
    } else if (fn == MathFn::kGelu || fn == MathFn::kFasterGelu || fn == MathFn::kFasterGeluV2) {
        s.maxValue = static_cast<uint32_t>(std::max<uint64_t>(f * inputSize * 4, f * kRepeat));
    } else if (fn == MathFn::kAcosh) {
        s.maxValue = static_cast<uint32_t>(std::max<uint64_t>(f * inputSize, kRepeat) * typeSize);
    } else {
        s.maxValue = static_cast<uint32_t>(f * std::max<uint64_t>(bytes, kRepeat));
    }
    return s;
}

// Power on A2 (impl/adv_api/tiling/math/power_tiling_impl.cpp, POW_TILING_PARAM_V220): live temporaries per
// form and dtype, tensor^tensor (TT) or with a scalar base or exponent (TS): half 14/14, int32_t 6/7, float
// 4/5. minValue = 256 * F (+ 256 for float; half: 256 * F / 2 + 256), maxValue = F * max(n * typeSize, 256)
// (half: F * max(n * 2, 128) + 256; float: + 256); maxLiveNodeCount = F, extraBuffer = 256 (int32_t: 0).
inline MathTmpSize PowerTmpSizeA2(bool tensorTensor, bool typeIsInt, uint32_t typeSize, uint64_t inputSize)
{
    constexpr uint64_t kRepeat = 256;
    MathTmpSize s;
    uint32_t f = 0;
    if (typeIsInt) f = tensorTensor ? 6 : 7;
    else if (typeSize == 4) f = tensorTensor ? 4 : 5;
    else f = 14;
    s.maxLiveNodeCount = f;
    s.extraBuf = typeIsInt ? 0 : static_cast<uint32_t>(kRepeat);
    if (typeIsInt) {
        s.minValue = static_cast<uint32_t>(kRepeat * f);
        s.maxValue = static_cast<uint32_t>(std::max<uint64_t>(inputSize * typeSize, kRepeat) * f);
    } else if (typeSize == 4) {
        s.minValue = static_cast<uint32_t>(kRepeat * f + kRepeat);
        s.maxValue = static_cast<uint32_t>(std::max<uint64_t>(inputSize * typeSize, kRepeat) * f + kRepeat);
    } else {
        s.minValue = static_cast<uint32_t>(kRepeat * f / 2 + kRepeat);
        s.maxValue = static_cast<uint32_t>(std::max<uint64_t>(inputSize * typeSize, kRepeat / 2) * f + kRepeat);
    }
    return s;
}

// SwiGLU on A2 (impl/adv_api/tiling/activation/swiglu_tiling.cpp): half F = 6 (three float copies), float 0;
// minValue = F * 256, maxValue = F * max(n * typeSize, 256), maxLiveNodeCount = F, extraBuffer = 0.
inline MathTmpSize SwiGLUTmpSizeA2(uint32_t typeSize, uint64_t inputSize)
{
    constexpr uint64_t kRepeat = 256;
    MathTmpSize s;
    const uint32_t f = typeSize == 4 ? 0 : 6;
    s.maxLiveNodeCount = f;
    s.minValue = static_cast<uint32_t>(f * kRepeat);
    s.maxValue = static_cast<uint32_t>(f * std::max<uint64_t>(inputSize * typeSize, kRepeat));
    return s;
}

// Fmod on A2 (impl/adv_api/tiling/math/fmod_tiling_impl.cpp): Trunc's factor (float 1, half 2) plus, for half,
// 6 (three float copies of the operands); minValue = F * 256, maxValue = F * max(n * typeSize, 256),
// maxLiveNodeCount = F (float 1, half 8), extraBuf = 0.
inline MathTmpSize FmodTmpSizeA2(uint32_t typeSize, uint64_t inputSize)
{
    constexpr uint64_t kRepeat = 256;
    MathTmpSize s;
    const uint32_t f = typeSize == 4 ? 1 : 2 + 6;
    s.maxLiveNodeCount = f;
    s.minValue = static_cast<uint32_t>(f * kRepeat);
    s.maxValue = static_cast<uint32_t>(f * std::max<uint64_t>(inputSize * typeSize, kRepeat));
    return s;
}

// GeGLU on A2 (impl/adv_api/tiling/activation/geglu_tiling.cpp): half F = 4 (two float copies), float 0;
// minValue = F * 256, maxValue = F * max(n * typeSize, 256), maxLiveNodeCount = F, extraBuf = 0.
inline MathTmpSize GeGLUTmpSizeA2(uint32_t typeSize, uint64_t inputSize)
{
    constexpr uint64_t kRepeat = 256;
    MathTmpSize s;
    const uint32_t f = typeSize == 4 ? 0 : 4;
    s.maxLiveNodeCount = f;
    s.minValue = static_cast<uint32_t>(f * kRepeat);
    s.maxValue = static_cast<uint32_t>(f * std::max<uint64_t>(inputSize * typeSize, kRepeat));
    return s;
}

// The advanced Axpy on A2 (impl/adv_api/tiling/math/axpy_tiling_impl.cpp), typeSize = the source's: float 0 and
// 0 (the kernel runs the basic Axpy); half minValue 4 * 256, maxValue 4 * max(n * 2, 256); maxLiveNodeCount
// float 1, half 4; extraBuf 0.
inline MathTmpSize AxpyTmpSizeA2(uint32_t typeSize, uint64_t inputSize)
{
    constexpr uint64_t kRepeat = 256;
    MathTmpSize s;
    s.maxLiveNodeCount = typeSize == 4 ? 1 : 4;
    if (typeSize == 4) return s;
    s.minValue = static_cast<uint32_t>(4 * kRepeat);
    s.maxValue = static_cast<uint32_t>(4 * std::max<uint64_t>(inputSize * typeSize, kRepeat));
    return s;
}

// CumSum on A2 (impl/adv_api/tiling/math/cumsum_tiling.cpp; the kernel asserts the same minimum): last axis,
// with alignOutter = outter rounded up to 16: minValue = 16 * inner * typeSize * 2 (+ 16 * inner * 2 for half),
// maxValue = alignOutter * inner * typeSize * 2 (+ alignOutter * inner * 2 for half); first axis: half
// outter * inner * 4 (both), float 0.
inline MathTmpSize CumSumTmpSizeA2(uint32_t typeSize, bool isLastAxis, uint64_t outter, uint64_t inner)
{
    MathTmpSize s;
    if (!isLastAxis) {
        if (typeSize == 2) s.minValue = s.maxValue = static_cast<uint32_t>(outter * inner * 4);
        return s;
    }
    const uint64_t alignOutter = (outter + 15) / 16 * 16;
    const uint64_t castMin = typeSize == 2 ? inner * 16 * 2 : 0;
    const uint64_t castMax = typeSize == 2 ? inner * alignOutter * 2 : 0;
    s.minValue = static_cast<uint32_t>(castMin + 16 * inner * typeSize * 2);
    s.maxValue = static_cast<uint32_t>(castMax + alignOutter * inner * typeSize * 2);
    return s;
}

// One of the (typeSize, inputSize) size functions above as the host getters call it: a typeSize other than 2 and 4
// or a shape of no elements is refused (error set, sizes 0), as A2's host functions refuse them.
inline MathTmpSize CheckedTmpSizeA2(MathTmpSize (*sizeA2)(uint32_t, uint64_t), uint32_t typeSize, int64_t inputSize)
{
    MathTmpSize s;
    if (typeSize != 2 && typeSize != 4) s.error = "typeSize should be 2 (half) or 4 (float)";
    else if (inputSize <= 0) s.error = "Input Shape size must be greater than 0";
    else s = sizeA2(typeSize, static_cast<uint64_t>(inputSize));
    return s;
}

}  // namespace ascend_twin
