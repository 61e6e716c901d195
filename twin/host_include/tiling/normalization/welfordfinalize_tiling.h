// WelfordFinalize's host size function as host code includes it (asc-devkit include/adv_api/normalization/
// welfordfinalize_tiling.h; also "tiling/welfordfinalize/welfordfinalize_tiling.h"). The twin keeps it beside
// GetWelfordUpdateMaxMinTmpSize: tiling/normalization/layernorm_tiling.h.
#pragma once

#include "tiling/normalization/layernorm_tiling.h"
