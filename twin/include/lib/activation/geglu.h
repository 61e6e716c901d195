// GeGLU as kernels include it: "lib/activation/geglu.h" (asc-devkit include/adv_api/activation/geglu.h). On A2
// the real kernel_operator.h includes it as well, and so does the twin's. The twin's implementation and its
// rules: twin/include/twin/kernel_adv_more.h, twin/include/twin/kernel_adv_binary.h.
#pragma once

#include "kernel_operator.h"
#include "twin/kernel_adv_more.h"
