// GetArithProgressionMaxMinTmpSize and GetArangeMaxMinTmpSize for host tiling code on the twin, with the real
// names and signatures (asc-devkit include/adv_api/index/arithprogression_tiling.h; host code reaches it as
// "tiling/index/arithprogression_tiling.h", "tiling/arithprogression/arithprogression_tiling.h" or
// "lib/index/arithprogression_tiling.h"). The API needs no temporary space: both are 0, as A2's functions
// return (impl/adv_api/tiling/index/arithprogression_tiling_impl.cpp).
#pragma once

#include <cstdint>

namespace AscendC {

inline void GetArangeMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue)
{
    maxValue = 0;
    minValue = 0;
}

inline void GetArithProgressionMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue)
{
    GetArangeMaxMinTmpSize(maxValue, minValue);
}

}  // namespace AscendC
