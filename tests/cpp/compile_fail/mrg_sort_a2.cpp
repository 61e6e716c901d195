// Sort32's and MrgSort's compile-time dtype rules on the twin (CMakeLists.txt compiles this file once per FAULT
// line, and once with FAULT=0, which must compile). A2 (Sort32.md, MrgSort.md): half and float scores.
// FAULT 1: Sort32 on A2 sorts half or float scores
// FAULT 2: MrgSort on A2 merges half or float scores
#include "kernel_operator.h"

using namespace AscendC;

void Use(LocalTensor<uint32_t>& idx)
{
#if FAULT == 0
    LocalTensor<half> h, h2;
    LocalTensor<float> f, f2;
    Sort32(h, h2, idx, 1);
    Sort32(f, f2, idx, 1);
    MrgSort4Info info;
    MrgSort(f, MrgSortSrcList<float>(f2, f2, f2, f2), info);
#elif FAULT == 1
    LocalTensor<int32_t> i, i2;
    Sort32(i, i2, idx, 1);
#elif FAULT == 2
    LocalTensor<int16_t> s, s2;
    MrgSort4Info info;
    MrgSort(s, MrgSortSrcList<int16_t>(s2, s2, s2, s2), info);
#endif
}
