// int8_t Matmul objects of a cube kernel (tests/test_twin_matmul_int8.py): int8_t A and B with an int32_t bias, C
// int32_t (L0C as it is) or half through the dequantisation of SetQuantScalar / SetQuantVector (DEQF16 / VDEQF16),
// and the planted faults: a half C with no quantisation parameter set.
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

namespace {
using I8 = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
using I32 = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
using F16 = MatmulType<TPosition::GM, CubeFormat::ND, half>;

__aicore__ inline void LoadTiling(TCubeTiling* t, GM_ADDR tilingGm)
{
    uint32_t* dst = reinterpret_cast<uint32_t*>(t);
    auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
}

// mode 0: no quantisation call, 1: SetQuantScalar(quant[0]), 2: SetQuantVector(quant)
template <typename C, int mode>
__aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR quant, GM_ADDR tiling)
{
    using CT = typename C::T;
    TPipe pipe;
    TCubeTiling t;
    LoadTiling(&t, tiling);
    Matmul<I8, I8, C, I32> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<int8_t> aGm, bGm;
    GlobalTensor<int32_t> biasGm;
    GlobalTensor<CT> cGm;
    GlobalTensor<uint64_t> qGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(b), t.Kb * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(bias), t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ CT*>(c), t.M * t.N);
    qGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(quant), t.N);
    if constexpr (mode == 1) mm.SetQuantScalar(qGm.GetValue(0));
    if constexpr (mode == 2) mm.SetQuantVector(qGm);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.SetBias(biasGm);
    mm.IterateAll(cGm);
    mm.End();
}
}  // namespace

__global__ __cube__ void int8_int32_c(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR quant,
                                      __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    Run<I32, 0>(a, b, bias, c, quant, tiling);
}

__global__ __cube__ void int8_half_c_scalar(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR quant,
                                            __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    Run<F16, 1>(a, b, bias, c, quant, tiling);
}

__global__ __cube__ void int8_half_c_vector(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR quant,
                                            __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    Run<F16, 2>(a, b, bias, c, quant, tiling);
}

// Planted: half C with no SetQuantScalar/SetQuantVector.
__global__ __cube__ void int8_half_c_unquantised(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR quant,
                                                 __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    Run<F16, 0>(a, b, bias, c, quant, tiling);
}

// int4b_t A and B (two a byte in GM, low nibble first), int32_t bias and C; B given [K, N], or with `transB`
// [N, K] (MatmulType ISTRANS, SetTensorB(..., true)).
template <bool transB>
__aicore__ inline void RunInt4(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling)
{
    using I4 = MatmulType<TPosition::GM, CubeFormat::ND, int4b_t>;
    using I4B = MatmulType<TPosition::GM, CubeFormat::ND, int4b_t, transB>;
    TPipe pipe;
    TCubeTiling t;
    LoadTiling(&t, tiling);
    Matmul<I4, I4B, I32, I32> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<int4b_t> aGm, bGm;
    GlobalTensor<int32_t> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t*>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t*>(b), t.Kb * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(bias), t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(c), t.M * t.N);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm, transB);
    mm.SetBias(biasGm);
    mm.IterateAll(cGm);
    mm.End();
}

__global__ __cube__ void int4_int32_c(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR quant,
                                      __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    (void)quant;
    RunInt4<false>(a, b, bias, c, tiling);
}

__global__ __cube__ void int4_int32_c_trans_b(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR quant,
                                              __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    (void)quant;
    RunInt4<true>(a, b, bias, c, tiling);
}
