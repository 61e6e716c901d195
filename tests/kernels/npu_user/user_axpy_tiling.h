// Tiling of the user_axpy kernels (tests/kernels/npu_user): a plain struct the host fills and the kernels read
// from GM (user_axpy) or take by value (user_axpy_by_value).
#pragma once

#include <cstdint>

struct UserAxpyTiling {
    uint32_t total;    // elements of x, y and z
    uint32_t perCore;  // elements of each core's contiguous chunk (the last chunk may be shorter)
    uint32_t tile;     // elements moved through UB at a time
};
