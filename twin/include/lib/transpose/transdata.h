// TransData as kernels include it: "lib/transpose/transdata.h" (CANN installs asc-devkit's include/adv_api as
// highlevel_api/lib, so this is include/adv_api/transpose/transdata.h). On A2 the real kernel_operator.h includes it
// as well, and so does the twin's. The twin's implementation and its rules: twin/include/twin/kernel_adv_transdata.h.
#pragma once

#include "kernel_operator.h"
#include "twin/kernel_adv_transdata.h"
