// The deprecated name of "lib/filter/dropout.h" (asc-devkit include/adv_api/filter/kernel_operator_dropout_intf.h).
#pragma once

#include "lib/filter/dropout.h"
