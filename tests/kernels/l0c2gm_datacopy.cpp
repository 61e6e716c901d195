// The int32_t quantisations out of L0C on one AI Cube core: C = A [16, 32] x B [32, 32] (int8_t; B given
// transposed in GM, so that its ND -> NZ copy is already L0B's Zn), then C leaves L0C by
//   mode 0: DataCopy with DataCopyCO12DstParams, DEQF16 (SetFixpipePreQuantFlag), ReLU, NZ2ND
//           (SetFixpipeNz2ndFlag) -> half [16, 32];
//   mode 1: DataCopy, VREQ8 with the words GM -> L1 -> Fixpipe Buffer (SetFixPipeConfig), NZ -> int8_t as one
//           16 x 32 fractal (Int8 Channel Merge);
//   mode 2: Fixpipe (FixpipeParamsV220), REQ8 (deqScalar), NZ2ND -> int8_t [16, 32];
//   mode 3: Fixpipe with cbufWorkspace (the words in L1), VDEQF16, NZ2ND -> half [16, 32];
//   mode 4: DataCopy into L1 (C1), REQ8 (SetFixpipePreQuantFlag), NZ -> int8_t, then L1 -> GM.
// The tiling's fault plants one broken call (tests/test_twin_l0c2gm_datacopy.py).
#include "kernel_operator.h"

using namespace AscendC;

namespace {

struct L0cTiling {
    uint32_t mode;
    uint32_t fault;
    uint64_t word;  // the scalar quantisation word
};

constexpr uint32_t M = 16, K = 32, N = 32;

template <typename C>
__aicore__ inline void Run(GM_ADDR a, GM_ADDR bt, GM_ADDR words, GM_ADDR c, const L0cTiling& t)
{
    GlobalTensor<int8_t> aGm, bGm;
    GlobalTensor<uint64_t> wGm;
    GlobalTensor<C> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(a), M * K);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(bt), N * K);
    wGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(words), N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(c), M * N);
    LocalTensor<int8_t> a1(TPosition::A1, 0, M * K);
    LocalTensor<int8_t> b1(TPosition::B1, 1024, N * K);
    LocalTensor<uint64_t> w1(TPosition::C1, 4096, N);
    LocalTensor<int8_t> a2(TPosition::A2, 0, M * K);
    LocalTensor<int8_t> b2(TPosition::B2, 0, N * K);
    LocalTensor<int32_t> c1(TPosition::CO1, 0, M * N);
    // fault 9: a Fixpipe Buffer tensor at 64 bytes (its tensors start at multiples of 128)
    // fault 10: a tensor of 16 words at FB address 1920 (the last 128 bytes) and a copy of 32 words into it;
    // fault 12: the same tensor filled with 16 words, the DataCopy from L0C then reads 32 words past FB's end
    const bool fbTail = t.fault == 10 || t.fault == 12;
    const uint32_t fbAddr = t.fault == 9 ? 64 : fbTail ? 1920 : 0;
    LocalTensor<uint64_t> fb(TPosition::C2PIPE2GM, fbAddr, fbTail ? 16 : N);

    DataCopy(a1, aGm, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    DataCopy(b1, bGm, Nd2NzParams(1, N, K, 0, K, N, 1, 0));
    DataCopy(w1, wGm, DataCopyParams(1, N * 8 / 32, 0, 0));
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    LoadData2DParams la;
    la.repeatTimes = 1;
    la.srcStride = 1;
    LoadData(a2, a1, la);
    LoadData2DParams lb;
    lb.repeatTimes = 2;
    lb.srcStride = 1;  // the two 512-byte fractals one after the other
    LoadData(b2, b1, lb);
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    MmadParams mp;
    mp.m = M;
    mp.n = N;
    mp.k = K;
    Mmad(c1, a2, b2, mp);
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    SetFlag<HardEvent::MTE2_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_FIX>(EVENT_ID0);

    if (t.mode == 0 || t.mode == 1) {
        DataCopyCO12DstParams p;
        p.nSize = N;
        p.mSize = M;
        p.srcStride = M;
        p.dstStride = t.mode == 0 ? N : M * 32 / 32;
        p.quantPre = t.mode == 0 ? QuantMode_t::DEQF16 : QuantMode_t::VREQ8;
        p.reluPre = t.fault == 5 ? 2 : (t.mode == 0 ? 1 : 0);  // fault 5: reluPre 2 (0 or 1 on A2)
        if (t.fault == 4) p.clipReluPre = 1;                    // fault 4: Atlas 200I/500 A2's ClipReLU
        p.nz2ndEn = t.mode == 0;
        if (t.mode == 0) {
            if (t.fault != 1) SetFixpipePreQuantFlag(t.word);  // fault 1: no scalar word set
            if (t.fault != 3) {                                // fault 3: no NZ2ND parameters set
                // fault 6: ndNum 2 with srcNdStride 0; fault 7: srcNdStride 513 (at most 512)
                SetFixpipeNz2ndFlag(t.fault == 6 ? 2 : 1, t.fault == 7 ? 513 : 0, t.fault == 6 ? 16 : 0);
            }
        } else {
            // fault 8: dstGap 0 with 2 blocks (each block would overwrite the first)
            if (t.fault == 15) {  // 15 (no fault): the count form
                DataCopy(fb, w1, N);
            } else {
                DataCopy(fb, w1, t.fault == 8 ? DataCopyParams(2, 1, 4, 0)
                                              : DataCopyParams(1, t.fault == 12 ? 1 : N * 8 / 128, 0, 0));
            }
            if (t.fault == 14) {  // 14 (no fault): the two-tensor form, its reserved reluPre an empty tensor
                SetFixPipeConfig(LocalTensor<uint64_t>(), fb);
            } else if (t.fault != 2) {  // fault 2: the Fixpipe Buffer words never named
                SetFixPipeConfig(fb);
            }
        }
        DataCopy(cGm, c1, p);
    } else if (t.mode == 4) {
        LocalTensor<C> cL1(TPosition::C1, 8192, M * N);
        DataCopyCO12DstParams p;
        p.nSize = N;
        p.mSize = M;
        p.srcStride = M;
        p.dstStride = M;  // 32-byte blocks between Z columns (one here: N = 32 int8_t columns merge into one)
        p.quantPre = QuantMode_t::REQ8;
        p.nz2ndEn = t.fault == 13;  // fault 13: NZ2ND into L1 (Ascend 950 only)
        SetFixpipePreQuantFlag(t.word);
        DataCopy(cL1, c1, p);
        SetFlag<HardEvent::FIX_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::FIX_MTE3>(EVENT_ID0);
        DataCopy(cGm, cL1, DataCopyParams(1, M * N * sizeof(C) / 32, 0, 0));
    } else {
        FixpipeParamsV220 fp;
        fp.nSize = N;
        fp.mSize = M;
        fp.srcStride = M;
        fp.dstStride = N;
        fp.quantPre = t.mode == 2 ? QuantMode_t::REQ8 : QuantMode_t::VDEQF16;
        fp.deqScalar = t.word;  // fault 11: the word with MCB (bit 36) set, from the test
        if (t.mode == 2) {
            Fixpipe(cGm, c1, fp);
        } else {
            Fixpipe(cGm, c1, w1, fp);
        }
    }
}

}  // namespace

extern "C" __global__ __aicore__ void l0c_to_half(GM_ADDR a, GM_ADDR bt, GM_ADDR words, GM_ADDR c, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    Run<half>(a, bt, words, c, *reinterpret_cast<__gm__ L0cTiling*>(tiling));
}

extern "C" __global__ __aicore__ void l0c_to_int8(GM_ADDR a, GM_ADDR bt, GM_ADDR words, GM_ADDR c, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    Run<int8_t>(a, bt, words, c, *reinterpret_cast<__gm__ L0cTiling*>(tiling));
}
