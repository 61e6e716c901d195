// AscendAntiQuant's size functions under another include path host code uses (asc-devkit
// include/adv_api/quantization/ascend_antiquant_tiling.h). Declarations and A2's sizes:
// tiling/quantization/ascend_antiquant_tiling.h.
#pragma once

#include "tiling/quantization/ascend_antiquant_tiling.h"
