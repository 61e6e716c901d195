// WelfordFinalize's host size function under another include path host code uses. Declaration and A2's sizes:
// tiling/normalization/layernorm_tiling.h (GetWelfordFinalizeMaxMinTmpSize).
#pragma once

#include "tiling/normalization/welfordfinalize_tiling.h"
