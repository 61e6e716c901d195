// The tiling of the RMSNorm kernels (rms_norm.cpp): filled by the Python tiling in rms_norm.py through
// ascend_ext.library.c_struct, read by the kernels with GET_TILING_DATA.
#pragma once
#include <cstdint>

struct MyRmsNormTiling {
    uint64_t rows;      // rows of x: the product of all its dimensions but the last
    uint32_t cols;      // D: elements per row (x's last dimension, gamma's length)
    uint32_t tileRows;  // rows per UB tile
    uint32_t groups;    // contiguous row ranges, as even as can be; group g runs on core g % block_dim
    float eps;          // added to mean(x^2)
    double eps64;       // the same, read by the CPU twin's float64 build only
};
