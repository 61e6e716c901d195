// Xor's size functions as host code includes them: "lib/math/xor_tiling.h" (asc-devkit
// include/adv_api/math/xor_tiling.h). Declarations and A2's sizes: tiling/math/xor_tiling.h.
#pragma once

#include "tiling/math/xor_tiling.h"
