// The same declarations as "lib/transpose/confusion_transpose_tiling.h" (CANN installs include/adv_api as
// highlevel_api/lib).
#pragma once

#include "tiling/transpose/confusion_transpose_tiling.h"
