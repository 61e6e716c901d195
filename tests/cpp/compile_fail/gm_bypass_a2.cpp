// ReadGmByPassDCache / WriteGmByPassDCache's compile-time dtype rule on the twin (CMakeLists.txt compiles this file
// once per FAULT line, and once with FAULT=0, which must compile: the eight integer types). A2's check
// (impl/basic_api/kernel_scalar.h): int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t only.
// FAULT 1: WriteGmByPassDCache only support int8_t/uint8_t/int16_t/uint16_t/int32_t/uint32_t/int64_t/uint64_t data type on current device!
// FAULT 2: ReadGmByPassDCache only support int8_t/uint8_t/int16_t/uint16_t/int32_t/uint32_t/int64_t/uint64_t data type on current device!
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
void RoundTrip(__gm__ T* p)
{
    WriteGmByPassDCache<T>(p, ReadGmByPassDCache<T>(p + 1));
}

void Use(__gm__ uint8_t* gm)
{
#if FAULT == 0
    RoundTrip(reinterpret_cast<__gm__ int8_t*>(gm));
    RoundTrip(reinterpret_cast<__gm__ uint8_t*>(gm));
    RoundTrip(reinterpret_cast<__gm__ int16_t*>(gm));
    RoundTrip(reinterpret_cast<__gm__ uint16_t*>(gm));
    RoundTrip(reinterpret_cast<__gm__ int32_t*>(gm));
    RoundTrip(reinterpret_cast<__gm__ uint32_t*>(gm));
    RoundTrip(reinterpret_cast<__gm__ int64_t*>(gm));
    RoundTrip(reinterpret_cast<__gm__ uint64_t*>(gm));
    DataSyncBarrier<MemDsbT::DDR>();
#elif FAULT == 1
    WriteGmByPassDCache<float>(reinterpret_cast<__gm__ float*>(gm), 1.0f);
#elif FAULT == 2
    (void)ReadGmByPassDCache<half>(reinterpret_cast<__gm__ half*>(gm));
#endif
}
