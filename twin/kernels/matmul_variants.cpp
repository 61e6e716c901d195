// op_kernel/matmul.cpp built for the twin: one entry per dtype (see twin/kernel_variant.h).
#define ASCENDC_CUBE_ONLY  // as the kernel defines it, before the Matmul header is first included
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "matmul_tiling.h"
#include "twin/kernel_variant.h"

#define DTYPE_A float
#define matmul_cube matmul_cube_float32
namespace twin_matmul_float32 {
#include "op_kernel/matmul.cpp"
}
#undef matmul_cube
#undef DTYPE_A

#define DTYPE_A half
#define matmul_cube matmul_cube_float16
namespace twin_matmul_float16 {
#include "op_kernel/matmul.cpp"
}
#undef matmul_cube
#undef DTYPE_A

#define DTYPE_A bfloat16_t
#define matmul_cube matmul_cube_bfloat16
namespace twin_matmul_bfloat16 {
#include "op_kernel/matmul.cpp"
}
#undef matmul_cube
#undef DTYPE_A

ASCEND_TWIN_REGISTER_KERNEL(matmul_cube, kFloat32, twin_matmul_float32::matmul_cube_float32)
ASCEND_TWIN_REGISTER_KERNEL(matmul_cube, kFloat16, twin_matmul_float16::matmul_cube_float16)
ASCEND_TWIN_REGISTER_KERNEL(matmul_cube, kBFloat16, twin_matmul_bfloat16::matmul_cube_bfloat16)
