// The compile-time rules of the reductions over a pattern on the twin (CMakeLists.txt compiles this file once per
// FAULT line, and once with FAULT=0, which must compile: every A2 dtype of each, AR and RA).
// FAULT 1: ReduceSum on A2 supports float
// FAULT 2: ReduceMax on A2 supports half and float
// FAULT 3: ReduceAny on A2 supports float and uint8_t
// FAULT 4: failed to check the reduce pattern, it only supports AR/RA pattern!
// FAULT 5: ReduceProd on A2 supports float
// FAULT 6: ReduceMean on A2 supports half and float
// FAULT 7: ReduceMin on A2 supports half and float
// FAULT 8: ReduceAll on A2 supports float and uint8_t
#include "lib/reduce/reduce.h"

using namespace AscendC;

void Use(LocalTensor<uint8_t>& tmp, const uint32_t shape[])
{
    LocalTensor<float> f, f2;
    LocalTensor<half> h, h2;
    LocalTensor<uint8_t> u, u2;
    LocalTensor<int32_t> i, i2;
#if FAULT == 0
    ReduceSum<float, Pattern::Reduce::AR>(f, f2, tmp, shape, true);
    ReduceMax<half, Pattern::Reduce::RA>(h, h2, tmp, shape, true);
    ReduceMin<float, Pattern::Reduce::AR, true>(f, f2, shape, true);
    ReduceProd<float, Pattern::Reduce::RA>(f, f2, shape, true);
    ReduceMean<half, Pattern::Reduce::AR>(h, h2, tmp, shape, true);
    ReduceAny<uint8_t, Pattern::Reduce::AR>(u, u2, tmp, shape, true);
    ReduceAll<float, Pattern::Reduce::RA>(f, f2, shape, true);
#elif FAULT == 1
    ReduceSum<half, Pattern::Reduce::AR>(h, h2, tmp, shape, true);
#elif FAULT == 2
    ReduceMax<int32_t, Pattern::Reduce::AR>(i, i2, tmp, shape, true);
#elif FAULT == 3
    ReduceAny<half, Pattern::Reduce::AR>(h, h2, shape, true);
#elif FAULT == 4
    ReduceSum<float, Pattern::Reduce::ARA>(f, f2, tmp, shape, true);
#elif FAULT == 5
    ReduceProd<half, Pattern::Reduce::RA>(h, h2, shape, true);
#elif FAULT == 6
    ReduceMean<uint8_t, Pattern::Reduce::RA>(u, u2, shape, true);
#elif FAULT == 7
    ReduceMin<int32_t, Pattern::Reduce::AR>(i, i2, tmp, shape, true);
#elif FAULT == 8
    ReduceAll<half, Pattern::Reduce::RA>(h, h2, shape, true);
#endif
}
