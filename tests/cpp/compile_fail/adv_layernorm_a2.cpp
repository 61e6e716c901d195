// LayerNorm's compile-time dtype rule on the twin (CMakeLists.txt compiles this file once per FAULT line, and once with
// FAULT=0, which must compile: half and float, both [B, S, H] forms, isReuseSource). A2's check: "template parameter
// (T) is not half or float".
// FAULT 1: LayerNorm on A2 supports half and float
// FAULT 2: LayerNorm on A2 supports half and float
#include "lib/normalization/layernorm.h"

using namespace AscendC;

void Use(LocalTensor<uint8_t>& tmp, LayerNormTiling& tiling)
{
#if FAULT == 0
    LocalTensor<half> h;
    LocalTensor<float> f;
    LayerNorm(h, h, h, h, h, h, tmp, static_cast<half>(1e-5f), tiling);
    LayerNorm<float, true>(f, f, f, f, f, f, 1e-5f, tiling);
#elif FAULT == 1
    LocalTensor<bfloat16_t> b;
    LayerNorm(b, b, b, b, b, b, tmp, b.GetValue(0), tiling);
#elif FAULT == 2
    LocalTensor<int32_t> i;
    LayerNorm(i, i, i, i, i, i, 1, tiling);
#endif
}
