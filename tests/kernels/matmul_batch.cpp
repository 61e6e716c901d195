// The batch Matmul forms on the twin (MIX kernels, C in GM): IterateBatch with the NORMAL (BMNK) layout and with
// BSNGD, IterateNBatch into the SetWorkspace buffer, written for the project in the forms of asc-devkit's batch
// Matmul samples; `mode` plants the faults of tests/test_twin_matmul_batch.py (0: none, the passing counterpart).
//
// Half A and B, float bias and C. NORMAL: A [batch, M, K], B [batch, K, N], C [batch, M, N], bias [batch, N]
// (isBiasBatch) or [N]; each AIV (GetBlockIdx) computes its own group of max(batchA, batchB) matrices. BSNGD: A
// [B, S=M, N, G, D=K], B transposed [B, S=N, N, G, D=K], C [B, M, N, G, N]; each AIV one B index.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

namespace {

using HalfGm = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
using FloatGm = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>;
using BiasGm = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using ABsngd = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, false, LayoutMode::BSNGD>;
using BBsngd = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, true, LayoutMode::BSNGD>;
using CBsngd = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float, false, LayoutMode::BSNGD>;

constexpr MatmulConfig CFG_BATCH = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(
    MatmulBatchParams{false, BatchMode::BATCH_LESS_THAN_L1, true});
constexpr MatmulConfig CFG_BIAS_REUSED = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(
    MatmulBatchParams{false, BatchMode::BATCH_LESS_THAN_L1, false});
constexpr MatmulConfig CFG_NBATCH = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(
    MatmulBatchParams{true, BatchMode::BATCH_LESS_THAN_L1, false});

enum Mode : uint32_t {
    kOk = 0,
    kNoSetTensor = 1,   // a second IterateBatch with no SetTensorA/SetTensorB since the first
    kStrideC = 2,       // matrixStrideC = 1 (reserved: 0)
    kOrgShape = 3,      // SetOrgShape before IterateBatch
    kAtomic = 4,        // enAtomic = 1
    kPartialSum = 5,    // enPartialSum = true
    kAsync = 6,         // IterateBatch<false>
    kSequential = 7,    // enSequentialWrite = true (BSNGD)
    kNoWorkspace = 8,   // IterateNBatch without SetWorkspace
    kSmallWorkspace = 9,  // IterateNBatch into a SetWorkspace buffer one matrix short
    kGetBatchC = 10,    // GetBatchTensorC after a synchronous IterateNBatch
};

template <class MM>
__aicore__ inline void Run(MM& mm, const AscendC::GlobalTensor<float>& c, uint32_t batchA, uint32_t batchB,
                           uint32_t mode)
{
    if (mode == kStrideC) {
        mm.IterateBatch(c, batchA, batchB, false, 0, 0, 1);
    } else if (mode == kAtomic) {
        mm.IterateBatch(c, batchA, batchB, false, 0, 0, 0, false, 1);
    } else if (mode == kPartialSum) {
        mm.IterateBatch(c, batchA, batchB, false, 0, 0, 0, true);
    } else if (mode == kAsync) {
        mm.template IterateBatch<false>(c, batchA, batchB, false);
    } else if (mode == kSequential) {
        mm.IterateBatch(c, batchA, batchB, true);
    } else {
        mm.IterateBatch(c, batchA, batchB, false);
        if (mode == kNoSetTensor) mm.IterateBatch(c, batchA, batchB, false);
    }
}

template <const auto& CFG>
__aicore__ inline void NormalKernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const TCubeTiling& t,
                                    uint32_t batchA, uint32_t batchB, uint32_t mode)
{
    AscendC::TPipe pipe;
    AscendC::Matmul<HalfGm, HalfGm, FloatGm, BiasGm, CFG> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    const uint32_t group = AscendC::GetBlockIdx();
    const uint32_t batchC = batchA > batchB ? batchA : batchB;
    const uint32_t mk = t.M * t.Ka, kn = t.Kb * t.N, mn = t.M * t.N;
    AscendC::GlobalTensor<half> aGm, bGm;
    AscendC::GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a) + group * batchA * mk, batchA * mk);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b) + group * batchB * kn, batchB * kn);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias) + (CFG.isBiasBatch ? group * batchC * t.N : 0),
                           CFG.isBiasBatch ? batchC * t.N : t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c) + group * batchC * mn, batchC * mn);
    if (mode == kOrgShape) mm.SetOrgShape(t.M, t.N, t.Ka);
    mm.SetTensorA(aGm, false);
    mm.SetTensorB(bGm, false);
    if (t.isBias) mm.SetBias(biasGm);
    Run(mm, cGm, batchA, batchB, mode);
}

__aicore__ inline void BsngdKernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling& t, uint32_t batchA,
                                   uint32_t batchB, uint32_t mode)
{
    AscendC::TPipe pipe;
    AscendC::Matmul<ABsngd, BBsngd, CBsngd, BiasGm> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    const uint32_t idx = AscendC::GetBlockIdx();
    const uint32_t sizeA = t.ALayoutInfoS * t.ALayoutInfoN * t.ALayoutInfoG * t.ALayoutInfoD;
    const uint32_t sizeB = t.BLayoutInfoS * t.BLayoutInfoN * t.BLayoutInfoG * t.BLayoutInfoD;
    const uint32_t sizeC = t.CLayoutInfoS1 * t.CLayoutInfoN * t.CLayoutInfoG * t.CLayoutInfoS2;
    AscendC::GlobalTensor<half> aGm, bGm;
    AscendC::GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a) + idx * sizeA, sizeA);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b) + idx * sizeB, sizeB);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c) + idx * sizeC, sizeC);
    // one IterateBatch per group of batchA SD blocks along N*G
    const uint32_t ng = t.ALayoutInfoN * t.ALayoutInfoG;
    const uint32_t loops = batchA > 0 && ng >= batchA && ng % batchA == 0 ? ng / batchA : 1;
    for (uint32_t i = 0; i < loops; ++i) {
        mm.SetTensorA(aGm[i * batchA * t.ALayoutInfoD], false);
        mm.SetTensorB(bGm[i * batchB * t.BLayoutInfoD], true);
        Run(mm, cGm[i * batchA * t.CLayoutInfoS2], batchA, batchB, mode);
    }
}

// IterateNBatch on AIV 0: batchLoop batches of `batch` SD blocks, C straight into the SetWorkspace buffer (C); the
// server moves the bias on by batch * CLayoutInfoS2 per loop (isBiasBatch or not), each loop's batch reusing its own.
__aicore__ inline void NBatchKernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const TCubeTiling& t,
                                    uint32_t batchLoop, uint32_t batch, uint32_t mode)
{
    AscendC::TPipe pipe;
    AscendC::Matmul<ABsngd, BBsngd, CBsngd, BiasGm, CFG_NBATCH> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    if (AscendC::GetBlockIdx() != 0) return;
    const uint32_t sizeC = t.CLayoutInfoB * t.CLayoutInfoS1 * t.CLayoutInfoN * t.CLayoutInfoG * t.CLayoutInfoS2;
    AscendC::GlobalTensor<half> aGm, bGm;
    AscendC::GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias));
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c),
                        mode == kSmallWorkspace ? sizeC - t.CLayoutInfoS1 * t.CLayoutInfoS2 : sizeC);
    mm.SetTensorA(aGm, false);
    mm.SetTensorB(bGm, true);
    if (t.isBias) mm.SetBias(biasGm);
    if (mode != kNoWorkspace) mm.SetWorkspace(cGm);
    mm.IterateNBatch(batchLoop, batch, batch, false);
    if (mode == kGetBatchC) (void)mm.GetBatchTensorC(batch, batch);
}

}  // namespace

extern "C" __global__ __aicore__ void batch_normal(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                   __kfc_workspace__ GM_ADDR workspace, TCubeTiling tiling,
                                                   uint32_t batchA, uint32_t batchB, uint32_t mode)
{
    (void)workspace;
    NormalKernel<CFG_BATCH>(a, b, bias, c, tiling, batchA, batchB, mode);
}

extern "C" __global__ __aicore__ void batch_normal_bias_reused(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                               __kfc_workspace__ GM_ADDR workspace,
                                                               TCubeTiling tiling, uint32_t batchA, uint32_t batchB,
                                                               uint32_t mode)
{
    (void)workspace;
    NormalKernel<CFG_BIAS_REUSED>(a, b, bias, c, tiling, batchA, batchB, mode);
}

extern "C" __global__ __aicore__ void batch_bsngd(GM_ADDR a, GM_ADDR b, GM_ADDR c, __kfc_workspace__ GM_ADDR workspace,
                                                  TCubeTiling tiling, uint32_t batchA, uint32_t batchB, uint32_t mode)
{
    (void)workspace;
    BsngdKernel(a, b, c, tiling, batchA, batchB, mode);
}

extern "C" __global__ __aicore__ void batch_n_batch(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                    __kfc_workspace__ GM_ADDR workspace, TCubeTiling tiling,
                                                    uint32_t batchLoop, uint32_t batch, uint32_t mode)
{
    (void)workspace;
    NBatchKernel(a, b, bias, c, tiling, batchLoop, batch, mode);
}
