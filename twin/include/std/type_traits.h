// Kernels include this CANN header directly: AscendC::Std type traits (include/utils/std/type_traits.h).
#pragma once

#include "twin/kernel_std.h"
