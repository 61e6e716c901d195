// Kernels include this CANN header directly: AscendC::Std arithmetic helpers (include/utils/std/cmath.h).
#pragma once

#include "twin/kernel_std.h"
