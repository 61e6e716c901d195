// WelfordFinalize as kernels include it: "lib/normalization/welfordfinalize.h" (asc-devkit include/adv_api/
// normalization/welfordfinalize.h). On A2 the real kernel_operator.h includes it as well, and so does the twin's. The
// twin's implementation and its rules: twin/include/twin/kernel_adv_welford.h.
#pragma once

#include "kernel_operator.h"
#include "twin/kernel_adv_welford.h"
