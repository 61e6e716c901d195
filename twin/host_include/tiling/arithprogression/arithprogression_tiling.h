// The same as tiling/index/arithprogression_tiling.h, under the path "tiling/arithprogression/arithprogression_tiling.h".
#pragma once

#include "tiling/index/arithprogression_tiling.h"
