// The L0C -> GM and L0C -> L1 DataCopy's compile-time type rules on the twin
// (CMakeLists.txt compiles this file once per FAULT line, and once with FAULT=0, which must compile: every pair of
// the docs' A2 tables (to GM: float L0C to int8_t/uint8_t/half/bfloat16_t/float, int32_t L0C to int8_t/uint8_t/half/
// int32_t; to L1 the same without float and int32_t), with the L1 -> Fixpipe Buffer copies and the register calls).
// FAULT 1: DataCopy from CO1 to GM on A2 writes float L0C as int8_t/uint8_t/half/bfloat16_t/float and int32_t L0C as int8_t/uint8_t/half/int32_t
// FAULT 2: DataCopy from CO1 to GM on A2 writes float L0C as int8_t/uint8_t/half/bfloat16_t/float and int32_t L0C as int8_t/uint8_t/half/int32_t
// FAULT 3: DataCopy from CO1 to GM on A2 writes float L0C as int8_t/uint8_t/half/bfloat16_t/float and int32_t L0C as int8_t/uint8_t/half/int32_t
// FAULT 4: DataCopy from CO1 to L1 on A2 writes float L0C as int8_t/uint8_t/half/bfloat16_t and int32_t L0C as int8_t/uint8_t/half
#include "kernel_operator.h"

using namespace AscendC;

template <typename T, typename U>
void Out(const DataCopyCO12DstParams& p)
{
    GlobalTensor<T> dst;
    LocalTensor<U> src;
    DataCopy(dst, src, p);
}

template <typename T, typename U>
void OutL1(const DataCopyCO12DstParams& p)
{
    LocalTensor<T> dst;
    LocalTensor<U> src;
    DataCopy(dst, src, p);
}

void Instantiate(const DataCopyCO12DstParams& p)
{
#if FAULT == 0
    Out<int8_t, float>(p);
    Out<uint8_t, float>(p);
    Out<half, float>(p);
    Out<bfloat16_t, float>(p);
    Out<float, float>(p);
    Out<int8_t, int32_t>(p);
    Out<uint8_t, int32_t>(p);
    Out<half, int32_t>(p);
    Out<int32_t, int32_t>(p);
    OutL1<int8_t, float>(p);
    OutL1<uint8_t, float>(p);
    OutL1<half, float>(p);
    OutL1<bfloat16_t, float>(p);
    OutL1<int8_t, int32_t>(p);
    OutL1<uint8_t, int32_t>(p);
    OutL1<half, int32_t>(p);
    LocalTensor<uint64_t> fb, l1;
    DataCopy(fb, l1, DataCopyParams(1, 2, 0, 0));
    DataCopy(fb, l1, 32);
    SetFixPipeConfig(fb);
    SetFixpipePreQuantFlag(0);
    SetFixpipeNz2ndFlag(1, 0, 0);
#elif FAULT == 1
    Out<bfloat16_t, int32_t>(p);  // bfloat16_t only from float L0C
#elif FAULT == 2
    Out<int32_t, float>(p);  // float L0C is not written as int32_t
#elif FAULT == 3
    Out<float, half>(p);  // L0C holds float or int32_t
#elif FAULT == 4
    OutL1<float, float>(p);  // no float into L1 on A2
#endif
}
