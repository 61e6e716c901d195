// AscendQuant's compile-time dtype rule on the twin (CMakeLists.txt compiles this file once per FAULT line, and once
// with FAULT=0, which must compile: half and float sources, per tensor and per channel). A2's check: "template
// parameter (T) is not half or float"; dst is int8_t on A2 (other dst types are Ascend 950's).
// FAULT 1: AscendQuant on A2 quantizes half and float to int8_t
// FAULT 2: AscendQuant on A2 quantizes half and float to int8_t
#include "lib/quantization/ascend_quant.h"

using namespace AscendC;

void Use(LocalTensor<int8_t>& dst, LocalTensor<uint8_t>& tmp)
{
#if FAULT == 0
    LocalTensor<half> h;
    LocalTensor<float> f;
    AscendQuant(dst, h, tmp, 0.5f, 1.0f, 32);
    AscendQuant(dst, f, f, f, 32, 32, 64);
#elif FAULT == 1
    LocalTensor<bfloat16_t> b;
    AscendQuant(dst, b, tmp, 0.5f, 1.0f, 32);
#elif FAULT == 2
    LocalTensor<int16_t> i;
    AscendQuant(dst, i, 0.5f, 1.0f);
#endif
}
