// The IBShare, MixDualMaster and isA2B2Shared settings in a cube-only kernel (ASCENDC_CUBE_ONLY: the API's Matmul is
// its MatmulImpl on the AIC, which computes alone; IBSHARE and enableMixDualMaster only change how a MIX kernel's
// AIVs and AIC cooperate). CMakeLists.txt compiles this file with FAULT=0, which must compile (A and B both shared
// under a MixDualMaster CFG_NORM, as asc-devkit's matmul_mixdualmaster; B shared under CFG_NORM, as matmul_ibshareB's
// cube-only scenario; two isA2B2Shared objects), and once per FAULT line.
// FAULT 1: GetIBShareNormConfig/CFG_IBSHARE_NORM: the IBShare template is for MIX kernels only, not a cube-only kernel
// FAULT 2: REGIST_MATMUL_OBJ: MatmulConfig isA2B2Shared is global, every Matmul object takes the same value
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

using A = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using Shared = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NONE, true>;
using Bias = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using CGm = MatmulType<TPosition::GM, CubeFormat::ND, float>;

constexpr MatmulConfig DualMaster()
{
    MatmulConfig c = CFG_NORM;
    c.enableMixDualMaster = true;
    return c;
}
constexpr MatmulConfig kDualMaster = DualMaster();
constexpr MatmulConfig A2B2()
{
    MatmulConfig c = CFG_NORM;
    c.isA2B2Shared = true;
    return c;
}
constexpr MatmulConfig kA2B2 = A2B2();

void Instantiate(GlobalTensor<float>& c)
{
#if FAULT == 0
    Matmul<Shared, Shared, CGm, Bias, kDualMaster> dualMaster;
    Matmul<A, Shared, CGm, Bias, CFG_NORM> sharedB;
    dualMaster.IterateAll(c);
    sharedB.IterateAll(c);
    dualMaster.End();
    sharedB.End();
    Matmul<A, A, CGm, Bias, kA2B2> l0Shared1, l0Shared2;  // isA2B2Shared, as asc-devkit's matmul_a2b2_share
    TPipe pipe;
    TCubeTiling tiling;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), l0Shared1, &tiling, l0Shared2, &tiling);
#elif FAULT == 1
    Matmul<A, Shared, CGm, Bias, CFG_IBSHARE_NORM> ibShareTemplate;
#elif FAULT == 2
    Matmul<A, A, CGm, Bias, kA2B2> l0Shared;
    Matmul<A, A, CGm, Bias> own;
    TPipe pipe;
    TCubeTiling tiling;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), own, &tiling, l0Shared, &tiling);
#endif
}
