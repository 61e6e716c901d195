// The same declaration as "lib/pad/broadcast_tiling.h" (CANN installs include/adv_api as highlevel_api/lib).
#pragma once

#include "tiling/pad/broadcast_tiling.h"
