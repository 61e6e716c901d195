// ShapeInfo and DataFormat (include/basic_api/kernel_tensor.h, DataFormat docs): the shape a LocalTensor or
// GlobalTensor may carry (SetShapeInfo/GetShapeInfo) and DumpTensor prints by. Apart from kernel_dump.h so that
// the tensors can hold one, as A2's do (their shapeInfo_ member).
#pragma once

#include <cstdint>

#include "twin/kernel_types.h"
#include "twin/runtime.h"  // Fail/FailF with C strings: no heap containers in kernel headers

#ifndef K_MAX_SHAPE_DIM
#define K_MAX_SHAPE_DIM 8
#endif

namespace AscendC {

#ifndef ASCC_ENUM_DATAFORMAT
#define ASCC_ENUM_DATAFORMAT
enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };
#endif

struct ShapeInfo {
public:
    __aicore__ inline ShapeInfo() {}
    __aicore__ inline ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[],
                                const uint8_t inputOriginalShapeDim, const uint32_t inputOriginalShape[],
                                const DataFormat inputFormat)
        : shapeDim(inputShapeDim), originalShapeDim(inputOriginalShapeDim), dataFormat(inputFormat)
    {
        CheckDims(inputShapeDim > inputOriginalShapeDim ? inputShapeDim : inputOriginalShapeDim);
        for (int index = 0; index < shapeDim; ++index) shape[index] = inputShape[index];
        for (int index = 0; index < originalShapeDim; ++index) originalShape[index] = inputOriginalShape[index];
    }
    __aicore__ inline ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const DataFormat inputFormat)
        : shapeDim(inputShapeDim), originalShapeDim(inputShapeDim), dataFormat(inputFormat)
    {
        CheckDims(inputShapeDim);
        for (int index = 0; index < shapeDim; ++index) shape[index] = originalShape[index] = inputShape[index];
    }
    __aicore__ inline ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[])
        : ShapeInfo(inputShapeDim, inputShape, DataFormat::ND)
    {
    }
    uint8_t shapeDim;
    uint8_t originalShapeDim;
    uint32_t shape[K_MAX_SHAPE_DIM];
    uint32_t originalShape[K_MAX_SHAPE_DIM];
    DataFormat dataFormat;

private:
    static void CheckDims(uint32_t dims)
    {
        if (dims > K_MAX_SHAPE_DIM) {
            ascend_twin::FailF("ShapeInfo", "a ShapeInfo holds at most K_MAX_SHAPE_DIM (8) dimensions",
                               "%u dimensions", dims);
        }
    }
};

}  // namespace AscendC
