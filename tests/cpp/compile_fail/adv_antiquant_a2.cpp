// AscendAntiQuant's compile-time rules on the twin (CMakeLists.txt compiles this file once per FAULT line, and once
// with FAULT=0, which must compile: int8_t and int4b_t -> half, not transposed, tensor offset and scale with and without
// sharedTmpBuffer and shapeInfo, the scalar forms).
// A2's dtype table (antiquant_check_common.h: int8_t/int4b_t in, half/bfloat16_t out), then the twin's gap: only the
// int8_t/int4b_t -> half forms without transpose are modelled.
// FAULT 1: first template parameter \(InputDataType\) is not int8_t or int4b_t
// FAULT 2: second template parameter \(OutputDataType\) is not half or bfloat16_t
// FAULT 3: AscendAntiQuant: the twin models A2's int8_t/int4b_t -> half forms without transpose only
// FAULT 4: AscendAntiQuant: the twin models A2's int8_t/int4b_t -> half forms without transpose only
// FAULT 5: AscendAntiQuant: the tensor-scale form without offset is not implemented in the twin
#include "lib/quantization/ascend_antiquant.h"

using namespace AscendC;

void Use(LocalTensor<uint8_t>& tmp)
{
    LocalTensor<half> h;
    LocalTensor<int8_t> s;
#if FAULT == 0
    AscendAntiQuant<int8_t, half, false>(h, s, h, h, tmp, 8);
    AscendAntiQuant<int8_t, half, false>(h, s, h, h, 8, AntiQuantShapeInfo{1, 128, 1, 128});
    AscendAntiQuant<int8_t, half, false>(h, s, half(1.0f), half(0.5f), tmp, 8);
    AscendAntiQuant<int8_t, half, false>(h, s, half(0.5f), tmp, 8);
    AscendAntiQuant<int8_t, half, false>(h, s, half(1.0f), half(0.5f), 8);
    LocalTensor<int4b_t> s4;
    AscendAntiQuant<int4b_t, half, false>(h, s4, h, h, tmp, 8);
    AscendAntiQuant<int4b_t, half, false>(h, s4, half(0.5f), tmp, 8);
#elif FAULT == 1
    LocalTensor<int16_t> i;
    AscendAntiQuant<int16_t, half, false>(h, i, h, h, tmp, 8);
#elif FAULT == 2
    LocalTensor<float> f;
    AscendAntiQuant<int8_t, float, false>(f, s, f, f, tmp, 8);
#elif FAULT == 3
    AscendAntiQuant<int8_t, half, true>(h, s, h, h, tmp, 8);
#elif FAULT == 4
    LocalTensor<bfloat16_t> b;
    AscendAntiQuant<int8_t, bfloat16_t, false>(b, s, b, b, tmp, 8);
#elif FAULT == 5
    AscendAntiQuant<int8_t, half, false>(h, s, h, tmp, 8);
#endif
}
