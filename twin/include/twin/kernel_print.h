// AscendC::printf / AscendC::PRINTF (include/basic_api/kernel_operator_dump_tensor_intf.h, the aicore
// printf of utils/debug): printf-style output from a kernel. On the device each argument goes into an
// 8-byte slot of the dump buffer (impl/utils/debug/npu_arch_2201/asc_aicore_printf_utils.h: half, float and
// bfloat16_t as a float, signed integers as int64_t, unsigned ones, bool, enums and pointers as uint64_t,
// strings by offset; double does not compile) and the host formats the text after the launch with its own
// parser (hicann/runtime src/runtime/core/src/dfx/printf.cc, ParsePrintToLog): %d %i %u %x %X with l or ll,
// %f %F, %p, %s, and %% for a percent sign; no flags, widths or precisions. The twin stores the arguments
// the same way and formats them the same way at once, like the CPU debug build. A format the host parser
// does not take (an unknown conversion such as %5.2f or %c, more conversions than arguments, %s of a
// number or a number conversion of a string) stops the launch: the NPU prints the text up to there, logs
// an error and drops the rest (the twin is stricter here). ASCENDC_DUMP=0 compiles the calls out, as on
// the device.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "twin/kernel_types.h"

namespace ascend_twin {

// One argument as the device's dump buffer holds it.
struct PrintArg {
    enum Kind : uint8_t { kNumber, kString } kind = kNumber;
    uint64_t slot = 0;           // the 8 bytes of the argument's slot
    const char* text = nullptr;  // kString
};

// Formats `format` with `count` arguments as the host's parser does and writes the text to stdout.
void KernelPrintf(const char* format, const PrintArg* args, uint32_t count);

template <typename T>
inline constexpr bool kAlwaysFalse = false;

template <typename T>
PrintArg ToPrintArg(const T& value)
{
    using U = std::remove_cv_t<std::remove_reference_t<T>>;
    PrintArg a;
    if constexpr (std::is_same_v<U, double>) {
        static_assert(kAlwaysFalse<U>, "printf unsupport double type");
    } else if constexpr (std::is_same_v<U, half> || std::is_same_v<U, bfloat16_t> || std::is_same_v<U, float>) {
        float f;
        if constexpr (std::is_same_v<U, bfloat16_t>) {
            f = ascend_twin::Bf16BitsToFloat(value.bits);  // the device widens it; kernel code has no such cast
        } else {
            f = static_cast<float>(value);
        }
        std::memcpy(&a.slot, &f, sizeof f);  // the float in the slot's low 4 bytes, the rest 0
    } else if constexpr ((std::is_array_v<U> && std::is_same_v<std::remove_cv_t<std::remove_extent_t<U>>, char>) ||
                         std::is_same_v<U, const char*> || std::is_same_v<U, char*>) {
        a.kind = PrintArg::kString;
        a.text = value;
    } else if constexpr (std::is_pointer_v<U>) {
        a.slot = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(value));
    } else if constexpr (std::is_signed_v<U>) {
        const int64_t v = static_cast<int64_t>(value);
        std::memcpy(&a.slot, &v, sizeof v);
    } else if constexpr (std::is_unsigned_v<U> || std::is_enum_v<U>) {
        a.slot = static_cast<uint64_t>(value);
    } else {
        static_assert(kAlwaysFalse<U>, "printf takes numbers (bool, integers, half, bfloat16_t, float), enums, "
                                       "pointers and strings");
    }
    return a;
}

}  // namespace ascend_twin

namespace AscendC {

template <class... Args>
__aicore__ inline void printf(__gm__ const char* fmt, Args&&... args)
{
#if !(defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0)
    const ascend_twin::PrintArg list[sizeof...(Args) + 1] = {ascend_twin::ToPrintArg(args)..., {}};
    ascend_twin::KernelPrintf(fmt, list, static_cast<uint32_t>(sizeof...(Args)));
#else
    (void)fmt;
    ((void)args, ...);
#endif
}

template <class... Args>
__aicore__ inline void PRINTF(__gm__ const char* fmt, Args&&... args)
{
    AscendC::printf(fmt, static_cast<Args&&>(args)...);
}

}  // namespace AscendC
