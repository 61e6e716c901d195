// Pad's and UnPad's host tiling functions on the twin, with the real names and signatures (asc-devkit
// include/adv_api/pad/pad_tiling.h; host code reaches them as "tiling/pad/pad_tiling.h", "lib/pad/pad_tiling.h" or
// through "tiling/tiling_api.h"):
//   void GetPadMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
//                            uint32_t& minValue);
//   void PadTilingFunc(const TensorShape srcShape, const TensorShape oriSrcShape, const uint32_t stackBufferSize,
//                      const uint32_t typeSize, optiling::PadTiling& tiling);      (and AscendC::tiling::PadTiling&)
//   void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const TensorShape& srcShape,
//                              const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue);
//   void UnPadTilingFunc(const TensorShape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
//                        optiling::UnPadTiling& tiling);                            (and AscendC::tiling::UnPadTiling&)
// A2's sizes and tilings (impl/adv_api/tiling/pad/pad_tiling_impl.cpp), shape [height, width]: Pad's maximum
// ceil(height * width / 16) * 16 * (32 / typeSize) * 2 * typeSize bytes, minimum 16 * 32 * 2 = 1024; UnPad needs no
// buffer on dav-2201 (0 and 0). The tiling functions fill the fields A2's do (the rest left as they are: zero in the
// struct overloads, which start from a fresh class as A2's do). As A2's: a typeSize other than 2 or 4, a shape not
// 2-D and an original shape larger than the shape are reported on stderr naming the function, and the computation
// goes on. Inline: nothing to link.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/pad/pad_tilingdata.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {

using TensorShape = ge::Shape;  // include/adv_api/utils/types.h

namespace twin_host {

inline bool PadShapeOk(const char* api, const char* fn, const AscendC::TensorShape& shape, const uint32_t typeSize)
{
    bool ok = true;
    if (typeSize != 2 && typeSize != 4) {
        std::fprintf(stderr, "[%s][%s] The value of typeSize is %u, should be 2 or 4.\n", api, fn, typeSize);
        ok = false;
    }
    if (shape.GetDimNum() != 2) {
        std::fprintf(stderr, "[%s][%s] The dims of srcShape is %zu, should be 2.\n", api, fn,
                     static_cast<size_t>(shape.GetDimNum()));
        ok = false;
    }
    return ok;
}

inline uint32_t PadDim(const AscendC::TensorShape& shape, size_t i)
{
    const std::vector<int64_t> d = shape.GetDims();
    return i < d.size() ? static_cast<uint32_t>(d[i]) : 0;
}

}  // namespace twin_host

inline void GetPadMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                uint32_t& minValue)
{
    twin_host::PadShapeOk("Pad", "GetPadMaxMinTmpSize", srcShape, typeSize);
    if (typeSize == 0) {
        std::fprintf(stderr, "typeSize must be greater than 0.\n");
        return;
    }
    const uint32_t h = twin_host::PadDim(srcShape, 0), w = twin_host::PadDim(srcShape, 1);
    maxValue = ((h * w - 1) / 16 + 1) * 16 * (32 / typeSize) * 2 * typeSize;
    minValue = 16 * (32 / typeSize) * 2 * typeSize;
}

inline void PadTilingFunc(const AscendC::TensorShape srcShape, const AscendC::TensorShape oriSrcShape,
                          const uint32_t stackBufferSize, const uint32_t typeSize, AscendC::tiling::PadTiling& tiling)
{
    AscendC::tiling::PadTiling t;  // A2 fills a fresh class and saves it whole
    twin_host::PadShapeOk("Pad", "PadTilingFunc", srcShape, typeSize);
    if (oriSrcShape.GetDimNum() != 2) {
        std::fprintf(stderr, "[Pad][PadTilingFunc] The dims of oriSrcShape is %zu, should be 2.\n",
                     static_cast<size_t>(oriSrcShape.GetDimNum()));
    }
    if (oriSrcShape.GetShapeSize() > srcShape.GetShapeSize()) {
        std::fprintf(stderr,
                     "[Pad][PadTilingFunc] The size of oriSrcShape is %lld, should be less than or equal to srcShape "
                     "size %lld.\n",
                     static_cast<long long>(oriSrcShape.GetShapeSize()),
                     static_cast<long long>(srcShape.GetShapeSize()));
    }
    if (typeSize == 0) {
        std::fprintf(stderr, "typeSize must be greater than 0.\n");
        tiling = t;
        return;
    }
    const uint32_t h = twin_host::PadDim(srcShape, 0), w = twin_host::PadDim(srcShape, 1);
    t.srcHeight = h;
    t.srcWidth = w;
    t.srcOriWidth = twin_host::PadDim(oriSrcShape, 1);
    t.widthWithoutLastBlock = w - 32 / typeSize;
    t.blocksPerRow = w * typeSize / 32;
    t.heightTiling = 255;
    t.heightFractal = h / 255;
    t.heightFractalTail = h % 255;
    t.mainLoopOffset = 255 * w;
    t.tailBlockOffset = t.heightFractal * 255 * w + t.widthWithoutLastBlock;
    if (stackBufferSize != 0) {
        const uint32_t baseBlockSize = 16 * 32 / typeSize;  // elements
        const uint32_t blocks = stackBufferSize / typeSize / baseBlockSize / 2;
        t.tmpBuffer1RowNum = 16 * blocks;
        t.tmpBuffer1BlockNum = blocks;
        t.tmpBuffer2Offset = blocks * baseBlockSize;
        const uint32_t widthTiling = 16 * blocks;
        if (widthTiling == 0) {
            // A2 divides by it; the twin reports it and leaves the tmp fields 0 (the kernel-side Pad refuses them).
            std::fprintf(stderr, "[Pad][PadTilingFunc] stackBufferSize is %u, should be at least "
                                 "GetPadMaxMinTmpSize's minimum (%u).\n", stackBufferSize, 16 * 32 * 2);
        }
        t.widthTiling = widthTiling;
        t.widthFractal = widthTiling == 0 ? 0 : w / widthTiling;
        t.widthFractalTail = widthTiling == 0 ? 0 : w % widthTiling;
        t.widthFractalTailAlingned = ((t.widthFractalTail - 1) / (32 / typeSize) + 1) * (32 / typeSize);
        t.brcbTiling = widthTiling;
        t.brcbFractal = widthTiling == 0 ? 0 : h * w / widthTiling;
        t.brcbFractalTail = widthTiling == 0 ? 0 : h * w % widthTiling;
        t.maxRepeatTimes = 254;
        t.brcbTilingRepeatTimes = widthTiling / 8 / 254;
        t.brcbTilingRepeatTimesTail = widthTiling / 8 % 254;
        t.brcbFractalTailRepeatTimes = t.brcbFractalTail / 8 / 254;
        t.brcbFractalTailRepeatTimesTail = t.brcbFractalTail / 8 % 254;
    }
    tiling = t;
}

inline void PadTilingFunc(const AscendC::TensorShape srcShape, const AscendC::TensorShape oriSrcShape,
                          const uint32_t stackBufferSize, const uint32_t typeSize, optiling::PadTiling& tiling)
{
    AscendC::tiling::PadTiling t;
    optiling::twin_host::Load(tiling, t);
    AscendC::tiling::PadTiling fresh;
    PadTilingFunc(srcShape, oriSrcShape, stackBufferSize, typeSize, fresh);
    // The optiling:: form sets the fields A2 sets and leaves the others.
    t.srcHeight = fresh.srcHeight;
    t.srcWidth = fresh.srcWidth;
    t.srcOriWidth = fresh.srcOriWidth;
    t.widthWithoutLastBlock = fresh.widthWithoutLastBlock;
    t.blocksPerRow = fresh.blocksPerRow;
    t.heightTiling = fresh.heightTiling;
    t.heightFractal = fresh.heightFractal;
    t.heightFractalTail = fresh.heightFractalTail;
    t.mainLoopOffset = fresh.mainLoopOffset;
    t.tailBlockOffset = fresh.tailBlockOffset;
    if (stackBufferSize != 0 && typeSize != 0) {
        const uint32_t reserved = t.reserved;
        t = fresh;
        t.reserved = reserved;
    }
    optiling::twin_host::Store(t, tiling);
}

inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                  const AscendC::TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                  uint32_t& minValue)
{
    (void)ascendcPlatform;  // the twin's platform is dav-2201: UnPad uses no buffer there
    twin_host::PadShapeOk("UnPad", "GetUnPadMaxMinTmpSize", srcShape, typeSize);
    if (typeSize == 0) {
        std::fprintf(stderr, "typeSize must be greater than 0.\n");
        return;
    }
    maxValue = 0;
    minValue = 0;
}

inline void UnPadTilingFunc(const AscendC::TensorShape srcShape, const uint32_t stackBufferSize,
                            const uint32_t typeSize, AscendC::tiling::UnPadTiling& tiling)
{
    AscendC::tiling::UnPadTiling t;
    twin_host::PadShapeOk("UnPad", "UnPadTilingFunc", srcShape, typeSize);
    if (typeSize == 0) {
        std::fprintf(stderr, "typeSize must be greater than 0.\n");
        tiling = t;
        return;
    }
    const uint32_t h = twin_host::PadDim(srcShape, 0), w = twin_host::PadDim(srcShape, 1);
    t.srcHeight = h;
    t.srcWidth = w;
    if (stackBufferSize != 0) {
        const uint32_t blocks = stackBufferSize / typeSize / (16 * 32 / typeSize) / 2;
        t.tmpBuffer1BlockNum = blocks;
        t.tmpBuffer1RowNum = 16 * blocks;
        t.tmpBuffer2Offset = blocks * (16 * 32 / typeSize);
        const uint32_t widthTiling = 16 * blocks;
        if (widthTiling == 0) {
            std::fprintf(stderr, "[UnPad][UnPadTilingFunc] stackBufferSize is %u, should be 0 or at least %u.\n",
                         stackBufferSize, 16 * 32 * 2);
        }
        t.widthTiling = widthTiling;
        t.widthFractal = widthTiling == 0 ? 0 : w / widthTiling;
        t.widthFractalTail = widthTiling == 0 ? 0 : w % widthTiling;
        if (t.widthFractalTail != 0) {
            t.widthFractal += 1;
        } else {
            t.widthFractalTail = widthTiling;
        }
    }
    tiling = t;
}

inline void UnPadTilingFunc(const AscendC::TensorShape srcShape, const uint32_t stackBufferSize,
                            const uint32_t typeSize, optiling::UnPadTiling& tiling)
{
    AscendC::tiling::UnPadTiling t;
    optiling::twin_host::Load(tiling, t);
    AscendC::tiling::UnPadTiling fresh;
    UnPadTilingFunc(srcShape, stackBufferSize, typeSize, fresh);
    if (stackBufferSize != 0 && typeSize != 0) {
        t = fresh;
    } else {
        t.srcHeight = fresh.srcHeight;
        t.srcWidth = fresh.srcWidth;
    }
    optiling::twin_host::Store(t, tiling);
}

}  // namespace AscendC
