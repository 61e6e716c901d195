// A 4:2 sparse Matmul (SparseMatmulType B; tests/test_twin_matmul_sparse.py): int8_t A [M, K], B given as its dense
// [N, K / 2] (transposed) with the 2-bit index matrix (NZ) through SetSparseIndex, CFG_MDL, pure Cube, int32_t bias
// and C. The planted fault: the same object without SetSparseIndex.
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

namespace {
using I8 = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
using SparseI8 = SparseMatmulType<TPosition::GM, TPosition::GM, CubeFormat::ND, int8_t, true>;
using I32 = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;

__aicore__ inline void LoadTiling(TCubeTiling* t, GM_ADDR tilingGm)
{
    uint32_t* dst = reinterpret_cast<uint32_t*>(t);
    auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
}

template <bool withIndex>
__aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR index, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling)
{
    TPipe pipe;
    TCubeTiling t;
    LoadTiling(&t, tiling);
    Matmul<I8, SparseI8, I32, I32, CFG_MDL> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<int8_t> aGm, bGm;
    GlobalTensor<uint8_t> indexGm;
    GlobalTensor<int32_t> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(b), t.Kb / 2 * t.N);
    indexGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(index), t.N * t.Kb / 8);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(bias), t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(c), t.M * t.N);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm, true);
    if constexpr (withIndex) mm.SetSparseIndex(indexGm);
    mm.SetBias(biasGm);
    mm.IterateAll(cGm);
    mm.End();
}
}  // namespace

__global__ __cube__ void sparse_int8(GM_ADDR a, GM_ADDR b, GM_ADDR index, GM_ADDR bias, GM_ADDR c,
                                     __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    Run<true>(a, b, index, bias, c, tiling);
}

__global__ __cube__ void sparse_int8_no_index(GM_ADDR a, GM_ADDR b, GM_ADDR index, GM_ADDR bias, GM_ADDR c,
                                              __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    Run<false>(a, b, index, bias, c, tiling);
}
