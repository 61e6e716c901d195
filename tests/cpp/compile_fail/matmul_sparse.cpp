// SparseMatmulType and SetSparseIndex (CMakeLists.txt compiles this file once per FAULT line, and once with FAULT=0,
// which must compile: an int8_t A with a transposed int8_t SparseMatmulType B at GM, CFG_MDL, pure Cube).
// FAULT 1: SparseMatmulType: B is int8_t only
// FAULT 2: SparseMatmulType: ISTRANS is true only
// FAULT 3: a Sparse Matmul \(SparseMatmulType B\) runs with the MDL template in pure Cube mode only
// FAULT 4: Matmul::SetSparseIndex needs B of SparseMatmulType
// FAULT 5: SparseMatmulType: B and its index matrix are at TPosition::GM only
// FAULT 6: SparseMatmulType: LAYOUT is LayoutMode::NONE and IBSHARE false only
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

using I8 = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
using I32 = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
using H = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using F = MatmulType<TPosition::GM, CubeFormat::ND, float>;
template <typename T, bool trans = true, TPosition idx = TPosition::GM, bool ibShare = false>
using Sparse = SparseMatmulType<TPosition::GM, idx, CubeFormat::ND, T, trans, LayoutMode::NONE, ibShare>;

void Instantiate(GlobalTensor<uint8_t>& index)
{
#if FAULT == 0
    Matmul<I8, Sparse<int8_t>, I32, I32, CFG_MDL> mm;
    mm.SetSparseIndex(index);
#elif FAULT == 1
    Matmul<H, Sparse<half>, F, F, CFG_MDL> mm;
#elif FAULT == 2
    Matmul<I8, Sparse<int8_t, false>, I32, I32, CFG_MDL> mm;
#elif FAULT == 3
    Matmul<I8, Sparse<int8_t>, I32, I32, CFG_NORM> mm;
#elif FAULT == 4
    Matmul<I8, I8, I32, I32, CFG_MDL> mm;
    mm.SetSparseIndex(index);
#elif FAULT == 5
    Matmul<I8, Sparse<int8_t, true, TPosition::TSCM>, I32, I32, CFG_MDL> mm;
#elif FAULT == 6
    Matmul<I8, Sparse<int8_t, true, TPosition::GM, true>, I32, I32, CFG_MDL> mm;
#endif
    (void)index;
}
