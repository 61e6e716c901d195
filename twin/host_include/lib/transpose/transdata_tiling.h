// The same declarations as "lib/transpose/transdata_tiling.h" (CANN installs include/adv_api as highlevel_api/lib).
#pragma once

#include "tiling/transpose/transdata_tiling.h"
