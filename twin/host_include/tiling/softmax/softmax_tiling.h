// The softmax tiling functions as host code includes them: "tiling/softmax/softmax_tiling.h" (asc-devkit
// include/adv_api/activation/softmax_tiling.h). The declarations and A2's sizes: tiling/activation/softmax_tiling.h.
#pragma once

#include "tiling/activation/softmax_tiling.h"
