// The tiling data of the VectorAdd kernel: what GET_TILING_DATA reads. It lives in op_kernel/, the
// directory the op package ships for online compilation (asc-devkit guide, 使用标准C++语法定义Tiling结构体);
// the host tiling (op_host/vector_add_tiling.h) includes it.
#pragma once

#include <cstdint>

// How the kernel reads B.
enum VectorAddMode : uint32_t {
    kVectorAddRows = 0,         // B has D elements, added to each of the R rows of F (R = 1: equal shapes)
    kVectorAddScalarGm = 1,     // B is one element in GM
    kVectorAddScalarTiling = 2  // B is the number in the tiling (a Python scalar operand)
};

struct VectorAddTilingData {
    uint64_t rows;           // R
    uint64_t rowLength;      // D (scalar modes: R = 1 and D = the element count)
    // Core grid: core i works on row group i / colGroups and column group i % colGroups.
    uint64_t rowsFormer;     // rows of each of the first rowFormerNum row groups; later groups have one less
    uint64_t colsFormer;     // columns of each of the first colFormerNum column groups (whole 32-byte blocks)
    uint64_t colsTail;       // columns of each later column group; the last one stops at D
    uint32_t rowFormerNum;
    uint32_t colFormerNum;
    uint32_t rowGroups;
    uint32_t colGroups;
    uint32_t tileRows;       // rows per UB tile (> 1 only when a whole row fits a tile)
    uint32_t tileCols;       // columns per UB tile (a multiple of 64 unless it is all of D)
    uint32_t mode;           // VectorAddMode
    uint32_t computeInFloat; // 1: 16-bit inputs are cast to float, computed, cast back (CAST_RINT)
    uint32_t scaleFullIsOne; // 1: scaleFull == 1, no Muls of F
    float scaleFull;         // alpha when F is torch's y, else 1
    float scaleBcast;        // alpha when B is torch's y, else 1
    float scalar;            // kVectorAddScalarTiling: the scalar operand times its scale
    // The same three numbers in double, read only by the CPU twin's float64 build (used for gradcheck);
    // the NPU kernels are never built for double.
    double scaleFull64;
    double scaleBcast64;
    double scalar64;
};
