// The Matmul API with A at TPosition::TSCM in a MIX kernel (1:2, no ASCENDC_CUBE_ONLY), written for the project:
// each AIV takes a TSCM<GM, 1> queue buffer (its share of the block's AIC's L1), copies its single-core A into it
// with DataCopy (on A2 a message its AIC serves), and gives that L1 tensor to SetTensorA; B and bias come from GM.
// tests/test_twin_matmul_tscm.py checks the results against float64 and plants the TSCM rules' faults.
//
// A is given in GM per AIV tile in NZ: the singleCoreM x Ka rows block of mCore as 16-column fractals (transposed
// kernels: the Ka x singleCoreM block of A^T likewise; tscm_a_padded: the rows padded to 16; tscm_a_nd2nz: in ND),
// one tile after another. B [K, N] half, bias [N] float, C [M, N] float. AIV idx owns the singleCoreM x singleCoreN
// tile at (mCore, nCore), mCore = idx % ceil(M / singleCoreM). The kernels declare __mix__(1, 2): the
// copy-before-REGIST_MATMUL_OBJ fault runs on an AIV of a MIX launch from its start (a kernel whose type follows from
// REGIST_MATMUL_OBJ is MIX from that call on).
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

namespace {

using ATscm = matmul::MatmulType<AscendC::TPosition::TSCM, CubeFormat::NZ, half>;
using ATscmTrans = matmul::MatmulType<AscendC::TPosition::TSCM, CubeFormat::NZ, half, true>;
using BType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using BiasType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using CType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

enum Fault : int {
    kNone,
    kSmallBuffer,     // the TSCM buffer holds half of the single-core A
    kCopyBeforeRegist,  // DataCopy into TSCM before REGIST_MATMUL_OBJ: no client to send the message
    kCopyPastTensor,  // the copy's count is twice the buffer
    kHugeBuffer,      // a TSCM buffer as large as L1
    kUbTensor,        // SetTensorA given a VECIN tensor
    kPadded,          // not a fault: the buffer and the copy hold Ceil(singleCoreM, 16) rows (NZ's padded rows)
    kNd2Nz,           // not a fault: A in ND in GM, DataCopy with Nd2NzParams into TSCM (SCMFUN_GM2L1ND2NZ)
};

template <class AT, int fault = kNone>
__aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tilingGm)
{
    TCubeTiling t;
    uint32_t* dst = reinterpret_cast<uint32_t*>(&t);
    auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
    AscendC::TPipe pipe;
    matmul::Matmul<AT, BType, CType, BiasType> mm;
    const uint32_t idx = AscendC::GetBlockIdx();
    const uint32_t mCores = (t.M + t.singleCoreM - 1) / t.singleCoreM;
    const uint32_t mCore = idx % mCores, nCore = idx / mCores;
    const uint32_t rows = fault == kPadded || fault == kNd2Nz ? (t.singleCoreM + 15) / 16 * 16 : t.singleCoreM;
    const uint32_t aElems = rows * t.Ka;
    AscendC::GlobalTensor<half> aGm, bGm;
    AscendC::GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a) + mCore * (fault == kNd2Nz ? t.singleCoreM * t.Ka : aElems),
                        aElems);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b) + nCore * t.singleCoreN, t.Kb * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias) + nCore * t.singleCoreN, t.singleCoreN);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c) + mCore * t.singleCoreM * t.N + nCore * t.singleCoreN,
                        t.singleCoreM * t.N);
    AscendC::TSCM<AscendC::TPosition::GM, 1> scm;
    const uint32_t bytes = fault == kSmallBuffer ? aElems : fault == kHugeBuffer ? 512 * 1024 : aElems * 2;
    if constexpr (fault == kCopyBeforeRegist) {  // on the AIC a plain GM -> L1 copy; on an AIV no client yet
        pipe.InitBuffer(scm, 1, bytes);
        auto early = scm.AllocTensor<half>();
        AscendC::DataCopy(early, aGm, aElems);
        scm.FreeTensor(early);
    }
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);  // the AIC serves here and returns
    if constexpr (fault != kCopyBeforeRegist) pipe.InitBuffer(scm, 1, bytes);
    auto scmTensor = scm.AllocTensor<half>();
    if constexpr (fault == kSmallBuffer) {
        AscendC::DataCopy(scmTensor, aGm, aElems / 2);
    } else if constexpr (fault == kCopyPastTensor) {
        AscendC::DataCopy(scmTensor, aGm, aElems * 2);
    } else if constexpr (fault == kNd2Nz) {  // the tile's singleCoreM ND rows into NZ fractals of `rows` rows
        AscendC::Nd2NzParams nd2nz(1, t.singleCoreM, t.Ka, 0, t.Ka, rows, 1, 0);
        AscendC::DataCopy(scmTensor, aGm, nd2nz);
    } else if constexpr (fault != kCopyBeforeRegist) {
        AscendC::DataCopy(scmTensor, aGm, aElems);
    }
    scm.EnQue(scmTensor);
    AscendC::LocalTensor<half> scmLocal = scm.DeQue<half>();
    if constexpr (fault == kUbTensor) {
        AscendC::TQue<AscendC::TPosition::VECIN, 1> que;
        pipe.InitBuffer(que, 1, aElems * 2);
        AscendC::LocalTensor<half> ub = que.AllocTensor<half>();
        mm.SetTensorA(ub, AT::isTrans);
        que.FreeTensor(ub);
    } else {
        mm.SetTensorA(scmLocal, AT::isTrans);
    }
    mm.SetTensorB(bGm);
    mm.SetBias(biasGm);
    mm.IterateAll(cGm);
    mm.End();
    scm.FreeTensor(scmLocal);
}

}  // namespace

#define TSCM_KERNEL(name, AT, fault)                                                                     \
    __global__ __mix__(1, 2) void name(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,                      \
                                    __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)                \
    {                                                                                                   \
        (void)workspace;                                                                                \
        Run<AT, fault>(a, b, bias, c, tiling);                                                          \
    }

TSCM_KERNEL(tscm_a, ATscm, kNone)
TSCM_KERNEL(tscm_a_trans, ATscmTrans, kNone)
TSCM_KERNEL(tscm_a_small_buffer, ATscm, kSmallBuffer)
TSCM_KERNEL(tscm_a_copy_before_regist, ATscm, kCopyBeforeRegist)
TSCM_KERNEL(tscm_a_copy_past_tensor, ATscm, kCopyPastTensor)
TSCM_KERNEL(tscm_a_huge_buffer, ATscm, kHugeBuffer)
TSCM_KERNEL(tscm_a_ub_tensor, ATscm, kUbTensor)
TSCM_KERNEL(tscm_a_padded, ATscm, kPadded)
TSCM_KERNEL(tscm_a_nd2nz, ATscm, kNd2Nz)

// The AIV cannot read its TSCM tensor (the data is in the AIC's L1): a vector instruction on it is refused.
__global__ __mix__(1, 2) void tscm_read_on_aiv(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                               __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)a; (void)b; (void)bias; (void)c; (void)workspace; (void)tiling;
    AscendC::TPipe pipe;
    if ASCEND_IS_AIC {
        return;
    }
    AscendC::TSCM<AscendC::TPosition::GM, 1> scm;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> out;
    pipe.InitBuffer(scm, 1, 1024);
    pipe.InitBuffer(out, 1, 1024);
    AscendC::LocalTensor<float> l1 = scm.AllocTensor<float>();
    AscendC::LocalTensor<float> ub = out.AllocTensor<float>();
    AscendC::Adds(ub, l1, 1.0f, 256);
    out.FreeTensor(ub);
    scm.FreeTensor(l1);
}

// A vector-only kernel has no AI Cube core, so no L1 for a TSCM queue.
__global__ __vector__ void tscm_in_vector_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                 __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)a; (void)b; (void)bias; (void)c; (void)workspace; (void)tiling;
    AscendC::TPipe pipe;
    AscendC::TSCM<AscendC::TPosition::GM, 1> scm;
    pipe.InitBuffer(scm, 1, 1024);
}

// int4b_t into TSCM: A2 copies it (as int8_t); the twin does not model it, and says so rather than copy wrong bytes.
__global__ __mix__(1, 2) void tscm_int4_copy(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                             __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)b; (void)bias; (void)c; (void)workspace; (void)tiling;
    AscendC::TPipe pipe;
    if ASCEND_IS_AIC {
        return;
    }
    AscendC::TSCM<AscendC::TPosition::GM, 1> scm;
    pipe.InitBuffer(scm, 1, 1024);
    AscendC::LocalTensor<AscendC::int4b_t> l1 = scm.AllocTensor<AscendC::int4b_t>();
    AscendC::GlobalTensor<AscendC::int4b_t> aGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ AscendC::int4b_t*>(a), 1024);
    AscendC::DataCopy(l1, aGm, AscendC::Nd2NzParams(1, 16, 64, 0, 64, 16, 1, 0));  // 16 rows of 64 nibbles
    scm.FreeTensor(l1);
}
