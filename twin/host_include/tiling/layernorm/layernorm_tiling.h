// LayerNorm's host tiling functions under another include path host code uses (asc-devkit
// include/adv_api/normalization/layernorm_tiling.h). Declarations and A2's sizes: tiling/normalization/layernorm_tiling.h.
#pragma once

#include "tiling/normalization/layernorm_tiling.h"
