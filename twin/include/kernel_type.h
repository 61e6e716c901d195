// Kernels include this CANN header directly: the data type and format names of the basic API (include/basic_api/kernel_type.h) and the scalar types.
#pragma once

#include "twin/kernel_types.h"
#include "twin/kernel_type_names.h"
