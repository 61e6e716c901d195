// Builds an op_kernel source for the twin once per element type. On the NPU the op package compiles a
// kernel once per dtype with DTYPE_X set by the framework; the twin does the same, giving each variant's
// entry point its own name and registering it under (op, dtype) for the launcher.
#pragma once

#include "twin/launch.h"

#define ASCEND_TWIN_REGISTER_KERNEL(OP, DTYPE, ENTRY)                                                     \
    namespace {                                                                                           \
    const int kTwinRegistered_##OP##_##DTYPE = ascend_twin::RegisterKernel(                                      \
        {#OP, ascend_twin::DType::DTYPE, reinterpret_cast<ascend_twin::KernelEntry>(&ENTRY)});             \
    }
