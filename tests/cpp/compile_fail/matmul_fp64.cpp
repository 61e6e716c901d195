// The twin's float64 Matmul exists only in kernels built as its float64 variant (CMakeLists.txt compiles
// this file once per FAULT line, and once with FAULT=0, which must compile: the A2 floating types, and
// double A/B/C/bias with ASCEND_TWIN_ALLOW_FP64 defined as cmake/builtin_ops.py defines it, and the synchronous
// calls of a cube-only Matmul).
// FAULT 1: Matmul on A2: the cube unit has no double; the twin admits it only in its float64 build
// FAULT 2: the twin's float64 Matmul takes double A, B, C and bias
// FAULT 3: the twin's float64 Matmul takes double A, B, C and bias
// FAULT 4: Matmul on A2: bias is float, or half with half/bfloat16_t inputs
// The MIX kernel's calls in a cube-only kernel (ASCENDC_CUBE_ONLY: the Matmul object runs on the AIC itself, with
// no UB and no AIV client):
// FAULT 5: the twin models SetWorkspace for a MIX kernel's asynchronous Iterate
// FAULT 6: SetLocalWorkspace is not supported on A2 \(SetLocalWorkspace docs\)
// FAULT 7: the twin runs a cube-only Matmul synchronously \(Iterate<false> is for MIX kernels\)
// FAULT 8: the twin runs IterateAll of a cube-only Matmul synchronously
// FAULT 9: WaitIterateAll follows a MIX kernel's IterateAll<false>
// FAULT 10: the twin runs a cube-only Matmul synchronously
// FAULT 11: GetTensorC\(\) returning a GlobalTensor follows a MIX kernel's Iterate<false>
// FAULT 12: WaitGetTensorC follows a MIX kernel's AsyncGetTensorC
// FAULT 13: GetTensorC into a LocalTensor needs C at VECIN/VECCALC/VECOUT \(MIX kernel\)
// FAULT 14: IterateAll into a LocalTensor needs C at VECIN/VECCALC/VECOUT \(MIX kernel\)
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

void Instantiate(GlobalTensor<float>& c)
{
    Mm<half, float, float> mm;
#if FAULT == 0
    while (mm.Iterate()) mm.GetTensorC(c);  // the cube-only forms: synchronous, C in GM
    mm.IterateAll(c);
    Mm<float, float, float> f32;
    Mm<half, half, float> f16;
    Mm<bfloat16_t, float, float> bf16;
    Mm<double, double, double> f64;  // the float64 build only
    // C at VECIN in a cube-only kernel (asc-devkit's matmul_fused_manual): written into GM, as MatmulImpl does on A2
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::VECIN, CubeFormat::ND, float>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>> cAtVecin;
    cAtVecin.IterateAll(c);
    while (cAtVecin.Iterate()) cAtVecin.GetTensorC(c);
#elif FAULT == 1
    Mm<double, double, double> f64;  // without ASCEND_TWIN_ALLOW_FP64: what the NPU toolchain sees
#elif FAULT == 2
    Mm<double, float, double> mixedC;
#elif FAULT == 3
    Mm<double, double, float> floatBias;
#elif FAULT == 4
    Mm<float, float, double> doubleBias;  // double only with double inputs
#elif FAULT == 5
    mm.SetWorkspace(c);
#elif FAULT == 6
    LocalTensor<uint8_t> tmp;
    mm.SetLocalWorkspace(tmp);
#elif FAULT == 7
    mm.template Iterate<false>();
#elif FAULT == 8
    mm.template IterateAll<false>(c);
#elif FAULT == 9
    mm.WaitIterateAll();
#elif FAULT == 10
    mm.template GetTensorC<false>(c);
#elif FAULT == 11
    GlobalTensor<float> next = mm.template GetTensorC<false>();
    (void)next;
#elif FAULT == 12
    mm.WaitGetTensorC();
#elif FAULT == 13
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::VECIN, CubeFormat::ND, float>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>> cInUb;  // C at VECIN: GM outputs only here
    LocalTensor<float> ub;
    cInUb.GetTensorC(ub);
#elif FAULT == 14
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::VECIN, CubeFormat::ND, float>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>> cInUb;
    LocalTensor<float> ub;
    cInUb.IterateAll(ub);
#endif
}
