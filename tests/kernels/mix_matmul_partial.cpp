// The Matmul API's partial outputs (MatmulConfig isPartialOutput, MDL template) in a MIX kernel (1:2), written for the
// project: each Iterate computes one base block over one baseK slice (K innermost, not accumulated in L0C) and
// GetTensorC writes it densely into GM one after another; tests/test_twin_matmul_partial_output.py checks every slice
// against float64 and plants the API's rules (no bias, no IterateAll).
//
// A is [M, K] half, B [K, N] half, C float; AIV 0 computes the whole C (one block), AIV 1 only registers.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

namespace {

using AType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using BiasType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using CType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

constexpr MatmulConfig Partial()
{
    MatmulConfig c = CFG_MDL;
    c.isPartialOutput = true;
    return c;
}
constexpr MatmulConfig kPartial = Partial();
using Mm = matmul::Matmul<AType, AType, CType, BiasType, kPartial>;

enum class Form { kSlices, kWithBias, kIterateAll };

template <Form form>
__aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR slices, GM_ADDR tilingGm)
{
    TCubeTiling t;
    uint32_t* dst = reinterpret_cast<uint32_t*>(&t);
    auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
    AscendC::TPipe pipe;
    Mm mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    if (AscendC::GetBlockIdx() != 0) return;
    AscendC::GlobalTensor<half> aGm, bGm;
    AscendC::GlobalTensor<float> biasGm, out;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), t.N);
    const uint32_t kIter = (t.singleCoreK + t.baseK - 1) / t.baseK;
    out.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(slices), t.M * t.N * kIter);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    if constexpr (form == Form::kWithBias) mm.SetBias(biasGm);
    if constexpr (form == Form::kIterateAll) {
        mm.IterateAll(out);
    } else {
        uint32_t offset = 0;
        while (mm.Iterate()) {
            mm.GetTensorC(out[offset], 0, true);
            offset += t.baseM * t.baseN;
        }
    }
    mm.End();
}

}  // namespace

__global__ __aicore__ void partial_slices(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR slices,
                                          __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    Run<Form::kSlices>(a, b, bias, slices, tiling);
}

__global__ __aicore__ void partial_with_bias(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR slices,
                                             __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    Run<Form::kWithBias>(a, b, bias, slices, tiling);
}

__global__ __aicore__ void partial_iterate_all(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR slices,
                                               __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    Run<Form::kIterateAll>(a, b, bias, slices, tiling);
}
