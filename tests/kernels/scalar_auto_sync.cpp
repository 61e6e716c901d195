// Scalar reads and writes of UB next to the vector core's other pipes, with no flags written by hand:
// the compiler's automatic synchronisation (--cce-auto-sync=on, the default) orders S against V, MTE2
// and MTE3, so these run clean, and what those flags order transitively is ordered too; it does not order
// MTE2 against V, so that pair still needs a flag.
#include "kernel_operator.h"

using namespace AscendC;

// y[i] = x[i] + x[0] (8 floats): DataCopy GM->UB, GetValue, Adds, SetValue, DataCopy UB->GM.
extern "C" __global__ __aicore__ void scalar_between_pipes(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), 8);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), 8);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> a = ub.Alloc<float, 8>();
    LocalTensor<float> b = ub.Alloc<float, 8>();
    DataCopy(a, xGm, 8);                  // MTE2
    const float first = a.GetValue(0);    // S after MTE2
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Adds(b, a, first, 8);                 // V
    b.SetValue(0, b.GetValue(0) * 1.0f);  // S after V: the compiler's V_S flag
    DataCopy(yGm, b, 8);                  // MTE3 after S (its S_MTE3 flag), and so after V
}

// The same without the MTE2_V flag: the vector instruction may read the UB before the copy lands.
extern "C" __global__ __aicore__ void vector_without_copy_flag(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), 8);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), 8);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> a = ub.Alloc<float, 8>();
    LocalTensor<float> b = ub.Alloc<float, 8>();
    DataCopy(a, xGm, 8);
    Adds(b, a, 1.0f, 8);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, b, 8);
}
