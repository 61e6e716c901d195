// The MATMUL_POLICY forms' compile-time rules: NBuffer33MatmulPolicy (the API's IterateAll/Iterate asserts, its
// scheduler's MDL cube-only form), the triangular policies (cube-only objects writing C to GM in the twin).
// FAULT=0 must compile: a cube-only CFG_MDL object with NBuffer33 and IterateAll, CFG_NORM objects with the
// triangular policies and Iterate/GetTensorC or IterateAll.
// FAULT 1: NBuffer33MatmulPolicy only support MDL config.
// FAULT 2: Iterate does not support NBuffer33MatmulPolicy.
// FAULT 3: TrianUpperMatmulPolicy/TrianLowerMatmulPolicy: the twin models them in cube-only objects writing C to GM
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

using H = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using F = MatmulType<TPosition::GM, CubeFormat::ND, float>;

void Instantiate(GlobalTensor<float>& c)
{
#if FAULT == 0
    Matmul<H, H, F, F, CFG_MDL, MatmulCallBackFunc<nullptr, nullptr, nullptr>, Impl::Detail::NBuffer33MatmulPolicy> mm;
    mm.IterateAll(c);
    Matmul<H, H, F, F, CFG_NORM, MatmulCallBackFunc<nullptr, nullptr, nullptr>, Impl::Detail::TrianUpperMatmulPolicy> up;
    while (up.Iterate()) up.GetTensorC(c);
    Matmul<H, H, F, F, CFG_NORM, MatmulCallBackFunc<nullptr, nullptr, nullptr>, Impl::Detail::TrianLowerMatmulPolicy> lo;
    lo.IterateAll(c);
#elif FAULT == 3
    Matmul<H, H, MatmulType<TPosition::CO1, CubeFormat::NZ, float>, F, CFG_NORM,
           MatmulCallBackFunc<nullptr, nullptr, nullptr>, Impl::Detail::TrianUpperMatmulPolicy> co1;
#elif FAULT == 1
    Matmul<H, H, F, F, CFG_NORM, MatmulCallBackFunc<nullptr, nullptr, nullptr>, Impl::Detail::NBuffer33MatmulPolicy> mm;
#elif FAULT == 2
    Matmul<H, H, F, F, CFG_MDL, MatmulCallBackFunc<nullptr, nullptr, nullptr>, Impl::Detail::NBuffer33MatmulPolicy> mm;
    while (mm.Iterate()) mm.GetTensorC(c);
#endif
    (void)c;
}
