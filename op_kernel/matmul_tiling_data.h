// The tiling data of the MatmulCube kernel: what GET_TILING_DATA reads. It lives in op_kernel/, the
// directory the op package ships for online compilation (asc-devkit guide, 使用标准C++语法定义Tiling结构体);
// the host tiling (op_host/matmul_tiling.h) includes it.
#pragma once

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"  // TCubeTiling: CANN's header on NPU machines, the twin's elsewhere

// cubeTiling.usedCoreNum is the grid size and singleCoreM/N the largest block; unlike the samples' even
// split (offset = index * singleCoreM), offsets come from the former/tail split below, which keeps every
// core within one fractal row/column of the others.
//
// C is split over a grid of mCoreNum x nCoreNum cube cores; core i computes the block at grid position
// (i % mCoreNum, i / mCoreNum). Along M the first mFormerNum grid rows take mFormerLen rows of C and the
// others mTailLen (the last one stops at M); the same along N. Lengths are multiples of 16 (one fractal),
// so no two cores share a fractal of C. Every core's block is at most singleCoreM x singleCoreN of
// cubeTiling; a core with a smaller block sets it with Matmul::SetTail.
struct MatmulTilingData {
    AscendC::tiling::TCubeTiling cubeTiling;
    uint32_t mCoreNum;
    uint32_t nCoreNum;
    uint32_t mFormerNum;
    uint32_t mFormerLen;
    uint32_t mTailLen;
    uint32_t nFormerNum;
    uint32_t nFormerLen;
    uint32_t nTailLen;
    uint32_t transA;  // A is stored [K, M] (row-major) and read in place
    uint32_t transB;  // B is stored [N, K]
};
