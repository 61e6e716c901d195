// The tiling data of the ScaleShift kernel (y = x * a + b): what GET_TILING_DATA reads. The host tiling,
// op_host/scale_shift_tiling.h, fills it.
#pragma once

#include <cstdint>

struct ScaleShiftTilingData {
    uint64_t total;    // elements of x and y
    uint64_t perCore;  // elements of each core but the last (which may have fewer), whole 32-byte blocks
    uint64_t tile;     // elements per UB tile, whole 32-byte blocks
    float a;           // the scale and shift for float32 and float16 builds
    float b;
    double a64;        // the same in double, read by the twin's float64 build only
    double b64;
};
