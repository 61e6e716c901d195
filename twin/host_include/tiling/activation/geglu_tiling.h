// The GeGLU size functions for host tiling code on the twin, as host code includes them:
// "tiling/activation/geglu_tiling.h" (asc-devkit include/adv_api/activation/geglu_tiling.h). Declarations and
// A2's sizes: twin/host_include/tiling/activation/twin_activation_tiling.h.
#pragma once

#include "tiling/activation/twin_activation_tiling.h"
