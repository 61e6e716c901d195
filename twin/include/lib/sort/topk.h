// TopK as kernels include it: "lib/sort/topk.h" (CANN installs asc-devkit's include/adv_api as highlevel_api/lib,
// so this is include/adv_api/sort/topk.h). On A2 the real kernel_operator.h includes it as well, and so does the
// twin's. The twin's implementation and its rules: twin/include/twin/kernel_adv_topk.h.
#pragma once

#include "kernel_operator.h"
#include "twin/kernel_adv_topk.h"
