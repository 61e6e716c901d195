// The size functions of the reductions over a pattern for host tiling code on the twin, with the real names and
// signatures (asc-devkit include/adv_api/reduce/reduce_tiling.h; host code reaches them as
// "tiling/reduce/reduce_tiling.h" or "lib/reduce/reduce_tiling.h"):
//   enum class ReducePattern : uint32_t { AR = 0, RA = 1, R, ARA, ... };
//   void GetReduceSumMaxMinTmpSize(const TensorShape& srcShape, const TensorDataType dataType, ReducePattern pattern,
//                                  bool isSrcInnerPad, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
//   and the same for ReduceProd, ReduceMean, ReduceMax, ReduceMin, ReduceAny, ReduceAll.
// A2's sizes (twin/include/twin/reduce_tmp_size.h, the numbers the kernel side checks sharedTmpBuffer against); the
// maximum is the minimum. As A2's functions do, a dataType the API does not take on A2 is reported on stderr and
// leaves the outputs unchanged (ReduceSum, ReduceProd, ReduceMean: DT_FLOAT; ReduceMax, ReduceMin: DT_FLOAT,
// DT_FLOAT16; ReduceAny, ReduceAll: DT_FLOAT, DT_UINT8), and a shape of other than 2 dimensions, isSrcInnerPad false,
// a pattern other than AR/RA or a 0 axis are reported and the sizes computed anyway. Inline: nothing to link.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "graph/tensor.h"
#include "graph/types.h"
#include "twin/reduce_tmp_size.h"

namespace AscendC {

using TensorShape = ge::Shape;        // include/adv_api/utils/types.h
using TensorDataType = ge::DataType;  // include/adv_api/utils/types.h

#ifndef ASCC_ENUM_REDUCEPATTERN
#define ASCC_ENUM_REDUCEPATTERN
enum class ReducePattern : uint32_t {
    AR = 0,
    RA = 1,
    R,
    ARA,
    ARAR,
    ARARA,
    ARARAR,
    ARARARA,
    ARARARAR,
    ARARARARA,
    RAR,
    RARA,
    RARAR,
    RARARA,
    RARARAR,
    RARARARA,
};
#endif

namespace twin_host {

inline void ReduceSizes(ascend_twin::ReduceFn fn, const char* getter, const TensorShape& srcShape,
                        TensorDataType dataType, ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,
                        uint32_t& maxValue, uint32_t& minValue)
{
    using ascend_twin::ReduceFn;
    const char* api = ascend_twin::ReduceFnName(fn);
    bool typeOk = false;
    uint32_t typeSize = 4;
    switch (fn) {
        case ReduceFn::kSum: case ReduceFn::kProd: case ReduceFn::kMean: typeOk = dataType == ge::DT_FLOAT; break;
        case ReduceFn::kMax: case ReduceFn::kMin:
            typeOk = dataType == ge::DT_FLOAT || dataType == ge::DT_FLOAT16;
            typeSize = dataType == ge::DT_FLOAT16 ? 2 : 4;
            break;
        case ReduceFn::kAny: case ReduceFn::kAll:
            typeOk = dataType == ge::DT_FLOAT || dataType == ge::DT_UINT8;
            typeSize = dataType == ge::DT_UINT8 ? 1 : 4;
            break;
        case ReduceFn::kCount: break;
    }
    if (!typeOk) {
        std::fprintf(stderr, "[%s][%s] the data type %d is not one this API takes on this platform.\n", api, getter,
                     static_cast<int>(dataType));
        return;
    }
    const std::vector<int64_t> dims = srcShape.GetDims();
    if (dims.size() != 2) {
        std::fprintf(stderr, "[%s][%s] srcShape dims must be 2.\n", api, getter);
    }
    if (!isSrcInnerPad) std::fprintf(stderr, "[%s][%s] isSrcInnerPad must be true on this platform.\n", api, getter);
    if (pattern != ReducePattern::AR && pattern != ReducePattern::RA) {
        std::fprintf(stderr, "[%s][%s] Currently only support AR and RA pattern.\n", api, getter);
    }
    const uint32_t first = dims.size() > 0 ? static_cast<uint32_t>(dims[0]) : 0;
    const uint32_t last = dims.size() > 1 ? static_cast<uint32_t>(dims[1]) : 0;
    if (first == 0 || last == 0) {
        std::fprintf(stderr, "[%s][%s] both first and last axis must be greater than 0.\n", api, getter);
    }
    maxValue = minValue = ascend_twin::ReduceTmpBytesA2(fn, typeSize, pattern == ReducePattern::AR, isReuseSource,
                                                       first, last);
}

}  // namespace twin_host

#define ASCEND_TWIN_REDUCE_SIZE_FN(Getter, Fn)                                                                       \
    inline void Getter(const AscendC::TensorShape& srcShape, const AscendC::TensorDataType dataType,                \
                       ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource, uint32_t& maxValue,           \
                       uint32_t& minValue)                                                                          \
    {                                                                                                               \
        twin_host::ReduceSizes(ascend_twin::ReduceFn::Fn, #Getter, srcShape, dataType, pattern, isSrcInnerPad,      \
                               isReuseSource, maxValue, minValue);                                                  \
    }

ASCEND_TWIN_REDUCE_SIZE_FN(GetReduceProdMaxMinTmpSize, kProd)
ASCEND_TWIN_REDUCE_SIZE_FN(GetReduceSumMaxMinTmpSize, kSum)
ASCEND_TWIN_REDUCE_SIZE_FN(GetReduceMeanMaxMinTmpSize, kMean)
ASCEND_TWIN_REDUCE_SIZE_FN(GetReduceMaxMaxMinTmpSize, kMax)
ASCEND_TWIN_REDUCE_SIZE_FN(GetReduceMinMaxMinTmpSize, kMin)
ASCEND_TWIN_REDUCE_SIZE_FN(GetReduceAnyMaxMinTmpSize, kAny)
ASCEND_TWIN_REDUCE_SIZE_FN(GetReduceAllMaxMinTmpSize, kAll)

#undef ASCEND_TWIN_REDUCE_SIZE_FN

}  // namespace AscendC
