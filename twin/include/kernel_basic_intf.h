// Kernels include this CANN header directly: the basic API's vector and cube interfaces (include/basic_api/kernel_basic_intf.h).
#pragma once

#include "kernel_operator.h"
