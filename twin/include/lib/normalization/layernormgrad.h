// LayerNormGrad as kernels include it: "lib/normalization/layernormgrad.h" (asc-devkit include/adv_api/normalization/
// layernormgrad.h). On A2 the real kernel_operator.h includes it as well, and so does the twin's. The twin's
// implementation and its rules: twin/include/twin/kernel_adv_layernorm_grad.h.
#pragma once

#include "kernel_operator.h"
#include "twin/kernel_adv_layernorm_grad.h"
