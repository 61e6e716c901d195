// Kernels include this CANN header directly: GlobalTensor and LocalTensor (include/basic_api/kernel_tensor.h).
#pragma once

#include "twin/kernel_tensor.h"
#include "twin/kernel_symbol_override.h"
