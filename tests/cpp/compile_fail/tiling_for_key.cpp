// REGISTER_TILING_FOR_TILINGKEY needs REGISTER_TILING_DEFAULT first (the docs' 约束说明): without it the twin's
// macro finds no default struct (CMakeLists.txt compiles this file once per FAULT line, and once with FAULT=0).
// FAULT 1 error: AscendTwinDefaultTiling
#include "kernel_operator.h"

struct Default {
    uint32_t n;
};
struct KeyOne {
    float scale;
};

extern "C" __global__ __aicore__ void registered(GM_ADDR tiling)
{
#if FAULT != 1
    REGISTER_TILING_DEFAULT(Default);
#endif
    REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR == 1", KeyOne);
    if (TILING_KEY_IS(1)) {
        GET_TILING_DATA_WITH_STRUCT(KeyOne, t, tiling);
        (void)t;
    }
}
