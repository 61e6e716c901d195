// asc-devkit include/adv_api/matmul/bmm_tiling.h on the twin: the Matmul host tiling API, in
// tiling/matmul/matmul_tiling_base.h (what it computes and what it does not reproduce of CANN's search).
#pragma once

#include "tiling/matmul/matmul_tiling_base.h"
