// Kernels include this CANN header directly: ListTensorDesc and TensorDesc (include/basic_api/kernel_operator_list_tensor_intf.h); kernel_operator.h does not include it, as on the device.
#pragma once

#include "twin/kernel_list_tensor.h"
