// The twin keeps its own state of the API objects in members the Ascend C API does not have; they are
// private, so a kernel calling one fails to compile here as it would against CANN's headers.
// CMakeLists.txt compiles this file with FAULT=0 (must compile: the API's own members) and once per FAULT
// line, which must fail with "<member> ... is private within this context".
// FAULT 1 private: TwinData
// FAULT 2 private: TwinData
// FAULT 3 private: TwinBind
// FAULT 4 private: TwinRef
// FAULT 5 private: TwinPosition
// FAULT 6 private: TwinInit
// FAULT 7 private: TwinInit
// FAULT 8 private: TwinResources
// FAULT 9 private: TakeFree
// FAULT 10 private: TwinData
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void uses_the_api(GM_ADDR x)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> que;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(que, 1, 64);
    pipe.InitBuffer(buf, 64);
    GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
    LocalTensor<float> t = que.AllocTensor<float>();
    LocalTensor<int4b_t> nibbles = buf.Get<int4b_t>();
    (void)t.GetPhyAddr();
    (void)t.GetPosition();
    (void)g.GetPhyAddr();
    (void)nibbles.GetSize();
#if FAULT == 1
    (void)t.TwinData();
#elif FAULT == 2
    (void)g.TwinData();
#elif FAULT == 3
    t.TwinBind(nullptr, 0, TPosition::VECIN, twin_detail::BufferRef{});
#elif FAULT == 4
    (void)t.TwinRef();
#elif FAULT == 5
    (void)t.TwinPosition();
#elif FAULT == 6
    twin_detail::PipeResources resources;
    que.TwinInit("kernel", resources, 1, 64);
#elif FAULT == 7
    twin_detail::PipeResources resources;
    buf.TwinInit("kernel", resources, 64);
#elif FAULT == 8
    (void)pipe.TwinResources();
#elif FAULT == 9
    (void)que.TakeFree<float>();
#elif FAULT == 10
    (void)nibbles.TwinData();
#endif
    que.FreeTensor(t);
}
