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
#include <cstring>
#include <type_traits>

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

// WriteGmByPassDCache / ReadGmByPassDCache (A2: st_dev / ld_dev): one scalar store or load straight to GM, past
// the data cache, so another core's bypassing accesses see it at once (the cross-core flags of the samples). In
// the twin (twin/src/block_sync.cpp) a bypassing write releases its core's clock into the address and a
// bypassing read acquires it, so the flags order the cores' other GM accesses; the flag bytes themselves are
// not among the accesses the cross-core checks compare. Reading the same bits twice in a row is polling: the
// core waits for another to change them, and a poll no core can end is reported as the hang it would be.
template <typename T>
__aicore__ inline void WriteGmByPassDCache(__gm__ T* addr, T value)
{
    static_assert(std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
                      std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
                      std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>,
                  "WriteGmByPassDCache only support int8_t/uint8_t/int16_t/uint16_t/int32_t/uint32_t/int64_t/uint64_t "
                  "data type on current device!");
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    ascend_twin::GmBypassWrite("WriteGmByPassDCache", addr, sizeof(T), bits);
}

template <typename T>
__aicore__ inline T ReadGmByPassDCache(__gm__ T* addr)
{
    static_assert(std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
                      std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
                      std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>,
                  "ReadGmByPassDCache only support int8_t/uint8_t/int16_t/uint16_t/int32_t/uint32_t/int64_t/uint64_t "
                  "data type on current device!");
    const uint64_t bits = ascend_twin::GmBypassRead("ReadGmByPassDCache", addr, sizeof(T));
    T value;
    std::memcpy(&value, &bits, sizeof(T));
    return value;
}

}  // namespace AscendC
