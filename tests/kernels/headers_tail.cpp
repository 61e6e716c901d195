// Kernels written against CANN's individual headers rather than kernel_operator.h alone (tests/test_twin_tail.py):
// the data-type macros of kernel_type.h, kernel_common.h's helpers, AscendC::Std at std/..., ListTensorDesc from
// kernel_operator_list_tensor_intf.h, and MulAddDst.
#include "kernel_type.h"
#include "kernel_common.h"
#include "kernel_event.h"
#include "kernel_vec_intf.h"
#include "kernel_operator_list_tensor_intf.h"
#include "std/algorithm.h"
#include "std/type_traits.h"

using namespace AscendC;

#if DT_FLOAT != 0 || DT_FLOAT16 != 1 || DT_BF16 != 27 || FORMAT_ND != 2
#error "the data type and format numbers differ from kernel_type.h"
#endif

// out[0..]: DT_FLOAT, DT_FLOAT16, DT_INT32, DT_BF16, FORMAT_NCHW, FORMAT_ND, GetDataBlockSizeInBytes(),
// Std::max(3, 9), Std::is_same_v<half, half>, DivCeil(100, 32)
extern "C" __global__ __aicore__ void header_values(GM_ADDR out)
{
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t*)out, 10);
    constexpr int16_t blk = GetDataBlockSizeInBytes();
    const int32_t v[10] = {DT_FLOAT, DT_FLOAT16, DT_INT32, DT_BF16, FORMAT_NCHW, FORMAT_ND, blk, Std::max(3, 9),
                           Std::is_same_v<half, half> ? 1 : 0, static_cast<int32_t>(DivCeil(100, 32))};
    for (int i = 0; i < 10; ++i) o.SetValue(i, v[i]);
}

// A list of float tensors (ListTensorDesc): out[i] = the sum of every tensor's first n elements, meta = the
// list's size, then each tensor's dim, index, first shape word and last shape word. tiling: uint32 n,
// uint32 use_desc (read the pointers through GetDesc/GetDataObj rather than GetDataPtr), uint32 bad_index
// (0xffffffff: none; else GetDataPtr of that index), uint32 length and uint32 shapeSize (the constructor's
// checks; 0xffffffff: not given), uint32 last_shape (the GetShape offset of each tensor's last shape word:
// 0xffffffff for dim - 1).
extern "C" __global__ __aicore__ void list_sum(GM_ADDR list, GM_ADDR out, GM_ADDR meta, GM_ADDR tiling)
{
    const uint32_t* t = reinterpret_cast<const uint32_t*>(tiling);
    const uint32_t n = t[0];
    ListTensorDesc desc(list, t[3], t[4]);
    GlobalTensor<int32_t> m;
    m.SetGlobalBuffer((__gm__ int32_t*)meta, 1 + 4 * 8);
    m.SetValue(0, static_cast<int32_t>(desc.GetSize()));
    if (t[2] != 0xffffffffu) (void)desc.GetDataPtr<float>(t[2]);

    TPipe pipe;
    TBuf<TPosition::VECCALC> accBuf, inBuf;
    pipe.InitBuffer(accBuf, n * sizeof(float));
    pipe.InitBuffer(inBuf, n * sizeof(float));
    LocalTensor<float> acc = accBuf.Get<float>();
    LocalTensor<float> in = inBuf.Get<float>();
    Duplicate(acc, 0.0f, n);
    for (uint32_t i = 0; i < desc.GetSize(); ++i) {
        GlobalTensor<float> src;
        if (t[1]) {
            TensorDesc<float> td;
            td.SetShapeAddr(nullptr);
            desc.GetDesc(td, i);
            m.SetValue(1 + 4 * i, static_cast<int32_t>(td.GetDim()));
            m.SetValue(2 + 4 * i, static_cast<int32_t>(td.GetIndex()));
            m.SetValue(3 + 4 * i, static_cast<int32_t>(td.GetShape(0)));
            const uint32_t last = t[5] == 0xffffffffu ? static_cast<uint32_t>(td.GetDim() - 1) : t[5];
            m.SetValue(4 + 4 * i, static_cast<int32_t>(td.GetShape(last)));
            src = td.GetDataObj();
        } else {
            src.SetGlobalBuffer(desc.GetDataPtr<float>(i), n);
        }
        PipeBarrier<PIPE_ALL>();
        DataCopy(in, src, n);
        PipeBarrier<PIPE_ALL>();
        Add(acc, acc, in, n);
        PipeBarrier<PIPE_ALL>();
    }
    GlobalTensor<float> o;
    o.SetGlobalBuffer((__gm__ float*)out, n);
    DataCopy(o, acc, n);
}

// dst = src0 * src1 + dst (MulAddDst's count form), dst read from acc.
template <typename T, typename U>
__aicore__ inline void MulAddDstKernel(GM_ADDR a, GM_ADDR b, GM_ADDR acc, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ab, bb, cb;
    pipe.InitBuffer(ab, n * sizeof(U));
    pipe.InitBuffer(bb, n * sizeof(U));
    pipe.InitBuffer(cb, n * sizeof(T));
    GlobalTensor<U> ga, gb;
    GlobalTensor<T> gc;
    ga.SetGlobalBuffer((__gm__ U*)a, n);
    gb.SetGlobalBuffer((__gm__ U*)b, n);
    gc.SetGlobalBuffer((__gm__ T*)acc, n);
    LocalTensor<U> la = ab.Get<U>();
    LocalTensor<U> lb = bb.Get<U>();
    LocalTensor<T> lc = cb.Get<T>();
    DataCopy(la, ga, n);
    DataCopy(lb, gb, n);
    DataCopy(lc, gc, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    MulAddDst(lc, la, lb, static_cast<int32_t>(n));
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(gc, lc, n);
}

extern "C" __global__ __aicore__ void mul_add_dst_ff(GM_ADDR a, GM_ADDR b, GM_ADDR acc, uint32_t n)
{
    MulAddDstKernel<float, float>(a, b, acc, n);
}
extern "C" __global__ __aicore__ void mul_add_dst_hh(GM_ADDR a, GM_ADDR b, GM_ADDR acc, uint32_t n)
{
    MulAddDstKernel<half, half>(a, b, acc, n);
}
extern "C" __global__ __aicore__ void mul_add_dst_fh(GM_ADDR a, GM_ADDR b, GM_ADDR acc, uint32_t n)
{
    MulAddDstKernel<float, half>(a, b, acc, n);
}
