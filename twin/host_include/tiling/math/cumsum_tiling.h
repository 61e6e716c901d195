// GetCumSumMaxMinTmpSize for host tiling code on the twin, as host code includes it: "tiling/math/cumsum_tiling.h"
// (asc-devkit include/adv_api/math/cumsum_tiling.h). The declaration and A2's sizes:
// twin/host_include/tiling/math/twin_math_tiling.h.
#pragma once

#include "tiling/math/twin_math_tiling.h"
