// SetShapeInfo/GetShapeInfo on LocalTensor and GlobalTensor (random dims). PopStackBuffer: the tensor it pops starts where the TPipe's buffers end and reaches A2's end of the stack buffer,
// UB size - sizeof(KfcMsg) (128 bytes); data written through it round-trips through GM (fresh random floats); the
// rules (a TPipe exists, something is left, a UB position) each with a planted fault and the same kernel made right.
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "check.h"
#include "fault_launch.h"
#include "kernel_operator.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr uint32_t kUb = 192 * 1024;  // A2's UB (Ascend910B profiles)
constexpr uint32_t kKfc = 128;        // sizeof(KfcMsg) on dav_c220
constexpr uint32_t kBufBytes = 4096;
constexpr int kN = 256;

// out[0..1] = the popped tensor's UB offset and size in floats; out[2..] = in[0..kN) * 2 through the popped tensor.
void PopKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kBufBytes);
    LocalTensor<float> stack;
    const bool ok = PopStackBuffer<float, TPosition::LCM>(stack);
    GlobalTensor<float> inGm;
    GlobalTensor<uint32_t> head;
    GlobalTensor<float> outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    head.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(out));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out) + 8);
    LocalTensor<float> x = buf.Get<float>();
    DataCopy(stack, inGm, kN);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(x, stack, 2.0f, kN);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, x, kN);
    head.SetValue(0, ok ? 1u : 0u);
    head.SetValue(1, static_cast<uint32_t>(reinterpret_cast<uintptr_t>(stack.GetPhyAddr()) -
                                           reinterpret_cast<uintptr_t>(x.GetPhyAddr())));
    head.SetValue(2, stack.GetSize());
    DataCacheCleanAndInvalid<uint32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(head);
}

void NoPipe(GM_ADDR, GM_ADDR)
{
    LocalTensor<float> stack;
    PopStackBuffer<float, TPosition::VECCALC>(stack);
}

void HasPipe(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    LocalTensor<float> stack;
    PopStackBuffer<float, TPosition::VECCALC>(stack);
}

void UbFull(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kUb - kKfc);  // ends where the stack buffer would end
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::VECCALC>(stack);
}

void UbAlmostFull(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kUb - kKfc - 32);  // one block left
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::VECCALC>(stack);
}

void L1Position(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    LocalTensor<half> stack;
    PopStackBuffer<half, TPosition::A1>(stack);
}

// out (uint32): the shape dims and the format a copy of a LocalTensor and a GlobalTensor give back after
// SetShapeInfo.
void ShapeKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    GlobalTensor<uint32_t> dims, res;
    dims.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(in), 8);
    res.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(out), 64);
    uint32_t shape[3] = {dims.GetValue(0), dims.GetValue(1), dims.GetValue(2)};
    uint32_t origin[3] = {dims.GetValue(0), dims.GetValue(1), dims.GetValue(3)};
    LocalTensor<float> t = q.AllocTensor<float>();
    t.SetShapeInfo(ShapeInfo(3, shape, 3, origin, DataFormat::NZ));
    const LocalTensor<float> copy = t;  // copies carry it (a DeQue builds a new tensor: it does not)
    const ShapeInfo got = copy.GetShapeInfo();
    GlobalTensor<uint32_t> g = dims;
    g.SetShapeInfo(ShapeInfo(2, shape, DataFormat::ND));
    const ShapeInfo gg = g.GetShapeInfo();
    uint32_t i = 0;
    res.SetValue(i++, got.shapeDim);
    res.SetValue(i++, got.originalShapeDim);
    for (int d = 0; d < 3; ++d) res.SetValue(i++, got.shape[d]);
    for (int d = 0; d < 3; ++d) res.SetValue(i++, got.originalShape[d]);
    res.SetValue(i++, static_cast<uint32_t>(got.dataFormat));
    res.SetValue(i++, gg.shapeDim);
    res.SetValue(i++, gg.shape[0]);
    res.SetValue(i++, gg.shape[1]);
    res.SetValue(i++, static_cast<uint32_t>(gg.dataFormat));
    q.FreeTensor(t);
    DataCacheCleanAndInvalid<uint32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(res);
}

}  // namespace

TEST_CASE("SetShapeInfo/GetShapeInfo: a LocalTensor (copied) and a GlobalTensor give the shape back")
{
    std::mt19937 rng(std::random_device{}());
    std::uniform_int_distribution<uint32_t> d(1, 4096);
    const uint32_t dims[4] = {d(rng), d(rng), d(rng), d(rng)};
    std::vector<uint8_t> in(32), out(256);
    std::memcpy(in.data(), dims, sizeof dims);
    CHECK(!fault::Run(ShapeKernel, in, out));
    uint32_t r[13];
    std::memcpy(r, out.data(), sizeof r);
    const uint32_t expect[13] = {3, 3, dims[0], dims[1], dims[2], dims[0], dims[1], dims[3],
                                 static_cast<uint32_t>(DataFormat::NZ), 2, dims[0], dims[1],
                                 static_cast<uint32_t>(DataFormat::ND)};
    for (int i = 0; i < 13; ++i) CHECK(r[i] == expect[i]);
}

TEST_CASE("PopStackBuffer: from the TPipe's end to UB - 128 bytes, usable as a tensor (random floats * 2)")
{
    std::vector<uint8_t> in(kN * 4), out(32 + kN * 4);
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> d(-100.0f, 100.0f);
    std::vector<float> x(kN);
    for (float& v : x) v = d(rng);
    std::memcpy(in.data(), x.data(), in.size());
    const auto broken = fault::Run(PopKernel, in, out);
    CHECK(!broken);
    uint32_t head[3];
    std::memcpy(head, out.data(), sizeof head);
    CHECK(head[0] == 1);
    CHECK(head[1] == kBufBytes);                          // right after the TBuf (UB offset 0)
    CHECK(head[2] == (kUb - kKfc - kBufBytes) / 4);       // floats up to the stack buffer's end
    for (int i = 0; i < kN; ++i) {
        float got;
        std::memcpy(&got, out.data() + 32 + 4 * i, 4);
        CHECK(static_cast<double>(got) == 2.0 * static_cast<double>(x[i]));
    }
}

TEST_CASE("PopStackBuffer's rules: a TPipe, room before the last 128 bytes, a UB position; each made right")
{
    CHECK(fault::Broke(NoPipe, "PopStackBuffer: without sharedTmpBuffer, the UB after the TPipe's buffers (up to its "
                               "last 128 bytes) holds the API's minimum temporary size"));
    CHECK(fault::Broke(HasPipe, ""));
    CHECK(fault::Broke(UbFull, "PopStackBuffer: without sharedTmpBuffer, the UB after the TPipe's buffers (up to its "
                               "last 128 bytes) holds the API's minimum temporary size"));
    CHECK(fault::Broke(UbAlmostFull, ""));
    CHECK(fault::Broke(L1Position, "PopStackBuffer: pos is a UB position (VECIN, VECOUT, VECCALC/LCM): A2 pops UB only"));
}

TEST_MAIN()
