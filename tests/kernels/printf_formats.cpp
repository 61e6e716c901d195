// AscendC::printf with the argument types and conversions the NPU's printf takes, and the formats its
// host parser does not (tests/test_twin_printf.py).
#include "kernel_operator.h"

using namespace AscendC;

struct PrintTiling {
    uint16_t halfBits;
    uint16_t bf16Bits;
    float f;
    int32_t i;
    uint32_t u;
    uint64_t big;
    int32_t fault;  // 0: every conversion, 1..4: a format the host parser refuses
};

extern "C" __global__ __aicore__ void print_values(GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(PrintTiling);
    GET_TILING_DATA(t, tiling);
    half h;
    h.bits = t.halfBits;
    bfloat16_t b;
    b.bits = t.bf16Bits;
    switch (t.fault) {
        case 0:
            AscendC::printf("100%%\n");
            AscendC::printf("half %f bf16 %f float %F\n", h, b, t.f);
            AscendC::printf("int %d %i %ld unsigned %u %lu %llu\n", t.i, t.i, static_cast<long>(t.i), t.u,
                            static_cast<unsigned long>(t.u), t.big);
            AscendC::printf("hex %x %X %llx neg %x\n", t.u, t.u, t.big, t.i);
            AscendC::printf("bool %d %u name %s, %d%% of %s\n", true, false, "twin", 50, "cores");
            PRINTF("float bits %d\n", t.f);  // a float's slot read as an integer: its bits, as on the NPU
            break;
        case 1: AscendC::printf("width %5.2f\n", t.f); break;
        case 2: AscendC::printf("two %d %d\n", t.i); break;
        case 3: AscendC::printf("string %s\n", t.i); break;
        case 4: AscendC::printf("number %d\n", "text"); break;
        default: break;
    }
}
