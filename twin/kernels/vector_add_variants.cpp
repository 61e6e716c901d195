// op_kernel/vector_add.cpp built for the twin: one entry per dtype (see twin/kernel_variant.h).
#define ASCEND_TWIN_ALLOW_FP64  // the float64 variant exists for gradcheck on the CPU only
#include <type_traits>

#include "kernel_operator.h"
#include "twin/kernel_variant.h"
#include "vector_add_tiling.h"

#define DTYPE_X float
#define vector_add vector_add_float32
namespace twin_vector_add_float32 {
#include "op_kernel/vector_add.cpp"
}
#undef vector_add
#undef DTYPE_X

#define DTYPE_X half
#define vector_add vector_add_float16
namespace twin_vector_add_float16 {
#include "op_kernel/vector_add.cpp"
}
#undef vector_add
#undef DTYPE_X

#define DTYPE_X bfloat16_t
#define vector_add vector_add_bfloat16
namespace twin_vector_add_bfloat16 {
#include "op_kernel/vector_add.cpp"
}
#undef vector_add
#undef DTYPE_X

#define DTYPE_X double
#define vector_add vector_add_float64
namespace twin_vector_add_float64 {
#include "op_kernel/vector_add.cpp"
}
#undef vector_add
#undef DTYPE_X

ASCEND_TWIN_REGISTER_KERNEL(vector_add, kFloat32, twin_vector_add_float32::vector_add_float32)
ASCEND_TWIN_REGISTER_KERNEL(vector_add, kFloat16, twin_vector_add_float16::vector_add_float16)
ASCEND_TWIN_REGISTER_KERNEL(vector_add, kBFloat16, twin_vector_add_bfloat16::vector_add_bfloat16)
ASCEND_TWIN_REGISTER_KERNEL(vector_add, kFloat64, twin_vector_add_float64::vector_add_float64)
