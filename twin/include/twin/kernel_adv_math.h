// The elementwise functions of the advanced math library (高阶API/数学计算), A2 forms: Acos Acosh Asin Asinh
// Atan Atanh Ceil Cos Cosh Erf Erfc Floor Frac Log Log2 Log10 Round Sign Sin Sinh Tan Tanh Trunc, and the
// advanced Exp and ClampMin/ClampMax (their forms and numerics at the end of this file). Kernels
// include them as "lib/math/<fn>.h" (asc-devkit include/adv_api/math/<fn>.h); on A2 the real
// kernel_operator.h includes every one of them too, and so does the twin's. Checked against each header's A2
// branch (the forms, `template <typename T, bool isReuseSource = false>`), the A2 implementations
// impl/adv_api/detail/math/<fn>/ (dtypes, what sharedTmpBuffer holds, the instructions), the API checks
// impl/adv_api/detail/api_check/kernel_check/math/ and the docs 高阶API/数学计算/<Fn>接口/ (constraints).
//
// Forms per function, as the A2 header declares them:
//   Fn(dst, src, sharedTmpBuffer, calCount), Fn(dst, src, calCount) (the framework's temporary buffer), and
//   for all but Floor, Ceil and Round also Fn(dst, src, sharedTmpBuffer) and Fn(dst, src) (calCount =
//   srcTensor.GetSize()). Log and Log10 take no temporary buffer: Fn(dst, src, calCount) and Fn(dst, src).
// T is half or float (static_assert, as the A2 implementations check it).
//
// The twin computes each element in double from the input's value and rounds once to T (the NPU computes
// half through float with polynomial approximations: it may differ in the last bits, never more than its
// documented precision; Sign gives 0 for NaN as A2's Compare/Select sequence does; Round rounds half to
// even, A2's CAST_RINT). Inputs outside a function's documented domain (Acos/Asin [-1, 1], Acosh [1, 65504],
// Asinh [-65504, 65504], Atanh (-0.99, -0.001) U (0.001, 0.99), Sin/Cos [-65504, 65504], Tan (-65504, 65504):
// "若输入不在范围内，输出结果无效") give NaN there: the output is invalid on the NPU, and a kernel that uses
// it shows NaN on the twin. The advanced Exp<T, taylorExpandLevel, isReuseSource> (level > 0) follows A2's
// documented algorithm, e^floor(x) * sum_{k=0..level} (x - floor(x))^k / k!, evaluated in double and rounded
// once: few terms give the truncation error the docs warn of (项数太少时，精度会有一定误差), level 10 is within
// float rounding. ClampMin/ClampMax are exact (max/min with the scalar). The call is one V-pipe instruction reading src, writing the part of the temporary
// buffer A2's implementation uses (left as NaN bytes afterwards: its contents are undefined) and dst, counted
// as VecOp::k<Fn> (calCount element-ops, ceil(calCount * sizeof(T) / 256) repeats; the device issues from one
// (Log, float Floor) to a few dozen instructions). Like the device, it leaves the vector mask in normal mode
// with every lane on. Sin and Cos on float with isReuseSource = true use src as scratch: src is clobbered.
//
// Run-time rules (the error names each): dst, src and sharedTmpBuffer at VECIN/VECCALC/VECOUT, 32-byte
// aligned; calCount <= the elements dst and src hold; sharedTmpBuffer holds GetXxxMaxMinTmpSize's minimum
// (the framework form: the UB after the TPipe's buffers, up to its last 128 bytes, holds it); sharedTmpBuffer
// does not overlap src or dst; src and dst do not overlap, where the docs say so (every function here but
// Trunc, which allows it, and Round, whose docs are silent).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "twin/adv_math_tmp_size.h"
#include "twin/hazard.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_tpipe.h"
#include "twin/kernel_vec_more.h"  // the basic Exp, which Exp<T, 0> runs
#include "twin/kernel_vec_repeat.h"
#include "twin/runtime.h"

namespace AscendC {
namespace twin_detail {

struct MathOperand {
    const void* addr;
    uint64_t bytes;  // what the tensor holds
    TPosition pos;
};

// Checks the rules above and returns the bytes of the temporary buffer A2's implementation writes.
uint64_t CheckMathUnary(ascend_twin::MathFn fn, uint32_t typeSize, bool isReuseSource, uint32_t calCount,
                        const MathOperand& dst, const MathOperand& src, const MathOperand& tmp, bool framework);

// The framework form's temporary buffer: [end of the TPipe's buffers, UB size - 128), as A2's PopStackBuffer
// takes it. `call` names the API in the error when there is no TPipe or nothing is left.
uint8_t* AdvFrameworkTmp(const char* call, const void* tpipe, uint64_t pipeEnd, uint64_t& bytes);

// dst[i] = fn(src[i]) for float/half data (typeSize 4 or 2), computed in double and rounded once; `scalar` is
// Swish's beta (as T).
void EvalMathUnary(ascend_twin::MathFn fn, uint32_t typeSize, const void* src, void* dst, uint32_t n, double scalar);

ascend_twin::VecOp MathVecOp(ascend_twin::MathFn fn);

template <typename T, ascend_twin::MathFn fn, bool isReuseSource>
inline void MathUnaryRun(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint8_t* tmp,
                         uint64_t tmpBytes, TPosition tmpPos, bool framework, uint32_t calCount, double scalar = 0.0)
{
    const char* call = ascend_twin::MathFnName(fn);
    const MathOperand dst{twin_detail::TwinData(dstTensor), static_cast<uint64_t>(dstTensor.GetSize()) * sizeof(T),
                          twin_detail::TwinPosition(dstTensor)};
    const MathOperand src{twin_detail::TwinData(srcTensor), static_cast<uint64_t>(srcTensor.GetSize()) * sizeof(T),
                          twin_detail::TwinPosition(srcTensor)};
    const uint64_t tmpUsed =
        CheckMathUnary(fn, sizeof(T), isReuseSource, calCount, dst, src, MathOperand{tmp, tmpBytes, tmpPos}, framework);
    const uint64_t bytes = static_cast<uint64_t>(calCount) * sizeof(T);
    // Sin and Cos on float with isReuseSource keep intermediate values in src (impl/adv_api/detail/math/sin,
    // cos: the tmp buffer holds two copies instead of three).
    // Exp on float with isReuseSource keeps x - floor(x) in src (impl/adv_api/detail/math/exp: FloorX = src).
    const bool clobbersSrc = isReuseSource && std::is_same_v<T, float> &&
                             (fn == ascend_twin::MathFn::kSin || fn == ascend_twin::MathFn::kCos ||
                              fn == ascend_twin::MathFn::kExp);
    {
        ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
        instr.Read("srcTensor", twin_detail::TwinData(srcTensor), bytes);
        if (tmpUsed != 0) instr.Write("sharedTmpBuffer", tmp, tmpUsed);
        if (clobbersSrc) instr.Write("srcTensor", twin_detail::TwinData(srcTensor), bytes);
        instr.Write("dstTensor", twin_detail::TwinData(dstTensor), bytes);
    }
    if (calCount != 0) EvalMathUnary(fn, sizeof(T), twin_detail::TwinData(srcTensor), twin_detail::TwinData(dstTensor), calCount, scalar);
    if (tmpUsed != 0) std::memset(tmp, 0xff, tmpUsed);
    if (clobbersSrc) std::memset(static_cast<void*>(twin_detail::TwinData(srcTensor)), 0xff, bytes);
    if (fn == ascend_twin::MathFn::kSilu || fn == ascend_twin::MathFn::kSwish) {
        // A2's Silu and Swish set the count in counter mode and return to normal mode without resetting the
        // mask: the mask register is left holding (0, calCount) as lane bits.
        SetMaskCount();
        SetVectorMask<T, MaskMode::COUNTER>(0, calCount);
        SetMaskNorm();
    } else {
        SetMaskNorm();
        ResetMask();
    }
    ascend_twin::CountVec(MathVecOp(fn), calCount, ascend_twin::CountFormRepeats(calCount, sizeof(T)));
}

template <typename T, ascend_twin::MathFn fn, bool isReuseSource>
inline void MathUnaryTmp(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                         const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount)
{
    MathUnaryRun<T, fn, isReuseSource>(dstTensor, srcTensor, twin_detail::TwinData(sharedTmpBuffer), sharedTmpBuffer.GetSize(),
                                       twin_detail::TwinPosition(sharedTmpBuffer), false, calCount);
}

template <typename T, ascend_twin::MathFn fn, bool isReuseSource>
inline void MathUnaryFramework(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount)
{
    const ascend_twin::MathTmpSize need =
        ascend_twin::MathTmpSizeA2(fn, sizeof(T), 1, isReuseSource && std::is_same_v<T, float>);
    if (need.minValue == 0) {  // nothing to pop (Log, Log10, float Floor/Frac/Round/Log2)
        MathUnaryRun<T, fn, isReuseSource>(dstTensor, srcTensor, nullptr, 0, TPosition::VECCALC, true, calCount);
        return;
    }
    TPipe* pipe = GetTPipePtr();
    uint64_t bytes = 0;
    uint8_t* tmp = AdvFrameworkTmp(ascend_twin::MathFnName(fn), pipe, pipe == nullptr ? 0 : twin_detail::TwinUbEnd(*pipe), bytes);
    MathUnaryRun<T, fn, isReuseSource>(dstTensor, srcTensor, tmp, bytes, TPosition::VECCALC, true, calCount);
}

}  // namespace twin_detail

#define ASCEND_TWIN_MATH_DTYPES(Name)                                                                           \
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, #Name " on A2 supports half and float")

// Fn(dst, src, sharedTmpBuffer, calCount) and Fn(dst, src, calCount).
#define ASCEND_TWIN_MATH_COUNT_FORMS(Name, Fn)                                                                   \
    template <typename T, bool isReuseSource = false>                                                          \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,               \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount)          \
    {                                                                                                           \
        ASCEND_TWIN_MATH_DTYPES(Name);                                                                          \
        twin_detail::MathUnaryTmp<T, ascend_twin::MathFn::Fn, isReuseSource>(dstTensor, srcTensor,              \
                                                                            sharedTmpBuffer, calCount);         \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false>                                                          \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,               \
                                const uint32_t calCount)                                                        \
    {                                                                                                           \
        ASCEND_TWIN_MATH_DTYPES(Name);                                                                          \
        twin_detail::MathUnaryFramework<T, ascend_twin::MathFn::Fn, isReuseSource>(dstTensor, srcTensor, calCount); \
    }

// The two count forms and Fn(dst, src, sharedTmpBuffer), Fn(dst, src) over srcTensor.GetSize() elements.
#define ASCEND_TWIN_MATH_ALL_FORMS(Name, Fn)                                                                     \
    ASCEND_TWIN_MATH_COUNT_FORMS(Name, Fn)                                                                       \
    template <typename T, bool isReuseSource = false>                                                          \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,               \
                                const LocalTensor<uint8_t>& sharedTmpBuffer)                                    \
    {                                                                                                           \
        Name<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());                     \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false>                                                          \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor)               \
    {                                                                                                           \
        Name<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());                                      \
    }

// Log and Log10: no temporary buffer.
#define ASCEND_TWIN_MATH_NO_TMP_FORMS(Name, Fn)                                                                  \
    template <typename T, bool isReuseSource = false>                                                          \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount) \
    {                                                                                                           \
        ASCEND_TWIN_MATH_DTYPES(Name);                                                                          \
        twin_detail::MathUnaryRun<T, ascend_twin::MathFn::Fn, isReuseSource>(dstTensor, srcTensor, nullptr, 0,   \
                                                                            TPosition::VECCALC, false, calCount); \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false>                                                          \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor)               \
    {                                                                                                           \
        Name<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());                                      \
    }

ASCEND_TWIN_MATH_ALL_FORMS(Acos, kAcos)
ASCEND_TWIN_MATH_ALL_FORMS(Acosh, kAcosh)
ASCEND_TWIN_MATH_ALL_FORMS(Asin, kAsin)
ASCEND_TWIN_MATH_ALL_FORMS(Asinh, kAsinh)
ASCEND_TWIN_MATH_ALL_FORMS(Atan, kAtan)
ASCEND_TWIN_MATH_ALL_FORMS(Atanh, kAtanh)
ASCEND_TWIN_MATH_COUNT_FORMS(Ceil, kCeil)
ASCEND_TWIN_MATH_ALL_FORMS(Cos, kCos)
ASCEND_TWIN_MATH_ALL_FORMS(Cosh, kCosh)
ASCEND_TWIN_MATH_ALL_FORMS(Erf, kErf)
ASCEND_TWIN_MATH_ALL_FORMS(Erfc, kErfc)
ASCEND_TWIN_MATH_COUNT_FORMS(Floor, kFloor)
ASCEND_TWIN_MATH_ALL_FORMS(Frac, kFrac)
ASCEND_TWIN_MATH_NO_TMP_FORMS(Log, kLog)
ASCEND_TWIN_MATH_ALL_FORMS(Log2, kLog2)
ASCEND_TWIN_MATH_NO_TMP_FORMS(Log10, kLog10)
ASCEND_TWIN_MATH_COUNT_FORMS(Round, kRound)
ASCEND_TWIN_MATH_ALL_FORMS(Sign, kSign)
ASCEND_TWIN_MATH_ALL_FORMS(Sin, kSin)
ASCEND_TWIN_MATH_ALL_FORMS(Sinh, kSinh)
ASCEND_TWIN_MATH_ALL_FORMS(Tan, kTan)
ASCEND_TWIN_MATH_ALL_FORMS(Tanh, kTanh)
ASCEND_TWIN_MATH_ALL_FORMS(Trunc, kTrunc)

// The advanced Exp (lib/math/exp.h): the basic Exp's overload set grows by these two; taylorExpandLevel has no
// default, so Exp<T>(dst, src, count) stays the basic one. taylorExpandLevel 0 runs the basic Exp over calCount,
// as A2's ExpImpl does (its temporary buffer untouched).
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount)
{
    ASCEND_TWIN_MATH_DTYPES(Exp);
    if constexpr (taylorExpandLevel == 0) {
        Exp<T>(dstLocal, srcLocal, static_cast<int32_t>(calCount));
    } else {
        twin_detail::MathUnaryRun<T, ascend_twin::MathFn::kExp, isReuseSource>(
            dstLocal, srcLocal, twin_detail::TwinData(sharedTmpBuffer), sharedTmpBuffer.GetSize(),
            twin_detail::TwinPosition(sharedTmpBuffer), false, calCount, taylorExpandLevel);
    }
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t calCount)
{
    ASCEND_TWIN_MATH_DTYPES(Exp);
    if constexpr (taylorExpandLevel == 0) {
        Exp<T>(dstLocal, srcLocal, static_cast<int32_t>(calCount));
    } else {
        TPipe* pipe = GetTPipePtr();
        uint64_t bytes = 0;
        uint8_t* tmp = twin_detail::AdvFrameworkTmp("Exp", pipe, pipe == nullptr ? 0 : twin_detail::TwinUbEnd(*pipe), bytes);
        twin_detail::MathUnaryRun<T, ascend_twin::MathFn::kExp, isReuseSource>(
            dstLocal, srcLocal, tmp, bytes, TPosition::VECCALC, true, calCount, taylorExpandLevel);
    }
}

// ClampMin / ClampMax (lib/math/clamp.h): dst = max(src, scalar) / min(src, scalar), A2's one Maxs / Mins over
// calCount; sharedTmpBuffer is required and checked, never written.
#define ASCEND_TWIN_MATH_CLAMP(Name, Fn)                                                                         \
    template <typename T, bool isReuseSource = false>                                                          \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,               \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount) \
    {                                                                                                           \
        ASCEND_TWIN_MATH_DTYPES(Name);                                                                          \
        twin_detail::MathUnaryRun<T, ascend_twin::MathFn::Fn, isReuseSource>(                                   \
            dstTensor, srcTensor, twin_detail::TwinData(sharedTmpBuffer), sharedTmpBuffer.GetSize(),            \
            twin_detail::TwinPosition(sharedTmpBuffer), false, calCount, static_cast<double>(static_cast<float>(scalar))); \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false>                                                          \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar, \
                                const uint32_t calCount)                                                        \
    {                                                                                                           \
        ASCEND_TWIN_MATH_DTYPES(Name);                                                                          \
        TPipe* pipe = GetTPipePtr();                                                                            \
        uint64_t bytes = 0;                                                                                     \
        uint8_t* tmp = twin_detail::AdvFrameworkTmp(#Name, pipe, pipe == nullptr ? 0 : twin_detail::TwinUbEnd(*pipe), bytes); \
        twin_detail::MathUnaryRun<T, ascend_twin::MathFn::Fn, isReuseSource>(                                   \
            dstTensor, srcTensor, tmp, bytes, TPosition::VECCALC, true, calCount,                               \
            static_cast<double>(static_cast<float>(scalar)));                                                   \
    }

ASCEND_TWIN_MATH_CLAMP(ClampMin, kClampMin)
ASCEND_TWIN_MATH_CLAMP(ClampMax, kClampMax)

#undef ASCEND_TWIN_MATH_CLAMP
#undef ASCEND_TWIN_MATH_NO_TMP_FORMS
#undef ASCEND_TWIN_MATH_ALL_FORMS
#undef ASCEND_TWIN_MATH_COUNT_FORMS
#undef ASCEND_TWIN_MATH_DTYPES

}  // namespace AscendC
