// Sort's host functions on the twin, with the real names and signatures (asc-devkit
// include/adv_api/sort/sort_tiling_intf.h, sort_utils_constants.h; host code reaches them as
// "tiling/sort/sort_tiling_intf.h", "lib/sort/sort_tiling_intf.h" or "tiling/tiling_api.h"):
//   enum class SortType { RADIX_SORT, MERGE_SORT };  struct SortConfig {type, isDescend, hasSrcIndex, hasDstIndex};
//   uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC&, const uint32_t elemCount, const uint32_t
//                             dataTypeSize);
//   uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC&, const uint32_t elemCount, const uint32_t
//                           dataTypeSize);
//   void GetSortMaxMinTmpSize(const TensorShape& srcShape, TensorDataType valueType, TensorDataType indexType,
//                             bool isReuseSource, const SortConfig& config, uint32_t& maxValue, uint32_t& minValue);
// A2's values (impl/adv_api/tiling/sort/sort_tiling_impl.cpp) on dav-2201: GetConcatTmpSize 0; GetSortTmpSize
// elemCount * 2 * 4 bytes for float, elemCount * 4 * 2 for half. GetSortMaxMinTmpSize sizes the SortConfig forms of
// Sort, which exist on dav-3510 only: on dav-2201 A2's function reports "Unsupported NpuArch for Sort API." and
// returns without writing maxValue or minValue, and so does the twin's. An elemCount of 0 or a dataTypeSize other
// than 2 or 4 is reported on stderr as A2's is. Inline: nothing to link.
#pragma once

#include <cstdint>
#include <cstdio>

#include "graph/tensor.h"
#include "graph/types.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {

using TensorShape = ge::Shape;        // include/adv_api/utils/types.h
using TensorDataType = ge::DataType;  // include/adv_api/utils/types.h

enum class SortType { RADIX_SORT, MERGE_SORT };

constexpr uint32_t REGION_PROPOSAL_DATA_SIZE_V200 = 8;
constexpr uint32_t REGION_PROPOSAL_DATA_SIZE_HALF_V220 = 4;
constexpr uint32_t REGION_PROPOSAL_DATA_SIZE_FLOAT_V220 = 2;

struct SortConfig {
    SortType type = SortType::RADIX_SORT;
    bool isDescend = false;
    bool hasSrcIndex = false;
    bool hasDstIndex = false;
};

namespace twin_host {

inline void SortHostCheck(const char* fn, const uint32_t elemCount, const uint32_t dataTypeSize)
{
    if (elemCount == 0) std::fprintf(stderr, "[Sort][%s] The elemCount must be greater than 0.\n", fn);
    if (dataTypeSize != 2 && dataTypeSize != 4) {
        std::fprintf(stderr, "[Sort][%s] Type size %u is unsupported!\n", fn, dataTypeSize);
    }
}

}  // namespace twin_host

inline uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                                 const uint32_t dataTypeSize)
{
    (void)ascendcPlatform;  // dav-2201: Concat needs no buffer
    twin_host::SortHostCheck("GetConcatTmpSize", elemCount, dataTypeSize);
    return 0;
}

inline uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                               const uint32_t dataTypeSize)
{
    (void)ascendcPlatform;
    twin_host::SortHostCheck("GetSortTmpSize", elemCount, dataTypeSize);
    return elemCount * (dataTypeSize == 4 ? REGION_PROPOSAL_DATA_SIZE_FLOAT_V220 : REGION_PROPOSAL_DATA_SIZE_HALF_V220) *
           dataTypeSize;
}

inline void GetSortMaxMinTmpSize(const AscendC::TensorShape& srcShape, AscendC::TensorDataType valueType,
                                 AscendC::TensorDataType indexType, bool isReuseSource, const SortConfig& config,
                                 uint32_t& maxValue, uint32_t& minValue)
{
    (void)srcShape, (void)valueType, (void)indexType, (void)isReuseSource, (void)config, (void)maxValue,
        (void)minValue;
    // The twin's platform is dav-2201, where the SortConfig forms do not exist: A2's function stops here.
    std::fprintf(stderr, "Unsupported NpuArch for Sort API.\n");
}

}  // namespace AscendC
