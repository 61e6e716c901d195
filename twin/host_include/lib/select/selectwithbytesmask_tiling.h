// The same declarations as "lib/select/selectwithbytesmask_tiling.h" (CANN installs include/adv_api as highlevel_api/lib).
#pragma once

#include "tiling/select/selectwithbytesmask_tiling.h"
