// Fmod of the advanced math library as kernels include it: "lib/math/fmod.h" (asc-devkit include/adv_api/math/fmod.h).
// On A2 the real kernel_operator.h includes it as well, and so does the twin's. The twin's implementation and its
// rules: twin/include/twin/kernel_adv_more.h.
#pragma once

#include "kernel_operator.h"
#include "twin/kernel_adv_more.h"
