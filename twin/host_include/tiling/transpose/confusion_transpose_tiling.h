// The confusion Transpose's host functions on the twin, with the real names and signatures (asc-devkit
// include/adv_api/transpose/confusion_transpose_tiling.h; host code reaches them as
// "tiling/transpose/confusion_transpose_tiling.h", "lib/transpose/confusion_transpose_tiling.h" or
// "tiling/tiling_api.h"):
//   void GetTransposeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const uint32_t transposeTypeIn,
//                                  uint32_t& maxValue, uint32_t& minValue);          (and GetConfusionTransposeMaxMinTmpSize)
//   void GetTransposeTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
//                               const uint32_t transposeTypeIn, optiling::ConfusionTransposeTiling& tiling);
//                               (and AscendC::tiling::ConfusionTransposeTiling&; and GetConfusionTransposeTilingInfo)
// A2's sizes and tiling (impl/adv_api/tiling/transpose/confusion_transpose_tiling_impl.cpp) for scenarios 1 and 2
// (transposeTypeIn 1, 2: TRANSPOSE_NZ2ND_0213, TRANSPOSE_NZ2NZ_0213), srcShape [B, A1, A2, A3]: maximum
// ceil16(A2) * 16 * typeSize bytes, minimum 256 * typeSize; the tiling's param0..param15 as A2 sets them (blockSize,
// B, A1, alignA3, alignA2, widthTiling, newPopSize (the buffer in whole 16 x 16 squares), newPopH, needSize,
// mainBlocks, tailSize, alignA2 * alignA3, batchOffset, alignA3 * A1, A1 * 16, mainOffset). The other scenarios are
// not modelled on the twin: their sizes and tilings are reported on stderr and left unchanged (a twin gap). A
// typeSize of 0 is reported as A2's is. Inline: nothing to link.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/transpose/confusion_transpose_tilingdata.h"

namespace AscendC {

using TensorShape = ge::Shape;  // include/adv_api/utils/types.h

namespace twin_host {

inline bool TransposeModelled(const uint32_t transposeTypeIn, const char* fn)
{
    if (transposeTypeIn == 1 || transposeTypeIn == 2) return true;
    std::fprintf(stderr,
                 "[Transpose][%s] transposeTypeIn %u: the twin's host tiling models scenarios 1 and 2 "
                 "(TRANSPOSE_NZ2ND_0213, TRANSPOSE_NZ2NZ_0213) only; nothing computed.\n",
                 fn, transposeTypeIn);
    return false;
}

inline uint32_t TransposeDim(const AscendC::TensorShape& shape, size_t i)
{
    const std::vector<int64_t> d = shape.GetDims();
    return i < d.size() ? static_cast<uint32_t>(d[i]) : 0;
}

}  // namespace twin_host

inline void GetTransposeMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                                      const uint32_t transposeTypeIn, uint32_t& maxValue, uint32_t& minValue)
{
    if (!twin_host::TransposeModelled(transposeTypeIn, "GetTransposeMaxMinTmpSize")) return;
    const uint32_t alignA2 = (twin_host::TransposeDim(srcShape, 2) + 15) / 16 * 16;
    maxValue = alignA2 * 16 * typeSize;
    minValue = 256 * typeSize;
}

inline void GetConfusionTransposeMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                                               const uint32_t transposeTypeIn, uint32_t& maxValue, uint32_t& minValue)
{
    GetTransposeMaxMinTmpSize(srcShape, typeSize, transposeTypeIn, maxValue, minValue);
}

inline void GetTransposeTilingInfo(const AscendC::TensorShape& srcShape, const uint32_t stackBufferSize,
                                   const uint32_t typeSize, const uint32_t transposeTypeIn,
                                   AscendC::tiling::ConfusionTransposeTiling& tiling)
{
    AscendC::tiling::ConfusionTransposeTiling t;  // A2 fills a fresh class and saves it whole
    if (!twin_host::TransposeModelled(transposeTypeIn, "GetTransposeTilingInfo")) {
        tiling = t;
        return;
    }
    if (typeSize == 0) {
        std::fprintf(stderr, "typeSize must be greater than 0.\n");
        tiling = t;
        return;
    }
    const uint32_t b = twin_host::TransposeDim(srcShape, 0), a1 = twin_host::TransposeDim(srcShape, 1);
    const uint32_t alignA2 = (twin_host::TransposeDim(srcShape, 2) + 15) / 16 * 16;
    const uint32_t widthTiling = (twin_host::TransposeDim(srcShape, 3) + 15) / 16;
    const uint32_t alignA3 = widthTiling * 16;
    const uint32_t newPopSize = stackBufferSize / typeSize / 256 * 256;
    const uint32_t newPopH = newPopSize / 16;
    const uint32_t needSize = alignA2 * 16;
    if (newPopSize == 0) {
        // A2 divides by it; the twin reports it and leaves the fields that depend on it 0.
        std::fprintf(stderr, "[Transpose][GetTransposeTilingInfo] stackBufferSize is %u, should be at least "
                             "GetTransposeMaxMinTmpSize's minimum (%u).\n", stackBufferSize, 256 * typeSize);
    }
    t.param0 = 32 / typeSize;
    t.param1 = b;
    t.param2 = a1;
    t.param3 = alignA3;
    t.param4 = alignA2;
    t.param5 = widthTiling;
    t.param6 = newPopSize;
    t.param7 = newPopH;
    t.param8 = needSize;
    t.param9 = newPopSize == 0 ? 0 : needSize / newPopSize;
    t.param10 = newPopSize == 0 ? 0 : needSize % newPopSize;
    t.param11 = alignA2 * alignA3;
    t.param12 = a1 * alignA2 * alignA3;
    t.param13 = a1 * alignA3;
    t.param14 = a1 * 16;
    t.param15 = newPopH * t.param9 * a1 * alignA3;
    tiling = t;
}

inline void GetTransposeTilingInfo(const AscendC::TensorShape& srcShape, const uint32_t stackBufferSize,
                                   const uint32_t typeSize, const uint32_t transposeTypeIn,
                                   optiling::ConfusionTransposeTiling& tiling)
{
    AscendC::tiling::ConfusionTransposeTiling t;
    optiling::twin_host::Load(tiling, t);
    if (!twin_host::TransposeModelled(transposeTypeIn, "GetTransposeTilingInfo") || typeSize == 0) {
        if (typeSize == 0) std::fprintf(stderr, "typeSize must be greater than 0.\n");
        return;
    }
    AscendC::tiling::ConfusionTransposeTiling fresh;
    GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, fresh);
    // The optiling:: form sets param0..param15 and leaves param16, param17.
    fresh.param16 = t.param16;
    fresh.param17 = t.param17;
    optiling::twin_host::Store(fresh, tiling);
}

inline void GetConfusionTransposeTilingInfo(const AscendC::TensorShape& srcShape, const uint32_t stackBufferSize,
                                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                                            optiling::ConfusionTransposeTiling& tiling)
{
    GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}

inline void GetConfusionTransposeTilingInfo(const AscendC::TensorShape& srcShape, const uint32_t stackBufferSize,
                                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                                            AscendC::tiling::ConfusionTransposeTiling& tiling)
{
    GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}

}  // namespace AscendC
