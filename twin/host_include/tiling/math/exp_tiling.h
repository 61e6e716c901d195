// The Exp size functions for host tiling code on the twin, as host code includes them: "tiling/math/exp_tiling.h"
// (asc-devkit include/adv_api/math/exp_tiling.h). The declarations and A2's sizes:
// twin/host_include/tiling/math/twin_math_tiling.h.
#pragma once

#include "tiling/math/twin_math_tiling.h"
