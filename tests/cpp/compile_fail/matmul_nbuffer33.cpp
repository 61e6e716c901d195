// NBuffer33MatmulPolicy's compile-time rules (the API's IterateAll/Iterate asserts, its scheduler's MDL cube-only
// form). FAULT=0 must compile: a cube-only CFG_MDL object with the policy and IterateAll.
// FAULT 1: NBuffer33MatmulPolicy only support MDL config.
// FAULT 2: Iterate does not support NBuffer33MatmulPolicy.
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
#elif FAULT == 1
    Matmul<H, H, F, F, CFG_NORM, MatmulCallBackFunc<nullptr, nullptr, nullptr>, Impl::Detail::NBuffer33MatmulPolicy> mm;
#elif FAULT == 2
    Matmul<H, H, F, F, CFG_MDL, MatmulCallBackFunc<nullptr, nullptr, nullptr>, Impl::Detail::NBuffer33MatmulPolicy> mm;
    while (mm.Iterate()) mm.GetTensorC(c);
#endif
    (void)c;
}
