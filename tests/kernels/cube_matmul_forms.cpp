// Pure Cube Matmul forms (ASCENDC_CUBE_ONLY), written for the project; tests/test_twin_matmul_cube_forms.py checks them
// against float64 and plants the faults. The object in a cube+vector MIX kernel, as the CV fusion guide writes it by
// hand (asc-devkit's matmul_fused_manual): the AIC computes C into GM with its own Matmul object (C's MatmulType at
// VECIN, written into GM) and signals the AIVs with CrossCoreSetFlag; each AIV then doubles its half of C's rows (the
// faults: the object called on an AIV, in a vector-only kernel). a2b2_shared_pair: two objects with MatmulConfig
// isA2B2Shared. nd_align_c, gemv_a, nz_split_c: C in ND_ALIGN, A in VECTOR, C in NZ with channel split.
//
// A is [M, K] half, B [K, N] half, bias [N] float, C [M, N] float; one block, the whole C on its AIC.
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

namespace {

using AType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using BiasType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using CType = matmul::MatmulType<AscendC::TPosition::VECIN, CubeFormat::ND, float>;
using Mm = matmul::Matmul<AType, AType, CType, BiasType>;

__aicore__ inline void LoadTiling(TCubeTiling* t, GM_ADDR tilingGm)
{
    uint32_t* dst = reinterpret_cast<uint32_t*>(t);
    auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
}

__aicore__ inline void Compute(AscendC::TPipe& pipe, const TCubeTiling& t, GM_ADDR a, GM_ADDR b, GM_ADDR bias,
                               GM_ADDR c)
{
    Mm mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::GlobalTensor<half> aGm, bGm;
    AscendC::GlobalTensor<float> biasGm, cGm;
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

// The AIV's half of C's rows, doubled in place.
__aicore__ inline void Double(AscendC::TPipe& pipe, const TCubeTiling& t, GM_ADDR c)
{
    const uint32_t n = t.M * t.N / 2;
    AscendC::GlobalTensor<float> half_;
    half_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c) + AscendC::GetSubBlockIdx() * n, n);
    AscendC::TQue<AscendC::TPosition::VECIN, 1> in;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> out;
    pipe.InitBuffer(in, 1, n * sizeof(float));
    pipe.InitBuffer(out, 1, n * sizeof(float));
    AscendC::LocalTensor<float> x = in.AllocTensor<float>();
    AscendC::DataCopy(x, half_, n);
    in.EnQue(x);
    x = in.DeQue<float>();
    AscendC::LocalTensor<float> y = out.AllocTensor<float>();
    AscendC::Muls(y, x, 2.0f, n);
    out.EnQue(y);
    in.FreeTensor(x);
    y = out.DeQue<float>();
    AscendC::DataCopy(half_, y, n);
    out.FreeTensor(y);
}

}  // namespace

__global__ __mix__(1, 2) void cube_matmul_then_vector(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                      __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    AscendC::TPipe pipe;
    TCubeTiling t;
    LoadTiling(&t, tiling);
    if ASCEND_IS_AIC {
        Compute(pipe, t, a, b, bias, c);
        AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(3);
    }
    if ASCEND_IS_AIV {
        AscendC::CrossCoreWaitFlag(3);
        Double(pipe, t, c);
    }
}

// Planted: the AIVs drive the pure Cube object (an AIV has no cube unit).
__global__ __mix__(1, 2) void cube_matmul_on_aiv(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                 __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    AscendC::TPipe pipe;
    TCubeTiling t;
    LoadTiling(&t, tiling);
    if ASCEND_IS_AIV {
        if (AscendC::GetSubBlockIdx() == 0) Compute(pipe, t, a, b, bias, c);
    }
}

// Planted: a vector-only kernel (no AIC) with a pure Cube object.
__global__ __aicore__ void cube_matmul_in_vector_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                        __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    (void)workspace;
    AscendC::TPipe pipe;
    TCubeTiling t;
    LoadTiling(&t, tiling);
    Compute(pipe, t, a, b, bias, c);
}

// The counterpart of the kernel types: a cube kernel's AIC.
__global__ __cube__ void cube_matmul_in_cube_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                    __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    AscendC::TPipe pipe;
    TCubeTiling t;
    LoadTiling(&t, tiling);
    Compute(pipe, t, a, b, bias, c);
}

// Two objects sharing one L0A/L0B double buffer (MatmulConfig isA2B2Shared, as asc-devkit's matmul_a2b2_share):
// c = a @ b + bias and c2 = a @ b2 + bias on a cube kernel's AIC.
namespace {
constexpr MatmulConfig A2B2()
{
    MatmulConfig c = CFG_NORM;
    c.isA2B2Shared = true;
    return c;
}
constexpr MatmulConfig kA2B2 = A2B2();
using GmC = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
}  // namespace

__global__ __cube__ void a2b2_shared_pair(GM_ADDR a, GM_ADDR b, GM_ADDR b2, GM_ADDR bias, GM_ADDR c, GM_ADDR c2,
                                          __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    AscendC::TPipe pipe;
    TCubeTiling t;
    LoadTiling(&t, tiling);
    matmul::Matmul<AType, AType, GmC, BiasType, kA2B2> mm1, mm2;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm1, &t, mm2, &t);
    AscendC::GlobalTensor<half> aGm, bGm, b2Gm;
    AscendC::GlobalTensor<float> biasGm, cGm, c2Gm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
    b2Gm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b2), t.Kb * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
    c2Gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c2), t.M * t.N);
    mm1.SetTensorA(aGm);
    mm1.SetTensorB(bGm);
    mm1.SetBias(biasGm);
    mm2.SetTensorA(aGm);
    mm2.SetTensorB(b2Gm);
    mm2.SetBias(biasGm);
    mm1.IterateAll(cGm);
    mm1.End();
    mm2.IterateAll(c2Gm);
    mm2.End();
}

// C's MatmulType in ND_ALIGN (as asc-devkit's matmul_format_nd_align): C's rows 32 bytes aligned in GM.
namespace {
using AlignC = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND_ALIGN, float>;
}  // namespace

__global__ __cube__ void nd_align_c(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, __kfc_workspace__ GM_ADDR workspace,
                                    GM_ADDR tiling)
{
    (void)workspace;
    AscendC::TPipe pipe;
    TCubeTiling t;
    LoadTiling(&t, tiling);
    matmul::Matmul<AType, AType, AlignC, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::GlobalTensor<half> aGm, bGm;
    AscendC::GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * ((t.N + 7) / 8 * 8));
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.SetBias(biasGm);
    mm.IterateAll(cGm);
    mm.End();
}

// A's MatmulType in VECTOR (GEMV, as asc-devkit's matmul_format_gemv): a [1, K] row times B.
namespace {
template <bool transposed>
__aicore__ inline void Gemv(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling)
{
    using VecA = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::VECTOR, half, transposed>;
    using GmC = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
    AscendC::TPipe pipe;
    TCubeTiling t;
    LoadTiling(&t, tiling);
    matmul::Matmul<VecA, AType, GmC, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::GlobalTensor<half> aGm, bGm;
    AscendC::GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
    mm.SetTensorA(aGm, transposed);
    mm.SetTensorB(bGm);
    mm.SetBias(biasGm);
    mm.IterateAll(cGm);
    mm.End();
}
}  // namespace

__global__ __cube__ void gemv_a(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, __kfc_workspace__ GM_ADDR workspace,
                                GM_ADDR tiling)
{
    (void)workspace;
    Gemv<false>(a, b, bias, c, tiling);
}

// Planted: A in VECTOR set transposed (the API asserts GEMV's A is not).
__global__ __cube__ void gemv_a_transposed(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                           __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    Gemv<true>(a, b, bias, c, tiling);
}

// C's MatmulType in NZ with MatmulConfig isEnableChannelSplit (as asc-devkit's matmul_channelsplit_output): float C
// in 8-column fractals of Ceil(M, 16) * 16 rows.
namespace {
constexpr MatmulConfig ChannelSplit()
{
    MatmulConfig c = CFG_NORM;
    c.isEnableChannelSplit = true;
    return c;
}
constexpr MatmulConfig kChannelSplit = ChannelSplit();
using NzC = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::NZ, float>;
}  // namespace

__global__ __cube__ void nz_split_c(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, __kfc_workspace__ GM_ADDR workspace,
                                    GM_ADDR tiling)
{
    (void)workspace;
    AscendC::TPipe pipe;
    TCubeTiling t;
    LoadTiling(&t, tiling);
    matmul::Matmul<AType, AType, NzC, BiasType, kChannelSplit> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::GlobalTensor<half> aGm, bGm;
    AscendC::GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), (t.M + 15) / 16 * 16 * t.N);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.SetBias(biasGm);
    mm.IterateAll(cGm);
    mm.End();
}
