// ArithProgression and Arange as kernels include them: "lib/index/arithprogression.h" (asc-devkit
// include/adv_api/index/arithprogression.h). On A2 the real kernel_operator.h includes it as well, and so does
// the twin's. The twin's implementation and its rules: twin/include/twin/kernel_arith_progression.h.
#pragma once

#include "kernel_operator.h"
#include "twin/kernel_arith_progression.h"
