// Kernels taking scalars and a struct by value, as a <<<>>> launch can pass them: y = x * alpha over n floats.
#include "kernel_operator.h"

using namespace AscendC;

struct ScaleArgs {
    uint32_t n;
    float alpha;
};

namespace {

__aicore__ inline void ScaleCopy(GM_ADDR x, GM_ADDR y, uint32_t n, float alpha)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> in;
    TQue<TPosition::VECOUT, 1> out;
    const uint32_t bytes = n * static_cast<uint32_t>(sizeof(float));
    pipe.InitBuffer(in, 1, (bytes + 31) / 32 * 32);
    pipe.InitBuffer(out, 1, (bytes + 31) / 32 * 32);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), n);
    const DataCopyExtParams params{1, bytes, 0, 0, 0};
    LocalTensor<float> a = in.AllocTensor<float>();
    DataCopyPad(a, xGm, params, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    in.EnQue(a);
    a = in.DeQue<float>();
    LocalTensor<float> b = out.AllocTensor<float>();
    Muls(b, a, alpha, static_cast<int32_t>(n));
    out.EnQue(b);
    in.FreeTensor(a);
    b = out.DeQue<float>();
    DataCopyPad(yGm, b, params);
    out.FreeTensor(b);
}

}  // namespace

extern "C" __global__ __aicore__ void scale_scalars(GM_ADDR x, GM_ADDR y, uint32_t n, float alpha)
{
    ScaleCopy(x, y, n, alpha);
}

extern "C" __global__ __aicore__ void scale_struct(GM_ADDR x, GM_ADDR y, ScaleArgs args)
{
    ScaleCopy(x, y, args.n, args.alpha);
}
