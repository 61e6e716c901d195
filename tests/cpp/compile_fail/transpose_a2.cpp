// Transpose's and TransDataTo5HD's compile-time dtype rules on the twin (CMakeLists.txt compiles this file once per
// FAULT line, and once with FAULT=0, which must compile). A2 (Transpose.md, TransDataTo5HD.md, 数据类型): the 16 x 16
// Transpose int16_t/uint16_t/half; the enhanced form int8_t/uint8_t/int16_t/uint16_t/half/int32_t/uint32_t/float;
// TransDataTo5HD the same eight.
// FAULT 1: Transpose \(16 x 16\) on A2 supports int16_t, uint16_t and half
// FAULT 2: TransDataTo5HD on A2 supports int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t and float
#include "kernel_operator.h"

using namespace AscendC;

void Use(LocalTensor<uint8_t>& tmp)
{
    uint64_t d[16] = {}, s[16] = {};
    TransDataTo5HDParams p;
#if FAULT == 0
    LocalTensor<half> h, h2;
    LocalTensor<float> f, f2;
    Transpose(h, h2);
    Transpose(f, f2, tmp, TransposeParamsExt(1, 1, 1, 8, TransposeType::TRANSPOSE_NCHW2NHWC));
    TransDataTo5HD<half>(d, s, p);
    TransDataTo5HD<uint8_t>(d, s, p);
#elif FAULT == 1
    LocalTensor<float> f, f2;
    Transpose(f, f2);
#elif FAULT == 2
    TransDataTo5HD<bfloat16_t>(d, s, p);
#endif
}
