// A kernel written the way bisheng (clang-based, C++17) accepts it and g++ in C++17 does not: it never says
// `using namespace AscendC`, and calls ReduceSum<float>(...) unqualified, with explicit template arguments, so the
// name is found only by argument-dependent lookup (P0846; clang allows it before C++20 as an extension).
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void adl_reduce_sum(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> xb, tb, yb;
    const uint32_t bytes = (n * sizeof(float) + 31) / 32 * 32;
    pipe.InitBuffer(xb, bytes);
    pipe.InitBuffer(tb, bytes);
    pipe.InitBuffer(yb, 32);
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, n);
    yGm.SetGlobalBuffer((__gm__ float*)y, 1);
    AscendC::LocalTensor<float> xl = xb.Get<float>();
    AscendC::LocalTensor<float> tmp = tb.Get<float>();
    AscendC::LocalTensor<float> yl = yb.Get<float>();
    DataCopyPad(xl, xGm, AscendC::DataCopyExtParams{1, n * 4, 0, 0, 0}, AscendC::DataCopyPadExtParams<float>{});
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    ReduceSum<float>(yl, xl, tmp, n);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    DataCopyPad(yGm, yl, AscendC::DataCopyExtParams{1, 4, 0, 0, 0});
}
