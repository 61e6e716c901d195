// TopK's host tiling functions on the twin, with the real names and signatures (asc-devkit
// include/adv_api/sort/topk_tiling.h; host code reaches them as "tiling/sort/topk_tiling.h", "lib/sort/topk_tiling.h"
// or through "tiling/tiling_api.h"):
//   bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
//                             const int32_t outter, const bool isReuseSource, const bool isInitIndex, TopKMode mode,
//                             const bool isLargest, const uint32_t dataTypeSize, uint32_t& maxValue,
//                             uint32_t& minValue);
//   bool GetTopKMaxMinTmpSize(inner, outter, k, isReuseSource, isInitIndex, mode, isLargest, TensorDataType,
//                             const TopKConfig&, maxValue, minValue);      (RADIX_SELECT, dav-3510/5102 only)
//   bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
//                       const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
//                       TopKMode mode, const bool isLargest, optiling::TopkTiling& topKTiling);
//                                                                       (and AscendC::tiling::TopkTiling&)
// A2's branch of impl/adv_api/tiling/sort/topk_tiling_impl.cpp (twin/topk_tiling_a2.h): sizes in bytes, equal
// minimum and maximum (normal: 16 * inner, + 4 * inner without isInitIndex; small: 8 * inner * outter + 64, + 4 *
// inner * outter for !isLargest and again without isInitIndex). As A2's: an inner not a positive multiple of 32
// (32 in small mode), outter < 1, a source larger than UB, a type size other than 2 or 4 and k outside [1, inner]
// are reported on stderr naming the function, and the computation goes on (the kernel-side TopK refuses such
// arguments). The RADIX_SELECT form reports "Unsupported NpuArch" and returns false on dav-2201, as A2's does.
// Inline: nothing to link.
#pragma once

#include <cstdint>
#include <cstdio>

#include "graph/types.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/sort/topk_tilingdata.h"
#include "twin/topk_tiling_a2.h"

namespace AscendC {

namespace twin_host {

inline void TopKHostCheck(const char* fn, const platform_ascendc::PlatformAscendC& platform, int32_t inner,
                          int32_t outter, TopKMode mode, uint32_t dataTypeSize)
{
    // A2's CheckTopKHostCommon: each failed check reports and returns from the check.
    if (inner <= 0) {
        std::fprintf(stderr, "[TopK][%s] The length of the inner axis must be greater than 0!\n", fn);
        return;
    }
    if (inner % 32 != 0) {
        std::fprintf(stderr, "[TopK][%s] The length of the inner axis must be a multiple of 32!\n", fn);
        return;
    }
    if (mode == TopKMode::TOPK_NSMALL && inner != 32) {
        std::fprintf(stderr, "[TopK][%s] In Small mode, the length of the inner axis must be 32!\n", fn);
        return;
    }
    if (outter <= 0) {
        std::fprintf(stderr, "[TopK][%s] The length of the outter axis must be greater than 0!\n", fn);
        return;
    }
    uint64_t ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const uint64_t bytes = static_cast<uint64_t>(inner) * static_cast<uint64_t>(outter) * dataTypeSize;
    if (bytes > ub) {
        std::fprintf(stderr, "[TopK][%s] The size of srcShape is %lluB, should be less than UB size.\n", fn,
                     static_cast<unsigned long long>(bytes));
        return;
    }
    if (dataTypeSize != 2 && dataTypeSize != 4) {
        std::fprintf(stderr, "[TopK][%s] Type size %u is unsupported!\n", fn, dataTypeSize);
    }
}

}  // namespace twin_host

inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                                 const int32_t outter, const bool isReuseSource, const bool isInitIndex,
                                 enum TopKMode mode, const bool isLargest, const uint32_t dataTypeSize,
                                 uint32_t& maxValue, uint32_t& minValue)
{
    (void)isReuseSource;
    twin_host::TopKHostCheck("GetTopKMaxMinTmpSize", ascendcPlatform, inner, outter, mode, dataTypeSize);
    minValue = maxValue = twin_topk::A2TmpBytes(inner, outter, isInitIndex, mode, isLargest);
    return true;
}

inline bool GetTopKMaxMinTmpSize(const int32_t inner, const int32_t outter, const int32_t k, const bool isReuseSource,
                                 const bool isInitIndex, enum TopKMode mode, const bool isLargest,
                                 ge::DataType dataType, const TopKConfig& config, uint32_t& maxValue,
                                 uint32_t& minValue)
{
    (void)inner, (void)outter, (void)k, (void)isReuseSource, (void)isInitIndex, (void)mode, (void)isLargest;
    (void)dataType, (void)config, (void)maxValue, (void)minValue;
    std::fprintf(stderr, "Unsupported NpuArch of Topk radix select API.\n");  // the twin's platform is dav-2201
    return false;
}

inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                           const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
                           enum TopKMode mode, const bool isLargest, AscendC::tiling::TopkTiling& topKTiling)
{
    twin_host::TopKHostCheck("TopKTilingFunc", ascendcPlatform, inner, outter, mode, dataTypeSize);
    if (k < 1 || k > inner) std::fprintf(stderr, "[TopK][TopKTilingFunc] The range of value k is [1, %d]!\n", inner);
    AscendC::tiling::TopkTiling t;  // A2 fills a fresh class and saves it whole
    if (dataTypeSize == 0) {
        topKTiling = t;
        return false;
    }
    twin_topk::A2Tiling(inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest, t);
    topKTiling = t;
    return true;
}

inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                           const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
                           enum TopKMode mode, const bool isLargest, optiling::TopkTiling& topKTiling)
{
    twin_host::TopKHostCheck("TopKTilingFunc", ascendcPlatform, inner, outter, mode, dataTypeSize);
    if (k < 1 || k > inner) std::fprintf(stderr, "[TopK][TopKTilingFunc] The range of value k is [1, %d]!\n", inner);
    if (dataTypeSize == 0) return false;
    // The optiling:: form sets the fields A2 sets and leaves the others.
    AscendC::tiling::TopkTiling t;
    optiling::twin_host::Load(topKTiling, t);
    twin_topk::A2Tiling(inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest, t);
    optiling::twin_host::Store(t, topKTiling);
    return true;
}

}  // namespace AscendC
