// The region-proposal sort's compile-time dtype rules on the twin (CMakeLists.txt compiles this file once per FAULT
// line, and once with FAULT=0, which must compile: half and float, A2's checks).
// FAULT 1: Sort on A2 supports half and float
// FAULT 2: Concat on A2 supports half and float
// FAULT 3: Extract on A2 supports half and float
// FAULT 4: GetSortLen on A2 supports half and float
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
void Use()
{
    LocalTensor<T> dst, src, tmp, concat;
    LocalTensor<uint32_t> idx;
    Concat(concat, src, tmp, 1);
    Sort<T, true>(dst, concat, idx, tmp, 1);
    Sort<T, false>(dst, concat, idx, tmp, 1);
    Extract(src, idx, dst, 1);
    (void)(GetSortLen<T>(32) + GetSortOffset<T>(1));
}

void Instantiate()
{
#if FAULT == 0
    Use<half>();
    Use<float>();
#elif FAULT == 1
    LocalTensor<int32_t> d, c, t;
    LocalTensor<uint32_t> i;
    Sort<int32_t, true>(d, c, i, t, 1);
#elif FAULT == 2
    LocalTensor<int16_t> c, s, t;
    Concat(c, s, t, 1);
#elif FAULT == 3
    LocalTensor<bfloat16_t> v, s;
    LocalTensor<uint32_t> i;
    Extract(v, i, s, 1);
#elif FAULT == 4
    (void)GetSortLen<int32_t>(32);
#endif
}
