// AscendDequant's size functions as host code includes them: "tiling/ascend_dequant/ascend_dequant_tiling.h" (asc-devkit
// include/adv_api/quantization/ascend_dequant_tiling.h). Declarations and A2's sizes:
// tiling/quantization/ascend_dequant_tiling.h.
#pragma once

#include "tiling/quantization/ascend_dequant_tiling.h"
