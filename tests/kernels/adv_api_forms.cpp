// Every advanced-API form the twin implements, called as a kernel would (compile only: the operands alias, so a
// launch would break the overlap rules). tests/test_twin_adv_api_forms.py compiles it against the twin and, where
// the ascchk checkers are built, against the real Ascend C headers (g++ C++17, CPU-debug configuration), so a
// signature the twin got wrong fails one of the two.
#include "kernel_operator.h"
#include "lib/math/floor.h"
#include "lib/math/log.h"
#include "lib/math/power.h"
#include "lib/activation/sigmoid.h"
#include "lib/activation/silu.h"
#include "lib/activation/swish.h"
#include "lib/activation/gelu.h"
#include "lib/activation/swiglu.h"
#include "lib/reduce/sum.h"
#include "lib/index/arithprogression.h"
using namespace AscendC;

template <typename T>
__aicore__ inline void Use(LocalTensor<T>& y, LocalTensor<T>& x, LocalTensor<T>& z, LocalTensor<uint8_t>& t)
{
    Acos(y, x, t, 8); Acos(y, x, 8); Acos(y, x, t); Acos(y, x);
    Acosh(y, x, t, 8); Asin(y, x, 8); Asinh(y, x); Atan(y, x, t); Atanh(y, x, t, 8);
    Ceil(y, x, t, 8); Ceil(y, x, 8); Floor(y, x, t, 8); Floor(y, x, 8); Round(y, x, t, 8); Round(y, x, 8);
    Cos(y, x, t, 8); Cosh(y, x, 8); Erf(y, x, t); Erfc(y, x); Frac(y, x, t, 8);
    Log(y, x, 8); Log(y, x); Log10(y, x, 8); Log10(y, x); Log2(y, x, t, 8); Log2(y, x, 8); Log2(y, x, t); Log2(y, x);
    Sign(y, x, t, 8); Sin<T, false>(y, x, t, 8); Sinh(y, x, 8); Tan(y, x, t); Tanh(y, x); Trunc(y, x, t, 8);
    Sigmoid(y, x, t, 8); Sigmoid(y, x, 8); Sigmoid(y, x, t); Sigmoid(y, x);
    Silu(y, x, 8); Swish(y, x, 8, static_cast<T>(1.5f));
    Gelu(y, x, t, 8); Gelu<T, true, false>(y, x, 8); FasterGelu(y, x, t, 8); FasterGeluV2<T, false, true>(y, x, 8);
    SwiGLU<T>(y, x, z, 1.0f); SwiGLU<T>(y, x, z, 1.0f, t); SwiGLU<T>(y, x, z, 1.0f, 8); SwiGLU<T>(y, x, z, 1.0f, t, 8);
    Power(y, x, z, t, 8); Power(y, x, z, 8); Power(y, x, z, t); Power(y, x, z);
    const T two = static_cast<T>(2.0f);
    Power(y, x, two, t, 8); Power(y, x, two, 8); Power(y, x, two, t); Power(y, x, two);
    Power(y, two, z, t, 8); Power(y, two, z, 8); Power(y, two, z, t); Power(y, two, z);
    SumParams params{1, 16, 16};
    Sum(y, x, t, params); Sum<T, -1, false, false>(y, x, params);
    ArithProgression(y, static_cast<T>(1.0f), static_cast<T>(2.0f), 8);
    Arange(y, static_cast<T>(1.0f), static_cast<T>(2.0f), 8);
}

extern "C" __global__ __aicore__ void adv_api_forms(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4096);
    LocalTensor<float> f = b.Get<float>();
    LocalTensor<float> f2 = b.Get<float>();
    LocalTensor<float> f3 = b.Get<float>();
    LocalTensor<half> h = b.Get<half>();
    LocalTensor<half> h2 = b.Get<half>();
    LocalTensor<half> h3 = b.Get<half>();
    LocalTensor<uint8_t> t = b.Get<uint8_t>();
    Use(f, f2, f3, t);
    Use(h, h2, h3, t);
    LocalTensor<int32_t> i = b.Get<int32_t>();
    LocalTensor<int32_t> i2 = b.Get<int32_t>();
    Power(i, i2, i2, t, 8);
    Power(i, i2, 3, 8);
    ArithProgression<int16_t>(b.Get<int16_t>(), 1, 2, 8);
    (void)x;
}
