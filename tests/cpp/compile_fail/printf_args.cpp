// AscendC::printf's argument types on A2 (impl/utils/debug/npu_arch_2201/asc_aicore_printf_utils.h): bool,
// integers, half, bfloat16_t, float, enums, pointers and strings compile; double does not (the device's
// own static_assert), nor does anything else. CMakeLists.txt compiles this file with FAULT=0 (must compile)
// and once per FAULT line.
// FAULT 1: printf unsupport double type
// FAULT 2: printf takes numbers
#include "kernel_operator.h"

enum class Mode { kA, kB };
struct Pair {
    int a, b;
};

extern "C" __global__ __aicore__ void prints(GM_ADDR x)
{
    const half h(1.5f);
    const bfloat16_t b = AscendC::Cast(2.5f);
    AscendC::printf("%d %u %d %lld %f %f %f %u %p %s\n", true, 7u, int8_t(-3), int64_t(1) << 40, h, b, 0.5f, Mode::kB,
                    x, "text");
#if FAULT == 1
    AscendC::printf("%f\n", 0.5);
#elif FAULT == 2
    AscendC::printf("%d\n", Pair{1, 2});
#endif
}
