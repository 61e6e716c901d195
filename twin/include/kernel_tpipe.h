// Kernels include this CANN header directly: TPipe, TQue, TBuf, TBufPool (include/basic_api/kernel_tpipe.h).
#pragma once

#include "twin/kernel_tpipe.h"
