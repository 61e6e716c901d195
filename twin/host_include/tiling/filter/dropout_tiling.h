// DropOut's size functions for host tiling code on the twin, with the real names and signatures (asc-devkit
// include/adv_api/filter/dropout_tiling.h; host code reaches them as "tiling/filter/dropout_tiling.h",
// "tiling/dropout/dropout_tiling.h" or "lib/filter/dropout_tiling.h"):
//   uint32_t GetDropOutMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource);
//   uint32_t GetDropOutMaxTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource);
//   void GetDropOutMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
//                                uint32_t& maxValue, uint32_t& minValue);
// A2's sizes (impl/adv_api/tiling/filter/dropout_tiling_impl.cpp): minimum 2 * 256 bytes, maximum 2 * (elements of
// srcShape) * 4 bytes, at least the minimum. As A2's function, a typeSize other than 2 or 4, a shape of no dimension
// and isReuseSource (not effective) are reported on stderr and the sizes are still computed. The kernel side needs
// less (twin/kernel_adv_dropout.h: a chunk of 32 elements in byte mode, 256 bytes in bit mode). Inline: nothing to
// link.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "graph/tensor.h"

namespace AscendC {

using TensorShape = ge::Shape;  // include/adv_api/utils/types.h

namespace twin_host {

inline void CheckDropOutParams(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                               const bool isReuseSource, const char* funcName)
{
    if (typeSize != 2 && typeSize != 4) {
        std::fprintf(stderr, "[DropOut][%s] The value of typeSize is %u, should be 2 or 4.\n", funcName, typeSize);
    }
    if (srcShape.GetDimNum() == 0) {
        std::fprintf(stderr, "[DropOut][%s] The dims of srcShape is %zu, should be greater than 0.\n", funcName,
                     srcShape.GetDimNum());
    }
    if (isReuseSource) {
        std::fprintf(stderr, "[DropOut][%s] The value of isReuseSource is true, may not be effective.\n", funcName);
    }
}

}  // namespace twin_host

inline uint32_t GetDropOutMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                                     const bool isReuseSource)
{
    twin_host::CheckDropOutParams(srcShape, typeSize, isReuseSource, "GetDropOutMinTmpSize");
    return 2 * 256;
}

inline uint32_t GetDropOutMaxTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                                     const bool isReuseSource)
{
    twin_host::CheckDropOutParams(srcShape, typeSize, isReuseSource, "GetDropOutMaxTmpSize");
    const uint32_t minValue = 2 * 256;
    uint32_t elements = 1;
    for (const int64_t d : srcShape.GetDims()) elements *= static_cast<uint32_t>(d);
    const uint32_t maxValue = 2 * elements * static_cast<uint32_t>(sizeof(float));
    return minValue > maxValue ? minValue : maxValue;
}

inline void GetDropOutMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                                    const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue)
{
    twin_host::CheckDropOutParams(srcShape, typeSize, isReuseSource, "GetDropOutMaxMinTmpSize");
    maxValue = GetDropOutMaxTmpSize(srcShape, typeSize, isReuseSource);
    minValue = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
}

}  // namespace AscendC
