// The same declarations as "lib/pad/pad_tiling.h" (CANN installs include/adv_api as highlevel_api/lib).
#pragma once

#include "tiling/pad/pad_tiling.h"
