// Kernels include this CANN header directly: GlobalTensor and LocalTensor (impl/basic_api/kernel_tensor_impl.h).
#pragma once

#include "twin/kernel_tensor.h"
#include "twin/kernel_symbol_override.h"
