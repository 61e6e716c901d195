// The scalar helpers and public constants of the basic API (impl/basic_api/utils/kernel_utils_ceil_oom_que.h,
// kernel_utils_constants.h), with A2's values (__NPU_ARCH__ 2201). The constants other twin headers already
// define (ONE_BLK_SIZE, ONE_REPEAT_BYTE_SIZE, DEFAULT_BLK_NUM, DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE,
// MASK_PLACEHOLDER) stay where they are.
#pragma once

#include <cstddef>
#include <cstdint>

#include "twin/kernel_sys_var.h"
#include "twin/kernel_types.h"
#include "twin/runtime.h"

namespace AscendC {

namespace twin_detail {
[[noreturn]] inline void DivisorZero(const char* call)
{
    ascend_twin::FailF(call, "the divisor is not 0",
                       "%s(a, 0): the scalar unit's integer division by zero has no defined result (the twin stops "
                       "where the NPU would compute garbage)",
                       call);
}
}  // namespace twin_detail

// Rounding-up division and alignment (uint32_t, as the real ones: arguments convert to it).
__aicore__ constexpr inline uint32_t DivCeil(uint32_t a, uint32_t b)
{
    if (b == 0) twin_detail::DivisorZero("DivCeil");
    return (a + b - 1) / b;
}
__aicore__ constexpr inline uint32_t AlignUp(uint32_t a, uint32_t b)
{
    if (b == 0) twin_detail::DivisorZero("AlignUp");
    return DivCeil(a, b) * b;
}
__aicore__ constexpr inline uint32_t ConstCeil(uint32_t a, uint32_t b)
{
    if (b == 0) twin_detail::DivisorZero("ConstCeil");
    return (a + b - 1) / b;
}
__aicore__ inline uint32_t Ceil(uint32_t a, uint32_t b)
{
    if (b == 0) twin_detail::DivisorZero("Ceil");
    return (a + b - 1) / b;
}
// On A2 CeilDivision returns 0 for a divisor of 0 (the real header checks it).
__aicore__ inline int32_t CeilDivision(int32_t num1, int32_t num2)
{
    if (num2 == 0) return 0;
    return (num1 + num2 - 1) / num2;
}

// kernel_utils_constants.h, A2 (dav-2201).
const int32_t POWER_MASK_NUM = 8;
const int32_t HALF_FACTOR = 2;
const int32_t DOUBLE_FACTOR = 2;
const uint8_t HALF_DEFAULT_REPEAT_STRIDE = 4;
const uint8_t ONE_FOURTH_DEFAULT_REPEAT_STRIDE = 2;
const uint64_t FULL_MASK = 0xffffffffffffffff;
const uint64_t CONST_MASK_VALUE = 0x8000000000000000;
const uint16_t MAX_HALF_MASK_LEN = 64;
const int32_t DEFAULT_C0_SIZE = 32;
const int32_t DEFAULT_BLOCK_SIZE = 256;
const int32_t MAX_REPEAT_TIMES = 255;
const int32_t MIN_REPEAT_TIMES = 0;
const bool DEFAULT_REPEAT_STRIDE_MODE = 0;
const bool STRIDE_SIZE_MODE = 0;
const int32_t ONE_BYTE_BIT_SIZE = 8;
const uint16_t MASK_ARRAY_SIZE = 4;
const uint32_t TOTAL_L0A_SIZE = 64 * 1024;
const uint32_t TOTAL_L0B_SIZE = 64 * 1024;
const uint32_t TMP_UB_SIZE = 8 * 1024;
const uint32_t MAX_SLICE_SIZE = 6 * 256;
const uint32_t F32_INF = 0x7f800000;
const uint32_t F32_NEG_INF = 0xff800000;
const uint32_t F32_NAN = 0x7fc00000;
const uint16_t VALUE_512 = 512;
const uint16_t UINT12_MAX = 4095;
const uint16_t UINT15_MAX = 32767;

const int32_t TOTAL_VEC_LOCAL_SIZE = 184 * 1024;
const uint32_t TOTAL_UB_SIZE = 192 * 1024;
const uint32_t TMP_UB_OFFSET = 184 * 1024;
#ifndef KFC_L1_RESERVER_SIZE
#define KFC_L1_RESERVER_SIZE 128
#endif
const uint32_t TOTAL_L1_SIZE = 512 * 1024 - KFC_L1_RESERVER_SIZE;  // the last 128 bytes hold the KFC messages
const uint32_t SINGLE_MSG_SIZE = 64;
const uint32_t CACHE_LINE_SIZE = 64;
const uint32_t TOTAL_L0C_SIZE = 128 * 1024;

const int32_t BLOCK_CUBE = 16;
const int32_t CUBE_MAX_SIZE = 256;
const uint8_t PAD_SIZE = 4;
const uint8_t MRG_SORT_ELEMENT_LEN = 4;
const uint8_t DEFAULT_DATA_COPY_NBURST = 1;
const uint8_t DEFAULT_DATA_COPY_STRIDE = 0;
const int32_t BYTE_PER_FRACTAL = 512;
const int32_t SRC_BURST_LEN_SIZE_ELE = 16;
const int32_t SRC_GAP_SIZE_BYTE = 32;
const int32_t DST_BURST_LEN_SIZE_ELE = 256;
const int32_t VREDUCE_PER_REP_OUTPUT = 2;
const uint16_t ONE_PARAM_SIZE = 8;
const uint16_t AIV_CORE_NUM = 50;
const int32_t FULL_MASK_LEN = 128;
const int32_t HALF_MASK_LEN = 64;
const int32_t DEFAULT_REDUCE_DST_REP_STRIDE = 1;
const uint8_t B64_BYTE_SIZE = 8;
const uint8_t B32_BYTE_SIZE = 4;
const uint8_t B16_BYTE_SIZE = 2;
const uint8_t B8_BYTE_SIZE = 1;
const uint8_t B32_DATA_NUM_PER_BLOCK = 8;
const uint8_t B16_DATA_NUM_PER_BLOCK = 16;
const int32_t B16_DATA_NUM_PER_REPEAT = 128;
const int32_t B32_DATA_NUM_PER_REPEAT = 64;
constexpr size_t RESERVED_WORKSPACE = 16 * 1024 * 1024;
const int32_t K_MAX_DIM = 8;
const uint32_t HALF_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / B16_BYTE_SIZE;
const uint32_t FLOAT_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / B32_BYTE_SIZE;
const uint32_t ONE_REPEAT_FLOAT_SIZE = ONE_REPEAT_BYTE_SIZE / B32_BYTE_SIZE;
const uint32_t ONE_REPEAT_HALF_SIZE = ONE_REPEAT_BYTE_SIZE / B16_BYTE_SIZE;
const uint32_t MAX_REPEAT_FLOAT_SIZE = ONE_REPEAT_FLOAT_SIZE * MAX_REPEAT_TIMES;
const uint32_t MAX_REPEAT_HALF_SIZE = ONE_REPEAT_HALF_SIZE * MAX_REPEAT_TIMES;
const uint32_t ONE_BLK_HALF_NUM = ONE_BLK_SIZE / B16_BYTE_SIZE;
const uint32_t ONE_BLK_FLOAT_NUM = ONE_BLK_SIZE / B32_BYTE_SIZE;
const uint32_t BRCB_BROADCAST_NUMBER = 8;
const uint32_t BRCB_MAX_REPEAT_SIZE = BRCB_BROADCAST_NUMBER * MAX_REPEAT_TIMES;
const int32_t MIN_BLOCK_LEN = 1;
const uint32_t PAIR_REDUCE_REPEAT_STRIDE_LEN = 128;
const uint32_t PAIR_REDUCE_SUM_MERGES = 2;

// Compile-time type utilities of the same headers: BoolInst, TrueType/FalseType, IsSameType<T, U>::value,
// Conditional.
template <bool b>
struct BoolInst {
    using Type = BoolInst<b>;
    static constexpr bool value = b;
};
using TrueType = BoolInst<true>;
using FalseType = BoolInst<false>;
template <typename T, typename U>
struct IsSameType : public FalseType {};
template <typename T>
struct IsSameType<T, T> : public TrueType {};
// Conditional<cond, T1, T2>::type (kernel_utils_constants.h): T1 if cond, else T2.
template <bool condition, class T1, class T2>
struct Conditional {
    using type = T1;
};
template <class T1, class T2>
struct Conditional<false, T1, T2> {
    using type = T2;
};

// AscendCUtils (impl/basic_api/kernel_utils_base.h), the static members kernels call that do not touch the mask (the
// mask ones are SetVectorMask / SetMaskCount / SetMaskNorm / ResetMask here). SetOverflow(ctrlValue) on A2 sets
// CTRL[48]: 1 the inf/nan mode, anything else the saturated mode of floating-point results. The twin's floating-point
// arithmetic is IEEE's, the inf/nan mode, whichever is set: the saturated mode's clamping of overflowing results is not
// modelled (docs/twin.md), so the call changes nothing here.
class AscendCUtils {
public:
    __aicore__ static inline int32_t GetBitSize(int32_t byteSize) { return byteSize * ONE_BYTE_BIT_SIZE; }
    __aicore__ static inline int32_t GetC0Size() { return DEFAULT_C0_SIZE; }
    __aicore__ static inline void SetOverflow(uint64_t ctrlValue) { (void)ctrlValue; }
};

}  // namespace AscendC
