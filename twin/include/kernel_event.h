// Kernels include this CANN header directly: HardEvent and the event ids (impl/basic_api/kernel_event.h).
#pragma once

#include "twin/kernel_sync.h"
