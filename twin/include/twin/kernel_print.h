// AscendC::printf / AscendC::PRINTF (include/basic_api/kernel_operator_dump_tensor_intf.h, the aicore
// printf of utils/debug): printf-style output from a kernel. On the device the text goes through the
// dump buffer and the host prints it after the launch; the twin prints it at once, like the CPU debug
// build. ASCENDC_DUMP=0 compiles the calls out, as on the device.
#pragma once

#include <cstdio>

#include "twin/kernel_types.h"

namespace AscendC {

template <class... Args>
__aicore__ inline void printf(__gm__ const char* fmt, Args&&... args)
{
#if !(defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0)
    if constexpr (sizeof...(Args) == 0) {
        std::fputs(fmt, stdout);
    } else {
        std::printf(fmt, args...);
    }
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
