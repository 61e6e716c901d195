// Kernels include this CANN header directly: GetTPipePtr, the system variables and the scalar helpers (include/basic_api/kernel_common.h).
#pragma once

#include "twin/kernel_tpipe.h"
#include "twin/kernel_sys_var.h"
#include "twin/kernel_utils.h"
