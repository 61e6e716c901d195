// The tiling data of the DispersionCorrection and DispersionCorrectionBackward kernels: what GET_TILING_DATA
// reads. It lives in op_kernel/, the directory the op package ships for online compilation (asc-devkit
// guide, 使用标准C++语法定义Tiling结构体); the host tiling (op_host/dispersion_correction_tiling.h) includes it.
#pragma once

#include <cstdint>

enum DispersionCorrectionMode : uint32_t {
    kDispersionScale = 0,      // y = mu + alpha * (x - mu)
    kDispersionNormalize = 1,  // y = mu + alpha * (x - mu) / sqrt(var + eps)
};

struct DispersionCorrectionTilingData {
    uint64_t rows;         // R
    uint64_t rowLength;    // D
    uint64_t rowsFormer;   // rows of each of the first rowFormerNum cores; later cores take one fewer
    uint32_t rowFormerNum;
    uint32_t tileRows;     // rows per UB tile (packed); 1 in multi-pass
    uint32_t chunkLen;     // elements per chunk in multi-pass (a multiple of 64); D when packed
    uint32_t multiPass;    // 1: rows longer than UB: a statistics pass, then the output pass
    uint32_t mode;         // DispersionCorrectionMode
    uint32_t readX;        // backward only: 0 when grad_x does not depend on x (mode 0)
    uint32_t coresPerRow;    // cores sharing one row (split multi-pass); 1: a row is never split
    uint32_t partChunks;     // split: chunks of each of the first partFormerNum parts of a row; the rest one fewer
    uint32_t partFormerNum;
    float alpha;
    float eps;
    // The same numbers in double, read only by the CPU twin's float64 build (used for gradcheck).
    double alpha64;
    double eps64;
};

// Short rows: float rows of at most one 256-byte repeat, packed. The kernels then compute a tile's row
// statistics and per-row scales with repeat-form instructions over up to kDispersionShortGroup rows at once
// (each row one repeat), and broadcast a per-row value to its row through one 32-byte block per row; the
// tiling reserves that broadcast buffer (kDispersionShortBcastBytes per row).
constexpr uint32_t kDispersionShortRowBytes = 256;
constexpr uint32_t kDispersionShortGroup = 248;  // repeats per instruction: <= 255, a multiple of 8 (aligned offsets)
constexpr uint32_t kDispersionShortBcastBytes = 32;

constexpr bool DispersionShortRows(uint32_t elemBytes, uint32_t computeBytes, uint64_t rowLength, uint32_t multiPass)
{
    return elemBytes == 4 && computeBytes == 4 && multiPass == 0 && rowLength * 4 <= kDispersionShortRowBytes;
}

// A core's slot of partial statistics in the GM workspace when rows are split (kernels read it too).
constexpr uint32_t kDispersionPartialBytes = 64;
