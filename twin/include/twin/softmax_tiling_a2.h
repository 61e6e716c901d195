// A2's (dav-2201) tiling arithmetic of the SoftMax family, shared by the twin's host functions
// (twin/host_include/tiling/activation/softmax_tiling.h, logsoftmax_tiling.h) and its kernel side
// (twin/include/twin/kernel_adv_softmax.h): no AscendC kernel types here, only the tiling structs of
// kernel_tiling/kernel_tiling.h (SoftMaxTiling and LogSoftMaxTiling have the same 16 fields).
//
// Checked against asc-devkit impl/adv_api/tiling/activation/softmax_tiling.cpp and logsoftmax_tiling.cpp (the host
// functions, their A2 branch) and impl/adv_api/detail/activation/softmax/softmax_common/softmax_tiling_func.h,
// softmax_common_shape_process.h (CalculateNDSplitM), softmax_flashv2_base_impl.h (SoftMaxFlashV2TilingFuncImpl),
// membase/common/logsoftmax_common_impl.h (the kernel-side recomputations the APIs run when the shape they are
// called with is not the tiling's).
//
// Every tiling splits the [srcM, srcK] rows into rangeM parts of splitM rows and a tail of tailM rows; a part
// needs splitM * rowFloats floats of the local workspace, rowFloats a per-API sum of the row length srcK, one
// 32-byte block of statistics (blk elements) and one 256-byte repeat (64 floats) of reduction scratch. The host
// functions and the kernel-side ones divide by different row sizes (the host's are the more conservative); the
// kernel-side sizes are the ones the implementations are built against, and the ones the twin's kernel side
// requires of a tiling's splitM (SoftmaxRowFloatsA2).
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"

namespace ascend_twin {

constexpr uint32_t kSoftmaxBlk = 32;       // bytes of one statistics block (SOFTMAX_DEFAULT_BLK_SIZE)
constexpr uint32_t kSoftmaxUnit = 64;      // floats of one repeat (SOFTMAX_BASICBLOCK_UNIT, FLOAT_REPEAT_SIZE)
constexpr uint32_t kSoftmaxTile = 8;       // rows a basic block is a multiple of (BASIC_TILE_NUM)
constexpr uint32_t kSoftmaxBasicMin = 256;  // SOFTMAX_BASICBLOCK_MIN_SIZE

// Which API a tiling or a workspace size is for.
enum class SoftmaxApi : uint8_t {
    kSoftMax, kSimpleSoftMax, kLogSoftMax, kSoftmaxFlash, kSoftmaxFlashV2, kSoftmaxFlashV3, kSoftmaxGrad,
    kSoftmaxGradFront
};

// Fills the 16 fields from the rows per part (baseM) as every A2 tiling function does; rangeM/tail are
// computed over `rows` (the host functions and most kernel ones: srcM; the kernel-side SoftMaxTilingFunc:
// oriSrcM) and, as the host functions leave them, 0 when baseM is 0.
template <class Tiling>
constexpr void SoftmaxFillTiling(Tiling& t, uint32_t srcM, uint32_t srcK, uint32_t blk, uint32_t baseM, uint32_t rows)
{
    t.srcM = srcM;
    t.srcK = srcK;
    t.srcSize = srcM * srcK;
    t.outMaxM = srcM;
    t.outMaxK = blk;
    t.outMaxSize = srcM * blk;
    t.splitM = baseM;
    t.splitK = srcK;
    t.splitSize = baseM * srcK;
    t.reduceM = baseM;
    t.reduceK = blk;
    t.reduceSize = baseM * blk;
    t.rangeM = baseM == 0 ? 0 : rows / baseM;
    t.tailM = baseM == 0 ? 0 : rows % baseM;
    t.tailSplitSize = t.tailM * srcK;
    t.tailReduceSize = t.tailM * blk;
}

// The host functions' AdjustToBasicBlockBaseM: basic-block shapes split into a divisor of srcM that is a multiple
// of 8, and under 255 repeats a part.
constexpr uint32_t SoftmaxAdjustBasicBlockA2(uint32_t baseM, uint32_t srcM, uint32_t srcK)
{
    if (baseM > kSoftmaxTile && srcM % kSoftmaxTile == 0 && srcK % kSoftmaxUnit == 0) {
        baseM = baseM / kSoftmaxTile * kSoftmaxTile;
        while (srcM % baseM != 0) baseM -= kSoftmaxTile;
        while (baseM * srcK >= kSoftmaxUnit * kSoftmaxBasicMin) baseM /= 2;
    }
    return baseM;
}

// ---- host side (A2 branch) ------------------------------------------------------------------------------------

// The floats a row needs in the host functions' sizes and tilings. typeSize is the size the function is given
// (FlashV2/V3: dataTypeSize2 sets blk, dataTypeSize1 the rest).
struct SoftmaxHostRow {
    uint32_t maxRow = 0;  // GetXxxMaxTmpSize = srcM * maxRow floats (FlashV2 basic block and V3: see below)
    uint32_t minRow = 0;  // GetXxxMinTmpSize = minRow floats
};

// SoftMax, SimpleSoftMax and LogSoftMax (GetSoftMaxMax/MinTmpSize, GetLogSoftMaxMax/MinTmpSize, SoftMaxTilingFunc,
// LogSoftMaxTilingFunc): blk + srcK + 64 floats a row, blk = 32 / dataTypeSize.
inline uint32_t SoftmaxHostRowA2(uint32_t srcK, uint32_t dataTypeSize) { return kSoftmaxBlk / dataTypeSize + srcK + kSoftmaxUnit; }

// SoftmaxFlash: blk + srcK + 64 without update, 4 blk + 2 srcK with it.
inline uint32_t SoftmaxFlashHostRowA2(uint32_t srcK, uint32_t dataTypeSize, bool isUpdate)
{
    const uint32_t blk = kSoftmaxBlk / dataTypeSize;
    return isUpdate ? blk * 4 + srcK * 2 : blk + srcK + kSoftmaxUnit;
}

// SoftmaxGrad/SoftmaxGradFront: half 2 blk + 3 srcK + 64; float blk + srcK + 64 (isFront) or 2 blk + srcK + 64.
inline uint32_t SoftmaxGradHostRowA2(uint32_t srcK, uint32_t dataTypeSize, bool isFront)
{
    const uint32_t blk = kSoftmaxBlk / dataTypeSize;
    if (dataTypeSize == 2) return blk * 2 + srcK * 3 + kSoftmaxUnit;
    return isFront ? blk + srcK + kSoftmaxUnit : blk * 2 + srcK + kSoftmaxUnit;
}

// SoftmaxFlashV2's host sizes (GetSoftMaxFlashV2Max/MinTmpSize), in floats.
inline uint32_t SoftmaxFlashV2HostMaxA2(uint32_t srcM, uint32_t srcK, uint32_t dataTypeSize1, uint32_t dataTypeSize2,
                                        bool isBasicBlock)
{
    const uint32_t blk = kSoftmaxBlk / dataTypeSize2;
    if (isBasicBlock && srcK % kSoftmaxUnit == 0 && srcM % kSoftmaxTile == 0) {
        while (srcM * srcK >= kSoftmaxUnit * kSoftmaxBasicMin) srcM /= 2;
        const uint32_t special = kSoftmaxBasicMin * 4;  // srcK 1024 needs a second repeat of scratch
        if (dataTypeSize1 == 2) return srcM * (blk + srcK + kSoftmaxUnit * (srcK == special ? 2 : 1));
        return srcM * (blk + kSoftmaxUnit * (srcK == special ? 2 : 1));
    }
    return dataTypeSize1 == 2 ? srcM * (blk * 2 + srcK + kSoftmaxUnit) : srcM * (blk + kSoftmaxUnit);
}
inline uint32_t SoftmaxFlashV2HostMinA2(uint32_t srcM, uint32_t srcK, uint32_t dataTypeSize1, uint32_t dataTypeSize2,
                                        bool isBasicBlock, bool isFlashOutputBrc)
{
    const uint32_t blk = kSoftmaxBlk / dataTypeSize2;
    const uint32_t special = kSoftmaxBasicMin * 4;
    uint32_t need = 0;
    const bool basic = isBasicBlock && srcK % kSoftmaxUnit == 0;
    if (basic) {
        need = kSoftmaxTile * (dataTypeSize1 == 2 ? blk + srcK + kSoftmaxUnit * (srcK == special ? 2 : 1)
                                                  : blk + kSoftmaxUnit * (srcK == special ? 2 : 1));
    } else {
        need = dataTypeSize1 == 2 ? blk * 2 + srcK + kSoftmaxUnit : blk + kSoftmaxUnit;
    }
    if (isFlashOutputBrc) {
        const uint32_t rows = std::min(kSoftmaxBlk / dataTypeSize1, srcM);
        need = basic ? need / kSoftmaxTile * rows : need * rows;
    }
    return need;
}

// SoftmaxFlashV2's host tiling: baseM before the common fill (0 when the workspace holds no row).
inline uint32_t SoftmaxFlashV2HostBaseMA2(uint32_t srcM, uint32_t srcK, uint32_t dataTypeSize1, uint32_t dataTypeSize2,
                                          uint32_t workFloats, bool isBasicBlock, bool isFlashOutputBrc)
{
    const uint32_t blk = kSoftmaxBlk / dataTypeSize2;
    const uint32_t special = kSoftmaxBasicMin * 4;
    uint32_t baseM = 0;
    if (isBasicBlock && srcK % kSoftmaxUnit == 0 && srcM % kSoftmaxTile == 0) {
        const uint32_t extra = kSoftmaxUnit * (srcK == special ? 2 : 1);
        baseM = workFloats / (dataTypeSize1 == 2 ? blk + srcK + extra : blk + extra);
        baseM = std::min(baseM, srcM);
        baseM = SoftmaxAdjustBasicBlockA2(baseM, srcM, srcK);
    } else {
        baseM = workFloats / (dataTypeSize1 == 2 ? blk * 2 + srcK + kSoftmaxUnit : blk + kSoftmaxUnit);
    }
    const uint32_t tile = isFlashOutputBrc && dataTypeSize1 == 2 ? kSoftmaxBlk / 2 : kSoftmaxTile;
    baseM = std::min(baseM, srcM);
    if (baseM < srcM && baseM > tile) baseM = baseM / tile * tile;
    return baseM;
}

// The host tilings of SoftMax/LogSoftMax, SoftmaxFlash and SoftmaxGrad: the common rounding of baseM.
inline uint32_t SoftmaxHostBaseMA2(uint32_t srcM, uint32_t srcK, uint32_t workFloats, uint32_t rowFloats)
{
    uint32_t baseM = std::min(workFloats / rowFloats, srcM);
    if (baseM < srcM && baseM > kSoftmaxTile) baseM = baseM / kSoftmaxTile * kSoftmaxTile;
    return SoftmaxAdjustBasicBlockA2(baseM, srcM, srcK);
}

// ---- kernel side ------------------------------------------------------------------------------------------------

// The floats a row of a part needs on the kernel side of A2 (what the kernel-side tiling functions divide the
// workspace by, and what the implementations lay out per row), for the API, its dtypes (t1: src/dst, t2: the
// statistics) and options. blkOverride: SoftmaxFlash passes its own block (8 for half/float).
struct SoftmaxKernelOptions {
    bool isBasicBlock = false;
    bool isUpdate = false;
    bool isFront = false;
    bool isDataFormatNZ = false;
};

constexpr uint32_t SoftmaxKernelRowFloatsA2(SoftmaxApi api, uint32_t srcM, uint32_t srcK, uint32_t t1, uint32_t t2,
                                         const SoftmaxKernelOptions& o)
{
    const uint32_t blk = kSoftmaxBlk / t2;
    switch (api) {
        case SoftmaxApi::kSoftMax: case SoftmaxApi::kSimpleSoftMax: case SoftmaxApi::kLogSoftMax:
            // CalculateNDSplitM
            return t1 == 2 ? blk + srcK + kSoftmaxUnit : blk + kSoftmaxUnit;
        case SoftmaxApi::kSoftmaxFlash: {
            const uint32_t fblk = (t1 == 2 && t2 == 4) ? kSoftmaxTile : kSoftmaxBlk / t1;
            return o.isUpdate ? fblk * 4 + srcK * 2 : fblk * 2 + srcK * 2;
        }
        case SoftmaxApi::kSoftmaxFlashV2:
            if (o.isBasicBlock && srcK % kSoftmaxUnit == 0 && srcM % kSoftmaxTile == 0) {
                return t1 == 2 ? blk + srcK + kSoftmaxUnit : blk + kSoftmaxUnit;
            }
            return t1 == 2 ? blk * 2 + srcK + kSoftmaxUnit : blk + kSoftmaxUnit;
        case SoftmaxApi::kSoftmaxFlashV3:
            return blk * 5 + srcK * 2 + kSoftmaxUnit;
        case SoftmaxApi::kSoftmaxGrad: case SoftmaxApi::kSoftmaxGradFront: {
            const uint32_t gblk = kSoftmaxBlk / t1;
            if (t1 == 2) return gblk * 2 + srcK * 3 + kSoftmaxUnit;
            return (o.isFront && !o.isDataFormatNZ) ? gblk + srcK + kSoftmaxUnit : srcK + gblk * 2 + kSoftmaxUnit;
        }
    }
    return 0;
}

// The tiling the kernel side computes from a workspace of workFloats floats when the call's shape is not the
// tiling's (SoftMaxTilingFunc & co. in softmax_tiling_func.h; SoftMaxFlashV2TilingFuncImpl; LogSoftMax always
// recomputes). The parts cover oriSrcM rows for SoftMax/SimpleSoftMax/LogSoftMax (SoftMaxTilingFunc), srcM otherwise.
template <class Tiling>
constexpr Tiling SoftmaxKernelTilingA2(SoftmaxApi api, uint32_t srcM, uint32_t srcK, uint32_t oriSrcM, uint32_t t1,
                                    uint32_t t2, uint32_t workFloats, const SoftmaxKernelOptions& o,
                                    bool isFlashOutputBrc = false)
{
    const uint32_t row = o.isDataFormatNZ && api == SoftmaxApi::kSoftmaxFlashV2 ? 16 * 3 + srcK
                                                                                : SoftmaxKernelRowFloatsA2(api, srcM, srcK, t1, t2, o);
    uint32_t blk = kSoftmaxBlk / t2;
    uint32_t rows = srcM;
    uint32_t reduceM = workFloats / row;
    switch (api) {
        case SoftmaxApi::kSoftMax: case SoftmaxApi::kSimpleSoftMax: case SoftmaxApi::kLogSoftMax: {
            // LogSoftMax always recomputes with SoftMaxTilingFunc, passing isDataFormatNZ where isBasicBlock goes.
            const bool basic = api != SoftmaxApi::kLogSoftMax && o.isBasicBlock;
            rows = oriSrcM;
            reduceM = std::min(reduceM, srcM);
            if (basic && reduceM > kSoftmaxTile && srcM % kSoftmaxTile == 0) {
                reduceM = reduceM / kSoftmaxTile * kSoftmaxTile;
                while (srcM % reduceM != 0) reduceM -= kSoftmaxTile;
                while (reduceM * srcK >= kSoftmaxUnit * kSoftmaxBasicMin) reduceM /= 2;
            }
            if (reduceM < rows && reduceM > kSoftmaxTile) reduceM = reduceM / kSoftmaxTile * kSoftmaxTile;
            reduceM = std::min(reduceM, rows);
            break;
        }
        case SoftmaxApi::kSoftmaxFlash: {
            blk = (t1 == 2 && t2 == 4) ? kSoftmaxTile : kSoftmaxBlk / t1;
            reduceM = std::min(reduceM, srcM);
            if (o.isBasicBlock && reduceM > kSoftmaxTile && srcM % kSoftmaxTile == 0) {
                reduceM = reduceM / kSoftmaxTile * kSoftmaxTile;
                while (srcM % reduceM != 0) reduceM -= kSoftmaxTile;
            }
            break;
        }
        case SoftmaxApi::kSoftmaxGrad: case SoftmaxApi::kSoftmaxGradFront: {
            blk = kSoftmaxBlk / t1;
            if (reduceM < srcM && reduceM > kSoftmaxTile) reduceM = reduceM / kSoftmaxTile * kSoftmaxTile;
            reduceM = std::min(reduceM, srcM);
            if (o.isBasicBlock && o.isFront && reduceM > kSoftmaxTile && srcM % kSoftmaxTile == 0) {
                reduceM = reduceM / kSoftmaxTile * kSoftmaxTile;
                while (srcM % reduceM != 0) reduceM -= kSoftmaxTile;
                while (reduceM * srcK >= kSoftmaxUnit * kSoftmaxBasicMin) reduceM /= 2;
            }
            break;
        }
        case SoftmaxApi::kSoftmaxFlashV2: case SoftmaxApi::kSoftmaxFlashV3: {
            if (api == SoftmaxApi::kSoftmaxFlashV2 && !o.isDataFormatNZ && o.isBasicBlock &&
                srcK % kSoftmaxUnit == 0 && srcM % kSoftmaxTile == 0) {
                reduceM = std::min(reduceM, srcM);
                if (reduceM > kSoftmaxTile) {
                    reduceM = reduceM / kSoftmaxTile * kSoftmaxTile;
                    while (srcM % reduceM != 0) reduceM -= kSoftmaxTile;
                    while (reduceM * srcK >= kSoftmaxUnit * kSoftmaxBasicMin) reduceM /= 2;
                }
            }
            const uint32_t tile = isFlashOutputBrc && t1 == 2 ? kSoftmaxBlk / 2 : kSoftmaxTile;
            if (reduceM < srcM && reduceM > tile) reduceM = reduceM / tile * tile;
            reduceM = std::min(reduceM, srcM);
            break;
        }
    }
    Tiling t{};
    SoftmaxFillTiling(t, srcM, srcK, blk, reduceM, rows);
    return t;
}

}  // namespace ascend_twin
