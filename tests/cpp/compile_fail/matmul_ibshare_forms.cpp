// The IBShare forms of the Matmul object in a MIX kernel (MatmulType<..., IBSHARE = true>, the IBShare template
// CFG_IBSHARE_NORM / GetIBShareNormConfig) the twin takes and those it refuses at compile time. CMakeLists.txt
// compiles this file once per FAULT line, and once with FAULT=0, which must compile: objects with B or A shared under
// the IBShare template, a shared B under CFG_NORM (the API's server alone looks at IBSHARE then), and A and B both
// shared with IterateAll into GM. The cube-only forms are in matmul_cube_only_shared.cpp.
// FAULT 1: Matmul with the IBShare template \(doIBShareNorm\): exactly one of A and B is shared
// FAULT 2: A and B both IBShare on A2: the result comes from IterateAll into a GlobalTensor only
// FAULT 3: the twin does not model MixDualMaster \(enableMixDualMaster\) in a MIX kernel
// FAULT 4: A and B both IBShare on A2: the result comes from IterateAll into a GlobalTensor only
// FAULT 5: REGIST_MATMUL_OBJ: if both aType ibshare and bType ibshare are set to true, the values must be the same
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

using A = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using Shared = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NONE, true>;
using Bias = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using CGm = MatmulType<TPosition::GM, CubeFormat::ND, float>;

constexpr MatmulConfig kIBShare = GetIBShareNormConfig(false, false, false, BatchMode::BATCH_LESS_THAN_L1, true);
constexpr MatmulConfig DualMaster()
{
    MatmulConfig c = CFG_NORM;
    c.enableMixDualMaster = true;
    return c;
}
constexpr MatmulConfig kDualMaster = DualMaster();

void Instantiate(GlobalTensor<float>& c)
{
#if FAULT == 0
    Matmul<A, Shared, CGm, Bias, CFG_IBSHARE_NORM> sharedB;
    Matmul<Shared, A, CGm, Bias, kIBShare> sharedA;
    Matmul<A, Shared, CGm, Bias, CFG_NORM> sharedNorm;
    sharedB.IterateAll(c);
    sharedA.IterateAll(c);
    sharedNorm.IterateAll(c);
    Matmul<Shared, Shared, CGm, Bias> bothShared1, bothShared2;  // A and B shared: IterateAll into GM (A2)
    bothShared1.IterateAll(c);
    TPipe pipe;
    TCubeTiling tiling;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), bothShared1, &tiling, bothShared2, &tiling);
#elif FAULT == 1
    Matmul<A, A, CGm, Bias, CFG_IBSHARE_NORM> noneShared;
#elif FAULT == 2
    Matmul<Shared, Shared, CGm, Bias> bothShared;
    bothShared.Iterate();
#elif FAULT == 3
    Matmul<Shared, Shared, CGm, Bias, kDualMaster> bothSharedDualMaster;
#elif FAULT == 4
    Matmul<Shared, Shared, MatmulType<TPosition::VECIN, CubeFormat::ND, float>, Bias> bothSharedUb;
    LocalTensor<float> ub;
    bothSharedUb.IterateAll(ub);
#elif FAULT == 5
    Matmul<Shared, Shared, CGm, Bias> bothShared;
    Matmul<A, Shared, CGm, Bias> bShared;
    TPipe pipe;
    TCubeTiling tiling;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), bothShared, &tiling, bShared, &tiling);
#endif
}
