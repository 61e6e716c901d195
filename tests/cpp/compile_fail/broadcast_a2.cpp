// Broadcast's compile-time rules on the twin (CMakeLists.txt compiles this file once per FAULT line, and once
// with FAULT=0, which must compile: every A2 dtype with dim 1 and 2 and axis 0 and 1, and the b16/b32 types outside
// A2's list, which bisheng compiles too: A2 refuses them when the call runs, tests/cpp/test_twin_broadcast.cpp).
// FAULT 1: Broadcast on A2 takes b8, b16 and b32 types
// FAULT 3: Broadcast supports dim 1 and 2 on A2
// FAULT 4: Broadcast supports axis 0 and 1 on A2
#include "lib/pad/broadcast.h"

using namespace AscendC;

template <typename T>
void Use(LocalTensor<uint8_t>& tmp)
{
    LocalTensor<T> y, x;
    const uint32_t d[3] = {4, 32, 1};
    const uint32_t s[3] = {4, 1, 1};
#if FAULT == 0 || FAULT == 1  // 1: instantiated with int64_t below
    Broadcast<T, 1, 0>(y, x, d, s, tmp);
    Broadcast<T, 2, 1>(y, x, d, s, tmp);
    Broadcast<T, 2, 0>(y, x, d, s);
    BroadCast<T, 2, 1>(y, x, d, s, tmp);
    BroadCast<T, 1, 1, true>(y, x, d, s);
#elif FAULT == 3
    Broadcast<T, 3, 1>(y, x, d, s, tmp);
#elif FAULT == 4
    Broadcast<T, 2, 2>(y, x, d, s, tmp);
#endif
}

void Instantiate(LocalTensor<uint8_t>& tmp)
{
#if FAULT == 1
    Use<int64_t>(tmp);
#else
    Use<int16_t>(tmp);
    Use<bfloat16_t>(tmp);
    Use<float>(tmp);
    Use<half>(tmp);
    Use<int8_t>(tmp);
    Use<uint8_t>(tmp);
#endif
}
