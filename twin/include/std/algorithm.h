// Kernels include this CANN header directly: AscendC::Std::min/max (include/utils/std/algorithm.h).
#pragma once

#include "twin/kernel_std.h"
