// The Matmul API's IBShare forms in a MIX kernel (1:2, no ASCENDC_CUBE_ONLY), written for the project: the two AIVs
// of a block compute their own tiles of C with the same B (ibshare_b: the tiles split M, B MatmulType<..., IBSHARE>
// under CFG_IBSHARE_NORM) or the same A (ibshare_a: the tiles split N, A shared under GetIBShareNormConfig with
// ORDER_N in the tiling). tests/test_twin_matmul_ibshare.py checks them against float64 and plants the IBShare
// template's tiling faults.
//
// A is [M, K] half, B [K, N] half, bias [N] float, C [M, N] float. AIV idx owns the singleCoreM x singleCoreN tile
// at (mCore, nCore), mCore = idx % ceil(M / singleCoreM).
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

namespace {

using Plain = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using Shared = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NONE, true>;
using BiasType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using CType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

constexpr MatmulConfig kSharedA = GetIBShareNormConfig();

// setK: SetTail(-1, -1, Ka) before IterateAll (the whole K, whatever the tiling's singleCoreK).
template <class MM, bool setK = false>
__aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tilingGm)
{
    TCubeTiling t;
    uint32_t* dst = reinterpret_cast<uint32_t*>(&t);
    auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
    AscendC::TPipe pipe;
    MM mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    const uint32_t idx = AscendC::GetBlockIdx();
    const uint32_t mCores = (t.M + t.singleCoreM - 1) / t.singleCoreM;
    const uint32_t mCore = idx % mCores, nCore = idx / mCores;
    AscendC::GlobalTensor<half> aGm, bGm;
    AscendC::GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a) + mCore * t.singleCoreM * t.Ka, t.singleCoreM * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b) + nCore * t.singleCoreN, t.Kb * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias) + nCore * t.singleCoreN, t.singleCoreN);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c) + mCore * t.singleCoreM * t.N + nCore * t.singleCoreN,
                        t.singleCoreM * t.N);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.SetBias(biasGm);
    if constexpr (setK) mm.SetTail(-1, -1, t.Ka);
    mm.IterateAll(cGm);
    mm.End();
}

}  // namespace

__global__ __aicore__ void ibshare_b(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                     __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    Run<matmul::Matmul<Plain, Shared, CType, BiasType, CFG_IBSHARE_NORM>>(a, b, bias, c, tiling);
}

__global__ __aicore__ void ibshare_a(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                     __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    Run<matmul::Matmul<Shared, Plain, CType, BiasType, kSharedA>>(a, b, bias, c, tiling);
}

// A and B both shared (CFG_NORM): each AIV's IterateAll into GM (the only form A2 has for it).
__global__ __aicore__ void ibshare_ab(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                      __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    Run<matmul::Matmul<Shared, Shared, CType, BiasType>>(a, b, bias, c, tiling);
}

// SetTail with K = Ka: under the IBShare template no larger than the tiling's singleCoreK (the API's CheckTailShape);
// under CFG_NORM (A and B both shared) any size.
__global__ __aicore__ void ibshare_b_tail_k(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                            __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    Run<matmul::Matmul<Plain, Shared, CType, BiasType, CFG_IBSHARE_NORM>, true>(a, b, bias, c, tiling);
}

__global__ __aicore__ void ibshare_ab_tail_k(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                             __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    Run<matmul::Matmul<Shared, Shared, CType, BiasType>, true>(a, b, bias, c, tiling);
}
