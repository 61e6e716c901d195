// Data cache maintenance (include/basic_api/kernel_operator_cache_intf.h; CacheLine and DcciDst as in
// impl/basic_api/kernel_reg.h): DataCacheCleanAndInvalid writes a cache line (or the whole data cache)
// of the scalar unit back and drops it, so that the scalar unit's next GetValue/SetValue on that GM
// sees what other cores or the MTE pipes wrote.
//
// The twin models what the cache may hold (twin/src/scalar_cache.cpp): GetValue and SetValue still read
// and write GM at once, and the accesses a real cache would serve wrongly are rule violations. On a
// GlobalTensor, CACHELINE_ALL and CACHELINE_OUT act on GM; CACHELINE_UB (the cache against UB) and
// CACHELINE_ATOMIC (not supported on A2, docs: 暂未支持) do not.
#pragma once

#include <cstdint>

#include "twin/kernel_tensor.h"

namespace AscendC {

enum class CacheLine : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };

enum class DcciDst : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst)
{
    if constexpr (dcciDst == DcciDst::CACHELINE_ALL || dcciDst == DcciDst::CACHELINE_OUT) {
        ascend_twin::DataCacheCleanInvalidate("DataCacheCleanAndInvalid", dst.GetPhyAddr(),
                                              entireType == CacheLine::ENTIRE_DATA_CACHE);
    }
}

template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const LocalTensor<T>& dst)
{
    (void)dst;
}

template <typename T, CacheLine entireType>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst)
{
    ascend_twin::DataCacheCleanInvalidate("DataCacheCleanAndInvalid", dst.GetPhyAddr(),
                                          entireType == CacheLine::ENTIRE_DATA_CACHE);
}

}  // namespace AscendC
