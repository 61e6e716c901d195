// Kernel entries in the forms public kernels use: one entry per dtype declared through a macro, scalars and
// many parameters (14 here, 16 below: the most the twin launches), and host code in the same file that
// launches them with the device compiler's <<<numBlocks, l2ctrl, stream>>> syntax.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

// y[i] = a * x[i] + b for i < n, as floats, on one core per 8 elements block range.
template <typename T>
__aicore__ inline void AxpbCopy(GM_ADDR x, GM_ADDR y, uint32_t n, float a, float b)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * 256 * sizeof(float));
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), n);
    LocalTensor<T> t = buf.Get<T>();
    DataCopy(t, xGm, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(t, t, static_cast<T>(a), static_cast<int32_t>(n));
    Adds(t, t, static_cast<T>(b), static_cast<int32_t>(n));
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, t, n);
}

}  // namespace

// 14 parameters: GM addresses and scalars interleaved, the way the LoRA kernels of inference engines pass them.
#define AXPB_DECLARE(TYPE)                                                                                        \
    extern "C" __global__ __aicore__ void axpb_##TYPE(GM_ADDR x, uint32_t n, GM_ADDR unused0, uint32_t pad0,    \
                                                      GM_ADDR y, float a, uint32_t pad1, uint32_t pad2,           \
                                                      GM_ADDR unused1, uint32_t pad3, float b, uint32_t pad4,     \
                                                      uint32_t pad5, uint32_t pad6)                               \
    {                                                                                                             \
        AxpbCopy<TYPE>(x, y, n, a, b);                                                                            \
    }

AXPB_DECLARE(float)
AXPB_DECLARE(half)

// 16 GM addresses: out[i] = in0[i] + ... + in14[i] over 8 floats.
extern "C" __global__ __aicore__ void sum15(GM_ADDR in0, GM_ADDR in1, GM_ADDR in2, GM_ADDR in3, GM_ADDR in4,
                                            GM_ADDR in5, GM_ADDR in6, GM_ADDR in7, GM_ADDR in8, GM_ADDR in9,
                                            GM_ADDR in10, GM_ADDR in11, GM_ADDR in12, GM_ADDR in13, GM_ADDR in14,
                                            GM_ADDR out)
{
    GM_ADDR ins[] = {in0, in1, in2, in3, in4, in5, in6, in7, in8, in9, in10, in11, in12, in13, in14};
    GlobalTensor<float> o;
    o.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 8);
    for (GM_ADDR p : ins) {  // the scalar unit reads the inputs: their lines invalidated first (GetValue docs)
        GlobalTensor<float> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(p), 8);
        DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(g);
    }
    for (int32_t i = 0; i < 8; ++i) {
        float s = 0;
        for (GM_ADDR p : ins) {
            GlobalTensor<float> g;
            g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(p), 8);
            s += g.GetValue(i);
        }
        o.SetValue(i, s);
    }
}

#if defined(FAULT_SEVENTEEN)
// 17 parameters: more than the twin's entry description holds (a compile error naming the limit).
extern "C" __global__ __aicore__ void too_many(GM_ADDR a0, GM_ADDR a1, GM_ADDR a2, GM_ADDR a3, GM_ADDR a4,
                                               GM_ADDR a5, GM_ADDR a6, GM_ADDR a7, GM_ADDR a8, GM_ADDR a9,
                                               GM_ADDR a10, GM_ADDR a11, GM_ADDR a12, GM_ADDR a13, GM_ADDR a14,
                                               GM_ADDR a15, GM_ADDR a16)
{
}
#endif

// A template entry with its kernel-type qualifier before __global__ (asc-devkit's single-file examples): not
// launchable by itself (its host code below instantiates it), so not exported; an extern "C" entry instantiates it.
template <typename T, int32_t N>
__vector__ __global__ void twice_tpl(__gm__ T* x)
{
    GlobalTensor<T> g;
    g.SetGlobalBuffer(x, N);
    for (int32_t i = 0; i < N; ++i) {
        g.SetValue(i, g.GetValue(i) * 2);
    }
}

extern "C" __global__ __vector__ void twice_float(GM_ADDR x) { twice_tpl<float, 8>(reinterpret_cast<__gm__ float*>(x)); }

void twice_do(void* stream, float* x) { twice_tpl<float, 8><<<1, nullptr, stream>>>(x); }

// Host code as kernel files hold it: the device compiler's launch syntax.
void axpb_float_do(uint32_t blockDim, void* stream, uint8_t* x, uint32_t n, uint8_t* y, float a, float b)
{
    axpb_float<<<blockDim, nullptr, stream>>>(x, n, nullptr, 0, y, a, 0, 0, nullptr, 0, b, 0, 0, 0);
}

extern "C" int entry_forms_host_launch(void)
{
    try {
        axpb_float_do(1, nullptr, nullptr, 8, nullptr, 1.0f, 0.0f);
    } catch (const std::logic_error&) {
        return 1;  // the twin's launcher runs kernels; host <<<>>> launches raise
    }
    return 0;
}
