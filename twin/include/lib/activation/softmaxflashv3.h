// The SoftMax family as kernels include it: "lib/activation/softmaxflashv3.h" (asc-devkit include/adv_api/activation/
// softmaxflashv3.h). On A2 the real kernel_operator.h includes it as well, and so does the twin's. The twin's
// implementation and its rules: twin/include/twin/kernel_adv_softmax.h.
#pragma once

#include "kernel_operator.h"
#include "twin/kernel_adv_softmax.h"
