// Cube-only Matmul objects with a MATMUL_POLICY, one core (tests/test_twin_matmul_policies.py): NBuffer33MatmulPolicy
// (CFG_MDL, IterateAll into GM), checked against float64 with the policy's tiling faults planted (steps above 3, A not
// whole in L1); TrianUpperMatmulPolicy / TrianLowerMatmulPolicy (IterateAll, or Iterate and GetTensorC).
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

namespace {
using H = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using F = MatmulType<TPosition::GM, CubeFormat::ND, float>;

template <template <const auto&, typename...> class P, bool iterate>
__aicore__ inline void Triangle(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling)
{
    TPipe pipe;
    TCubeTiling t;
    uint32_t* dst = reinterpret_cast<uint32_t*>(&t);
    auto src = reinterpret_cast<__gm__ uint32_t*>(tiling);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
    Matmul<H, H, F, F, CFG_NORM, MatmulCallBackFunc<nullptr, nullptr, nullptr>, P> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.SetBias(biasGm);
    if constexpr (iterate) {
        while (mm.Iterate()) mm.GetTensorC(cGm);
    } else {
        mm.IterateAll(cGm);
    }
    mm.End();
}
}  // namespace

__global__ __cube__ void trian_upper(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                     __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    Triangle<Impl::Detail::TrianUpperMatmulPolicy, false>(a, b, bias, c, tiling);
}

__global__ __cube__ void trian_lower_iterate(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                             __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    Triangle<Impl::Detail::TrianLowerMatmulPolicy, true>(a, b, bias, c, tiling);
}

__global__ __cube__ void nbuffer33(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, __kfc_workspace__ GM_ADDR workspace,
                                   GM_ADDR tiling)
{
    (void)workspace;
    TPipe pipe;
    TCubeTiling t;
    uint32_t* dst = reinterpret_cast<uint32_t*>(&t);
    auto src = reinterpret_cast<__gm__ uint32_t*>(tiling);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
    Matmul<H, H, F, F, CFG_MDL, MatmulCallBackFunc<nullptr, nullptr, nullptr>, Impl::Detail::NBuffer33MatmulPolicy> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.SetBias(biasGm);
    mm.IterateAll(cGm);
    mm.End();
}
