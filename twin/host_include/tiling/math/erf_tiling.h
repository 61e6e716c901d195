// GetErfMaxMinTmpSize and the TmpBufferFactorSize function for host tiling code on
// the twin, as host code includes them: "tiling/math/erf_tiling.h" (asc-devkit include/adv_api/math/erf_tiling.h).
// The declarations and A2's sizes: twin/host_include/tiling/math/twin_math_tiling.h.
#pragma once

#include "tiling/math/twin_math_tiling.h"
