// Does not compile, on purpose: the A2 vector unit has no bfloat16 Add.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void bf16_add(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<bfloat16_t> t = buf.Get<bfloat16_t>();
    Add(t, t, t, 64);
}
