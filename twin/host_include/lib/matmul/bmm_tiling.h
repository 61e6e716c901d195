// The Matmul host tiling API under another include path host code uses (asc-devkit
// include/adv_api/matmul/bmm_tiling.h): tiling/matmul/matmul_tiling_base.h.
#pragma once

#include "tiling/matmul/matmul_tiling_base.h"
