// Cross-core flags through ReadGmByPassDCache/WriteGmByPassDCache, as asc-devkit's deterministic-atomic sample
// uses them: core i (i > 0) polls flag i - 1 until it reads 1, then overwrites all of `out` with its own tile of
// `x` (8 floats, UB, DataCopy) and raises flag i. The flags order the cores, so the plain writes of `out` do
// not race and out ends as the last core's tile. `fault` 1: core 1 does not wait (its write of out races core
// 0's); 2: core 1 polls a flag no core raises (the NPU would hang).
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void chain(GM_ADDR x, GM_ADDR flags, GM_ADDR out, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    const uint32_t fault = *reinterpret_cast<__gm__ uint32_t*>(tiling);
    const int32_t i = GetBlockIdx();
    __gm__ int32_t* flag = reinterpret_cast<__gm__ int32_t*>(flags);
    GlobalTensor<float> xGm, outGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + i * 8, 8);
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 8);
    if (i > 0 && !(fault == 1 && i == 1)) {
        const int32_t wait = (fault == 2 && i == 1) ? 15 : i - 1;
        while (ReadGmByPassDCache<int32_t>(flag + wait * 8) != 1) {
        }
    }
    LocalMemAllocator<> ub;
    LocalTensor<float> t = ub.Alloc<float, 8>();
    SetFlag<HardEvent::S_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE2>(EVENT_ID0);
    DataCopy(t, xGm, 8);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(outGm, t, 8);
    SetFlag<HardEvent::MTE3_S>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_S>(EVENT_ID0);
    WriteGmByPassDCache<int32_t>(flag + i * 8, 1);
}
