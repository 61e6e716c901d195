// Helpers the advanced-API rule checks share (twin/src/adv_*.cpp, broadcast.cpp).
#pragma once

#include <cstdint>

namespace AscendC::twin_detail {

// For printf-style details: uint64_t as %llu.
inline unsigned long long U(uint64_t v) { return static_cast<unsigned long long>(v); }

// Whether two byte ranges share a byte (a null or empty range shares none).
inline bool Overlap(const void* a, uint64_t aBytes, const void* b, uint64_t bBytes)
{
    const uint8_t* pa = static_cast<const uint8_t*>(a);
    const uint8_t* pb = static_cast<const uint8_t*>(b);
    return a != nullptr && b != nullptr && aBytes != 0 && bBytes != 0 && pa < pb + bBytes && pb < pa + aBytes;
}

}  // namespace AscendC::twin_detail
