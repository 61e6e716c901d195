// The device compiler's names of A2 element types and its conversions of constants to bfloat16_t, as
// kernels written by others use them: `__bf16` is bfloat16_t, `float32_t` is float, `float16_t` is half;
// the conversion of a float or double constant to bfloat16_t is folded by the compiler, a run-time one is
// refused (FAULT 1..5 plant the refused forms; FAULT 0 compiles). The compiler's scalar min/max: overloads
// of int32_t, uint32_t, int64_t, uint64_t, ambiguous for mixed types and absent for floats (FAULT 6, 7).
#include "kernel_operator.h"

using namespace AscendC;

static_assert(std::is_same_v<__bf16, bfloat16_t>, "__bf16 is bfloat16_t");
static_assert(std::is_same_v<float32_t, float> && std::is_same_v<float16_t, half>, "float32_t/float16_t");

// out[0..15] (bfloat16_t): six constants converted in the forms the device folds, then scale * 2^-i (made
// through AscendC::Cast) for i = 6..15.
extern "C" __global__ __aicore__ void bf16_constants(GM_ADDR out, float scale)
{
    GlobalTensor<__bf16> outGm;
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ __bf16*>(out), 16);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<__bf16> v = ub.Alloc<__bf16, 16>();
    constexpr float kThird = 1.0f / 3.0f;
    const float kSeven = 7.0f;
    v.SetValue(0, static_cast<bfloat16_t>(-1.0f / 0.0f));  // SGLang apply_token_bitmask's -inf
    v.SetValue(1, static_cast<__bf16>(kThird));
    const bfloat16_t fromDouble = 2.718281828;
    v.SetValue(2, fromDouble);
    v.SetValue(3, bfloat16_t(65504.0f * 4.0f));
    v.SetValue(4, static_cast<bfloat16_t>(kSeven));
    v.SetValue(5, bfloat16_t(1.0f + 1.0f / 256.0f));  // a tie: rounds to even (1.0)
    float s = scale;
    for (int32_t i = 6; i < 16; ++i) {
        s = s * 0.5f;
        v.SetValue(i, AscendC::Cast(s));
    }
#if FAULT == 1
    v.SetValue(0, static_cast<bfloat16_t>(scale));  // a run-time explicit conversion
#elif FAULT == 2
    const bfloat16_t made = scale * 2.0f;  // a run-time implicit conversion
    v.SetValue(0, made);
#elif FAULT == 3
    v.SetValue(0, __bf16(s));  // through the __bf16 name
#elif FAULT == 4
    const float copy = scale;  // const, but not a constant
    v.SetValue(0, static_cast<bfloat16_t>(copy));
#elif FAULT == 5
    const float16_t h = 1.0f;
    v.SetValue(0, static_cast<bfloat16_t>(h));  // half -> bfloat16_t: no scalar conversion
#endif
    DataCopy(outGm, v, 16);
}

// y = half(x * 2) over n elements (n a multiple of 64), in float32_t and float16_t tensors.
extern "C" __global__ __aicore__ void named_types(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    GlobalTensor<float32_t> xGm;
    GlobalTensor<float16_t> yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float32_t*>(x), n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float16_t*>(y), n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb;
    pipe.InitBuffer(xb, n * sizeof(float32_t));
    pipe.InitBuffer(yb, n * sizeof(float16_t));
    LocalTensor<float32_t> xl = xb.Get<float32_t>();
    LocalTensor<float16_t> yl = yb.Get<float16_t>();
    DataCopy(xl, xGm, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(xl, xl, static_cast<float32_t>(2.0f), n);
    Cast(yl, xl, RoundMode::CAST_NONE, n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, yl, n);
}

// out[0..7] (int64_t): min and max of each overload's pair, found unqualified as the device compiler's are.
extern "C" __global__ __aicore__ void scalar_min_max(GM_ADDR out, int64_t a, int64_t b, uint32_t c, uint32_t d)
{
    GlobalTensor<int64_t> outGm;
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(out), 8);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<int64_t> v = ub.Alloc<int64_t, 8>();
    v.SetValue(0, min(a, b));
    v.SetValue(1, max(a, b));
    v.SetValue(2, min(c, d));
    v.SetValue(3, max(c, d));
    v.SetValue(4, min(static_cast<int32_t>(a), static_cast<int32_t>(b)));
    v.SetValue(5, max(static_cast<int32_t>(a), static_cast<int32_t>(b)));
    v.SetValue(6, static_cast<int64_t>(min(static_cast<uint64_t>(c) << 32, static_cast<uint64_t>(d) << 32) >> 32));
    v.SetValue(7, static_cast<int64_t>(max(static_cast<uint64_t>(c) << 32, static_cast<uint64_t>(d) << 32) >> 32));
#if FAULT == 6
    v.SetValue(0, min(a, 32));  // int64_t with an int: ambiguous on the device (bisheng, dav-2201)
#elif FAULT == 7
    v.SetValue(0, static_cast<int64_t>(max(1.5f, 2.5f)));  // no floating-point overload
#endif
    DataCopy(outGm, v, 8);
}
