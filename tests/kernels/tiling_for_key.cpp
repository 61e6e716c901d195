// REGISTER_TILING_FOR_TILINGKEY (Kernel-Tiling docs): a TilingData struct per range of tiling keys, read with
// GET_TILING_DATA_WITH_STRUCT in the branch of each key and with GET_TILING_DATA (the default struct) elsewhere.
// Each key scales x by its struct's factor into y; `register_twice` names key 12 with two structs, and
// `reads_the_default` reads key 1's struct as the default one.
#include "kernel_operator.h"

struct ScaleDefault {
    uint32_t n;
    float scale;
};
struct ScaleOne {
    float pad;
    uint32_t n;
    float scale;
};
struct ScaleRange {
    uint32_t n;
    uint32_t pad[3];
    float scale;
};

namespace {

__aicore__ inline void Scale(GM_ADDR x, GM_ADDR y, uint32_t n, float scale)
{
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), n);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), n);
    for (uint32_t i = 0; i < n; ++i) yg.SetValue(i, xg.GetValue(i) * scale);
    AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::ENTIRE_DATA_CACHE, AscendC::DcciDst::CACHELINE_OUT>(yg);
}

}  // namespace

extern "C" __global__ __aicore__ void scale_by_key(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(ScaleDefault);
    REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR == 1", ScaleOne);
    REGISTER_TILING_FOR_TILINGKEY("(TILING_KEY_VAR >= 10) && (TILING_KEY_VAR <= 15)", ScaleRange);
    if (TILING_KEY_IS(1)) {
        GET_TILING_DATA_WITH_STRUCT(ScaleOne, t, tiling);
        Scale(x, y, t.n, t.scale);
    } else if (TILING_KEY_IS(11) || TILING_KEY_IS(14)) {
        GET_TILING_DATA_WITH_STRUCT(ScaleRange, t, tiling);
        Scale(x, y, t.n, t.scale);
    } else {
        GET_TILING_DATA(t, tiling);
        Scale(x, y, t.n, t.scale);
    }
}

extern "C" __global__ __aicore__ void register_twice(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(ScaleDefault);
    REGISTER_TILING_FOR_TILINGKEY("(TILING_KEY_VAR >= 10) && (TILING_KEY_VAR <= 15)", ScaleRange);
    REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR % 4 == 0", ScaleOne);
    GET_TILING_DATA_WITH_STRUCT(ScaleRange, t, tiling);
    Scale(x, y, t.n, t.scale);
}

extern "C" __global__ __aicore__ void reads_the_default(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(ScaleDefault);
    REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR == 1", ScaleOne);
    GET_TILING_DATA(t, tiling);
    Scale(x, y, t.n, t.scale);
}

extern "C" __global__ __aicore__ void bad_expression(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(ScaleDefault);
    REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR == KEY_ONE", ScaleOne);
    GET_TILING_DATA(t, tiling);
    Scale(x, y, t.n, t.scale);
}
