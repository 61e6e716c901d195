// Cube-only Matmul objects with a constant tiling (MM_CFG a MatmulApiStaticTiling from GetMatmulApiTiling), in the
// forms of asc-devkit's matmul_constant_tiling and matmul_l0cache samples, written for the project, and the planted
// fault of tests/test_twin_matmul_constant_tiling.py.
//
// A is [M, K] half, B [K, N] half, bias [N] float, C [M, N] float. shapes (GM) holds {m, n, k, singleM, singleN,
// isBias}; block idx owns the singleM x singleN tile of C at (idx % ceil(m / singleM), idx / ceil(m / singleM)).
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

namespace {

using AType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using CType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BiasType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

// Full constant tiling: single shape up to 64 x 96 x 80 (the kernel's SetOrgShape and SetTail give the real ones),
// base 32 x 48 x 32.
constexpr MatmulShapeParams kFullShape = {64, 96, 80, 32, 48, 32};
constexpr MatmulApiStaticTiling kFull =
    AscendC::GetMatmulApiTiling<AType, AType, CType, BiasType>(GetMMConfig<MatmulConfigMode::CONFIG_NORM>(kFullShape));
// Partial constant tiling: the base blocks only (32 x 32 x 16, MDL); the rest from the runtime TCubeTiling.
constexpr MatmulApiStaticTiling kPartial = AscendC::GetMatmulApiTiling<AType, AType, CType, BiasType>(
    GetMMConfig<MatmulConfigMode::CONFIG_MDL>(MatmulShapeParams{0, 0, 0, 32, 32, 16}));

struct Shapes {
    int32_t m, n, k, singleM, singleN, isBias;
};

template <const auto& CFG>
__aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR shapesGm, const TCubeTiling* tiling)
{
    Shapes s;
    auto src = reinterpret_cast<__gm__ int32_t*>(shapesGm);
    s = {src[0], src[1], src[2], src[3], src[4], src[5]};
    AscendC::TPipe pipe;
    AscendC::Matmul<AType, AType, CType, BiasType, CFG> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, tiling);
    const int32_t idx = AscendC::GetBlockIdx();
    const int32_t mCores = (s.m + s.singleM - 1) / s.singleM;
    const int32_t mCore = idx % mCores, nCore = idx / mCores;
    AscendC::GlobalTensor<half> aGm, bGm;
    AscendC::GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), s.m * s.k);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), s.k * s.n);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), s.n);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), s.m * s.n);
    mm.SetOrgShape(s.m, s.n, s.k);
    const int32_t rows = s.m - mCore * s.singleM < s.singleM ? s.m - mCore * s.singleM : s.singleM;
    const int32_t cols = s.n - nCore * s.singleN < s.singleN ? s.n - nCore * s.singleN : s.singleN;
    mm.SetTail(rows, cols, s.k);
    mm.SetTensorA(aGm[mCore * s.singleM * s.k]);
    mm.SetTensorB(bGm[nCore * s.singleN]);
    if (s.isBias) mm.SetBias(biasGm[nCore * s.singleN]);
    mm.IterateAll(cGm[mCore * s.singleM * s.n + nCore * s.singleN]);
    mm.End();
}

}  // namespace

// REGIST_MATMUL_OBJ with a null tiling: every field from the full constant tiling.
extern "C" __global__ __cube__ void full_constant(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR shapes)
{
    Run<kFull>(a, b, bias, c, shapes, nullptr);
}

// The base blocks constant, the rest from the runtime TCubeTiling (its base blocks are overridden).
extern "C" __global__ __cube__ void partial_constant(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR shapes,
                                                     GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    auto src = reinterpret_cast<__gm__ int32_t*>(tilingGm);
    int32_t* dst = reinterpret_cast<int32_t*>(&tiling);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(int32_t); ++i) dst[i] = src[i];
    Run<kPartial>(a, b, bias, c, shapes, &tiling);
}

// Planted fault: a partial constant tiling with a null tiling pointer (the sizes and the L1 split are unset).
extern "C" __global__ __cube__ void partial_constant_null(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                          GM_ADDR shapes)
{
    Run<kPartial>(a, b, bias, c, shapes, nullptr);
}
