// RmsNorm's compile-time dtype rule on the twin (CMakeLists.txt compiles this file once per FAULT line, and once with
// FAULT=0, which must compile: half and float, both forms, isBasicBlock). A2's check: "RmsNorm only support data
// type: float/half".
// FAULT 1: RmsNorm on A2 supports half and float
// FAULT 2: RmsNorm on A2 supports half and float
#include "lib/normalization/rmsnorm.h"

using namespace AscendC;

void Use(LocalTensor<uint8_t>& tmp, const RmsNormTiling& tiling)
{
#if FAULT == 0
    LocalTensor<half> h;
    LocalTensor<float> f;
    RmsNorm(h, h, h, tmp, static_cast<half>(1e-5f), tiling);
    RmsNorm<float, true>(f, f, f, 1e-5f, tiling);
#elif FAULT == 1
    LocalTensor<bfloat16_t> b;
    RmsNorm(b, b, b, tmp, b.GetValue(0), tiling);
#elif FAULT == 2
    LocalTensor<int32_t> i;
    RmsNorm(i, i, i, 1, tiling);
#endif
}
