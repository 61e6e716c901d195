// Xor's compile-time dtype rule on the twin (CMakeLists.txt compiles this file once per FAULT line, and once with
// FAULT=0, which must compile: int16_t and uint16_t in every form, as A2 supports them).
// FAULT 1: Failed to check the data types, current api support data types are int16_t/uint16_t.
// FAULT 2: Failed to check the data types, current api support data types are int16_t/uint16_t.
// FAULT 3: Failed to check the data types, current api support data types are int16_t/uint16_t.
#include "lib/math/xor.h"

using namespace AscendC;

template <typename T>
void Use(LocalTensor<uint8_t>& tmp)
{
    LocalTensor<T> y, a, b;
    Xor(y, a, b, tmp, 8);
    Xor(y, a, b, tmp);
    Xor(y, a, b, 8);
    Xor(y, a, b);
}

void Instantiate(LocalTensor<uint8_t>& tmp)
{
#if FAULT == 0
    Use<int16_t>(tmp);
    Use<uint16_t>(tmp);
#elif FAULT == 1
    Use<int32_t>(tmp);  // 32-bit data: A2's Xor takes 16-bit integers only
#elif FAULT == 2
    Use<half>(tmp);
#elif FAULT == 3
    Use<uint8_t>(tmp);
#endif
}
