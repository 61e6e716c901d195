// DropOut's compile-time dtype rule on the twin (CMakeLists.txt compiles this file once per FAULT line, and once with
// FAULT=0, which must compile: half and float, both forms). A2's check: "template parameter (T) is not half or
// float"; the docs' A2 table: half, float (bfloat16_t is Ascend 950's).
// FAULT 1: DropOut on A2 supports half and float
// FAULT 2: DropOut on A2 supports half and float
#include "lib/filter/dropout.h"

using namespace AscendC;

void Use(LocalTensor<uint8_t>& mask, LocalTensor<uint8_t>& tmp)
{
    DropOutShapeInfo info;
#if FAULT == 0
    LocalTensor<half> h;
    LocalTensor<float> f;
    DropOut(h, h, mask, tmp, 0.5f, info);
    DropOut<float, true, DROPOUT_MODE_BIT_ALIGN>(f, f, mask, 0.5f, info);
#elif FAULT == 1
    LocalTensor<bfloat16_t> b;
    DropOut(b, b, mask, tmp, 0.5f, info);
#elif FAULT == 2
    LocalTensor<int16_t> i;
    DropOut(i, i, mask, 0.5f, info);
#endif
}
