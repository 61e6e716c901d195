// The same declaration under the path CANN also installs it at (tiling/broadcast/broadcast_tiling.h).
#pragma once

#include "tiling/pad/broadcast_tiling.h"
