// The Broadcast high-level API as kernels include it: "lib/pad/broadcast.h" (CANN installs asc-devkit's
// include/adv_api as highlevel_api/lib, so this is include/adv_api/pad/broadcast.h). On A2 the real
// kernel_operator.h includes it as well, and so does the twin's. The twin's implementation and its rules:
// twin/include/twin/kernel_broadcast.h.
#pragma once

#include "kernel_operator.h"
#include "twin/kernel_broadcast.h"
