// The same declarations as "lib/sort/sort_tiling_intf.h" (CANN installs include/adv_api as highlevel_api/lib).
#pragma once

#include "tiling/sort/sort_tiling_intf.h"
