// The confusion Transpose's compile-time dtype rule on the twin (CMakeLists.txt compiles this file once per FAULT
// line, and once with FAULT=0, which must compile: int16_t, uint16_t, half, int32_t, uint32_t and float in both
// forms, the docs' table for scenarios 1..7).
// FAULT 1: Transpose \(confusion transpose\) on A2 supports int16_t, uint16_t, half, int32_t, uint32_t and float
// FAULT 2: Transpose \(confusion transpose\) on A2 supports int16_t, uint16_t, half, int32_t, uint32_t and float
#include "lib/transpose/confusion_transpose.h"

using namespace AscendC;

template <typename T>
void Use(LocalTensor<uint8_t>& tmp, ConfusionTransposeTiling& tl)
{
    LocalTensor<T> y, x;
    Transpose(y, x, tmp, TransposeType::TRANSPOSE_NZ2ND_0213, tl);
    Transpose(y, x, TransposeType::TRANSPOSE_NZ2NZ_0213, tl);
}

void Instantiate(LocalTensor<uint8_t>& tmp, ConfusionTransposeTiling& tl)
{
#if FAULT == 0
    Use<int16_t>(tmp, tl);
    Use<uint16_t>(tmp, tl);
    Use<half>(tmp, tl);
    Use<int32_t>(tmp, tl);
    Use<uint32_t>(tmp, tl);
    Use<float>(tmp, tl);
#elif FAULT == 1
    Use<bfloat16_t>(tmp, tl);  // bfloat16_t: scenarios 13..15 only (dav-3510); A2 refuses it at run time (stricter)
#elif FAULT == 2
    Use<int8_t>(tmp, tl);
#endif
}
