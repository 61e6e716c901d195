// What a kernel may do with a half or bfloat16_t scalar on A2 (dav-2201), on the twin as on the device
// (CMakeLists.txt compiles this file once per FAULT line, and once with FAULT=0, which must compile):
// half converts to and from float, but runs no arithmetic or comparison (the device compiler: "half precision
// operation is not allowed in aicore function"); bfloat16_t converts only through AscendC::Cast / ToFloat /
// ToBfloat16 (the backend: "not support bf16 type cast"; asc-devkit kernel_scalar_convert.h) and takes the
// literal 0 as its only constant (DataCopyPadExtParams<T>'s default padding value) in this g++ build: the
// device's clang front end, which compiles kernels for the twin, also folds the conversion of any float
// constant (tests/test_twin_device_types.py plants the run-time forms there). float16_t and __bf16, the
// device compiler's names of half and bfloat16_t, follow the same rules.
// FAULT 1: bfloat16_t converts to no number on A2
// FAULT 2: bfloat16_t is made from no number on A2
// FAULT 3: half/bfloat16_t scalar arithmetic or comparison
// FAULT 4: half/bfloat16_t scalar arithmetic or comparison
// FAULT 5: half/bfloat16_t scalar arithmetic or comparison
// FAULT 6: half/bfloat16_t scalar negation
// FAULT 7: AscendC::Cast of an integer
// FAULT 8: bfloat16_t converts to no number on A2
// FAULT 9: half/bfloat16_t scalar arithmetic or comparison
// FAULT 10: half/bfloat16_t scalar arithmetic or comparison
// FAULT 11: bfloat16_t converts to no number on A2
#include "kernel_operator.h"

using namespace AscendC;

// The scalar of a one-element GM tensor, scaled in float: VectorAdd's scalar operand.
template <typename T>
float ScaledScalar(const GlobalTensor<T>& y, float scale)
{
#if FAULT == 8
    return static_cast<float>(y.GetValue(0)) * scale;  // what VectorAdd did: rejected for bfloat16_t
#else
    if constexpr (std::is_same_v<T, bfloat16_t>) {
        return AscendC::Cast(y.GetValue(0)) * scale;
    } else {
        return static_cast<float>(y.GetValue(0)) * scale;
    }
#endif
}

float Use(const GlobalTensor<bfloat16_t>& yb, const GlobalTensor<half>& yh, half h, bfloat16_t b)
{
    float sum = ScaledScalar(yb, 0.5f) + ScaledScalar(yh, 0.5f);
    // Allowed: half <-> float, bfloat16_t through Cast/ToFloat/ToBfloat16, the literal 0.
    const half fromFloat = 1.5f;
    const half fromInt = 2;
    sum += static_cast<float>(h) * 2.0f + static_cast<float>(fromFloat) + static_cast<float>(fromInt);
    sum += AscendC::Cast(b) + ToFloat(b) + AscendC::Cast(ToBfloat16(3.0f)) + AscendC::Cast(AscendC::Cast(1.0f));
    const bfloat16_t zero = 0;
    const DataCopyPadExtParams<bfloat16_t> pad{false, 0, 0, 0};
    sum += AscendC::Cast(zero) + AscendC::Cast(pad.paddingValue);
    const bool greater = static_cast<float>(h) > 1.0f;
    const float16_t namedHalf = fromFloat;  // the device compiler's names of half and bfloat16_t
    const __bf16 namedBf16 = b;
    sum += static_cast<float32_t>(namedHalf) + AscendC::Cast(namedBf16);
#if FAULT == 1
    sum += static_cast<float>(b);
#elif FAULT == 2
    const bfloat16_t made = 1.0f;
    sum += AscendC::Cast(made);
#elif FAULT == 3
    const half twice = h + h;
    sum += static_cast<float>(twice);
#elif FAULT == 4
    sum += 1.0f / h;
#elif FAULT == 5
    sum += h < fromFloat ? 1.0f : 0.0f;
#elif FAULT == 6
    sum += static_cast<float>(-h);
#elif FAULT == 7
    sum += AscendC::Cast(1);
#elif FAULT == 9
    sum += b == zero ? 1.0f : 0.0f;
#elif FAULT == 10
    const float16_t named = fromFloat;
    sum += static_cast<float>(named * named);
#elif FAULT == 11
    const __bf16 alias = b;
    sum += static_cast<float32_t>(alias);
#endif
    return greater ? sum : -sum;
}
