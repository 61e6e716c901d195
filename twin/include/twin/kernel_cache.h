// Data cache maintenance (include/basic_api/kernel_operator_cache_intf.h; CacheLine and DcciDst as in
// impl/basic_api/kernel_reg.h): DataCacheCleanAndInvalid writes a cache line (or the whole data cache)
// of the scalar unit back and drops it, so that the scalar unit's next GetValue/SetValue on that GM
// sees what other cores or the MTE pipes wrote.
//
// The twin has no scalar data cache: GetValue and SetValue on a GlobalTensor read and write GM at once,
// so these calls change nothing, and a kernel that relies on a stale or unflushed cache line on the
// device is not caught here.
#pragma once

#include <cstdint>

#include "twin/kernel_tensor.h"

namespace AscendC {

enum class CacheLine : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };

enum class DcciDst : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst)
{
    (void)dst;
}

template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const LocalTensor<T>& dst)
{
    (void)dst;
}

template <typename T, CacheLine entireType>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst)
{
    (void)dst;
}

}  // namespace AscendC
