// Read/WriteGmByPassDCache's dtype rule on the twin (CMakeLists.txt compiles this file once per FAULT line, and
// once with FAULT=0, which must compile: the 8 integer types A2 takes).
// FAULT 1: ReadGmByPassDCache only support int8_t/uint8_t/int16_t/uint16_t/int32_t/uint32_t/int64_t/uint64_t
// FAULT 2: WriteGmByPassDCache only support int8_t/uint8_t/int16_t/uint16_t/int32_t/uint32_t/int64_t/uint64_t
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
void Use(__gm__ T* p)
{
    WriteGmByPassDCache<T>(p, ReadGmByPassDCache<T>(p));
}

void Instantiate(__gm__ uint8_t* p)
{
#if FAULT == 0
    Use(reinterpret_cast<__gm__ int8_t*>(p));
    Use(reinterpret_cast<__gm__ uint8_t*>(p));
    Use(reinterpret_cast<__gm__ int16_t*>(p));
    Use(reinterpret_cast<__gm__ uint16_t*>(p));
    Use(reinterpret_cast<__gm__ int32_t*>(p));
    Use(reinterpret_cast<__gm__ uint32_t*>(p));
    Use(reinterpret_cast<__gm__ int64_t*>(p));
    Use(reinterpret_cast<__gm__ uint64_t*>(p));
#elif FAULT == 1
    ReadGmByPassDCache<float>(reinterpret_cast<__gm__ float*>(p));  // float: not an A2 type of the bypass
#elif FAULT == 2
    WriteGmByPassDCache<half>(reinterpret_cast<__gm__ half*>(p), half(1.0f));
#endif
}
