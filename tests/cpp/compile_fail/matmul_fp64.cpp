// The twin's float64 Matmul exists only in kernels built as its float64 variant (CMakeLists.txt compiles
// this file once per FAULT line, and once with FAULT=0, which must compile: the A2 floating types, and
// double A/B/C/bias with ASCEND_TWIN_ALLOW_FP64 defined as cmake/builtin_ops.py defines it).
// FAULT 1: Matmul on A2: the cube unit has no double; the twin admits it only in its float64 build
// FAULT 2: the twin's float64 Matmul takes double A, B, C and bias
// FAULT 3: the twin's float64 Matmul takes double A, B, C and bias
// FAULT 4: Matmul on A2: bias is float, or half with half/bfloat16_t inputs
#if FAULT != 1
#define ASCEND_TWIN_ALLOW_FP64
#endif
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

template <typename A, typename C, typename Bias>
using Mm = Matmul<MatmulType<TPosition::GM, CubeFormat::ND, A>, MatmulType<TPosition::GM, CubeFormat::ND, A>,
                  MatmulType<TPosition::GM, CubeFormat::ND, C>, MatmulType<TPosition::GM, CubeFormat::ND, Bias>>;

void Instantiate()
{
#if FAULT == 0
    Mm<float, float, float> f32;
    Mm<half, half, float> f16;
    Mm<bfloat16_t, float, float> bf16;
    Mm<double, double, double> f64;  // the float64 build only
#elif FAULT == 1
    Mm<double, double, double> f64;  // without ASCEND_TWIN_ALLOW_FP64: what the NPU toolchain sees
#elif FAULT == 2
    Mm<double, float, double> mixedC;
#elif FAULT == 3
    Mm<double, double, float> floatBias;
#elif FAULT == 4
    Mm<float, float, double> doubleBias;  // double only with double inputs
#endif
}
