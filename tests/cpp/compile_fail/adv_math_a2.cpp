// The advanced math library's compile-time dtype rules on the twin (CMakeLists.txt compiles this file once per
// FAULT line, and once with FAULT=0, which must compile: half and float in every form, as A2 supports them).
// FAULT 1: Floor on A2 supports half and float
// FAULT 2: Sin on A2 supports half and float
// FAULT 3: Log on A2 supports half and float
// FAULT 4: Sign on A2 supports half and float
// FAULT 5: ArithProgression on A2 supports int16_t, half, int32_t and float
// FAULT 6: ArithProgression on A2 supports int16_t, half, int32_t and float
// FAULT 7: Sum on A2 supports half and float
// FAULT 8: Sigmoid on A2 supports half and float
// FAULT 9: Power on A2 supports half, float and int32_t
// FAULT 10: SwiGLU on A2 supports half and float
// FAULT 11: Exp on A2 supports half and float
// FAULT 12: ClampMin on A2 supports half and float
// FAULT 13: ClampMax on A2 supports half and float
// FAULT 14: GeGLU on A2 supports half and float
// FAULT 15: Fmod on A2 supports half and float
// FAULT 16: Axpy \(the advanced API\) on A2 supports dst/src half/half, float/float and float/half
// FAULT 17: CumSum on A2 supports half and float
// FAULT 18: CumSum on A2: CumSumConfig::algorithm CUMSUM_ALGORITHM_SKLANSKY is Ascend 950 only
#include "lib/math/floor.h"
#include "lib/math/log.h"
#include "lib/math/sign.h"
#include "lib/math/sin.h"
#include "lib/index/arithprogression.h"
#include "lib/reduce/sum.h"
#include "lib/math/power.h"
#include "lib/activation/swiglu.h"
#include "lib/activation/sigmoid.h"
#include "lib/activation/gelu.h"
#include "lib/activation/geglu.h"
#include "lib/math/axpy.h"
#include "lib/math/clamp.h"
#include "lib/math/cumsum.h"
#include "lib/math/exp.h"
#include "lib/math/fmod.h"

using namespace AscendC;

constexpr CumSumConfig kFirstAxis = {false, false, true};
constexpr CumSumConfig kSklansky = {true, false, false, CumSumAlgorithm::CUMSUM_ALGORITHM_SKLANSKY};

template <typename T>
void Use(LocalTensor<T>& y, LocalTensor<T>& x, LocalTensor<uint8_t>& tmp)
{
    Floor(y, x, tmp, 8);
    Floor<T, false>(y, x, 8);
    Sin(y, x, tmp, 8);
    Sin(y, x, tmp);
    Sin<T, true>(y, x);
    Log(y, x, 8);
    Log10(y, x);
    Log2(y, x, tmp, 8);
    Sign(y, x);
}

void Instantiate(LocalTensor<uint8_t>& tmp)
{
#if FAULT == 0
    LocalTensor<float> f;
    LocalTensor<half> h;
    Use(f, f, tmp);
    Use(h, h, tmp);
    LocalTensor<int16_t> i16;
    LocalTensor<int32_t> i32;
    ArithProgression(f, 1.0f, 2.0f, 8);
    Arange(h, half(1.0f), half(2.0f), 8);
    ArithProgression<int16_t>(i16, 1, 2, 8);
    ArithProgression<int32_t>(i32, 1, 2, 8);
    Sum(f, f, tmp, SumParams{1, 8, 8});
    Sum(h, h, SumParams{1, 16, 16});
    Sigmoid(f, f, tmp, 8);
    Gelu<half, true, false>(h, h, tmp, 8);
    Power(f, f, f, tmp, 8);
    Power(h, h, half(2.0f));
    Power(i32, 2, i32, 8);
    SwiGLU(f, f, f, 1.0f, tmp, 8);
    SwiGLU<half>(h, h, h, 1.0f);
    Exp<float, 10, true>(f, f, tmp, 8);
    Exp<half, 12>(h, h, 8);
    Exp<half, 0>(h, h, tmp, 8);
    Exp(f, f, 8);  // the basic Exp stays reachable
    ClampMin(f, f, tmp, 1.0f, 8);
    ClampMax<half>(h, h, half(1.0f), 8);
    GeGLU(f, f, f, tmp, 8);
    GeGLU<half>(h, h, h);
    Fmod(f, f, f, 8);
    Fmod<half, false>(h, h, h, tmp);
    Axpy(f, h, half(2.0f), tmp, 8);
    Axpy(h, h, half(2.0f), tmp, 8);
    Axpy(f, f, 2.0f, tmp, 8);
    CumSum(f, f, f, tmp, CumSumInfo{1, 8});
    CumSum<half, kFirstAxis>(h, h, h, CumSumInfo{1, 16});
#elif FAULT == 1
    LocalTensor<int32_t> i;
    Floor(i, i, tmp, 8);
#elif FAULT == 2
    LocalTensor<bfloat16_t> b;
    Sin(b, b, tmp, 8);
#elif FAULT == 3
    LocalTensor<int16_t> i;
    Log(i, i);
#elif FAULT == 4
    LocalTensor<int64_t> i;  // Ascend 950 only
    Sign(i, i, tmp);
#elif FAULT == 5
    LocalTensor<uint8_t> u;
    ArithProgression<uint8_t>(u, 1, 2, 8);
#elif FAULT == 6
    LocalTensor<bfloat16_t> b;
    Arange(b, bfloat16_t(1.0f), bfloat16_t(2.0f), 8);
#elif FAULT == 7
    LocalTensor<int32_t> i;
    Sum(i, i, tmp, SumParams{1, 8, 8});
#elif FAULT == 8
    LocalTensor<bfloat16_t> b;
    Sigmoid(b, b, tmp, 8);
#elif FAULT == 9
    LocalTensor<int16_t> i;
    Power(i, i, i, tmp, 8);
#elif FAULT == 10
    LocalTensor<bfloat16_t> b;
    SwiGLU(b, b, b, 1.0f, tmp, 8);
#elif FAULT == 11
    LocalTensor<int32_t> i;
    Exp<int32_t, 10>(i, i, tmp, 8);
#elif FAULT == 12
    LocalTensor<int16_t> i;
    ClampMin(i, i, tmp, int16_t(1), 8);
#elif FAULT == 13
    LocalTensor<bfloat16_t> b;
    ClampMax(b, b, bfloat16_t(1.0f), 8);
#elif FAULT == 14
    LocalTensor<int32_t> i;
    GeGLU(i, i, i, tmp, 8);
#elif FAULT == 15
    LocalTensor<int32_t> i;
    Fmod(i, i, i, 8);
#elif FAULT == 16
    LocalTensor<half> h;
    LocalTensor<float> f;
    Axpy(h, f, 2.0f, tmp, 8);  // a float source into a half dst
#elif FAULT == 17
    LocalTensor<int32_t> i;
    CumSum(i, i, i, tmp, CumSumInfo{1, 8});
#elif FAULT == 18
    LocalTensor<float> f;
    CumSum<float, kSklansky>(f, f, f, tmp, CumSumInfo{1, 8});
#endif
}
