// Planted faults for the twin's run-time rules that no other test plants: LocalTensor views and indices,
// queue and TBuf discipline, operand counts, event ids, DataCopyPad's parameter ranges, the repeat-form
// strides, Compare/Select modes, the workspace forms of SyncAll and IBSet/IBWait, InitGlobalMemory's bounds,
// the element size a GM argument is bound with and atomic copies. Each fault is paired with the same kernel
// made right, which must run clean. The message compared is "call: rule", as the twin reports it.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "fault_launch.h"
#include "kernel_operator.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

// ---- LocalTensor: views, sizes, indices -------------------------------------------------------------

template <bool kFault>
void ViewPastEnd(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> t = buf.Get<float>();
    LocalTensor<float> tail = t[kFault ? 65 : 64];  // a view at the end is empty, one past it is outside
    (void)tail;
}

template <bool kFault>
void GrowPastBuffer(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> t = buf.Get<float>();
    t.SetSize(16);
    t.SetSize(kFault ? 65 : 64);  // shrunk, it grows back to the 64 its buffer holds, not further
}

template <bool kFault>
void IndexPastEnd(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> t = buf.Get<float>();
    t.SetValue(kFault ? 64 : 63, 1.0f);
}

template <bool kFault>
void UnboundTensor(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> t;
    if (!kFault) t = buf.Get<float>();
    t.SetValue(0, 1.0f);
}

template <bool kFault>
void Int4ViewPastEnd(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    LocalTensor<int4b_t> t = buf.Get<int4b_t>(128);
    LocalTensor<int4b_t> tail = t[kFault ? 130 : 128];
    (void)tail;
}

template <bool kFault>
void Int4GrowPastBuffer(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    LocalTensor<int4b_t> t = buf.Get<int4b_t>(128);
    t.SetSize(32);
    t.SetSize(kFault ? 130 : 128);  // 64 bytes hold 128 int4b_t
}

template <bool kFault>
void Int4IndexPastEnd(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    Duplicate(buf.Get<int16_t>(), static_cast<int16_t>(0x1234), 32);
    LocalTensor<int4b_t> t = buf.Get<int4b_t>(128);
    (void)t.GetValue(kFault ? 128 : 127);
}

template <bool kFault>
void Int4Unbound(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    Duplicate(buf.Get<int16_t>(), static_cast<int16_t>(0x1234), 32);
    LocalTensor<int4b_t> t;
    if (!kFault) t = buf.Get<int4b_t>(128);
    (void)t.GetValue(0);
}

template <TPosition kPos>
void StaticTensorAt(GM_ADDR, GM_ADDR)
{
    LocalTensor<float> t(kPos, 0, 64);  // static tensor programming: no TPipe, the kernel places its tensors
    // (an L1 one exists on a kernel that may run cube cores; the vector unit still cannot reach it)
    Duplicate(t, 1.0f, 64);
}

// ---- queues and TBufs ---------------------------------------------------------------------------------

template <bool kFault>
void EnQueTwice(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 256);
    LocalTensor<float> t = q.AllocTensor<float>();
    Duplicate(t, 1.0f, 64);
    q.EnQue(t);
    if (kFault) q.EnQue(t);
    LocalTensor<float> back = q.DeQue<float>();
    q.FreeTensor(back);
}

template <bool kFault>
void InPlaceDeQueWithoutEnQue(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 0> q;
    pipe.InitBuffer(q, 1, 256);
    LocalTensor<float> t;
    q.AllocTensor<float>(t);
    Duplicate(t, 1.0f, 64);
    if (!kFault) q.EnQue(t);
    q.DeQue(t);
    q.FreeTensor(t);
}

template <bool kFault>
void QueueInitTwice(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    if (kFault) pipe.InitBuffer(q, 1, 256);
}

template <bool kFault>
void QueueOfNoBuffer(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, kFault ? 0 : 1, 256);
}

template <bool kFault>
void AllocPastBuffers(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 256);
    LocalTensor<float> a = q.AllocTensor<float>();
    if (!kFault) q.FreeTensor(a);
    LocalTensor<float> b = q.AllocTensor<float>();
    q.FreeTensor(b);
    if (kFault) q.FreeTensor(a);
}

// A view of a queue's buffer acts on that buffer; a TBuf's tensor is not the queue's to take.
template <bool kFault>
void EnQueForeignTensor(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(q, 1, 256);
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> t = q.AllocTensor<float>();
    LocalTensor<float> other = buf.Get<float>();
    Duplicate(t, 1.0f, 64);
    Duplicate(other, 1.0f, 64);
    q.EnQue(kFault ? other : t[16]);
    LocalTensor<float> back = q.DeQue<float>();
    q.FreeTensor(back);
}

template <bool kFault>
void TBufGetTooMuch(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    (void)buf.Get<float>(kFault ? 65 : 64);
}

template <bool kFault>
void TBufInitTwice(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    if (kFault) pipe.InitBuffer(buf, 256);
}

// ---- operands, counts and event ids -------------------------------------------------------------------

template <int32_t kCount>
void AddOfCount(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * 256);
    LocalTensor<float> all = buf.Get<float>();
    LocalTensor<float> a = all, b = all[64], c = all[128];
    c.SetSize(64);
    Duplicate(all, 2.0f, 192);
    Add(c, a, b, kCount);
}

template <bool kFault>
void ReduceSumIntoNothing(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * 256);
    LocalTensor<float> all = buf.Get<float>();
    Duplicate(all, 1.0f, 192);
    LocalTensor<float> dst = all[kFault ? 192 : 128];  // a view at the end holds no element
    ReduceSum(dst, all, all[64], 64);
}

template <int32_t kId>
void FlagWithId(GM_ADDR, GM_ADDR)
{
    SetFlag<HardEvent::V_MTE3>(kId);
    WaitFlag<HardEvent::V_MTE3>(kId);
}

// ---- DataCopyPad's parameters ------------------------------------------------------------------------

template <uint32_t kBlockLen, uint8_t kLeftPad>
void PadCopy(GM_ADDR in, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    GlobalTensor<float> src;
    src.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in), 256);
    LocalTensor<float> t = buf.Get<float>();
    DataCopyPad(t, src, {1, kBlockLen, 0, 0, 0}, {kLeftPad != 0, kLeftPad, 0, 0.0f});
}

// ---- the repeat forms, Compare and Select -------------------------------------------------------------

template <int32_t kSrcRepStride>
void WholeReduceStride(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    LocalTensor<float> all = buf.Get<float>();
    Duplicate(all, 1.0f, 128);
    WholeReduceSum<float>(all[64], all, 64, 1, 1, 1, kSrcRepStride);
}

template <int kMode>
void CompareWithMode(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, mask;
    pipe.InitBuffer(buf, 512);
    pipe.InitBuffer(mask, 256);
    LocalTensor<float> all = buf.Get<float>();
    Duplicate(all, 1.0f, 128);
    LocalTensor<uint8_t> bits = mask.Get<uint8_t>();
    Compare(bits, all, all[64], static_cast<CMPMODE>(kMode), 64);
}

template <int kMode>
void SelectWithMode(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, mask;
    pipe.InitBuffer(buf, 768);
    pipe.InitBuffer(mask, 256);
    LocalTensor<float> all = buf.Get<float>();
    Duplicate(all, 1.0f, 192);
    LocalTensor<uint8_t> bits = mask.Get<uint8_t>();
    Duplicate(bits.ReinterpretCast<uint16_t>(), static_cast<uint16_t>(0x5555), 128);
    Select(all[128], bits, all, all[64], static_cast<SELMODE>(kMode), 64);
}

// ---- cross-core synchronisation through workspaces, InitGlobalMemory ----------------------------------

template <TPosition kPos, uint32_t kUbInts>
void SoftSyncAllWith(GM_ADDR in, GM_ADDR)
{
    TPipe pipe;
    TBuf<kPos> buf;
    pipe.InitBuffer(buf, 256);
    GlobalTensor<int32_t> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(in), 64);
    SyncAll(gm, buf.template Get<int32_t>()[64 - kUbInts]);
}

template <TPosition kPos, uint32_t kUbInts, int32_t kBlockIdx>
void IBSetWith(GM_ADDR in, GM_ADDR)
{
    TPipe pipe;
    TBuf<kPos> buf;
    pipe.InitBuffer(buf, 256);
    GlobalTensor<int32_t> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(in), 64);
    IBSet(gm, buf.template Get<int32_t>()[64 - kUbInts], kBlockIdx, 0);
}

template <uint64_t kSize>
void InitGmOf(GM_ADDR, GM_ADDR out)
{
    GlobalTensor<float> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 64);
    InitGlobalMemory(gm, kSize, 0.5f);
}

// ---- how GM arguments are bound and written -----------------------------------------------------------

template <typename T>
void BindAs(GM_ADDR in, GM_ADDR out)
{
    GlobalTensor<T> x;
    x.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in), 16);
    GlobalTensor<T> y;
    y.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out), 16);
    y.SetValue(0, x.GetValue(0));
}

// The launch of BindAs<T> over float tensors (elemSize 4), as `lib.launch` passes a torch tensor.
std::string BoundAs(fault::Kernel kernel)
{
    std::vector<float> in(64, 1.5f), out(64);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "fault";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(kernel);
    spec.blockDim = 1;
    spec.args = {{"x", in.data(), in.size() * 4}, {"y", out.data(), out.size() * 4}};
    spec.args[0].elemSize = 4;
    spec.args[1].elemSize = 4;
    try {
        ascend_twin::Launch(spec);
    } catch (const ascend_twin::RuleViolation& e) {
        return e.call + ": " + e.rule;
    }
    return "";
}

// Half data copied out under a float atomic add: the bytes must still be whole floats.
template <uint32_t kBytes>
void AtomicAddOf(GM_ADDR, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<half> t = buf.Get<half>();
    Duplicate(t, static_cast<half>(1.0f), 128);
    GlobalTensor<half> y;
    y.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(out), 128);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    SetAtomicAdd<float>();
    DataCopyPad(y, t, {1, kBytes, 0, 0, 0});
    SetAtomicNone();
}

}  // namespace

TEST_CASE("LocalTensor views, sizes and indices stay inside the tensor and its buffer")
{
    CHECK(fault::Broke(&ViewPastEnd<false>, ""));
    CHECK(fault::Broke(&ViewPastEnd<true>, "LocalTensor::operator[]: LocalTensor offsets stay inside the tensor"));
    CHECK(fault::Broke(&GrowPastBuffer<false>, ""));
    CHECK(fault::Broke(&GrowPastBuffer<true>, "LocalTensor::SetSize: a LocalTensor cannot grow past its buffer"));
    CHECK(fault::Broke(&IndexPastEnd<false>, ""));
    CHECK(fault::Broke(&IndexPastEnd<true>, "LocalTensor::SetValue: LocalTensor indices stay inside the tensor"));
    CHECK(fault::Broke(&UnboundTensor<false>, ""));
    CHECK(fault::Broke(&UnboundTensor<true>,
                       "LocalTensor::SetValue: LocalTensors come from TQue::AllocTensor/DeQue or TBuf::Get"));
}

TEST_CASE("static LocalTensors: in a memory of the core; vector instructions only on those in UB")
{
    CHECK(fault::Broke(&StaticTensorAt<TPosition::VECCALC>, ""));
    CHECK(fault::Broke(&StaticTensorAt<TPosition::A1>,
                       "Duplicate: vector operands and UB copy ends are in the Unified Buffer"));
    CHECK(fault::Broke(&StaticTensorAt<TPosition::GM>,
                       "LocalTensor(pos, addr, tileSize): a static tensor's position is a memory the core has"));
}

TEST_CASE("int4b_t LocalTensors follow the same rules, counted in 4-bit elements")
{
    CHECK(fault::Broke(&Int4ViewPastEnd<false>, ""));
    CHECK(fault::Broke(&Int4ViewPastEnd<true>, "LocalTensor::operator[]: LocalTensor offsets stay inside the tensor"));
    CHECK(fault::Broke(&Int4GrowPastBuffer<false>, ""));
    CHECK(fault::Broke(&Int4GrowPastBuffer<true>, "LocalTensor::SetSize: a LocalTensor cannot grow past its buffer"));
    CHECK(fault::Broke(&Int4IndexPastEnd<false>, ""));
    CHECK(fault::Broke(&Int4IndexPastEnd<true>, "LocalTensor::GetValue: LocalTensor indices stay inside the tensor"));
    CHECK(fault::Broke(&Int4Unbound<false>, ""));
    CHECK(fault::Broke(&Int4Unbound<true>,
                       "LocalTensor::GetValue: LocalTensors come from TQue::AllocTensor/DeQue or TBuf::Get"));
}

TEST_CASE("queues: each buffer is enqueued once, dequeued after its EnQue, and handed back whole")
{
    CHECK(fault::Broke(&EnQueTwice<false>, ""));
    CHECK(fault::Broke(&EnQueTwice<true>, "TQue::EnQue: EnQue takes a tensor allocated and not yet enqueued"));
    CHECK(fault::Broke(&InPlaceDeQueWithoutEnQue<false>, ""));
    CHECK(fault::Broke(&InPlaceDeQueWithoutEnQue<true>, "TQue::DeQue: DeQue takes a tensor that was enqueued"));
    CHECK(fault::Broke(&AllocPastBuffers<false>, ""));
    CHECK(fault::Broke(&AllocPastBuffers<true>, "TQue::AllocTensor: no more live tensors than the queue's buffers"));
    CHECK(fault::Broke(&EnQueForeignTensor<false>, ""));
    CHECK(fault::Broke(&EnQueForeignTensor<true>, "TQue::EnQue: a queue takes back only whole tensors it handed out"));
}

TEST_CASE("InitBuffer: once per queue or TBuf, at least one buffer; TBuf::Get within the buffer")
{
    CHECK(fault::Broke(&QueueInitTwice<false>, ""));
    CHECK(fault::Broke(&QueueInitTwice<true>,
                       "TPipe::InitBuffer: InitBuffer runs once per queue (again only after TPipe::Reset)"));
    CHECK(fault::Broke(&QueueOfNoBuffer<false>, ""));
    CHECK(fault::Broke(&QueueOfNoBuffer<true>, "TPipe::InitBuffer: a queue has at least 1 buffer"));
    CHECK(fault::Broke(&TBufInitTwice<false>, ""));
    CHECK(fault::Broke(&TBufInitTwice<true>,
                       "TPipe::InitBuffer: InitBuffer runs once per TBuf (again only after TPipe::Reset)"));
    CHECK(fault::Broke(&TBufGetTooMuch<false>, ""));
    CHECK(fault::Broke(&TBufGetTooMuch<true>, "TBuf::Get: TBuf::Get asks for no more than the buffer holds"));
}

TEST_CASE("vector counts: not negative, within every operand; a reduction needs a destination element")
{
    CHECK(fault::Broke(&AddOfCount<64>, ""));
    CHECK(fault::Broke(&AddOfCount<-1>, "Add: count is not negative"));
    CHECK(fault::Broke(&AddOfCount<65>, "Add: vector operands hold count elements"));
    CHECK(fault::Broke(&ReduceSumIntoNothing<false>, ""));
    CHECK(fault::Broke(&ReduceSumIntoNothing<true>, "ReduceSum: vector operands hold count elements"));
}

TEST_CASE("SetFlag/WaitFlag event ids are 0..7 on A2")
{
    CHECK(fault::Broke(&FlagWithId<7>, ""));
    CHECK(fault::Broke(&FlagWithId<8>, "SetFlag: event ids are 0..7 on A2"));
}

TEST_CASE("DataCopyPad: blockLen within 21 bits and of whole elements, paddings of at most 32 bytes")
{
    CHECK(fault::Broke(&PadCopy<256, 0>, ""));
    CHECK(fault::Broke(&PadCopy<2097152, 0>, "DataCopyPad(GM->UB): blockLen is within the instruction's range"));
    CHECK(fault::Broke(&PadCopy<6, 0>, "DataCopyPad(GM->UB): blockLen is a whole number of elements"));
    CHECK(fault::Broke(&PadCopy<100, 7>, ""));  // 28 bytes of padding, the row then fills 128 bytes
    CHECK(fault::Broke(&PadCopy<100, 9>, "DataCopyPad(GM->UB): leftPadding and rightPadding are at most 32 bytes each"));
}

TEST_CASE("repeat forms: strides within 16 bits; Compare and Select take the modes A2 has")
{
    CHECK(fault::Broke(&WholeReduceStride<8>, ""));
    CHECK(fault::Broke(&WholeReduceStride<65536>, "WholeReduceSum: strides within [0, 65535]"));
    CHECK(fault::Broke(&CompareWithMode<static_cast<int>(CMPMODE::NE)>, ""));
    CHECK(fault::Broke(&CompareWithMode<7>, "Compare: cmpMode is one of LT, GT, EQ, LE, GE, NE"));
    CHECK(fault::Broke(&SelectWithMode<static_cast<int>(SELMODE::VSEL_TENSOR_TENSOR_MODE)>, ""));
    CHECK(fault::Broke(&SelectWithMode<3>,
                       "Select: selMode is VSEL_CMPMASK_SPR, VSEL_TENSOR_SCALAR_MODE or VSEL_TENSOR_TENSOR_MODE"));
}

TEST_CASE("workspace forms of SyncAll and IBSet: the UB tensor is a vector buffer large enough, blockIdx exists")
{
    std::vector<uint8_t> ws(256);
    CHECK(fault::Broke(&SoftSyncAllWith<TPosition::VECCALC, 8>, "", ws));
    CHECK(fault::Broke(&SoftSyncAllWith<TPosition::A1, 8>,
                       "SyncAll(gmWorkspace, ubWorkspace, usedCores): SyncAll's ubWorkspace is a VECIN, VECCALC or VECOUT tensor", ws));
    CHECK(fault::Broke(&IBSetWith<TPosition::VECCALC, 8, 0>, "", ws));
    CHECK(fault::Broke(&IBSetWith<TPosition::A1, 8, 0>,
                       "IBSet<true>: IBSet/IBWait's ubWorkspace is a VECIN, VECCALC or VECOUT tensor", ws));
    CHECK(fault::Broke(&IBSetWith<TPosition::VECCALC, 4, 0>,
                       "IBSet<true>: IBSet/IBWait's ubWorkspace holds at least 32 bytes (IBSet docs)", ws));
    CHECK(fault::Broke(&IBSetWith<TPosition::VECCALC, 8, 1>,
                       "IBSet<true>: IBSet/IBWait's blockIdx is in [0, core count - 1] (IBSet docs)", ws));
}

TEST_CASE("InitGlobalMemory stays inside its GlobalTensor")
{
    CHECK(fault::Broke(&InitGmOf<64>, ""));
    CHECK(fault::Broke(&InitGmOf<72>, "InitGlobalMemory: InitGlobalMemory/Fill stays inside its GlobalTensor"));
}

TEST_CASE("a GM argument is bound with its tensor's element size; atomic copies move whole elements")
{
    CHECK(BoundAs(&BindAs<float>).empty());
    CHECK(BoundAs(&BindAs<int32_t>).empty());  // same size: a reinterpretation the kernel asked for
    const std::string wide = BoundAs(&BindAs<double>);
    CHECK(wide.find("a GM argument is read with the element size of the tensor passed for it") != std::string::npos);
    CHECK(fault::Broke(&AtomicAddOf<256>, ""));
    CHECK(fault::Broke(&AtomicAddOf<6>, "DataCopyPad(UB->GM): atomic copies move whole elements of the atomic type"));
}

TEST_MAIN()
