// Normalize as kernels include it: "lib/normalization/normalize.h" (asc-devkit include/adv_api/normalization/
// normalize.h; A2's layernorm.h includes it, and so does the twin's). The twin's implementation and its rules:
// twin/include/twin/kernel_adv_normalize.h.
#pragma once

#include "kernel_operator.h"
#include "twin/kernel_adv_normalize.h"
