// AscendDequant's compile-time dtype rules on the twin (CMakeLists.txt compiles this file once per FAULT line, and
// once with FAULT=0, which must compile: every A2 combination of dstT and scaleT, tensor and scalar).
// FAULT 1: current combination of deqScale dtype and dstTensor dtype is not supported, please check the document
// FAULT 2: current combination of deqScale dtype and dstTensor dtype is not supported, please check the document
// FAULT 3: current combination of deqScale dtype and dstTensor dtype is not supported, please check the document
#include "lib/quantization/ascend_dequant.h"

using namespace AscendC;

void Use(LocalTensor<uint8_t>& tmp)
{
    LocalTensor<int32_t> src;
    LocalTensor<half> h;
    LocalTensor<float> f;
    LocalTensor<bfloat16_t> b;
    LocalTensor<uint64_t> u;
    const DequantParams p{4, 8, 8};
#if FAULT == 0
    AscendDequant(h, src, u, tmp, p);
    AscendDequant(f, src, f, tmp, p);
    AscendDequant(f, src, b, tmp, p);
    AscendDequant(b, src, b, tmp, p);
    AscendDequant(b, src, f, tmp, p);
    AscendDequant(f, src, 0.5f, tmp, p);
    AscendDequant<bfloat16_t, float>(b, src, 0.5f, tmp, p);
#elif FAULT == 1
    AscendDequant(h, src, f, tmp, p);  // half needs the uint64_t scale
#elif FAULT == 2
    AscendDequant(h, src, 0.5f, tmp, p);  // no scalar form for half
#elif FAULT == 3
    AscendDequant(f, src, u, tmp, p);  // uint64_t goes with half only
#endif
}
