// The SoftMax family's host tiling functions on the twin, with the real names and signatures (asc-devkit
// include/adv_api/activation/softmax_tiling.h; host code reaches them as "tiling/activation/softmax_tiling.h",
// "tiling/softmax/softmax_tiling.h" or "lib/activation/softmax_tiling.h"):
//   uint32_t GetSoftMaxMaxTmpSize / GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource)  (SoftMax, SimpleSoftMax)
//   void SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, AscendC::tiling::SoftMaxTiling&)
//   uint32_t GetSoftMaxFlashMaxTmpSize / MinTmpSize(srcShape, dataTypeSize, isUpdate, isReuseSource)
//   void SoftMaxFlashTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, SoftMaxTiling&, isUpdate = false)
//   uint32_t GetSoftMaxGradMaxTmpSize / MinTmpSize(srcShape, dataTypeSize, isFront, isReuseSource)
//   void SoftMaxGradTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, SoftMaxTiling&, isFront = false)
//   bool IsBasicBlockInSoftMax(SoftMaxTiling&, dataTypeSize = 2)
//   uint32_t GetSoftMaxFlashV2MinTmpSize / MaxTmpSize(srcShape, dataTypeSize1, dataTypeSize2, isUpdate,
//                                                     isBasicBlock = false, isFlashOutputBrc = false)
//   void SoftMaxFlashV2TilingFunc(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, SoftMaxTiling&, isUpdate,
//                                 isBasicBlock = false, isFlashOutputBrc = false)
//   void GetSoftMaxFlashV3MaxMinTmpSize(srcShape, dataTypeSize1, dataTypeSize2, maxValue, minValue, isUpdate,
//                                       isBasicBlock = false)
//   void SoftMaxFlashV3TilingFunc(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, SoftMaxTiling&, isUpdate,
//                                 isBasicBlock = false)
// A2's sizes in bytes and A2's tilings (twin/include/twin/softmax_tiling_a2.h, the same arithmetic the kernel side
// checks a tiling against). As the real functions do, the shape is [m, k] with k its last dimension; a shape of no
// elements or a dataTypeSize other than 2 and 4 is reported on stderr and gives 0 (the tiling functions then leave
// the tiling unchanged); a last axis that is not 32-byte aligned and isReuseSource are reported on stderr too (A2
// goes on). A local workspace too small for one row gives splitM = 0 and rangeM = 0, as A2's does (the kernel side
// then refuses the tiling). Every tiling function and IsBasicBlockInSoftMax also has CANN's overload taking the
// tiling-data class optiling::SoftMaxTiling (tiling/activation/softmax_tilingdata.h): the same tiling, set field
// by field (left unchanged where the struct form leaves it unchanged). Inline: nothing to link.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/activation/softmax_tilingdata.h"
#include "twin/softmax_tiling_a2.h"

namespace AscendC {

using TensorShape = ge::Shape;  // include/adv_api/utils/types.h

namespace twin_host {

// [srcM, srcK] of a shape, after A2's host checks; false (and a message) where A2 returns 0.
inline bool SoftmaxShape(const char* fn, const TensorShape& srcShape, uint32_t dataTypeSize, uint32_t& srcM,
                         uint32_t& srcK, bool typeMustBeHalfFloat = true)
{
    const std::vector<int64_t> dims = srcShape.GetDims();
    const int64_t size = srcShape.GetShapeSize();
    if (dims.empty() || size <= 0) {
        std::fprintf(stderr, "[%s] Input shape size should be greater than 0!\n", fn);
        return false;
    }
    if (typeMustBeHalfFloat && dataTypeSize != 2 && dataTypeSize != 4) {
        std::fprintf(stderr, "[%s] dataTypeSize is %u: the SoftMax family supports half (2) and float (4).\n", fn,
                     dataTypeSize);
        return false;
    }
    if (dataTypeSize != 0 && (static_cast<uint64_t>(dims.back()) * dataTypeSize) % ascend_twin::kSoftmaxBlk != 0) {
        std::fprintf(stderr, "[%s] The shape LastAxis data size must be 32-byte aligned!\n", fn);
    }
    srcK = static_cast<uint32_t>(dims.back());
    srcM = static_cast<uint32_t>(size / dims.back());
    return true;
}

inline void SoftmaxReuseNote(const char* fn, bool isReuseSource)
{
    if (isReuseSource) std::fprintf(stderr, "[%s] Current isReuseSource is true, which is not effective!\n", fn);
}

inline bool SoftmaxWorkspace(const char* fn, uint32_t localWorkSpaceSize)
{
    if (localWorkSpaceSize == 0) std::fprintf(stderr, "[%s] The localWorkSpaceSize should be greater than 0!\n", fn);
    return true;  // A2 goes on (the tiling then has splitM 0)
}

}  // namespace twin_host

// ---- SoftMax, SimpleSoftMax ------------------------------------------------------------------------------------

inline uint32_t GetSoftMaxMaxTmpSize(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                                     const bool isReuseSource)
{
    uint32_t m = 0, k = 0;
    twin_host::SoftmaxReuseNote("GetSoftMaxMaxTmpSize", isReuseSource);
    if (!twin_host::SoftmaxShape("GetSoftMaxMaxTmpSize", srcShape, dataTypeSize, m, k)) return 0;
    return m * ascend_twin::SoftmaxHostRowA2(k, dataTypeSize) * 4;
}

inline uint32_t GetSoftMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                                     const bool isReuseSource)
{
    uint32_t m = 0, k = 0;
    twin_host::SoftmaxReuseNote("GetSoftMaxMinTmpSize", isReuseSource);
    if (!twin_host::SoftmaxShape("GetSoftMaxMinTmpSize", srcShape, dataTypeSize, m, k)) return 0;
    return ascend_twin::SoftmaxHostRowA2(k, dataTypeSize) * 4;
}

inline void SoftMaxTilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, AscendC::tiling::SoftMaxTiling& softmaxTiling)
{
    uint32_t m = 0, k = 0;
    twin_host::SoftmaxWorkspace("SoftMaxTilingFunc", localWorkSpaceSize);
    if (!twin_host::SoftmaxShape("SoftMaxTilingFunc", srcShape, dataTypeSize, m, k)) return;
    const uint32_t baseM =
        ascend_twin::SoftmaxHostBaseMA2(m, k, localWorkSpaceSize / 4, ascend_twin::SoftmaxHostRowA2(k, dataTypeSize));
    softmaxTiling = AscendC::tiling::SoftMaxTiling{};
    ascend_twin::SoftmaxFillTiling(softmaxTiling, m, k, ascend_twin::kSoftmaxBlk / dataTypeSize, baseM, m);
}

// ---- SoftmaxFlash ------------------------------------------------------------------------------------------------

inline uint32_t GetSoftMaxFlashMaxTmpSize(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                                          const bool isUpdate, const bool isReuseSource)
{
    uint32_t m = 0, k = 0;
    twin_host::SoftmaxReuseNote("GetSoftMaxFlashMaxTmpSize", isReuseSource);
    if (!twin_host::SoftmaxShape("GetSoftMaxFlashMaxTmpSize", srcShape, dataTypeSize, m, k)) return 0;
    return m * ascend_twin::SoftmaxFlashHostRowA2(k, dataTypeSize, isUpdate) * 4;
}

inline uint32_t GetSoftMaxFlashMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                                          const bool isUpdate, const bool isReuseSource)
{
    uint32_t m = 0, k = 0;
    twin_host::SoftmaxReuseNote("GetSoftMaxFlashMinTmpSize", isReuseSource);
    if (!twin_host::SoftmaxShape("GetSoftMaxFlashMinTmpSize", srcShape, dataTypeSize, m, k)) return 0;
    return ascend_twin::SoftmaxFlashHostRowA2(k, dataTypeSize, isUpdate) * 4;
}

inline void SoftMaxFlashTilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                                   const uint32_t localWorkSpaceSize, AscendC::tiling::SoftMaxTiling& softmaxFlashTiling,
                                   const bool isUpdate = false)
{
    uint32_t m = 0, k = 0;
    twin_host::SoftmaxWorkspace("SoftMaxFlashTilingFunc", localWorkSpaceSize);
    if (!twin_host::SoftmaxShape("SoftMaxFlashTilingFunc", srcShape, dataTypeSize, m, k)) return;
    const uint32_t baseM = ascend_twin::SoftmaxHostBaseMA2(
        m, k, localWorkSpaceSize / 4, ascend_twin::SoftmaxFlashHostRowA2(k, dataTypeSize, isUpdate));
    softmaxFlashTiling = AscendC::tiling::SoftMaxTiling{};
    ascend_twin::SoftmaxFillTiling(softmaxFlashTiling, m, k, ascend_twin::kSoftmaxBlk / dataTypeSize, baseM, m);
}

// ---- SoftmaxGrad, SoftmaxGradFront ------------------------------------------------------------------------------

inline uint32_t GetSoftMaxGradMaxTmpSize(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                                         const bool isFront, const bool isReuseSource)
{
    uint32_t m = 0, k = 0;
    twin_host::SoftmaxReuseNote("GetSoftMaxGradMaxTmpSize", isReuseSource);
    if (!twin_host::SoftmaxShape("GetSoftMaxGradMaxTmpSize", srcShape, dataTypeSize, m, k)) return 0;
    return m * ascend_twin::SoftmaxGradHostRowA2(k, dataTypeSize, isFront) * 4;
}

inline uint32_t GetSoftMaxGradMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                                         const bool isFront, const bool isReuseSource)
{
    uint32_t m = 0, k = 0;
    twin_host::SoftmaxReuseNote("GetSoftMaxGradMinTmpSize", isReuseSource);
    if (!twin_host::SoftmaxShape("GetSoftMaxGradMinTmpSize", srcShape, dataTypeSize, m, k)) return 0;
    return ascend_twin::SoftmaxGradHostRowA2(k, dataTypeSize, isFront) * 4;
}

inline void SoftMaxGradTilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, AscendC::tiling::SoftMaxTiling& softmaxGradTiling,
                                  const bool isFront = false)
{
    uint32_t m = 0, k = 0;
    twin_host::SoftmaxWorkspace("SoftMaxGradTilingFunc", localWorkSpaceSize);
    if (!twin_host::SoftmaxShape("SoftMaxGradTilingFunc", srcShape, dataTypeSize, m, k)) return;
    const uint32_t baseM = ascend_twin::SoftmaxHostBaseMA2(
        m, k, localWorkSpaceSize / 4, ascend_twin::SoftmaxGradHostRowA2(k, dataTypeSize, isFront));
    softmaxGradTiling = AscendC::tiling::SoftMaxTiling{};
    ascend_twin::SoftmaxFillTiling(softmaxGradTiling, m, k, ascend_twin::kSoftmaxBlk / dataTypeSize, baseM, m);
}

// Whether a tiling meets the basic-block conditions (no tail part; 256 / dataTypeSize <= srcK < 2048, srcK a
// multiple of 64).
inline bool IsBasicBlockInSoftMax(AscendC::tiling::SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2)
{
    if (dataTypeSize == 0) return false;
    return tiling.tailM == 0 && tiling.srcK >= ascend_twin::kSoftmaxBasicMin / dataTypeSize && tiling.srcK < 2048 &&
           tiling.srcK % ascend_twin::kSoftmaxUnit == 0;
}

// ---- SoftmaxFlashV2 ------------------------------------------------------------------------------------------------

inline uint32_t GetSoftMaxFlashV2MinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false)
{
    (void)isUpdate;
    uint32_t m = 0, k = 0;
    if (!twin_host::SoftmaxShape("GetSoftMaxFlashV2MinTmpSize", srcShape, dataTypeSize1, m, k)) return 0;
    if (dataTypeSize2 != 2 && dataTypeSize2 != 4) {
        std::fprintf(stderr, "[GetSoftMaxFlashV2MinTmpSize] dataTypeSize2 is %u: half (2) or float (4).\n",
                     dataTypeSize2);
        return 0;
    }
    return ascend_twin::SoftmaxFlashV2HostMinA2(m, k, dataTypeSize1, dataTypeSize2, isBasicBlock, isFlashOutputBrc) * 4;
}

inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false)
{
    (void)isUpdate;
    (void)isFlashOutputBrc;
    uint32_t m = 0, k = 0;
    if (!twin_host::SoftmaxShape("GetSoftMaxFlashV2MaxTmpSize", srcShape, dataTypeSize1, m, k)) return 0;
    if (dataTypeSize2 != 2 && dataTypeSize2 != 4) {
        std::fprintf(stderr, "[GetSoftMaxFlashV2MaxTmpSize] dataTypeSize2 is %u: half (2) or float (4).\n",
                     dataTypeSize2);
        return 0;
    }
    return ascend_twin::SoftmaxFlashV2HostMaxA2(m, k, dataTypeSize1, dataTypeSize2, isBasicBlock) * 4;
}

inline void SoftMaxFlashV2TilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     AscendC::tiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate,
                                     const bool isBasicBlock = false, const bool isFlashOutputBrc = false)
{
    (void)isUpdate;
    uint32_t m = 0, k = 0;
    twin_host::SoftmaxWorkspace("SoftMaxFlashV2TilingFunc", localWorkSpaceSize);
    if (!twin_host::SoftmaxShape("SoftMaxFlashV2TilingFunc", srcShape, dataTypeSize1, m, k)) return;
    if (dataTypeSize2 != 2 && dataTypeSize2 != 4) {
        std::fprintf(stderr, "[SoftMaxFlashV2TilingFunc] dataTypeSize2 is %u: half (2) or float (4).\n", dataTypeSize2);
        return;
    }
    const uint32_t baseM = ascend_twin::SoftmaxFlashV2HostBaseMA2(m, k, dataTypeSize1, dataTypeSize2,
                                                                  localWorkSpaceSize / 4, isBasicBlock, isFlashOutputBrc);
    softmaxFlashTiling = AscendC::tiling::SoftMaxTiling{};
    ascend_twin::SoftmaxFillTiling(softmaxFlashTiling, m, k, ascend_twin::kSoftmaxBlk / dataTypeSize2, baseM, m);
    if (isFlashOutputBrc && (softmaxFlashTiling.rangeM > 1 || softmaxFlashTiling.tailM != 0) &&
        softmaxFlashTiling.reduceM % (ascend_twin::kSoftmaxBlk / dataTypeSize1) != 0) {
        std::fprintf(stderr,
                     "[SoftMaxFlashV2TilingFunc] When dataTypeSize1(%u) is float(or half), softmaxFlashTiling.reduceM(%u) "
                     "must be a multiple of 8(or 16), Adjust the input parameter -> localWorkSpaceSize.\n",
                     dataTypeSize1, softmaxFlashTiling.reduceM);
    }
}

// ---- SoftmaxFlashV3 (host sizes and tiling; the kernel API is not modelled yet) -----------------------------------

inline void GetSoftMaxFlashV3MaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize1,
                                           const uint32_t dataTypeSize2, uint32_t& maxValue, uint32_t& minValue,
                                           const bool isUpdate, const bool isBasicBlock = false)
{
    (void)isUpdate;
    (void)isBasicBlock;
    uint32_t m = 0, k = 0;
    if (dataTypeSize1 != 2 || dataTypeSize2 != 4) {
        std::fprintf(stderr, "[GetSoftMaxFlashV3MaxMinTmpSize] dataTypeSize1 must be sizeof(half) and dataTypeSize2 "
                             "sizeof(float).\n");
        return;
    }
    if (!twin_host::SoftmaxShape("GetSoftMaxFlashV3MaxMinTmpSize", srcShape, dataTypeSize1, m, k)) return;
    ascend_twin::SoftmaxKernelOptions o;
    minValue = ascend_twin::SoftmaxKernelRowFloatsA2(ascend_twin::SoftmaxApi::kSoftmaxFlashV3, m, k, 2, 4, o) * 4;
    maxValue = m * minValue;
}

inline void SoftMaxFlashV3TilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     AscendC::tiling::SoftMaxTiling& softmaxFlashV3Tiling, const bool isUpdate,
                                     const bool isBasicBlock = false)
{
    (void)isUpdate;
    (void)isBasicBlock;
    uint32_t m = 0, k = 0;
    twin_host::SoftmaxWorkspace("SoftMaxFlashV3TilingFunc", localWorkSpaceSize);
    if (dataTypeSize1 != 2 || dataTypeSize2 != 4) {
        std::fprintf(stderr, "[SoftMaxFlashV3TilingFunc] dataTypeSize1 must be sizeof(half) and dataTypeSize2 "
                             "sizeof(float).\n");
        return;
    }
    if (!twin_host::SoftmaxShape("SoftMaxFlashV3TilingFunc", srcShape, dataTypeSize1, m, k)) return;
    ascend_twin::SoftmaxKernelOptions o;
    const uint32_t row = ascend_twin::SoftmaxKernelRowFloatsA2(ascend_twin::SoftmaxApi::kSoftmaxFlashV3, m, k, 2, 4, o);
    uint32_t baseM = localWorkSpaceSize / 4 / row;
    baseM = baseM < m ? baseM : m;
    if (baseM < m && baseM > ascend_twin::kSoftmaxTile) baseM = baseM / ascend_twin::kSoftmaxTile * ascend_twin::kSoftmaxTile;
    softmaxFlashV3Tiling = AscendC::tiling::SoftMaxTiling{};
    ascend_twin::SoftmaxFillTiling(softmaxFlashV3Tiling, m, k, ascend_twin::kSoftmaxBlk / dataTypeSize2, baseM, m);
}

// ---- The optiling::SoftMaxTiling overloads (CANN's tiling-data class) -------------------------------------------

inline void SoftMaxTilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxTiling)
{
    AscendC::tiling::SoftMaxTiling t;
    optiling::twin_host::Load(softmaxTiling, t);
    SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t);
    optiling::twin_host::Store(t, softmaxTiling);
}

inline void SoftMaxFlashTilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                                   const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxFlashTiling,
                                   const bool isUpdate = false)
{
    AscendC::tiling::SoftMaxTiling t;
    optiling::twin_host::Load(softmaxFlashTiling, t);
    SoftMaxFlashTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t, isUpdate);
    optiling::twin_host::Store(t, softmaxFlashTiling);
}

inline void SoftMaxGradTilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxGradTiling,
                                  const bool isFront = false)
{
    AscendC::tiling::SoftMaxTiling t;
    optiling::twin_host::Load(softmaxGradTiling, t);
    SoftMaxGradTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t, isFront);
    optiling::twin_host::Store(t, softmaxGradTiling);
}

inline bool IsBasicBlockInSoftMax(optiling::SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2)
{
    AscendC::tiling::SoftMaxTiling t;
    optiling::twin_host::Load(tiling, t);
    return IsBasicBlockInSoftMax(t, dataTypeSize);
}

inline void SoftMaxFlashV2TilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     optiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate,
                                     const bool isBasicBlock = false, const bool isFlashOutputBrc = false)
{
    AscendC::tiling::SoftMaxTiling t;
    optiling::twin_host::Load(softmaxFlashTiling, t);
    SoftMaxFlashV2TilingFunc(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, t, isUpdate, isBasicBlock,
                             isFlashOutputBrc);
    optiling::twin_host::Store(t, softmaxFlashTiling);
}

inline void SoftMaxFlashV3TilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     optiling::SoftMaxTiling& softmaxFlashV3Tiling, const bool isUpdate,
                                     const bool isBasicBlock = false)
{
    AscendC::tiling::SoftMaxTiling t;
    optiling::twin_host::Load(softmaxFlashV3Tiling, t);
    SoftMaxFlashV3TilingFunc(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, t, isUpdate, isBasicBlock);
    optiling::twin_host::Store(t, softmaxFlashV3Tiling);
}

}  // namespace AscendC
