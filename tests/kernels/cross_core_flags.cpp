// CrossCoreSetFlag / CrossCoreWaitFlag between the cores of MIX kernels (CrossCoreSetFlag docs, 关键特性说明), each
// pattern handing data through GM, and the faults of those patterns. Every AIV works on a chunk of 8 floats.
#include "kernel_operator.h"

namespace {

constexpr uint32_t kChunk = 8;

__aicore__ inline AscendC::GlobalTensor<float> Chunk(GM_ADDR base, int64_t chunk)
{
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(base) + chunk * kChunk, kChunk);
    return g;
}

// dst chunk = scale * src chunk (+ the other chunk), through UB.
class Mover {
public:
    __aicore__ inline Mover() { pipe_.InitBuffer(q_, 2, kChunk * sizeof(float)); }
    __aicore__ inline void Copy(const AscendC::GlobalTensor<float>& dst, const AscendC::GlobalTensor<float>& src,
                                float scale, const AscendC::GlobalTensor<float>* other = nullptr)
    {
        AscendC::LocalTensor<float> t = q_.AllocTensor<float>();
        AscendC::DataCopy(t, src, kChunk);
        AscendC::LocalTensor<float> u;
        if (other != nullptr) {
            u = q_.AllocTensor<float>();
            AscendC::DataCopy(u, *other, kChunk);
        }
        q_.EnQue(t);
        t = q_.DeQue<float>();
        if (other != nullptr) {
            q_.EnQue(u);
            u = q_.DeQue<float>();
            AscendC::Add(t, t, u, kChunk);
            q_.FreeTensor(u);
        }
        AscendC::Muls(t, t, scale, kChunk);
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::DataCopy(dst, t, kChunk);
        q_.FreeTensor(t);
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> q_;
};

}  // namespace

// Mode 0 between all AIVs (KERNEL_TYPE_MIX_AIV_1_0): each adds its chunk into acc atomically, then sets and
// waits for flag 0; once every AIV has set it, AIV 0 copies the sum to out (the docs' example). Template: the
// faults leave out the flags, or let one AIV skip the set.
enum class Mode0 { kPaired, kNoFlags, kOneSkips, kAivOnlyType, kPipeS };

template <Mode0 form>
__aicore__ inline void AtomicSum(GM_ADDR x, GM_ADDR acc, GM_ADDR out)
{
    if constexpr (form == Mode0::kAivOnlyType) {
        KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    } else {
        KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    }
    Mover m;
    AscendC::SetAtomicAdd<float>();
    m.Copy(Chunk(acc, 0), Chunk(x, AscendC::GetBlockIdx()), 1.0f);
    AscendC::SetAtomicNone();
    if constexpr (form == Mode0::kPipeS) {
        AscendC::CrossCoreSetFlag<0, PIPE_S>(0);
    } else if constexpr (form != Mode0::kNoFlags) {
        if (form != Mode0::kOneSkips || AscendC::GetBlockIdx() != 1) AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(0);
    }
    if constexpr (form != Mode0::kNoFlags) AscendC::CrossCoreWaitFlag(0);
    if (AscendC::GetBlockIdx() == 0) m.Copy(Chunk(out, 0), Chunk(acc, 0), 1.0f);
}

__global__ __aicore__ void mode0_sum(GM_ADDR x, GM_ADDR acc, GM_ADDR out) { AtomicSum<Mode0::kPaired>(x, acc, out); }
__global__ __aicore__ void mode0_sum_without_flags(GM_ADDR x, GM_ADDR acc, GM_ADDR out)
{
    AtomicSum<Mode0::kNoFlags>(x, acc, out);
}
__global__ __aicore__ void mode0_one_core_skips(GM_ADDR x, GM_ADDR acc, GM_ADDR out)
{
    AtomicSum<Mode0::kOneSkips>(x, acc, out);
}
__global__ __aicore__ void mode0_in_aiv_only_kernel(GM_ADDR x, GM_ADDR acc, GM_ADDR out)
{
    AtomicSum<Mode0::kAivOnlyType>(x, acc, out);
}
__global__ __aicore__ void mode0_on_pipe_s(GM_ADDR x, GM_ADDR acc, GM_ADDR out) { AtomicSum<Mode0::kPipeS>(x, acc, out); }

// Mode 1 between the two AIVs of a block (__mix__(1, 2)): AIV 0 writes its chunk scaled by 2 to ws; AIV 1 reads
// it once both have set flag 1 and writes it + its own chunk to out. The AIC has nothing to do.
// Faults: no flags, the flag on the wrong pipe, a set never waited for, the AIC joining mode 1, mode 4 (not A2's).
enum class Mode1 { kPaired, kNoFlags, kWrongPipe, kNeverWaited, kAicJoins, kMode4 };

template <Mode1 form>
__aicore__ inline void PairExchange(GM_ADDR x, GM_ADDR ws, GM_ADDR out)
{
    if ASCEND_IS_AIC {
        if constexpr (form == Mode1::kAicJoins) AscendC::CrossCoreSetFlag<1, PIPE_FIX>(1);
        return;
    }
    Mover m;
    const int64_t idx = AscendC::GetBlockIdx();
    if (AscendC::GetSubBlockIdx() == 0) m.Copy(Chunk(ws, idx), Chunk(x, idx), 2.0f);
    if constexpr (form == Mode1::kWrongPipe) {
        AscendC::CrossCoreSetFlag<1, PIPE_V>(1);
    } else if constexpr (form == Mode1::kMode4) {
        AscendC::CrossCoreSetFlag<4, PIPE_MTE3>(1);
    } else if constexpr (form != Mode1::kNoFlags) {
        AscendC::CrossCoreSetFlag<1, PIPE_MTE3>(1);
    }
    if constexpr (form == Mode1::kPaired || form == Mode1::kWrongPipe || form == Mode1::kAicJoins) {
        AscendC::CrossCoreWaitFlag(1);
    }
    if constexpr (form == Mode1::kNeverWaited) {
        if (AscendC::GetSubBlockIdx() == 1) AscendC::CrossCoreWaitFlag(1);
    }
    if (AscendC::GetSubBlockIdx() == 1) {
        const AscendC::GlobalTensor<float> partner = Chunk(ws, idx - 1);
        m.Copy(Chunk(out, idx / 2), Chunk(x, idx), 1.0f, &partner);
    }
}

__global__ __mix__(1, 2) void mode1_exchange(GM_ADDR x, GM_ADDR ws, GM_ADDR out)
{
    PairExchange<Mode1::kPaired>(x, ws, out);
}
__global__ __mix__(1, 2) void mode1_without_flags(GM_ADDR x, GM_ADDR ws, GM_ADDR out)
{
    PairExchange<Mode1::kNoFlags>(x, ws, out);
}
__global__ __mix__(1, 2) void mode1_flag_on_wrong_pipe(GM_ADDR x, GM_ADDR ws, GM_ADDR out)
{
    PairExchange<Mode1::kWrongPipe>(x, ws, out);
}
__global__ __mix__(1, 2) void mode1_flag_never_waited(GM_ADDR x, GM_ADDR ws, GM_ADDR out)
{
    PairExchange<Mode1::kNeverWaited>(x, ws, out);
}

__global__ __mix__(1, 2) void mode1_set_by_the_aic(GM_ADDR x, GM_ADDR ws, GM_ADDR out)
{
    PairExchange<Mode1::kAicJoins>(x, ws, out);
}
__global__ __mix__(1, 2) void mode4_on_a2(GM_ADDR x, GM_ADDR ws, GM_ADDR out) { PairExchange<Mode1::kMode4>(x, ws, out); }

// Mode 1 in a vector-only MIX kernel: its blocks have one AIV and no AIC.
__global__ __aicore__ void mode1_in_vector_kernel(GM_ADDR x, GM_ADDR ws, GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    (void)x;
    (void)ws;
    (void)out;
    AscendC::CrossCoreSetFlag<1, PIPE_MTE3>(1);
    AscendC::CrossCoreWaitFlag(1);
}

// Mode 2 both ways (KERNEL_TYPE_MIX_AIC_1_2): each AIV writes its chunk to ws and sets flag 2; the AIC waits for
// both, then sets flag 3; each AIV waits for it and reads its partner's chunk (ordered through the AIC).
enum class Mode2 { kRoundTrip, kAicOverflows, kNeverSet };

template <Mode2 form>
__aicore__ inline void RoundTrip(GM_ADDR x, GM_ADDR ws, GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIC {
        if constexpr (form == Mode2::kAicOverflows) {
            for (int i = 0; i < 17; ++i) AscendC::CrossCoreSetFlag<2, PIPE_FIX>(3);
            return;
        }
        AscendC::CrossCoreWaitFlag(2);
        if constexpr (form != Mode2::kNeverSet) AscendC::CrossCoreSetFlag<2, PIPE_FIX>(3);
        return;
    }
    Mover m;
    const int64_t idx = AscendC::GetBlockIdx();
    m.Copy(Chunk(ws, idx), Chunk(x, idx), 3.0f);
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(2);
    AscendC::CrossCoreWaitFlag(3);
    const int64_t partner = idx ^ 1;
    m.Copy(Chunk(out, idx), Chunk(ws, partner), 1.0f);
}

__global__ __aicore__ void mode2_round_trip(GM_ADDR x, GM_ADDR ws, GM_ADDR out) { RoundTrip<Mode2::kRoundTrip>(x, ws, out); }
__global__ __aicore__ void mode2_counter_overflow(GM_ADDR x, GM_ADDR ws, GM_ADDR out)
{
    RoundTrip<Mode2::kAicOverflows>(x, ws, out);
}
__global__ __aicore__ void mode2_never_set(GM_ADDR x, GM_ADDR ws, GM_ADDR out) { RoundTrip<Mode2::kNeverSet>(x, ws, out); }

// A kernel has one type: what KERNEL_TASK_TYPE_DEFAULT declares agrees with the function qualifier.
__global__ __mix__(1, 2) void mix_type_agrees(GM_ADDR x) { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2); }
__global__ __mix__(1, 2) void mix_type_disagrees(GM_ADDR x) { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1); }
__global__ __vector__ void vector_type_agrees(GM_ADDR x) { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY); }
__global__ __vector__ void vector_type_disagrees(GM_ADDR x) { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY); }
