// ShiftLeft/ShiftRight's dtype table on A2 in every form, and TQueSync's pipe rules (CMakeLists.txt compiles this
// file once per FAULT line, and once with FAULT=0, which must compile: each call in a form and dtype A2 has).
// FAULT 1: ShiftLeft on A2 supports int16_t, uint16_t, int32_t and uint32_t
// FAULT 2: ShiftLeft on A2 supports int16_t, uint16_t, int32_t and uint32_t
// FAULT 3: ShiftRight on A2 supports int16_t, uint16_t, int32_t and uint32_t
// FAULT 4: TQueSync: src/dst pipe cannot be same
// FAULT 5: TQueSync: src pipe not supported
// FAULT 6: TQueSync: dst pipe not supported
// FAULT 7 error: no matching function for call to [^ ]*ShiftLeft
#include "kernel_operator.h"

using namespace AscendC;

void Shifts()
{
    LocalTensor<int16_t> s16;
    LocalTensor<uint16_t> u16;
    LocalTensor<int32_t> s32;
    LocalTensor<uint32_t> u32;
    LocalTensor<int8_t> s8;
    LocalTensor<half> h;
    LocalTensor<float> f;
    uint64_t bits[2] = {~0ull, ~0ull};
    const UnaryRepeatParams rp;
#if FAULT == 1
    ShiftLeft(s8, s8, static_cast<int8_t>(1), 32);
#elif FAULT == 2
    ShiftLeft(h, h, static_cast<half>(1.0f), bits, 1, rp);
#elif FAULT == 3
    ShiftRight(f, f, 1.0f, static_cast<uint64_t>(64), 1, rp, true);
#elif FAULT == 7
    ShiftLeft(s16, s16, 3, 128);  // the shift's type is the tensors' (int here): no T deduces
#else
    ShiftLeft(s16, s16, static_cast<int16_t>(3), 128);
    ShiftLeft(u16, u16, static_cast<uint16_t>(16), bits, 2, rp);
    ShiftLeft(s32, s32, 31, static_cast<uint64_t>(64), 2, rp);
    ShiftLeft<uint32_t, false>(u32, u32, 4u, 64);
    ShiftRight(s16, s16, static_cast<int16_t>(3), bits, 2, rp, true);
    ShiftRight(u16, u16, static_cast<uint16_t>(3), static_cast<uint64_t>(100), 1, rp);
    ShiftRight(s32, s32, 5, 64);
    ShiftRight(u32, u32, 32u, bits, 1, rp, false);
#endif
    (void)s8;
    (void)h;
    (void)f;
}

void Syncs()
{
#if FAULT == 4
    TQueSync<PIPE_V, PIPE_V> same;
    same.SetFlag(0);
#elif FAULT == 5
    TQueSync<PIPE_ALL, PIPE_V> all;
    all.SetFlag(0);
#elif FAULT == 6
    TQueSync<PIPE_S, PIPE_ALL> all;
    all.WaitFlag(0);
#else
    TQueSync<PIPE_S, PIPE_MTE3> a;
    TQueSync<PIPE_MTE2, PIPE_V> b;
    TQueSync<PIPE_V, PIPE_MTE3> c;
    TQueSync<PIPE_M, PIPE_FIX> d;
    TQueSync<PIPE_FIX, PIPE_M> e;
    TQueSync<PIPE_MTE1, PIPE_M> g;
    TQueSync<PIPE_S, PIPE_M> unnamed;  // no HardEvent names S -> M; set_flag has it
    unnamed.SetFlag(5);
    a.SetFlag(0);
    b.SetFlag(1);
    c.WaitFlag(2);
    d.SetFlag(3);
    e.WaitFlag(4);
    g.SetFlag(static_cast<TEventID>(EVENT_ID7));
#endif
}
