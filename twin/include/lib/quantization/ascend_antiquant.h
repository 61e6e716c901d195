// AscendAntiQuant as kernels include it: "lib/quantization/ascend_antiquant.h" (asc-devkit
// include/adv_api/quantization/ascend_antiquant.h). On A2 the real kernel_operator.h includes it as well, and so does
// the twin's. The twin's implementation and its rules: twin/include/twin/kernel_adv_antiquant.h.
#pragma once

#include "kernel_operator.h"
#include "twin/kernel_adv_antiquant.h"
