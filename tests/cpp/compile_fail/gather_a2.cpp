// Gather's and Gatherb's compile-time dtype rules on the twin (CMakeLists.txt compiles this file once per FAULT
// line, and once with FAULT=0, which must compile). A2 (Gather.md, Gatherb(ISASI).md, 数据类型): Gather int16_t,
// uint16_t, half, bfloat16_t, int32_t, uint32_t, float; Gatherb uint16_t, uint32_t.
// FAULT 1: Gather on A2 supports int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and float
// FAULT 2: Gatherb on A2 supports uint16_t and uint32_t
#include "kernel_operator.h"

using namespace AscendC;

void Use(LocalTensor<uint32_t>& off)
{
#if FAULT == 0
    LocalTensor<half> h, h2;
    LocalTensor<float> f, f2;
    LocalTensor<uint16_t> u, u2;
    Gather(h, h2, off, 0u, 128u);
    Gather(f, f2, off, 0u, static_cast<uint64_t>(64), 1, 8);
    Gatherb(u, u2, off, 1, GatherRepeatParams(1, 8));
#elif FAULT == 1
    LocalTensor<int8_t> b, b2;
    Gather(b, b2, off, 0u, 32u);
#elif FAULT == 2
    LocalTensor<half> h, h2;
    Gatherb(h, h2, off, 1, GatherRepeatParams(1, 8));
#endif
}
