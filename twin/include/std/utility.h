// Kernels include this CANN header directly: AscendC::Std::forward/move/integer_sequence (include/utils/std/utility.h).
#pragma once

#include "twin/kernel_std.h"
