// The target macros a kernel translation unit sees on the twin: the device build of CANN defines them
// for the AI Core architecture it compiles for, and kernels (and the host/device-shared headers they
// include, such as a tiling header) select their A2 code with them. The twin runs A2 (dav-c220,
// Atlas A2 / 910B), so: __CCE_AICORE__ = 220, __NPU_ARCH__ = 2201. The twin's kernel units include this
// first (cmake/builtin_ops.py, ascend_ext.twin.compile_kernels); other code never does.
#pragma once

#ifndef __CCE_AICORE__
#define __CCE_AICORE__ 220
#endif
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif
