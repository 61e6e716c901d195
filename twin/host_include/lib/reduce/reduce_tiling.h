// The reductions' size functions as host code includes them: "lib/reduce/reduce_tiling.h" (asc-devkit
// include/adv_api/reduce/reduce_tiling.h). The declarations and A2's sizes: tiling/reduce/reduce_tiling.h.
#pragma once

#include "tiling/reduce/reduce_tiling.h"
