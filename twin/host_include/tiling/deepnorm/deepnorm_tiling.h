// DeepNorm's host tiling functions under another include path host code uses. Declarations and A2's sizes and
// tiling: tiling/normalization/deepnorm_tiling.h.
#pragma once

#include "tiling/normalization/deepnorm_tiling.h"
