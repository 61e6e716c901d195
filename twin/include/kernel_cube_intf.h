// Kernels include this CANN header directly: the basic API's cube interface (include/basic_api/kernel_cube_intf.h).
#pragma once

#include "kernel_operator.h"
