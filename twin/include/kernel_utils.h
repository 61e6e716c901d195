// Kernels include this CANN header directly: DivCeil, AlignUp and the public constants (impl/basic_api/kernel_utils.h).
#pragma once

#include "twin/kernel_utils.h"
