// The raw cube path written out as the basic API's samples do: C[m, n] = A[m, k] x B[k, n] (+ bias[n]) with
// A, B copied GM -> L1 with the ND -> NZ conversion, loaded L1 -> L0A (Zz) and L1 -> L0B (Zn, transposing
// each 16 x 16 fractal), multiplied by Mmad into L0C and written back by Fixpipe: `mode` 0 NZ -> ND, 1 NZ as
// 16 x 8 fractals (isChannelSplit), 2 NZ -> ND quantised to int8_t/uint8_t with one scale (QF322B8_PRE,
// `deq`), 3 the same with a scale per column read from GM into L1 (VQF322B8_PRE), 4 NZ -> ND added into GM
// under SetAtomicAdd (every core of the launch the same product), 5 NZ -> ND with unitFlag 3 on Mmad and
// Fixpipe, then SetFixPipeConfig clearing L0C's unit flags, 6 NZ into an L1 tensor and from there to GM as it
// is (DataCopy L1 -> GM), 7 the same added into GM under SetAtomicAdd<half>, 8 (with a bias) C started from
// the BiasTable by Mmad without a bias tensor (cmatrixSource), 9 NZ -> ND with nSize = n (not rounded up to
// 16); `relu` sets reluEn. `fault`
// in the tiling plants one broken rule at a time (0: none).
#include "kernel_operator.h"

using namespace AscendC;

namespace {

struct CubeTiling {
    uint32_t m, n, k;
    uint32_t fault;
    uint32_t mode, relu;
    uint64_t deq;
};

constexpr uint32_t Blocks(uint32_t x) { return (x + 15) / 16; }

template <typename T, typename C>
__aicore__ inline void MatmulRaw(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const CubeTiling& t,
                                 GM_ADDR quant = nullptr)
{
    const uint32_t mb = Blocks(t.m), nb = Blocks(t.n), kb = Blocks(t.k);
    TPipe pipe;
    TQue<TPosition::A1, 1> qa1;
    TQue<TPosition::B1, 1> qb1;
    TQue<TPosition::C1, 1> qbias1;
    TQue<TPosition::A2, 1> qa2;
    TQue<TPosition::B2, 1> qb2;
    TQue<TPosition::C2, 1> qbias2;
    TQue<TPosition::CO1, 1> qc;
    TQue<TPosition::C1, 1> qquant;
    pipe.InitBuffer(qa1, 1, mb * kb * 256 * sizeof(T));
    pipe.InitBuffer(qb1, 1, kb * nb * 256 * sizeof(T));
    const uint32_t biasBlocks = (nb * 16 * sizeof(half) + 63) / 64;  // L1 -> BT moves 64-byte blocks of half
    if (bias != nullptr) pipe.InitBuffer(qbias1, 1, biasBlocks * 64);
    pipe.InitBuffer(qa2, 1, t.fault == 1 ? 65536 + 512 : mb * kb * 256 * sizeof(T));  // fault 1: past L0A
    pipe.InitBuffer(qb2, 1, kb * nb * 256 * sizeof(T));
    if (bias != nullptr) pipe.InitBuffer(qbias2, 1, biasBlocks * 64 * 2);
    pipe.InitBuffer(qc, 1, mb * nb * 256 * sizeof(float));
    if (quant != nullptr) pipe.InitBuffer(qquant, 1, nb * 16 * sizeof(uint64_t));
    GlobalTensor<T> aGm, bGm;
    GlobalTensor<half> biasGm;
    GlobalTensor<C> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a), t.m * t.k);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b), t.k * t.n);
    // mode 10: each core writes its C one row further down (c holds GetBlockNum() rows more)
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(c), t.m * t.n + (t.mode == 10 ? GetBlockNum() * t.n : 0));

    LocalTensor<T> a1 = qa1.AllocTensor<T>();
    LocalTensor<T> b1 = qb1.AllocTensor<T>();
    DataCopy(a1, aGm, Nd2NzParams(1, t.m, t.k, 0, t.k, mb * 16, 1, 0));
    DataCopy(b1, bGm, Nd2NzParams(1, t.k, t.n, 0, t.n, kb * 16, 1, 0));
    qa1.EnQue(a1);
    qb1.EnQue(b1);
    if (bias != nullptr) {
        biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(bias), t.n);
        LocalTensor<half> bias1 = qbias1.AllocTensor<half>();
        DataCopy(bias1, biasGm, nb * 16);
        qbias1.EnQue(bias1);
    }

    a1 = qa1.DeQue<T>();
    LocalTensor<T> a2 = qa2.AllocTensor<T>();
    for (uint32_t i = 0; i < mb; ++i) {
        LoadData2DParams p;
        p.repeatTimes = static_cast<uint8_t>(kb);
        p.srcStride = static_cast<uint16_t>(mb);
        p.addrMode = t.fault == 6 ? 1 : 0;  // fault 6: a decrementing address from L1
        // fault 2: a destination 256 bytes into L0A (L0A operands are 512-byte aligned)
        LoadData(a2[i * kb * 256 + (t.fault == 2 ? 128 : 0)], a1[i * 256], p);
    }
    qa2.EnQue(a2);
    qa1.FreeTensor(a1);
    b1 = qb1.DeQue<T>();
    LocalTensor<T> b2 = qb2.AllocTensor<T>();
    for (uint32_t i = 0; i < kb; ++i) {
        LoadData2DParams p;
        p.repeatTimes = static_cast<uint8_t>(nb);
        p.srcStride = static_cast<uint16_t>(kb);
        p.ifTranspose = true;
        if (t.fault == 9) {  // fault 9: the same bytes transposed as 32-bit fractals
            LoadData(b2.template ReinterpretCast<float>()[i * nb * 128], b1.template ReinterpretCast<float>()[i * 128],
                     p);
        } else {
            LoadData(b2[i * nb * 256], b1[i * 256], p);
        }
    }
    qb2.EnQue(b2);
    qb1.FreeTensor(b1);

    a2 = qa2.DeQue<T>();
    b2 = qb2.DeQue<T>();
    LocalTensor<float> c1 = qc.AllocTensor<float>();
    MmadParams mp;
    mp.m = static_cast<uint16_t>(t.m);
    mp.n = static_cast<uint16_t>(t.n);
    mp.k = static_cast<uint16_t>(t.fault == 3 ? 4096 : t.k);  // fault 3: k past 4095
    if (bias != nullptr) {
        LocalTensor<half> bias1 = qbias1.DeQue<half>();
        LocalTensor<float> bias2 = qbias2.AllocTensor<float>();
        DataCopy(bias2, bias1, DataCopyParams(1, static_cast<uint16_t>(biasBlocks), 0, 0));
        qbias2.EnQue(bias2);
        qbias1.FreeTensor(bias1);
        bias2 = qbias2.DeQue<float>();
        if (t.mode == 8) {  // C from the BiasTable (its address 0, where bias2 is) by the form without a bias
            mp.cmatrixInitVal = false;
            mp.cmatrixSource = true;
            mp.n = static_cast<uint16_t>(t.fault == 10 ? 272 : t.n);  // fault 10: 272 floats, past BT's 1 KiB
            Mmad(c1, a2, b2, mp);
        } else {
            Mmad(c1, a2, b2, bias2, mp);
        }
        qbias2.FreeTensor(bias2);
    } else {
        if (t.mode == 5) mp.unitFlag = t.fault == 19 ? 1 : 3;  // fault 19: unitFlag 1 (no such value)
        if (t.fault == 8) {
            Mmad(c1, b2, a2, mp);  // fault 8: A from L0B and B from L0A
        } else {
            Mmad(c1, a2, b2, mp);
        }
    }
    qc.EnQue(c1);
    qa2.FreeTensor(a2);
    qb2.FreeTensor(b2);

    c1 = qc.DeQue<float>();
    FixpipeParamsV220 fp;
    const bool split = t.mode == 1;
    // fault 4: nSize not a multiple of 16; fault 11: not a multiple of 8 with channel split
    const uint32_t nSize = split ? (t.n + 7) / 8 * 8 : nb * 16;
    fp.nSize = static_cast<uint16_t>(t.fault == 4 ? t.n - 8 : t.fault == 11 ? nSize - 4 : nSize);
    fp.mSize = static_cast<uint16_t>(t.m);
    fp.srcStride = static_cast<uint16_t>(mb * 16);
    fp.dstStride = t.fault == 7 ? 0 : t.n;  // fault 7: rows of C written over each other
    fp.reluEn = t.relu != 0;
    if constexpr (std::is_same_v<C, half>) fp.quantPre = t.fault == 5 ? QuantMode_t::NoQuant : QuantMode_t::F322F16;
    if (split) {
        fp.isChannelSplit = true;
        fp.dstStride = t.m * 8 * sizeof(C) / 32;  // 32-byte blocks from one 16 x 8 Z column to the next
        fp.unitFlag = t.fault == 13 ? 3 : 0;      // fault 13: channel split with unitFlag
        if (t.fault == 12) {                      // fault 12: channel split with NZ2ND
            Fixpipe(cGm, c1, fp);
        } else {
            Fixpipe<C, float, CFG_NZ>(cGm, c1, fp);
        }
    } else if (t.mode == 2) {
        fp.quantPre = t.fault == 18 ? QuantMode_t::NoQuant : QuantMode_t::QF322B8_PRE;  // fault 18: int8 without quant
        fp.deqScalar = t.deq;
        if (t.fault == 17) {  // fault 17: a scalar quantPre through the form that takes a cbufWorkspace
            LocalTensor<uint64_t> ws(TPosition::C1, 0, nb * 16);
            Fixpipe(cGm, c1, ws, fp);
        } else {
            Fixpipe(cGm, c1, fp);
        }
    } else if (t.mode == 3) {
        GlobalTensor<uint64_t> quantGm;
        quantGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(quant), nb * 16);
        LocalTensor<uint64_t> ws = qquant.AllocTensor<uint64_t>();
        DataCopy(ws, quantGm, DataCopyParams(1, static_cast<uint16_t>(nb * 16 * sizeof(uint64_t) / 32), 0, 0));
        qquant.EnQue(ws);
        ws = qquant.DeQue<uint64_t>();
        fp.quantPre = QuantMode_t::VQF322B8_PRE;
        if (t.fault == 16) {  // fault 16: a vector quantPre without its cbufWorkspace
            Fixpipe(cGm, c1, fp);
        } else {
            Fixpipe(cGm, c1, ws, fp);
        }
        qquant.FreeTensor(ws);
    } else if (t.mode == 4) {  // every core adds its C into GM (SetAtomicAdd), DisableDmaAtomic after
        if constexpr (std::is_same_v<C, float>) {
            SetAtomicAdd<C>();
            Fixpipe(cGm, c1, fp);
            DisableDmaAtomic();
        }
    } else if (t.mode == 6 || t.mode == 7) {  // NZ into L1 (C1, 256 KiB in), then the NZ bytes L1 -> GM unchanged
        // (mode 7: added into GM under SetAtomicAdd, one of A2's atomic paths)
        if constexpr (!std::is_same_v<C, half>) {
            fp.quantPre = std::is_same_v<C, float> ? QuantMode_t::NoQuant : QuantMode_t::QF322B8_PRE;
            fp.deqScalar = t.deq;
        }
        const uint32_t bytes = mb * nb * 256 * sizeof(C);  // whole Z columns of mb * 16 rows
        // fault 26: an L1 tensor one 32-byte block short of the output
        LocalTensor<C> cL1(TPosition::C1, 256 * 1024, (bytes - (t.fault == 26 ? 32 : 0)) / sizeof(C));
        // dstStride: 32-byte blocks from one Z column to the next (16 columns; 32 for int8_t/uint8_t, merged)
        fp.dstStride = t.fault == 24 ? 0 : mb * 16 * (sizeof(C) == 1 ? 32 : 16 * sizeof(C)) / 32;
        fp.isChannelSplit = t.fault == 25;  // fault 25: channel split into L1
        if (t.fault == 23) {
            Fixpipe(cL1, c1, fp);  // fault 23: the default CFG_ROW_MAJOR (NZ2ND) into L1
        } else {
            Fixpipe<C, float, CFG_NZ>(cL1, c1, fp);
        }
        SetFlag<HardEvent::FIX_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::FIX_MTE3>(EVENT_ID0);
        if constexpr (std::is_same_v<C, half>) {
            if (t.mode == 7) SetAtomicAdd<half>();
        }
        // fault 27: the L1 -> GM copy starts 16 bytes into the tensor (L1 sources are 32-byte aligned)
        DataCopy(cGm, t.fault == 27 ? cL1[16 / sizeof(C)] : cL1, DataCopyParams(1, static_cast<uint16_t>(bytes / 32 -
                 (t.fault == 27 ? 1 : 0)), 0, 0));
        if (t.mode == 7) DisableDmaAtomic();
    } else if (t.mode == 5) {  // unitFlag 3 on Mmad and Fixpipe, then SetFixPipeConfig clears L0C's unit flags
        fp.unitFlag = t.fault == 20 ? 5 : 3;  // fault 20: unitFlag 5 (2 bits: 0, 2 or 3)
        Fixpipe(cGm, c1, fp);
        if (t.fault == 21) {  // fault 21: an L1 tensor for the unit-flag clear (CO1 or the Fixpipe Buffer only)
            SetFixPipeConfig<float>(LocalTensor<float>(TPosition::A1, 0, 64), true);
        } else if (t.fault == 22) {  // fault 22: the two-tensor form with L0C tensors (Fixpipe Buffer only)
            SetFixPipeConfig<float>(c1, c1, true);
        } else {
            SetFixPipeConfig<float>(c1, true);
        }
    } else if (t.fault == 4) {  // fault 4: NZ output with nSize not a multiple of 16
        Fixpipe<C, float, CFG_NZ>(cGm, c1, fp);
    } else if (t.mode == 10) {  // the cores' Cs overlap, shifted by a row: different values over the same bytes
        Fixpipe(cGm[GetBlockIdx() * t.n], c1, fp);
    } else {
        if (t.mode == 9) fp.nSize = static_cast<uint16_t>(t.n);  // NZ2ND of exactly n columns, n any
        Fixpipe(cGm, c1, fp);
    }
    qc.FreeTensor(c1);
}

}  // namespace

extern "C" __global__ __aicore__ void cube_half(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    MatmulRaw<half, float>(a, b, bias, c, *reinterpret_cast<__gm__ CubeTiling*>(tiling));
}

extern "C" __global__ __aicore__ void cube_bf16_to_half(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    MatmulRaw<bfloat16_t, half>(a, b, bias, c, *reinterpret_cast<__gm__ CubeTiling*>(tiling));
}

extern "C" __global__ __aicore__ void cube_half_to_int8(GM_ADDR a, GM_ADDR b, GM_ADDR quant, GM_ADDR c,
                                                        GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    MatmulRaw<half, int8_t>(a, b, nullptr, c, *reinterpret_cast<__gm__ CubeTiling*>(tiling), quant);
}

extern "C" __global__ __aicore__ void cube_half_to_uint8(GM_ADDR a, GM_ADDR b, GM_ADDR quant, GM_ADDR c,
                                                         GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    MatmulRaw<half, uint8_t>(a, b, nullptr, c, *reinterpret_cast<__gm__ CubeTiling*>(tiling), quant);
}

// An AIV-only kernel that asks for L1: a vector core has none.
extern "C" __global__ __aicore__ void vector_asks_for_l1(GM_ADDR x)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    TPipe pipe;
    TQue<TPosition::A1, 1> q;
    pipe.InitBuffer(q, 1, 1024);
}

// Bug: float L0C written out as int32_t, a pair A2's Fixpipe does not have.
extern "C" __global__ __aicore__ void cube_half_to_int32(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    MatmulRaw<half, int32_t>(a, b, bias, c, *reinterpret_cast<__gm__ CubeTiling*>(tiling));
}
