// 4:2 structured-sparse matmul on the cube: C[16, N] = A[16, K] x B^T for a B [N, K] with at most 2 non-zeros in
// each group of 4 along K, given densified (`b`: [N, K / 2] as 16 x 32 Zn fractals) with its 2-bit index matrix
// (`idx`: 16 x 8-byte fractals). A goes GM -> L1 (Nd2Nz) -> L0A; B and the index GM -> L1 -> L0B and the index
// buffer (LoadDataWithSparse); MmadWithSparse; Fixpipe NZ -> ND. `fault` 1: B reaches L0B by a plain LoadData
// (no index fractals); 2: MmadWithSparse with k = K - 32; 3: LoadDataWithSparse with ifTranspose.
#include "kernel_operator.h"

using namespace AscendC;

struct SparseTiling {
    uint32_t k, n, fault;
};

extern "C" __global__ __aicore__ void sparse_mmad(GM_ADDR a, GM_ADDR b, GM_ADDR idx, GM_ADDR c, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    const SparseTiling t = *reinterpret_cast<__gm__ SparseTiling*>(tiling);
    GlobalTensor<int8_t> aGm, bGm;
    GlobalTensor<uint8_t> idxGm;
    GlobalTensor<int32_t> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(a), 16 * t.k);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(b), t.k / 2 * t.n);
    idxGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(idx), t.k / 8 * t.n);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(c), 16 * t.n);
    LocalTensor<int8_t> a1(TPosition::A1, 0, 16 * t.k);
    LocalTensor<int8_t> b1(TPosition::B1, 32 * 1024, t.k / 2 * t.n);
    LocalTensor<uint8_t> idx1(TPosition::B1, 64 * 1024, t.k / 8 * t.n);
    DataCopy(a1, aGm, Nd2NzParams(1, 16, static_cast<uint16_t>(t.k), 0, static_cast<uint16_t>(t.k), 16, 1, 0));
    DataCopy(b1, bGm, t.k / 2 * t.n);
    DataCopy(idx1, idxGm, t.k / 8 * t.n);
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    LocalTensor<int8_t> a2(TPosition::A2, 0, 16 * t.k);
    LocalTensor<int8_t> b2(TPosition::B2, 0, t.k / 2 * t.n);
    LoadData(a2, a1, LoadData2DParams(0, static_cast<uint8_t>(t.k / 32), 1, 0, 0, false, 0));
    LoadData2DParams lp(0, static_cast<uint8_t>(t.k / 64 * t.n / 16), 0, 0, 0, t.fault == 3, 0);
    if (t.fault == 1) {
        lp.srcStride = 1;
        LoadData(b2, b1, lp);
    } else {
        LoadDataWithSparse(b2, b1, idx1, lp);
    }
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    LocalTensor<int32_t> c1(TPosition::CO1, 0, 16 * t.n);
    MmadWithSparse(c1, a2, b2,
                   MmadParams(16, static_cast<uint16_t>(t.n), static_cast<uint16_t>(t.fault == 2 ? t.k - 32 : t.k),
                              false, 0, false, false, false));
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    Fixpipe(cGm, c1, FixpipeParamsV220(static_cast<uint16_t>(t.n), 16, 16, t.n, false));
}
