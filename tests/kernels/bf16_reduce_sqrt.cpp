// Does not compile, on purpose: A2's ReduceSum and Sqrt take half and float, not bfloat16.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void bf16_reduce_sqrt(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<bfloat16_t> t = buf.Get<bfloat16_t>();
    ReduceSum(t, t, t, 64);
    Sqrt(t, t, 64);
}
