// Scalar GM accesses that bypass the data cache, and the barrier ordering them (A2):
// - WriteGmByPassDCache<T>(addr, value), ReadGmByPassDCache<T>(addr): include/basic_api/
//   kernel_operator_scalar_intf.h; on dav-2201 st_dev/ld_dev of 1, 2, 4 or 8 bytes (impl/basic_api/
//   kernel_scalar.h), T one of int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t.
// - DataSyncBarrier<MemDsbT>(): include/basic_api/kernel_operator_block_sync_intf.h, MemDsbT as in
//   impl/basic_api/kernel_event.h.
// Cores polling a GM word another core writes with them (the DataSyncBarrier docs' example) are modelled in
// twin/src/gm_flags.cpp: the poller waits while the writer has not run, and acquires what the writer did before
// its last DataSyncBarrier<ALL or DDR>.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "twin/runtime.h"

namespace AscendC {

enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };

template <MemDsbT arg0>
__aicore__ inline void DataSyncBarrier()
{
    ascend_twin::DataSyncBarrierOnCore(static_cast<uint8_t>(arg0));
}

namespace twin_detail {
template <typename T>
inline constexpr bool kGmByPassType =
    std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
    std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>;
}  // namespace twin_detail

template <typename T>
__aicore__ inline void WriteGmByPassDCache(__gm__ T* addr, T value)
{
    static_assert(twin_detail::kGmByPassType<T>,
                  "WriteGmByPassDCache only support int8_t/uint8_t/int16_t/uint16_t/int32_t/uint32_t/int64_t/uint64_t "
                  "data type on current device!");
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    ascend_twin::BypassGmWrite("WriteGmByPassDCache", const_cast<std::remove_cv_t<T>*>(addr), sizeof(T), bits);
}

template <typename T>
__aicore__ inline T ReadGmByPassDCache(__gm__ T* addr)
{
    static_assert(twin_detail::kGmByPassType<T>,
                  "ReadGmByPassDCache only support int8_t/uint8_t/int16_t/uint16_t/int32_t/uint32_t/int64_t/uint64_t "
                  "data type on current device!");
    const uint64_t bits = ascend_twin::BypassGmRead("ReadGmByPassDCache", addr, sizeof(T));
    T value;
    std::memcpy(&value, &bits, sizeof(T));
    return value;
}

}  // namespace AscendC
