// Normalize's host size function under another include path host code uses (asc-devkit
// include/adv_api/normalization/normalize_tiling.h). A2's sizes: tiling/normalization/normalize_tiling.h.
#pragma once

#include "tiling/normalization/normalize_tiling.h"
