// op_kernel/dispersion_correction.cpp built for the twin: one entry per dtype (see twin/kernel_variant.h).
#define ASCEND_TWIN_ALLOW_FP64  // the float64 variant exists for gradcheck on the CPU only
#include <type_traits>

#include "kernel_operator.h"
#include "twin/kernel_variant.h"
#include "dispersion_correction_tiling.h"

#define DTYPE_X float
#define dispersion_correction dispersion_correction_float32
namespace twin_dispersion_correction_float32 {
#include "op_kernel/dispersion_correction.cpp"
}
#undef dispersion_correction
#undef DTYPE_X

#define DTYPE_X half
#define dispersion_correction dispersion_correction_float16
namespace twin_dispersion_correction_float16 {
#include "op_kernel/dispersion_correction.cpp"
}
#undef dispersion_correction
#undef DTYPE_X

#define DTYPE_X bfloat16_t
#define dispersion_correction dispersion_correction_bfloat16
namespace twin_dispersion_correction_bfloat16 {
#include "op_kernel/dispersion_correction.cpp"
}
#undef dispersion_correction
#undef DTYPE_X

#define DTYPE_X double
#define dispersion_correction dispersion_correction_float64
namespace twin_dispersion_correction_float64 {
#include "op_kernel/dispersion_correction.cpp"
}
#undef dispersion_correction
#undef DTYPE_X

ASCEND_TWIN_REGISTER_KERNEL(dispersion_correction, kFloat32, twin_dispersion_correction_float32::dispersion_correction_float32)
ASCEND_TWIN_REGISTER_KERNEL(dispersion_correction, kFloat16, twin_dispersion_correction_float16::dispersion_correction_float16)
ASCEND_TWIN_REGISTER_KERNEL(dispersion_correction, kBFloat16, twin_dispersion_correction_bfloat16::dispersion_correction_bfloat16)
ASCEND_TWIN_REGISTER_KERNEL(dispersion_correction, kFloat64, twin_dispersion_correction_float64::dispersion_correction_float64)
