// Compile-time rules of the utility and form tail (tests/test_twin_tail.py runs the kernels).
// FAULT 1 error: (no member named 'GetTPipePtr' in namespace 'AscendC'|GetTPipePtr[^ ]* is not a member of [^ ]*AscendC)
// FAULT 2: current data type is not supported on current device!
// FAULT 3: GatherMask on A2 takes a uint16_t pattern for 16-bit data and a uint32_t pattern for 32-bit data
// FAULT 4: Copy on A2 supports int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and float
// FAULT 5: And/Or on A2 support int16_t, uint16_t, int32_t and uint32_t
// FAULT 6: GatherMask on A2 supports int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and float
// FAULT 7: a TBufPool holds at most 16 buffers \(bufIDSize\)
// FAULT 8: MulAddDst on A2 supports \(dst, src\) = \(half, half\), \(float, float\) and \(float, half\)
// FAULT 9: TbufPool Position should be one of A1/B1/C1/VECIN/VECOUT/VECCALC
// FAULT 10: the twin's TBufPool holds UB \(VECIN/VECOUT/VECCALC\); an L1 pool \(A1/B1/C1\) is not modelled
// FAULT 11: GatherMask's src1Pattern tensor is uint16_t or uint32_t
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void tail_forms(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<float> f = buf.Get<float>();
    LocalTensor<uint32_t> u32 = buf.Get<uint32_t>();
    LocalTensor<int16_t> i16 = buf.Get<int16_t>();
    uint64_t kept = 0;
    TPipe* p = GetTPipePtr();  // global, as in kernel_common.h
    (void)p;
    (void)Std::abs(-2.0f);
    GatherMask(f, f, u32, true, 64, {1, 1, 8, 0}, kept);
    Copy(i16, i16, 128, 1, {1, 1, 8, 8});
    i16 = i16 & i16;
    TBufPool<TPosition::VECCALC, 16> pool;
    (void)pool;
#if FAULT == 1
    (void)AscendC::GetTPipePtr();
#elif FAULT == 2
    (void)Std::abs(static_cast<half>(1.0f));
#elif FAULT == 3
    LocalTensor<uint16_t> u16 = buf.Get<uint16_t>();
    GatherMask(f, f, u16, true, 64, {1, 1, 8, 0}, kept);
#elif FAULT == 4
    LocalTensor<int8_t> i8 = buf.Get<int8_t>();
    Copy(i8, i8, 128, 1, {1, 1, 8, 8});
#elif FAULT == 5
    f = f & f;
#elif FAULT == 6
    LocalTensor<int8_t> i8 = buf.Get<int8_t>();
    GatherMask(i8, i8, static_cast<uint8_t>(1), false, 0, {1, 1, 8, 0}, kept);
#elif FAULT == 7
    TBufPool<TPosition::VECCALC, 17> big;
    (void)big;
#elif FAULT == 8
    LocalTensor<half> h = buf.Get<half>();
    MulAddDst(h, f, f, 64);
#elif FAULT == 9
    TBufPool<TPosition::GM> gm;
    (void)gm;
#elif FAULT == 10
    TBufPool<TPosition::A1> l1;
    (void)l1;
#elif FAULT == 11
    LocalTensor<int32_t> i32 = buf.Get<int32_t>();
    GatherMask(f, f, i32, true, 64, {1, 1, 8, 0}, kept);
#endif
}
