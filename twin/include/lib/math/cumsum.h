// CumSum of the advanced math library as kernels include it: "lib/math/cumsum.h" (asc-devkit
// include/adv_api/math/cumsum.h, with cumsum_utils.h's CumSumConfig, CumSumInfo, CumSumAlgorithm). On A2 the real
// kernel_operator.h includes it as well, and so does the twin's. The twin's implementation and its rules:
// twin/include/twin/kernel_adv_cumsum.h.
#pragma once

#include "kernel_operator.h"
#include "twin/kernel_adv_cumsum.h"
