// A cube-only Matmul object with C at CO1 (MatmulType<CO1, NZ, GetMmDstType<half>::Type>), in the form of
// asc-devkit's matmul_co1_output sample, written for the project: Iterate(enPartialSum, LocalTensor) leaves each
// base block in the kernel's CO1 buffer (NZ, the blocks of a base row one after another along N) and the kernel's
// Fixpipe moves the row of blocks to GM; and the planted faults of tests/test_twin_matmul_co1_output.py.
//
// A is [M, K] half, B [K, N] half, bias [N] float, C [M, N] float, one core; the tiling (TCubeTiling) in GM has
// singleCoreM = baseM (one base row).
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

namespace {

using AType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using L0cT = AscendC::GetMmDstType<half>::Type;
using CType = AscendC::MatmulType<AscendC::TPosition::CO1, CubeFormat::NZ, L0cT>;
using BiasType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

enum class Fault { kNone, kTwice, kSmallBuffer, kNotCo1 };

template <Fault fault>
__aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tilingGm)
{
    TCubeTiling t;
    auto src = reinterpret_cast<__gm__ int32_t*>(tilingGm);
    int32_t* dst = reinterpret_cast<int32_t*>(&t);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(int32_t); ++i) dst[i] = src[i];
    AscendC::TPipe pipe;
    AscendC::Matmul<AType, AType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::GlobalTensor<half> aGm, bGm;
    AscendC::GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
    AscendC::TQue<AscendC::TPosition::CO1, 1> co1;
    const uint32_t elements = t.baseM * t.singleCoreN - (fault == Fault::kSmallBuffer ? t.baseM * 16 : 0);
    pipe.InitBuffer(co1, 1, elements * sizeof(L0cT));
    AscendC::LocalTensor<L0cT> l0c = co1.AllocTensor<L0cT>();
    AscendC::TBuf<AscendC::TPosition::A1> l1;
    pipe.InitBuffer(l1, 4096);
    const int passes = fault == Fault::kTwice ? 2 : 1;
    for (int pass = 0; pass < passes; ++pass) {
        mm.SetTensorA(aGm);
        mm.SetTensorB(bGm);
        mm.SetBias(biasGm);
        int64_t offset = 0;
        if constexpr (fault == Fault::kNotCo1) {
            AscendC::LocalTensor<float> notCo1 = l1.Get<float>();
            while (mm.Iterate(false, notCo1)) {
            }
        } else {
            // One Iterate per base block of the row, as the sample counts them; pass 2 (kTwice) accumulates onto
            // pass 1's blocks: C = 2 (A B + bias).
            const int32_t blocks = (t.singleCoreN + t.baseN - 1) / t.baseN;
            for (int32_t i = 0; i < blocks; ++i, offset += t.baseM * t.baseN) mm.Iterate(pass > 0, l0c[offset]);
        }
    }
    AscendC::FixpipeParamsV220 params;
    params.mSize = t.baseM;
    params.nSize = t.singleCoreN;
    params.srcStride = (t.baseM + 15) / 16 * 16;
    params.dstStride = t.N;
    co1.EnQue(l0c);
    co1.DeQue<L0cT>();
    AscendC::Fixpipe<float, L0cT, AscendC::CFG_ROW_MAJOR>(cGm, l0c, params);
    co1.FreeTensor(l0c);
    mm.End();
}

}  // namespace

extern "C" __global__ __cube__ void co1_output(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling)
{
    Run<Fault::kNone>(a, b, bias, c, tiling);
}
// enPartialSum = true on a second walk: each block added onto the first walk's.
extern "C" __global__ __cube__ void co1_output_twice(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling)
{
    Run<Fault::kTwice>(a, b, bias, c, tiling);
}
// Planted: the CO1 buffer is one fractal column short of the last block.
extern "C" __global__ __cube__ void co1_output_small(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling)
{
    Run<Fault::kSmallBuffer>(a, b, bias, c, tiling);
}
// Planted: the blocks asked into an L1 (A1) tensor instead of a CO1 one.
extern "C" __global__ __cube__ void co1_output_not_co1(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling)
{
    Run<Fault::kNotCo1>(a, b, bias, c, tiling);
}
