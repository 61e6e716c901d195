// The advanced Select (SelectWithBytesMask) as kernels include it: "lib/select/selectwithbytesmask.h" (CANN installs
// asc-devkit's include/adv_api as highlevel_api/lib). On A2 the real kernel_operator.h includes it as well, and so
// does the twin's. The twin's implementation and its rules: twin/include/twin/kernel_adv_select.h.
#pragma once

#include "kernel_operator.h"
#include "twin/kernel_adv_select.h"
