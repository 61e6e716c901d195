// op_kernel/dispersion_correction_grad.cpp built for the twin: one entry per dtype (see twin/kernel_variant.h).
#define ASCEND_TWIN_ALLOW_FP64  // the float64 variant exists for gradcheck on the CPU only
#include <type_traits>

#include "kernel_operator.h"
#include "twin/kernel_variant.h"
#include "dispersion_correction_tiling.h"

#define DTYPE_GRAD float
#define dispersion_correction_grad dispersion_correction_grad_float32
namespace twin_dispersion_correction_grad_float32 {
#include "op_kernel/dispersion_correction_grad.cpp"
}
#undef dispersion_correction_grad
#undef DTYPE_GRAD

#define DTYPE_GRAD half
#define dispersion_correction_grad dispersion_correction_grad_float16
namespace twin_dispersion_correction_grad_float16 {
#include "op_kernel/dispersion_correction_grad.cpp"
}
#undef dispersion_correction_grad
#undef DTYPE_GRAD

#define DTYPE_GRAD bfloat16_t
#define dispersion_correction_grad dispersion_correction_grad_bfloat16
namespace twin_dispersion_correction_grad_bfloat16 {
#include "op_kernel/dispersion_correction_grad.cpp"
}
#undef dispersion_correction_grad
#undef DTYPE_GRAD

#define DTYPE_GRAD double
#define dispersion_correction_grad dispersion_correction_grad_float64
namespace twin_dispersion_correction_grad_float64 {
#include "op_kernel/dispersion_correction_grad.cpp"
}
#undef dispersion_correction_grad
#undef DTYPE_GRAD

ASCEND_TWIN_REGISTER_KERNEL(dispersion_correction_grad, kFloat32, twin_dispersion_correction_grad_float32::dispersion_correction_grad_float32)
ASCEND_TWIN_REGISTER_KERNEL(dispersion_correction_grad, kFloat16, twin_dispersion_correction_grad_float16::dispersion_correction_grad_float16)
ASCEND_TWIN_REGISTER_KERNEL(dispersion_correction_grad, kBFloat16, twin_dispersion_correction_grad_bfloat16::dispersion_correction_grad_bfloat16)
ASCEND_TWIN_REGISTER_KERNEL(dispersion_correction_grad, kFloat64, twin_dispersion_correction_grad_float64::dispersion_correction_grad_float64)
