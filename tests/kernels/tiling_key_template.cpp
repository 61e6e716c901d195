// The build glue and small utilities public op kernels rely on: a kernel over a tiling-key template
// parameter (the ascendc/host_api/tiling/template_argument.h macros), launched through extern "C" entries
// that instantiate it as the op build does per tiling key; AscendC::printf, ASSERT, SetSysWorkspace and
// DataCacheCleanAndInvalid.
#include "kernel_operator.h"
#include "ascendc/host_api/tiling/template_argument.h"

using namespace AscendC;

#define SCALE_TPL_MODE_DOUBLE 0
#define SCALE_TPL_MODE_NEGATE 1

ASCENDC_TPL_ARGS_DECL(ScaleTpl, ASCENDC_TPL_UINT_DECL(mode, ASCENDC_TPL_1_BW, ASCENDC_TPL_UI_LIST,
                                                      SCALE_TPL_MODE_DOUBLE, SCALE_TPL_MODE_NEGATE));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(mode, ASCENDC_TPL_UI_LIST, SCALE_TPL_MODE_DOUBLE,
                                                          SCALE_TPL_MODE_NEGATE)));

struct ScaleTplTiling {
    uint32_t n;  // floats per core
};

template <uint32_t mode>
__global__ __aicore__ void scale_tpl(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(ScaleTplTiling);
    GET_TILING_DATA(t, tiling);
    SetSysWorkspace(workspace);
    ASSERT(t.n % 8 == 0 && "whole 32-byte blocks");
    AscendC::printf("scale_tpl<%u> block %ld: n %u\n", mode, static_cast<long>(GetBlockIdx()), t.n);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> in;
    TQue<TPosition::VECOUT, 1> out;
    pipe.InitBuffer(in, 1, t.n * sizeof(float));
    pipe.InitBuffer(out, 1, t.n * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + GetBlockIdx() * t.n, t.n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + GetBlockIdx() * t.n, t.n);
    LocalTensor<float> a = in.AllocTensor<float>();
    DataCopy(a, xGm, t.n);
    in.EnQue(a);
    a = in.DeQue<float>();
    LocalTensor<float> b = out.AllocTensor<float>();
    Muls(b, a, mode == SCALE_TPL_MODE_DOUBLE ? 2.0f : -1.0f, static_cast<int32_t>(t.n));
    out.EnQue(b);
    in.FreeTensor(a);
    b = out.DeQue<float>();
    DataCopy(yGm, b, t.n);
    out.FreeTensor(b);
}

extern "C" __global__ __aicore__ void scale_double(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    scale_tpl<SCALE_TPL_MODE_DOUBLE>(x, y, workspace, tiling);
}

extern "C" __global__ __aicore__ void scale_negate(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    scale_tpl<SCALE_TPL_MODE_NEGATE>(x, y, workspace, tiling);
}

// Every core stores blockIdx + 1 with SetValue on a 64-byte line of its own (cores sharing a line would
// overwrite each other's bytes when their caches write it back) and writes it back; after SyncAll, core 0
// drops its cached lines and adds them up into y[16 * blockNum].
extern "C" __global__ __aicore__ void gather_sum(GM_ADDR y)
{
    constexpr int64_t kLineFloats = 16;
    const int64_t cores = GetBlockNum();
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), kLineFloats * cores + 1);
    yGm.SetValue(kLineFloats * GetBlockIdx(), static_cast<float>(GetBlockIdx() + 1));
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(yGm[kLineFloats * GetBlockIdx()]);
    SyncAll();
    if (GetBlockIdx() == 0) {
        DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(yGm);
        float sum = 0.0f;
        for (int64_t i = 0; i < cores; ++i) {
            sum += yGm.GetValue(kLineFloats * i);
        }
        yGm.SetValue(kLineFloats * cores, sum);
        DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(yGm[kLineFloats * cores]);
    }
}
