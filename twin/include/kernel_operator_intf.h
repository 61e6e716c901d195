// Kernels include this CANN header directly: the basic API's interface (include/basic_api/kernel_operator_intf.h); the twin's kernel_operator.h holds all of it.
#pragma once

#include "kernel_operator.h"
