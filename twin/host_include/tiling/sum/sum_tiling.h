// The same as tiling/reduce/sum_tiling.h, under the path "tiling/sum/sum_tiling.h".
#pragma once

#include "tiling/reduce/sum_tiling.h"
