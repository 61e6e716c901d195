// DropOut's size functions under another include path host code uses (asc-devkit include/adv_api/filter/
// dropout_tiling.h). Declarations and A2's sizes: tiling/filter/dropout_tiling.h.
#pragma once

#include "tiling/filter/dropout_tiling.h"
