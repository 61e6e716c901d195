// The same as tiling/index/arithprogression_tiling.h, under the path "lib/index/arithprogression_tiling.h".
#pragma once

#include "tiling/index/arithprogression_tiling.h"
