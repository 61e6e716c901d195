// AscendAntiQuant's size functions for host tiling code on the twin, with the real names and signatures (asc-devkit
// include/adv_api/quantization/ascend_antiquant_tiling.h; host code reaches them as
// "tiling/quantization/ascend_antiquant_tiling.h", "tiling/ascend_antiquant/ascend_antiquant_tiling.h" or
// "lib/quantization/ascend_antiquant_tiling.h"):
//   uint32_t GetAscendAntiQuantMaxTmpSize(const TensorShape& srcShape, const TensorShape& scaleShape, bool isTranspose,
//                                         TensorDataType inputDataType, TensorDataType outputDataType);
//   uint32_t GetAscendAntiQuantMinTmpSize(...same...);
//   void GetAscendAntiQuantMaxMinTmpSize(...same..., uint32_t& maxValue, uint32_t& minValue);
//   void GetAscendAntiQuantTmpBufferFactorSize(...same..., uint32_t& maxLiveNodeCount, uint32_t& extraBuf);
// A2's sizes (impl/adv_api/tiling/quantization/ascend_antiquant_tiling_impl.cpp; scaleSize = the scale shape's
// elements, per channel when it is not 1): half output 0; otherwise per tensor: maximum the source's elements * 4,
// minimum 1024; per channel: transposed 80 * scaleSize * 4 bytes (8 + 8 + 64 floats per column), not transposed
// scaleSize * 2 * 4 + 64 * K * 4 (K = srcShape[0]); fp4 inputs: twice the scale size rounded up to 32 when
// transposed, else 0. The factor form: maxLiveNodeCount 1 per tensor (0 for half output), the extraBuf of the
// per-channel sizes. As A2's functions, a shape of no elements and, when transposed, a K the check finds unaligned
// (A2 multiplies K by the data type's enum value, not its size) are reported on stderr and the sizes still computed.
// The kernel side, AscendAntiQuant itself, is not modelled by the twin (docs/twin.md). Inline: nothing to link.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "graph/tensor.h"
#include "graph/types.h"

namespace AscendC {

using TensorShape = ge::Shape;        // include/adv_api/utils/types.h
using TensorDataType = ge::DataType;  // include/adv_api/utils/types.h

namespace twin_host {

inline uint32_t AntiQuantElements(const AscendC::TensorShape& shape)
{
    uint32_t n = 1;
    for (int64_t d : shape.GetDims()) n *= static_cast<uint32_t>(d);
    return n;
}

inline void AntiQuantHostCheck(const char* fn, const AscendC::TensorShape& srcShape, bool isTranspose,
                               AscendC::TensorDataType inputDataType)
{
    if (srcShape.GetShapeSize() <= 0) {
        std::fprintf(stderr, "[AscendAntiQuant][%s] Input Shape size must be greater than 0.\n", fn);
        return;
    }
    const std::vector<int64_t> d = srcShape.GetDims();
    const uint32_t k = d.size() > 1 ? static_cast<uint32_t>(d[1]) : 0;
    if (isTranspose && static_cast<int32_t>(inputDataType) * k % 32 != 0) {
        std::fprintf(stderr,
                     "[AscendAntiQuant][%s] When isTranspose is true, srcShape is [N, K] where the dimension K must be "
                     "32B aligned!\n",
                     fn);
    }
}

inline bool AntiQuantFp4(AscendC::TensorDataType t) { return t == ge::DT_FLOAT4_E2M1 || t == ge::DT_FLOAT4_E1M2; }

inline uint32_t AntiQuantFp4Size(const AscendC::TensorShape& scaleShape, bool isTranspose)
{
    return isTranspose ? (AntiQuantElements(scaleShape) + 31) / 32 * 32 * 2 : 0;
}

inline uint32_t AntiQuantPerChannelSize(const AscendC::TensorShape& srcShape, uint32_t scaleSize, bool isTranspose)
{
    if (isTranspose) return (8 + 8 + 64) * scaleSize * 4;
    const std::vector<int64_t> d = srcShape.GetDims();
    const uint32_t k = d.empty() ? 0 : static_cast<uint32_t>(d[0]);
    return scaleSize * 2 * 4 + 64 * k * 4;
}

}  // namespace twin_host

inline uint32_t GetAscendAntiQuantMaxTmpSize(const AscendC::TensorShape& srcShape,
                                             const AscendC::TensorShape& scaleShape, bool isTranspose,
                                             AscendC::TensorDataType inputDataType,
                                             AscendC::TensorDataType outputDataType)
{
    twin_host::AntiQuantHostCheck("GetAscendAntiQuantMaxTmpSize", srcShape, isTranspose, inputDataType);
    if (twin_host::AntiQuantFp4(inputDataType)) return twin_host::AntiQuantFp4Size(scaleShape, isTranspose);
    if (outputDataType == ge::DT_FLOAT16) return 0;
    const uint32_t scaleSize = twin_host::AntiQuantElements(scaleShape);
    if (scaleSize == 1) return twin_host::AntiQuantElements(srcShape) * 4;
    return twin_host::AntiQuantPerChannelSize(srcShape, scaleSize, isTranspose);
}

inline uint32_t GetAscendAntiQuantMinTmpSize(const AscendC::TensorShape& srcShape,
                                             const AscendC::TensorShape& scaleShape, bool isTranspose,
                                             AscendC::TensorDataType inputDataType,
                                             AscendC::TensorDataType outputDataType)
{
    twin_host::AntiQuantHostCheck("GetAscendAntiQuantMinTmpSize", srcShape, isTranspose, inputDataType);
    if (twin_host::AntiQuantFp4(inputDataType)) return twin_host::AntiQuantFp4Size(scaleShape, isTranspose);
    if (outputDataType == ge::DT_FLOAT16) return 0;
    const uint32_t scaleSize = twin_host::AntiQuantElements(scaleShape);
    if (scaleSize == 1) return 1024;
    return twin_host::AntiQuantPerChannelSize(srcShape, scaleSize, isTranspose);
}

inline void GetAscendAntiQuantMaxMinTmpSize(const AscendC::TensorShape& srcShape,
                                            const AscendC::TensorShape& scaleShape, bool isTranspose,
                                            AscendC::TensorDataType inputDataType,
                                            AscendC::TensorDataType outputDataType, uint32_t& maxValue,
                                            uint32_t& minValue)
{
    twin_host::AntiQuantHostCheck("GetAscendAntiQuantMaxMinTmpSize", srcShape, isTranspose, inputDataType);
    maxValue = GetAscendAntiQuantMaxTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType);
    minValue = GetAscendAntiQuantMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType);
}

inline void GetAscendAntiQuantTmpBufferFactorSize(const AscendC::TensorShape& srcShape,
                                                  const AscendC::TensorShape& scaleShape, bool isTranspose,
                                                  AscendC::TensorDataType inputDataType,
                                                  AscendC::TensorDataType outputDataType, uint32_t& maxLiveNodeCount,
                                                  uint32_t& extraBuf)
{
    extraBuf = 0;
    maxLiveNodeCount = 0;
    const uint32_t scaleSize = twin_host::AntiQuantElements(scaleShape);
    if (twin_host::AntiQuantFp4(inputDataType)) {
        extraBuf = twin_host::AntiQuantFp4Size(scaleShape, isTranspose);
    } else if (outputDataType == ge::DT_FLOAT16) {
        maxLiveNodeCount = 0;
    } else if (scaleSize == 1) {
        maxLiveNodeCount = 1;
    } else {
        extraBuf = twin_host::AntiQuantPerChannelSize(srcShape, scaleSize, isTranspose);
    }
}

}  // namespace AscendC
