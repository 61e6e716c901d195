// The same declarations as "lib/sort/topk_tiling.h" (CANN installs include/adv_api as highlevel_api/lib).
#pragma once

#include "tiling/sort/topk_tiling.h"
