// WelfordUpdate's compile-time dtype rules on the twin (CMakeLists.txt compiles this file once per FAULT line, and once
// with FAULT=0, which must compile: half and float inputX, float statistics, both forms). A2's checks: "inputX
// support dtype is: half/float", "mean/var support dtype is: float".
// FAULT 1: WelfordUpdate on A2: inputX is half or float
// FAULT 2: WelfordUpdate on A2: the means and variances are float
#include "lib/normalization/layernorm.h"

using namespace AscendC;

void Use(LocalTensor<uint8_t>& tmp, const WelfordUpdateParam& para)
{
    LocalTensor<float> f;
#if FAULT == 0
    LocalTensor<half> h;
    WelfordUpdate<half, float>(f, f, f, f, h, tmp, para);
    WelfordUpdate<float, float, true>(f, f, f, f, f, para);
#elif FAULT == 1
    LocalTensor<int8_t> i;
    WelfordUpdate<int8_t, float>(f, f, f, f, i, tmp, para);
#elif FAULT == 2
    LocalTensor<half> h;
    WelfordUpdate<half, half>(h, h, h, h, h, tmp, para);
#endif
}
