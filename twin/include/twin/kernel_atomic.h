// Atomic accumulation of UB -> GM copies (include/basic_api/kernel_operator_set_atomic_intf.h): after
// SetAtomicAdd<T>/SetAtomicMax<T>/SetAtomicMin<T>, DataCopy and DataCopyPad to GM combine the copied
// elements of type T with what GM holds instead of overwriting it, until SetAtomicNone. Cores may
// accumulate into the same GM bytes this way; plain writes to bytes another core writes stay a violation.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/kernel_types.h"
#include "twin/runtime.h"

namespace AscendC {
namespace twin_detail {

template <typename T>
constexpr ascend_twin::AtomicType AtomicTypeOf()
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, int16_t> ||
                      std::is_same_v<T, int32_t> || std::is_same_v<T, int8_t> || std::is_same_v<T, bfloat16_t>,
                  "atomic accumulation on A2 supports half, float, int16_t, int32_t, int8_t and bfloat16_t");
    using A = ascend_twin::AtomicType;
    if constexpr (std::is_same_v<T, half>) return A::kHalf;
    else if constexpr (std::is_same_v<T, float>) return A::kFloat;
    else if constexpr (std::is_same_v<T, int16_t>) return A::kInt16;
    else if constexpr (std::is_same_v<T, int32_t>) return A::kInt32;
    else if constexpr (std::is_same_v<T, int8_t>) return A::kInt8;
    else return A::kBFloat16;
}

}  // namespace twin_detail

template <typename T>
__aicore__ inline void SetAtomicType()
{
    ascend_twin::CurrentCore().atomicType = twin_detail::AtomicTypeOf<T>();
}

template <typename T>
__aicore__ inline void SetAtomicAdd()
{
    SetAtomicType<T>();
    ascend_twin::CurrentCore().atomicOp = ascend_twin::AtomicOp::kAdd;
}

template <typename T>
__aicore__ inline void SetAtomicMax()
{
    SetAtomicType<T>();
    ascend_twin::CurrentCore().atomicOp = ascend_twin::AtomicOp::kMax;
}

template <typename T>
__aicore__ inline void SetAtomicMin()
{
    SetAtomicType<T>();
    ascend_twin::CurrentCore().atomicOp = ascend_twin::AtomicOp::kMin;
}

// Ends the atomic mode (set_atomic_none on A2); SetAtomicNone is its older name.
__aicore__ inline void DisableDmaAtomic() { ascend_twin::CurrentCore().atomicOp = ascend_twin::AtomicOp::kNone; }
__aicore__ inline void SetAtomicNone() { DisableDmaAtomic(); }

}  // namespace AscendC
