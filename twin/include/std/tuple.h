// Kernels include this CANN header directly: AscendC::Std::tuple (include/utils/std/tuple.h).
#pragma once

#include "twin/kernel_std.h"
