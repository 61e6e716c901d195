// LayerNormGradBeta's host tiling functions as host code includes them (asc-devkit include/adv_api/normalization/
// layernorm_grad_beta_tiling.h). The twin keeps them beside LayerNormGrad's: tiling/normalization/
// layernorm_grad_tiling.h.
#pragma once

#include "tiling/normalization/layernorm_grad_tiling.h"
