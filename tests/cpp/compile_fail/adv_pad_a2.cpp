// Pad's and UnPad's compile-time dtype rule on the twin (CMakeLists.txt compiles this file once per FAULT line, and
// once with FAULT=0, which must compile: int16_t, uint16_t, half, int32_t, uint32_t and float in every form, the
// docs' table).
// FAULT 1: Pad on A2 supports int16_t, uint16_t, half, int32_t, uint32_t and float
// FAULT 2: Pad on A2 supports int16_t, uint16_t, half, int32_t, uint32_t and float
// FAULT 3: UnPad on A2 supports int16_t, uint16_t, half, int32_t, uint32_t and float
#include "lib/pad/pad.h"

using namespace AscendC;

template <typename T>
void UsePad(LocalTensor<uint8_t>& tmp, PadTiling& pt)
{
    LocalTensor<T> y, x;
    PadParams p{0, 1, 0};
    Pad(y, x, p, tmp, pt);
    Pad(y, x, p, pt);
}

template <typename T>
void UseUnPad(LocalTensor<uint8_t>& tmp, UnPadTiling& ut)
{
    LocalTensor<T> y, x;
    UnPadParams u{0, 1};
    UnPad(y, x, u, tmp, ut);
    UnPad(y, x, u, ut);
}

void Instantiate(LocalTensor<uint8_t>& tmp, PadTiling& pt, UnPadTiling& ut)
{
#if FAULT == 0
    UsePad<int16_t>(tmp, pt);
    UsePad<uint16_t>(tmp, pt);
    UsePad<half>(tmp, pt);
    UsePad<int32_t>(tmp, pt);
    UsePad<uint32_t>(tmp, pt);
    UsePad<float>(tmp, pt);
    UseUnPad<int16_t>(tmp, ut);
    UseUnPad<half>(tmp, ut);
    UseUnPad<uint32_t>(tmp, ut);
    UseUnPad<float>(tmp, ut);
#elif FAULT == 1
    UsePad<bfloat16_t>(tmp, pt);  // not in Pad's table
#elif FAULT == 2
    UsePad<int8_t>(tmp, pt);
#elif FAULT == 3
    UseUnPad<bfloat16_t>(tmp, ut);
#endif
}
