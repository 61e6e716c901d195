// Whole/Block reductions in counter mode with isSetMask false: the element count comes from
// SetVectorMask, and repeatTime is ignored (even 0), as a row reduction over 1024 floats does it.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void row_sum_counter(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), 1024);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), 8);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> in;
    TQue<TPosition::VECOUT, 1> out;
    pipe.InitBuffer(in, 1, 1024 * sizeof(float));
    pipe.InitBuffer(out, 1, 8 * sizeof(float));
    LocalTensor<float> t = in.AllocTensor<float>();
    DataCopy(t, xGm, 1024);
    in.EnQue(t);
    t = in.DeQue<float>();
    LocalTensor<float> o = out.AllocTensor<float>();
    Duplicate(o, 0.0f, 8);
    SetMaskCount();
    SetVectorMask<float>(0, 1024);
    BlockReduceSum<float, false>(t, t, 1, MASK_PLACEHOLDER, 1, 1, 8);  // 128 block sums
    PipeBarrier<PIPE_V>();
    SetVectorMask<float>(0, 128);
    BlockReduceSum<float, false>(t, t, 1, MASK_PLACEHOLDER, 1, 1, 8);  // 16
    PipeBarrier<PIPE_V>();
    SetVectorMask<float>(0, 16);
    WholeReduceSum<float, false>(o, t, 1, 0, 1, 1, 8);  // repeatTime 0: ignored in counter mode
    SetMaskNorm();
    ResetMask();
    out.EnQue(o);
    in.FreeTensor(t);
    o = out.DeQue<float>();
    DataCopy(yGm, o, 8);
    out.FreeTensor(o);
}
