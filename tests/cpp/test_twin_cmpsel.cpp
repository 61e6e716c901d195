// Compare, Compares, Select (all three modes), Duplicate's mask forms and GetSystemCycle, against
// hand-computed references; the scratch rule of Select modes 1 and 2 and the Compare count rule. The
// CMPMASK register: the register-result Compare, GetCmpMask/SetCmpMask and the Select forms without
// selMask, against references computed here from fresh random inputs, and their rules.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "kernel_operator.h"
#include "twin/launch.h"
#include "fault_launch.h"

using namespace AscendC;

namespace {

constexpr int kY = 384;
constexpr float kSentinel = -7.0f;

// in = a[0..128) ++ b[0..128); out = y (kY floats) ++ the 96 bytes of bits.
void CmpSelKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, bb;
    pipe.InitBuffer(xb, 256 * sizeof(float));
    pipe.InitBuffer(yb, kY * sizeof(float));
    pipe.InitBuffer(bb, 96);
    GlobalTensor<float> inGm, outGm;
    GlobalTensor<uint8_t> bitsGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    bitsGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out) + kY * sizeof(float));
    LocalTensor<float> x = xb.Get<float>();
    LocalTensor<float> y = yb.Get<float>();
    LocalTensor<uint8_t> bits = bb.Get<uint8_t>();
    LocalTensor<float> a = x, b = x[128];
    DataCopy(x, inGm, 256);
    Duplicate(y, kSentinel, 64, kY / 64, 1, 8);  // continuous-mask form over 6 repeats
    uint64_t zeros[2] = {0, 0};
    Duplicate(bits.ReinterpretCast<uint16_t>(), uint16_t(0), 48);
    Duplicate(bits.ReinterpretCast<uint16_t>(), uint16_t(0), zeros, 1, 1, 8);  // writes nothing
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Compare(bits, a, b, CMPMODE::LT, 128);                                  // bits[0..16)
    Compares(bits[32], a, 5.0f, CMPMODE::GE, 64);                           // bits[32..40)
    uint64_t ignored[2] = {1, 0};                                           // reserved on A2: all lanes
    Compare(bits[64], a, b, CMPMODE::EQ, ignored, 1, BinaryRepeatParams());  // bits[64..72)
    Select(y, bits, a, b, SELMODE::VSEL_CMPMASK_SPR, 128);                   // y[0..128): bits 0..63 twice
    Select(y[128], bits, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 128);       // y[128..256): bits 0..127
    Select(y[256], bits[32], a, 0.5f, SELMODE::VSEL_TENSOR_SCALAR_MODE, uint64_t(32), 1, BinaryRepeatParams());
    uint64_t odd[2] = {0xAAAAAAAAAAAAAAAAull, 0};
    Duplicate(y[320], 1.0f, odd, 1, 1, 8);  // odd lanes of y[320..384)
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, y, kY);
    DataCopy(bitsGm, bits, 96);
}

// Select mode 1 (or 0) with every byte of UB allocated, the scratch block included.
template <SELMODE mode>
void FullUbSelectKernel(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, rest;
    pipe.InitBuffer(xb, 1024);
    pipe.InitBuffer(rest, 192 * 1024 - 1024);
    LocalTensor<float> x = xb.Get<float>();
    Duplicate(x, 1.0f, 256);
    LocalTensor<uint8_t> sel = rest.Get<uint8_t>();
    Duplicate(sel.ReinterpretCast<uint16_t>(), uint16_t(0xffff), 64);
    PipeBarrier<PIPE_V>();
    if constexpr (mode == SELMODE::VSEL_TENSOR_SCALAR_MODE) {
        Select(x, sel, x, 2.0f, mode, 64);
    } else {
        Select(x, sel, x, x[64], mode, 64);
    }
}

void CompareTailKernel(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, bb;
    pipe.InitBuffer(xb, 1024);
    pipe.InitBuffer(bb, 64);
    LocalTensor<float> x = xb.Get<float>();
    Duplicate(x, 1.0f, 256);
    PipeBarrier<PIPE_V>();
    Compare(bb.Get<uint8_t>(), x, x[128], CMPMODE::LT, 100);  // 400 bytes: not whole repeats
}

void CompareInt32LtKernel(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, bb;
    pipe.InitBuffer(xb, 1024);
    pipe.InitBuffer(bb, 64);
    LocalTensor<int32_t> x = xb.Get<int32_t>();
    Duplicate(x, 1, 256);
    PipeBarrier<PIPE_V>();
    Compare(bb.Get<uint8_t>(), x, x[128], CMPMODE::LT, 64);  // int32_t compares with EQ only
}

// ---- the CMPMASK register ----

constexpr int kRegY = 1152;  // floats of y
constexpr int kRegIn = 256 + 256 + 16;  // a, b, then 64 bytes: selT (16), pad (16), sel2 (32)

// in = a[256] ++ b[256] ++ selT[16 B] ++ pad[16 B] ++ sel2[32 B] ++ s (at float 528);
// out = y[kRegY] ++ bitsOut[32 B].
void CmpMaskKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ab, bb, yb, selb, sel2b, addrb, scalb, outb;
    pipe.InitBuffer(ab, 256 * sizeof(float));
    pipe.InitBuffer(bb, 256 * sizeof(float));
    pipe.InitBuffer(yb, kRegY * sizeof(float));
    pipe.InitBuffer(selb, 32);
    pipe.InitBuffer(sel2b, 32);
    pipe.InitBuffer(addrb, 32);
    pipe.InitBuffer(scalb, 32);
    pipe.InitBuffer(outb, 32);
    GlobalTensor<float> inGm, outGm;
    GlobalTensor<uint8_t> inBytes, outBytes;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    inBytes.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    outBytes.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out) + kRegY * sizeof(float));
    LocalTensor<float> a = ab.Get<float>(), b = bb.Get<float>(), y = yb.Get<float>();
    LocalTensor<uint8_t> selT = selb.Get<uint8_t>(), sel2 = sel2b.Get<uint8_t>(), bits = outb.Get<uint8_t>();
    LocalTensor<uint32_t> addrT = addrb.Get<uint32_t>();
    LocalTensor<float> scal = scalb.Get<float>();
    DataCopy(a, inGm, 256);
    DataCopy(b, inGm[256], 256);
    DataCopy(selT, inBytes[2048], 32);
    DataCopy(sel2, inBytes[2080], 32);
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(inGm[528]);
    const float s = inGm.GetValue(528);
    Duplicate(y, kSentinel, kRegY);
    Duplicate(scal, s, 8);  // mode 1's scalar, replicated as the docs load it
    const uint32_t sel2Addr = static_cast<uint32_t>(reinterpret_cast<uint64_t>(sel2.GetPhyAddr()));
    Duplicate(addrT, sel2Addr, 8);  // mode 2's selMask address
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    BinaryRepeatParams rp;
    // 1: a > b into CMPMASK (64 float lanes), stored by GetCmpMask; mode 0 selects by it in 4 repeats.
    Compare(a, b, CMPMODE::GT, uint64_t(64), rp);
    GetCmpMask(bits);
    SetVectorMask<float>(~0ull, ~0ull);
    Select<float, SELMODE::VSEL_CMPMASK_SPR>(y, a, b, 4, rp);  // y[0..256)
    // 2: a bitwise mask: only its lanes are compared and selected; the others keep y.
    uint64_t some[2] = {0x00FF00FF00FF00FFull, 0};
    Compare(a, b, CMPMODE::LE, some, rp);
    GetCmpMask(bits[16]);
    Select<float, SELMODE::VSEL_CMPMASK_SPR>(y[256], b, a, 1, rp);  // y[256..320): the mask is still `some`
    // 3: SetCmpMask from UB, mode 0 over one full repeat.
    SetVectorMask<float>(~0ull, ~0ull);
    SetCmpMask(selT);
    Select<float, SELMODE::VSEL_CMPMASK_SPR>(y[320], a, b, 1, rp);  // y[320..384)
    // 4: mode 2: CMPMASK holds sel2's address; its bits are consumed repeat after repeat.
    SetCmpMask(addrT);
    Select<float, SELMODE::VSEL_TENSOR_TENSOR_MODE>(y[384], a, b, 4, rp);  // y[384..640)
    // 5: mode 1: CMPMASK holds the scalar.
    SetCmpMask(scal);
    Select(y[640], sel2, a, 4, rp);  // y[640..896)
    // 6: a tensor Select in mode 0 loads CMPMASK with selT; the count form leaves a full normal mask.
    Select(y[896], selT, a, b, SELMODE::VSEL_CMPMASK_SPR, 64);  // y[896..960)
    Select<float, SELMODE::VSEL_CMPMASK_SPR>(y[960], b, a, 1, rp);  // y[960..1024)
    // 7: counter mode: 100 lanes over two repeats, the same 64 bits in each.
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, 100);
    Select<float, SELMODE::VSEL_CMPMASK_SPR>(y[1024], a, b, 2, rp);  // y[1024..1124)
    SetMaskNorm();
    ResetMask();
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, y, kRegY);
    DataCopy(outBytes, bits, 32);
}

// half: 128 lanes, all of CMPMASK.
void CmpMaskHalfKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, ob;
    pipe.InitBuffer(xb, 256 * sizeof(half));
    pipe.InitBuffer(yb, 256 * sizeof(half));
    pipe.InitBuffer(ob, 32);
    GlobalTensor<half> inGm, outGm;
    GlobalTensor<uint8_t> outBytes;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(out));
    outBytes.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out) + 256 * sizeof(half));
    LocalTensor<half> x = xb.Get<half>(), y = yb.Get<half>();
    LocalTensor<uint8_t> bits = ob.Get<uint8_t>();
    DataCopy(x, inGm, 256);
    Duplicate(bits.ReinterpretCast<uint16_t>(), uint16_t(0), 16);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    uint64_t all[2] = {~0ull, ~0ull};
    Compare(x, x[128], CMPMODE::NE, all, BinaryRepeatParams());
    GetCmpMask(bits);
    Select<half, SELMODE::VSEL_CMPMASK_SPR>(y, x, x[128], 1, BinaryRepeatParams());  // y[0..128)
    Select<half, SELMODE::VSEL_CMPMASK_SPR>(y[128], x[128], x, 1, BinaryRepeatParams());  // y[128..256)
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, y, 256);
    DataCopy(outBytes, bits, 32);
}

// Planted faults and their passing counterparts (bad = true plants the fault).
struct RegBufs {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, bb;
    LocalTensor<float> x;
    LocalTensor<uint8_t> bits;
    RegBufs()
    {
        pipe.InitBuffer(xb, 1024);
        pipe.InitBuffer(bb, 64);
        x = xb.Get<float>();
        bits = bb.Get<uint8_t>();
        Duplicate(x, 1.0f, 256);
        Duplicate(bits.ReinterpretCast<uint16_t>(), uint16_t(0x5555), 32);
        PipeBarrier<PIPE_V>();
    }
};

// Select reads CMPMASK bits a masked register Compare left undefined.
template <bool bad>
void UndefinedBitKernel(GM_ADDR, GM_ADDR)
{
    RegBufs r;
    Compare(r.x, r.x[64], CMPMODE::LT, uint64_t(32), BinaryRepeatParams());
    SetVectorMask<float>(0, bad ? ~0ull : 0xFFFFFFFFull);
    Select<float, SELMODE::VSEL_CMPMASK_SPR>(r.x[128], r.x, r.x[64], 1, BinaryRepeatParams());
}

// GetCmpMask before anything set CMPMASK.
template <bool bad>
void GetBeforeSetKernel(GM_ADDR, GM_ADDR)
{
    RegBufs r;
    if (!bad) SetCmpMask(r.bits);
    GetCmpMask(r.bits[32]);
}

// GetCmpMask to an address 16-byte aligned or not.
template <bool bad>
void GetMisalignedKernel(GM_ADDR, GM_ADDR)
{
    RegBufs r;
    SetCmpMask(r.bits);
    GetCmpMask(r.bits[bad ? 40 : 48]);
}

// GetCmpMask to a tensor of 8 or 16 bytes.
template <bool bad>
void GetShortKernel(GM_ADDR, GM_ADDR)
{
    RegBufs r;
    SetCmpMask(r.bits);
    LocalTensor<uint8_t> dst = r.bits[32];
    dst.SetSize(bad ? 8 : 16);
    GetCmpMask(dst);
}

// The register-result Compare in counter mode: 100 float elements (more than CMPMASK's 64 lanes) or 64.
template <bool bad>
void CompareCounterKernel(GM_ADDR, GM_ADDR)
{
    RegBufs r;
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, bad ? 100 : 64);
    Compare<float, false>(r.x, r.x[128], CMPMODE::EQ, MASK_PLACEHOLDER, BinaryRepeatParams());
    SetMaskNorm();
}

// Mode 2 with CMPMASK holding a misaligned address, or sel's own.
template <bool bad>
void Mode2AddressKernel(GM_ADDR, GM_ADDR)
{
    RegBufs r;
    LocalTensor<uint32_t> addr = r.bits.ReinterpretCast<uint32_t>();
    const uint32_t selAddr = static_cast<uint32_t>(reinterpret_cast<uint64_t>(r.bits[32].GetPhyAddr()));
    Duplicate(addr, bad ? selAddr + 4 : selAddr, 8);
    PipeBarrier<PIPE_V>();
    SetCmpMask(addr);
    SetVectorMask<float>(~0ull, ~0ull);
    Select<float, SELMODE::VSEL_TENSOR_TENSOR_MODE>(r.x[128], r.x, r.x[64], 1, BinaryRepeatParams());
}

// Mode 1 whose scalar CMPMASK never held: a register Compare of one lane defined bit 0 only.
template <bool bad>
void Mode1ScalarKernel(GM_ADDR, GM_ADDR)
{
    RegBufs r;
    Compare(r.x, r.x[64], CMPMODE::GE, uint64_t(1), BinaryRepeatParams());
    if (!bad) SetCmpMask(r.x);
    SetVectorMask<float>(~0ull, ~0ull);
    Select(r.x[128], r.bits, r.x, 1, BinaryRepeatParams());
}

// SetCmpMask from 16 bytes of which the launch wrote one float: loading the unwritten 12 is no violation (A2's
// LayerNorm does it); mode 1 reads the scalar from the written float (clean) or from one never written (bad).
template <bool bad>
void Mode1UnwrittenKernel(GM_ADDR, GM_ADDR)
{
    RegBufs r;
    TBuf<TPosition::VECCALC> sb;
    r.pipe.InitBuffer(sb, 32);
    LocalTensor<float> s = sb.Get<float>();
    s.SetValue(bad ? 1 : 0, 2.0f);
    SetCmpMask(s);
    PipeBarrier<PIPE_V>();
    SetVectorMask<float>(~0ull, ~0ull);
    Select(r.x[128], r.bits, r.x, 1, BinaryRepeatParams());
}

// Mode 2 reads selMask through its address: written by MTE2 with or without MTE2 -> V synchronisation.
template <bool bad>
void Mode2HazardKernel(GM_ADDR in, GM_ADDR)
{
    RegBufs r;
    TBuf<TPosition::VECCALC> selb;
    r.pipe.InitBuffer(selb, 32);
    LocalTensor<uint8_t> sel = selb.Get<uint8_t>();
    GlobalTensor<uint8_t> inGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(in));
    LocalTensor<uint32_t> addr = r.bits.ReinterpretCast<uint32_t>();
    const uint32_t selAddr = static_cast<uint32_t>(reinterpret_cast<uint64_t>(sel.GetPhyAddr()));
    Duplicate(addr, selAddr, 8);
    DataCopy(sel, inGm, 32);
    if (!bad) {
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    }
    PipeBarrier<PIPE_V>();
    SetCmpMask(addr);
    SetVectorMask<float>(~0ull, ~0ull);
    Select<float, SELMODE::VSEL_TENSOR_TENSOR_MODE>(r.x[128], r.x, r.x[64], 1, BinaryRepeatParams());
}

// Faults here run with 64-byte GM buffers.
std::string Violation(fault::Kernel kernel) { return fault::Violation(kernel, std::vector<uint8_t>(64), 64); }
bool Broke(fault::Kernel kernel, const std::string& expected)
{
    return fault::Broke(kernel, expected, std::vector<uint8_t>(64), 64);
}

bool Bit(const uint8_t* bits, int i) { return (bits[i / 8] >> (i % 8)) & 1; }


// ---- Select's isSetMask on A2 ----

constexpr uint32_t kArgLanes = 40;  // the mask argument: lanes 0..39
constexpr uint64_t kRegisterMask = 0xF;  // what the kernel put in the register before: lanes 0..3

// in = a[64] ++ b[64] ++ 8 bytes of selection bits; out = y[64] ++ z[64]. Select (mode 0) with a mask
// argument and isSetMask as given, after SetVectorMask set another mask; then an Adds with isSetMask =
// false shows what the register holds afterwards.
template <bool isSetMask>
void SelectMaskArgKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, selb, yb;
    pipe.InitBuffer(xb, 128 * sizeof(float));
    pipe.InitBuffer(selb, 32);
    pipe.InitBuffer(yb, 128 * sizeof(float));
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> x = xb.Get<float>(), y = yb.Get<float>();
    LocalTensor<uint8_t> sel = selb.Get<uint8_t>();
    DataCopy(x, inGm, 128);
    DataCopy(sel.ReinterpretCast<float>(), inGm[128], 8);
    Duplicate(y, kSentinel, 128);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    SetVectorMask<float>(0, kRegisterMask);
    Select<float, uint8_t, isSetMask>(y, sel, x, x[64], SELMODE::VSEL_CMPMASK_SPR, uint64_t(kArgLanes), 1,
                                      BinaryRepeatParams());
    uint64_t ignored[2] = {~0ull, 0};
    Adds<float, false>(y[64], x, 1.0f, ignored, 1, UnaryRepeatParams());
    ResetMask();
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, y, 128);
}

}  // namespace

TEST_CASE("Compare/Compares bits, Select modes 0/1/2, Duplicate mask forms")
{
    std::vector<float> in(256);
    for (int i = 0; i < 128; ++i) {
        in[i] = static_cast<float>(i % 11);        // a
        in[128 + i] = static_cast<float>(i % 7);   // b
    }
    std::vector<float> out(kY + 24, 0.0f);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "cmpsel_test";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&CmpSelKernel);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size() * sizeof(float)}, {"out", out.data(), out.size() * sizeof(float)}};
    const ascend_twin::LaunchStats stats = ascend_twin::Launch(spec);
    const float* a = in.data();
    const float* b = in.data() + 128;
    const float* y = out.data();
    uint8_t bits[96];
    std::memcpy(bits, out.data() + kY, 96);
    for (int i = 0; i < 128; ++i) CHECK_EQ(Bit(bits, i), a[i] < b[i]);
    for (int i = 0; i < 64; ++i) CHECK_EQ(Bit(bits + 32, i), a[i] >= 5.0f);
    for (int i = 0; i < 64; ++i) CHECK_EQ(Bit(bits + 64, i), a[i] == b[i]);  // the mask is ignored on A2
    for (int i = 0; i < 128; ++i) CHECK_EQ(y[i], Bit(bits, i % 64) ? a[i] : b[i]);
    for (int i = 0; i < 128; ++i) CHECK_EQ(y[128 + i], a[i] < b[i] ? a[i] : b[i]);
    for (int i = 0; i < 32; ++i) CHECK_EQ(y[256 + i], a[i] >= 5.0f ? a[i] : 0.5f);
    for (int i = 32; i < 64; ++i) CHECK_EQ(y[256 + i], kSentinel);
    for (int i = 0; i < 64; ++i) CHECK_EQ(y[320 + i], i % 2 ? 1.0f : kSentinel);
    const auto& c = stats.cores[0];
    CHECK_EQ(c.vecElementOps[static_cast<uint32_t>(ascend_twin::VecOp::kCompare)], 128ull + 64);
    CHECK_EQ(c.vecElementOps[static_cast<uint32_t>(ascend_twin::VecOp::kSelect)], 128ull + 128 + 32);
    CHECK_EQ(c.vecCalls[static_cast<uint32_t>(ascend_twin::VecOp::kCompareScalar)], 1ull);
}

TEST_CASE("Select: the mask argument is loaded whatever isSetMask says (A2), and stays in the register")
{
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> value(-4.0f, 4.0f);
    std::vector<float> in(136);
    for (int i = 0; i < 128; ++i) in[i] = value(rng);
    uint8_t selBits[32];
    for (uint8_t& byte : selBits) byte = static_cast<uint8_t>(rng());
    std::memcpy(in.data() + 128, selBits, 32);
    const float* a = in.data();
    const float* b = in.data() + 64;
    // isSetMask = false: a kernel that expects the register's 4 lanes gets the argument's 40 on A2.
    // isSetMask = true: the same result.
    for (const fault::Kernel kernel : {&SelectMaskArgKernel<false>, &SelectMaskArgKernel<true>}) {
        std::vector<float> out(128, 0.0f);
        ascend_twin::LaunchSpec spec;
        spec.kernel = "select_mask_arg";
        spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(kernel);
        spec.blockDim = 1;
        spec.args = {{"in", in.data(), in.size() * sizeof(float)}, {"out", out.data(), out.size() * sizeof(float)}};
        ascend_twin::Launch(spec);
        for (uint32_t j = 0; j < 64; ++j) {
            const bool lane = j < kArgLanes;
            CHECK_EQ(out[j], lane ? (Bit(selBits, j) ? a[j] : b[j]) : kSentinel);
            CHECK_EQ(out[64 + j], lane ? a[j] + 1.0f : kSentinel);  // the register holds the argument's mask now
        }
    }
}

TEST_CASE("Select modes 1 and 2 need the top 8 KiB of UB free; mode 0 does not")
{
    CHECK(Broke(&FullUbSelectKernel<SELMODE::VSEL_TENSOR_SCALAR_MODE>,
                "Select: Select modes 1 and 2 need the top 8 KiB of UB free (scratch at TMP_UB_OFFSET)"));
    CHECK(Broke(&FullUbSelectKernel<SELMODE::VSEL_TENSOR_TENSOR_MODE>,
                "Select: Select modes 1 and 2 need the top 8 KiB of UB free (scratch at TMP_UB_OFFSET)"));
    CHECK(Broke(&FullUbSelectKernel<SELMODE::VSEL_CMPMASK_SPR>, ""));
}

TEST_CASE("Compare: count of partial repeats, int32_t other than EQ")
{
    CHECK(Broke(&CompareTailKernel, "Compare: count elements fill whole 256-byte repeats"));
    CHECK(Broke(&CompareInt32LtKernel, "Compare: int32_t compares only with CMPMODE::EQ on A2"));
}

TEST_CASE("CMPMASK: register-result Compare, GetCmpMask/SetCmpMask, Select without selMask (float)")
{
    const uint32_t seed = std::random_device{}();
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> val(-4.0f, 4.0f);
    std::vector<float> in(kRegIn + 16);
    for (int i = 0; i < 512; ++i) in[i] = std::round(val(rng) * 2) / 2;  // half-steps: ties occur
    uint8_t selBytes[64];
    for (uint8_t& v : selBytes) v = static_cast<uint8_t>(rng());
    std::memcpy(in.data() + 512, selBytes, 64);
    in[528] = val(rng);
    std::vector<float> out(kRegY + 8, 0.0f);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "cmpmask_test";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&CmpMaskKernel);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size() * sizeof(float)}, {"out", out.data(), out.size() * sizeof(float)}};
    const ascend_twin::LaunchStats stats = ascend_twin::Launch(spec);
    const float* a = in.data();
    const float* b = in.data() + 256;
    const float s = in[528];
    const uint8_t* selT = selBytes;
    const uint8_t* sel2 = selBytes + 32;
    const float* y = out.data();
    uint8_t bits[32];
    std::memcpy(bits, out.data() + kRegY, 32);
    const int before = check::Failures();
    for (int j = 0; j < 64; ++j) CHECK_EQ(Bit(bits, j), a[j] > b[j]);
    for (int i = 0; i < 256; ++i) CHECK_EQ(y[i], a[i % 64] > b[i % 64] ? a[i] : b[i]);
    const uint64_t some = 0x00FF00FF00FF00FFull;
    for (int j = 0; j < 64; ++j) {
        if ((some >> j) & 1) {
            CHECK_EQ(Bit(bits + 16, j), a[j] <= b[j]);
            CHECK_EQ(y[256 + j], a[j] <= b[j] ? b[j] : a[j]);
        } else {
            CHECK_EQ(y[256 + j], kSentinel);
        }
    }
    for (int j = 0; j < 64; ++j) CHECK_EQ(y[320 + j], Bit(selT, j) ? a[j] : b[j]);
    for (int i = 0; i < 256; ++i) CHECK_EQ(y[384 + i], Bit(sel2, i) ? a[i] : b[i]);
    for (int i = 0; i < 256; ++i) CHECK_EQ(y[640 + i], Bit(sel2, i) ? a[i] : s);
    for (int j = 0; j < 64; ++j) CHECK_EQ(y[896 + j], Bit(selT, j) ? a[j] : b[j]);
    for (int j = 0; j < 64; ++j) CHECK_EQ(y[960 + j], Bit(selT, j) ? b[j] : a[j]);
    for (int i = 0; i < 128; ++i) CHECK_EQ(y[1024 + i], i < 100 ? (Bit(selT, i % 64) ? a[i] : b[i]) : kSentinel);
    if (check::Failures() != before) std::printf("  seed %u\n", seed);
    const auto& c = stats.cores[0];
    CHECK_EQ(c.vecCalls[static_cast<uint32_t>(ascend_twin::VecOp::kGetCmpMask)], 2ull);
    CHECK_EQ(c.vecCalls[static_cast<uint32_t>(ascend_twin::VecOp::kSetCmpMask)], 3ull);
    CHECK_EQ(c.vecElementOps[static_cast<uint32_t>(ascend_twin::VecOp::kCompare)], 64ull + 32);
    CHECK_EQ(c.vecElementOps[static_cast<uint32_t>(ascend_twin::VecOp::kSelect)],
             256ull + 32 + 64 + 256 + 256 + 64 + 64 + 100);
}

TEST_CASE("CMPMASK: half register Compare fills all 128 bits")
{
    const uint32_t seed = std::random_device{}();
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> val(-3, 3);
    std::vector<half> in(256);
    for (half& v : in) v = half(static_cast<float>(val(rng)) * 0.5f);
    std::vector<half> out(256 + 16);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "cmpmask_half";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&CmpMaskHalfKernel);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size() * sizeof(half)}, {"out", out.data(), out.size() * sizeof(half)}};
    ascend_twin::Launch(spec);
    uint8_t bits[32];
    std::memcpy(bits, out.data() + 256, 32);
    const int before = check::Failures();
    for (int j = 0; j < 128; ++j) {
        const float x0 = in[j], x1 = in[128 + j];
        CHECK_EQ(Bit(bits, j), x0 != x1);
        CHECK_EQ(static_cast<float>(out[j]), x0 != x1 ? x0 : x1);
        CHECK_EQ(static_cast<float>(out[128 + j]), x0 != x1 ? x1 : x0);
    }
    for (int i = 16; i < 32; ++i) CHECK_EQ(bits[i], 0);  // GetCmpMask wrote 16 bytes only
    if (check::Failures() != before) std::printf("  seed %u\n", seed);
}

TEST_CASE("CMPMASK rules: planted faults and their passing counterparts")
{
    const std::string undefinedBit = "the CMPMASK register is read only where an instruction set it";
    CHECK(Broke(&UndefinedBitKernel<true>, "Select: " + undefinedBit));
    CHECK(Broke(&UndefinedBitKernel<false>, ""));
    CHECK(Broke(&GetBeforeSetKernel<true>, "GetCmpMask: " + undefinedBit));
    CHECK(Broke(&GetBeforeSetKernel<false>, ""));
    CHECK(Broke(&Mode1ScalarKernel<true>, "Select: " + undefinedBit));
    CHECK(Broke(&Mode1ScalarKernel<false>, ""));
    CHECK(Broke(&Mode1UnwrittenKernel<true>, "Select: " + undefinedBit));
    CHECK(Broke(&Mode1UnwrittenKernel<false>, ""));
    CHECK(Broke(&GetMisalignedKernel<true>, "GetCmpMask: SetCmpMask/GetCmpMask operands are 16-byte aligned"));
    CHECK(Broke(&GetMisalignedKernel<false>, ""));
    CHECK(Broke(&GetShortKernel<true>,
                "GetCmpMask: GetCmpMask writes the 16 bytes of CMPMASK: dst holds at least 16 bytes"));
    CHECK(Broke(&GetShortKernel<false>, ""));
    CHECK(Broke(&CompareCounterKernel<true>,
                "Compare: the register-result Compare covers one repeat (256 / sizeof(T) elements)"));
    CHECK(Broke(&CompareCounterKernel<false>, ""));
    CHECK(Broke(&Mode2AddressKernel<true>,
                "Select: Select mode 2 from CMPMASK: the register holds a 32-byte-aligned UB address of selMask"));
    CHECK(Broke(&Mode2AddressKernel<false>, ""));
    CHECK(Broke(&Mode2HazardKernel<true>,
                "Select: accesses of different pipes to the same UB bytes are ordered by synchronisation"));
    CHECK(Broke(&Mode2HazardKernel<false>, ""));
}

TEST_CASE("GetSystemCycle counts up (50 MHz ticks)")
{
    const int64_t t0 = GetSystemCycle();
    const int64_t t1 = GetSystemCycle();
    CHECK(t0 > 0);
    CHECK(t1 >= t0);
}

TEST_MAIN()
