// GroupBarrier rounds between an arrive group and a wait group of AIVs, and InitOutput (docs GroupBarrier,
// Arrive, Wait; kernel_operator_common_intf.h InitOutput). `fault` plants the rule violations.
#include "kernel_operator.h"

using namespace AscendC;

// Round r: arrive core a (blockIdx < arrive) writes (r + 1) * 100 + a into data block r * arrive + a, then
// Arrive(a); wait core w (blockIdx arrive + w) Waits, sums the round's arrive blocks and writes the sum into
// res block r * wait + w. Faults: 1 a wait core reads without Wait; 2 arriveIndex past the group; 3 (host: a
// workspace not zeroed); 4 a workspace 32 bytes past a 512-byte boundary; 5 arriveSize past GetBlockNum();
// 6 a buffer over the barrier's UB messages; 7 core 0 never arrives; 8 (host: a workspace too small);
// 9 a group of no arriving core; 10 a waitIndex past waitSize.
extern "C" __global__ __aicore__ void group_rounds(GM_ADDR ws, GM_ADDR data, GM_ADDR res, uint32_t arrive,
                                                   uint32_t wait, uint32_t rounds, uint32_t fault)
{
    GlobalTensor<int32_t> dataGm, resGm;
    dataGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(data), rounds * arrive * 8);
    resGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(res), rounds * wait * 8 + 32);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, fault == 6 ? 192 * 1024 - 512 : 32 * (arrive + 1));
    const uint32_t arriveSize = fault == 5 ? static_cast<uint32_t>(GetBlockNum()) + 1 : (fault == 9 ? 0 : arrive);
    GroupBarrier<PipeMode::MTE3_MODE> bar(fault == 4 ? ws + 32 : ws, arriveSize, wait);
    const uint32_t id = GetBlockIdx();
    LocalTensor<int32_t> v = buf.Get<int32_t>();
    for (uint32_t r = 0; r < rounds; ++r) {
        if (id < arrive) {
            Duplicate(v, static_cast<int32_t>((r + 1) * 100 + id), 8);
            SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
            DataCopy(dataGm[(r * arrive + id) * 8], v, 8);
            SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
            WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
            if (!(fault == 7 && id == 0)) bar.Arrive(fault == 2 ? arrive : id);
        } else if (id < arrive + wait) {
            if (fault != 1) bar.Wait(fault == 10 ? wait : id - arrive);
            DataCopy(v, dataGm[r * arrive * 8], arrive * 8);
            int32_t sum = 0;
            for (uint32_t a = 0; a < arrive; ++a) sum += v.GetValue(a * 8);
            for (uint32_t k = 0; k < 8; ++k) v.SetValue(arrive * 8 + k, sum);
            DataCopy(resGm[(r * wait + id - arrive) * 8], v[arrive * 8], 8);
            SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
            WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        }
    }
    if (id == 0 && fault == 0) {  // GetWorkspaceLen in a 64-byte line of its own (the scalar cache's line)
        const uint32_t at = (rounds * wait * 8 + 15) / 16 * 16;
        resGm.SetValue(at, static_cast<int32_t>(bar.GetWorkspaceLen()));
        DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(resGm[at]);
    }
}

// out[0, n) = value (float) from every core's own part: core i sets [i * n, (i + 1) * n). Faults: 1 n past the
// GlobalTensor; 2 the TPipe's buffers leave no UB for InitOutput's stack buffer.
extern "C" __global__ __aicore__ void init_output(GM_ADDR out, uint32_t n, float value, uint32_t fault)
{
    GlobalTensor<float> outGm;
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out) + GetBlockIdx() * n, n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, fault == 2 ? 192 * 1024 - 64 : 1024);
    InitOutput<float>(outGm, fault == 1 ? n + 8 : n, value);
}
