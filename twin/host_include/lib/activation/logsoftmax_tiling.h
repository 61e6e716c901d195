// The logsoftmax tiling functions as host code includes them: "lib/activation/logsoftmax_tiling.h" (asc-devkit
// include/adv_api/activation/logsoftmax_tiling.h). The declarations and A2's sizes: tiling/activation/logsoftmax_tiling.h.
#pragma once

#include "tiling/activation/logsoftmax_tiling.h"
