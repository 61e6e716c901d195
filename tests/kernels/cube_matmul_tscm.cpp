// The Matmul API with A at TPosition::TSCM in a pure Cube kernel (ASCENDC_CUBE_ONLY, __cube__), written for the
// project: the AIC takes a TSCM<GM, 1> buffer from the top of its own L1, copies A (NZ) into it with DataCopy (on the
// AIC a plain GM -> L1 copy) and gives the tensor to SetTensorA; B and bias from GM, C to GM.
// tests/test_twin_matmul_tscm.py checks it against float64 and plants an L1 overlap: an A1 queue as large as the
// L1 below the TSCM buffer plus one block.
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

namespace {

using ATscm = matmul::MatmulType<AscendC::TPosition::TSCM, CubeFormat::NZ, half>;
using BType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using BiasType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using CType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

template <bool overlap>
__aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tilingGm)
{
    TCubeTiling t;
    uint32_t* dst = reinterpret_cast<uint32_t*>(&t);
    auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
    AscendC::TPipe pipe;
    matmul::Matmul<ATscm, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    const uint32_t aElems = t.M * t.Ka;
    AscendC::GlobalTensor<half> aGm, bGm;
    AscendC::GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), aElems);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
    AscendC::TSCM<AscendC::TPosition::GM, 1> scm;
    pipe.InitBuffer(scm, 1, aElems * sizeof(half));
    // An A1 queue below the TSCM buffer, 64 KiB left for the Matmul's B1 and bias (with `overlap` one 32-byte block
    // into the TSCM buffer).
    AscendC::TQue<AscendC::TPosition::A1, 1> a1;
    pipe.InitBuffer(a1, 1, AscendC::TOTAL_L1_SIZE - aElems * sizeof(half) + (overlap ? 32 : -65536));
    auto scmTensor = scm.AllocTensor<half>();
    AscendC::DataCopy(scmTensor, aGm, aElems);
    scm.EnQue(scmTensor);
    AscendC::LocalTensor<half> scmLocal = scm.DeQue<half>();
    mm.SetTensorA(scmLocal);
    mm.SetTensorB(bGm);
    mm.SetBias(biasGm);
    mm.IterateAll(cGm);
    mm.End();
    scm.FreeTensor(scmLocal);
}

}  // namespace

__global__ __cube__ void cube_tscm_a(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                     __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    Run<false>(a, b, bias, c, tiling);
}

__global__ __cube__ void cube_tscm_a_l1_overlap(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    Run<true>(a, b, bias, c, tiling);
}
