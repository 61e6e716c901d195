// The reductions over a pattern as kernels include them: "lib/reduce/reduce_common.h" (asc-devkit include/adv_api/reduce/reduce_common.h).
// On A2 the real kernel_operator.h includes it as well, and so does the twin's. The twin's implementation and its
// rules: twin/include/twin/kernel_adv_reduce.h.
#pragma once

#include "kernel_operator.h"
#include "twin/kernel_adv_reduce.h"
