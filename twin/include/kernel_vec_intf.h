// Kernels include this CANN header directly: the basic API's vector interface (include/basic_api/kernel_vec_intf.h).
#pragma once

#include "kernel_operator.h"
