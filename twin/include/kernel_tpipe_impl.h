// Kernels include this CANN header directly: TPipe, TQue, TBuf, TBufPool (impl/basic_api/kernel_tpipe_impl.h).
#pragma once

#include "twin/kernel_tpipe.h"
