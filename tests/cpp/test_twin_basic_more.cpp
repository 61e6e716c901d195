// ShiftRight (scalar shift), AddRelu and CreateVecIndex in their count forms, and SetPadValue with DataCopyPad,
// against references computed independently (floor division by 2^shift, double sums, double index ramps, the
// padded rows built element by element) on fresh random inputs, and the run-time rules they bring (ShiftRight's
// shift range, SetPadValue's type), each with the same kernel made right.
#include <cmath>
#include <limits>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "fault_launch.h"
#include "kernel_operator.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr int kN = 208;  // whole 32-byte blocks, not a whole number of repeats for any dtype

void Launch(void (*kernel)(GM_ADDR, GM_ADDR), void* in, uint64_t inBytes, void* out, uint64_t outBytes)
{
    ascend_twin::LaunchSpec spec;
    spec.kernel = "basic_more_test";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(kernel);
    spec.blockDim = 1;
    spec.args = {{"in", in, inBytes}, {"out", out, outBytes}};
    ascend_twin::Launch(spec);
}

// The shift of the launch (in[0] of the shift kernels is a header element holding it).
template <typename T>
void ShiftKernel(GM_ADDR in, GM_ADDR out)
{
    constexpr int kBlk = 32 / sizeof(T);
    TPipe pipe;
    TBuf<TPosition::VECCALC> src, dst;
    pipe.InitBuffer(src, (kBlk + kN) * sizeof(T));
    pipe.InitBuffer(dst, kN * sizeof(T));
    GlobalTensor<T> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    LocalTensor<T> x = src.Get<T>();
    LocalTensor<T> y = dst.Get<T>();
    DataCopy(x, inGm, kBlk + kN);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    const T shift = x.GetValue(0);
    ShiftRight(y, x[kBlk], shift, kN);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, y, kN);
}

template <typename T>
void CheckShift(int shift)
{
    constexpr int kBlk = 32 / sizeof(T);
    std::vector<T> in(kBlk + kN), out(kN);
    std::uniform_int_distribution<int64_t> dist(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    in[0] = static_cast<T>(shift);
    for (int i = 0; i < kN; ++i) in[kBlk + i] = static_cast<T>(dist(check::Rng()));
    Launch(&ShiftKernel<T>, in.data(), in.size() * sizeof(T), out.data(), out.size() * sizeof(T));
    for (int i = 0; i < kN; ++i) {
        // Arithmetic (signed) or logical (unsigned) shift = floor division by 2^shift of the value.
        const double want = std::floor(static_cast<double>(in[kBlk + i]) / std::ldexp(1.0, shift));
        CHECK_EQ(static_cast<double>(out[i]), want);
    }
}

template <typename T>
void AddReluKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> src, dst;
    pipe.InitBuffer(src, 2 * kN * sizeof(T));
    pipe.InitBuffer(dst, kN * sizeof(T));
    GlobalTensor<T> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    LocalTensor<T> x = src.Get<T>();
    LocalTensor<T> y = dst.Get<T>();
    DataCopy(x, inGm, 2 * kN);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    AddRelu(y, x, x[kN], kN);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, y, kN);
}

// CreateVecIndex over count elements of a larger tensor (the rest keeps the Duplicate); in[0] is firstValue.
template <typename T, uint32_t kCount>
void IndexKernel(GM_ADDR in, GM_ADDR out)
{
    constexpr uint32_t kLen = (kCount + 255) / 256 * 256;
    TPipe pipe;
    TBuf<TPosition::VECCALC> src, dst;
    pipe.InitBuffer(src, 256);
    pipe.InitBuffer(dst, kLen * sizeof(T));
    GlobalTensor<T> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    LocalTensor<T> x = src.Get<T>();
    LocalTensor<T> y = dst.Get<T>();
    DataCopy(x, inGm, 256 / sizeof(T));
    SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
    const T first = x.GetValue(0);
    Duplicate(y, static_cast<T>(-7), kLen);
    CreateVecIndex(y, first, kCount);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, y, kLen);
}

template <typename T, uint32_t kCount>
void CheckIndex(double first)
{
    constexpr uint32_t kLen = (kCount + 255) / 256 * 256;
    std::vector<T> in(256 / sizeof(T)), out(kLen);
    in[0] = static_cast<T>(first);
    Launch(&IndexKernel<T, kCount>, in.data(), in.size() * sizeof(T), out.data(), out.size() * sizeof(T));
    for (uint32_t i = 0; i < kLen; ++i) {
        const double want = i < kCount ? first + i : -7.0;
        CHECK_EQ(static_cast<double>(out[i]), want);
    }
}

// Planted faults: a shift past the type's width; the counterparts shift by exactly the width.
template <bool kFault>
void ShiftPastWidth16(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * 128 * sizeof(int16_t));
    LocalTensor<int16_t> t = buf.Get<int16_t>();
    Duplicate(t, static_cast<int16_t>(-5), 256);
    ShiftRight(t[128], t, static_cast<int16_t>(kFault ? 17 : 16), 128);
}

template <bool kFault>
void ShiftPastWidth32(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * 64 * sizeof(uint32_t));
    LocalTensor<uint32_t> t = buf.Get<uint32_t>();
    Duplicate(t, 5u, 128);
    ShiftRight(t[64], t, kFault ? 33u : 32u, 64);
}

template <bool kFault>
void NegativeShift(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * 64 * sizeof(int32_t));
    LocalTensor<int32_t> t = buf.Get<int32_t>();
    Duplicate(t, 5, 128);
    ShiftRight(t[64], t, kFault ? -1 : 0, 64);
}

// CreateVecIndex past its dst (a view of 64 of the buffer's 128 halves).
template <bool kFault>
void IndexPastDst(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 128 * sizeof(half));
    LocalTensor<half> t = buf.Get<half>();
    CreateVecIndex(t[64], static_cast<half>(1.0f), kFault ? 65u : 64u);
}

// A count past what the vector unit's count register holds (a uint32_t of 2^31 and more).
template <bool kFault>
void IndexCountPastRegister(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 128 * sizeof(float));
    CreateVecIndex(buf.Get<float>(), 0.0f, kFault ? 0x80000000u : 128u);
}

// SetPadValue(pad) then DataCopyPad GM -> UB of kRows rows of kCols elements, isPad false, rightPadding up to
// a 32-byte row; in[0] is the pad value, the rows follow from in[kHead]; out = the padded rows.
template <typename T, uint32_t kRows, uint32_t kCols>
void PadKernel(GM_ADDR in, GM_ADDR out)
{
    constexpr uint32_t kHead = 32 / sizeof(T);
    constexpr uint32_t kSlot = (kCols * sizeof(T) + 31) / 32 * 32 / sizeof(T);
    TPipe pipe;
    TBuf<TPosition::VECCALC> head, rows;
    pipe.InitBuffer(head, 32);
    pipe.InitBuffer(rows, kRows * kSlot * sizeof(T));
    GlobalTensor<T> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    LocalTensor<T> h = head.Get<T>();
    DataCopy(h, inGm, kHead);
    SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
    SetPadValue(h.GetValue(0));
    LocalTensor<T> x = rows.Get<T>();
    DataCopyPadExtParams<T> pad;
    pad.isPad = false;
    pad.rightPadding = static_cast<uint8_t>(kSlot - kCols);
    DataCopyPad(x, inGm[kHead], DataCopyExtParams{kRows, kCols * sizeof(T), 0, 0, 0}, pad);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(outGm, x, kRows * kSlot);
}

template <typename T, uint32_t kRows, uint32_t kCols>
void CheckPad(T padValue, const std::vector<T>& rows)
{
    constexpr uint32_t kHead = 32 / sizeof(T);
    constexpr uint32_t kSlot = (kCols * sizeof(T) + 31) / 32 * 32 / sizeof(T);
    std::vector<T> in(kHead + kRows * kCols), out(kRows * kSlot);
    in[0] = padValue;
    for (uint32_t i = 0; i < kRows * kCols; ++i) in[kHead + i] = rows[i];
    Launch(&PadKernel<T, kRows, kCols>, in.data(), in.size() * sizeof(T), out.data(), out.size() * sizeof(T));
    for (uint32_t r = 0; r < kRows; ++r) {
        for (uint32_t c = 0; c < kSlot; ++c) {
            const double want = static_cast<double>(static_cast<float>(c < kCols ? rows[r * kCols + c] : padValue));
            CHECK_EQ(static_cast<double>(static_cast<float>(out[r * kSlot + c])), want);
        }
    }
}

// Planted: SetPadValue with a float, DataCopyPad of halves; clean: SetPadValue with a half.
template <bool kFault>
void PadTypeMismatch(GM_ADDR in, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    GlobalTensor<half> inGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(in));
    if constexpr (kFault) {
        SetPadValue(1.0f);
    } else {
        SetPadValue(static_cast<half>(1.0f));
    }
    DataCopyPadExtParams<half> pad;
    pad.rightPadding = 6;
    DataCopyPad(buf.Get<half>(), inGm, DataCopyExtParams{1, 10 * sizeof(half), 0, 0, 0}, pad);
}

// Planted: a 64-bit pad value other than 0; clean: 0.
template <bool kFault>
void PadWide(GM_ADDR in, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    GlobalTensor<int64_t> inGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(in));
    SetPadValue(static_cast<int64_t>(kFault ? 5 : 0));
    DataCopyPadExtParams<int64_t> pad;
    pad.rightPadding = 1;
    DataCopyPad(buf.Get<int64_t>(), inGm, DataCopyExtParams{1, 3 * sizeof(int64_t), 0, 0, 0}, pad);
}

}  // namespace

TEST_CASE("ShiftRight: arithmetic for int16_t/int32_t, logical for uint16_t/uint32_t, shifts 0 to the full width")
{
    std::uniform_int_distribution<int> s16(1, 15), s32(1, 31);
    for (int shift : {0, s16(check::Rng()), 16}) {
        CheckShift<int16_t>(shift);
        CheckShift<uint16_t>(shift);
    }
    for (int shift : {0, s32(check::Rng()), 32}) {
        CheckShift<int32_t>(shift);
        CheckShift<uint32_t>(shift);
    }
}

TEST_CASE("AddRelu: max(a + b, 0) for half, float and int16_t")
{
    std::uniform_real_distribution<float> real(-8.0f, 8.0f);
    {
        std::vector<float> in(2 * kN), out(kN);
        for (float& v : in) v = real(check::Rng());
        Launch(&AddReluKernel<float>, in.data(), in.size() * 4, out.data(), out.size() * 4);
        for (int i = 0; i < kN; ++i) {
            const double sum = static_cast<double>(in[i]) + static_cast<double>(in[kN + i]);
            CHECK_EQ(out[i], static_cast<float>(sum > 0 ? sum : 0.0));
        }
    }
    {
        std::vector<half> in(2 * kN), out(kN);
        for (half& v : in) v = static_cast<half>(real(check::Rng()));
        Launch(&AddReluKernel<half>, in.data(), in.size() * 2, out.data(), out.size() * 2);
        int positive = 0;
        for (int i = 0; i < kN; ++i) {
            const double sum = static_cast<double>(static_cast<float>(in[i])) +
                               static_cast<double>(static_cast<float>(in[kN + i]));
            const double want = sum > 0 ? sum : 0.0;
            // One rounding to half: within half an ulp of half (2^-11 relative).
            CHECK(std::fabs(static_cast<double>(static_cast<float>(out[i])) - want) <= std::fabs(want) * 0x1p-11);
            positive += sum > 0;
        }
        CHECK(positive > 0 && positive < kN);
    }
    {
        std::uniform_int_distribution<int> small(-16000, 16000);
        std::vector<int16_t> in(2 * kN), out(kN);
        for (int16_t& v : in) v = static_cast<int16_t>(small(check::Rng()));
        Launch(&AddReluKernel<int16_t>, in.data(), in.size() * 2, out.data(), out.size() * 2);
        for (int i = 0; i < kN; ++i) {
            const int64_t sum = static_cast<int64_t>(in[i]) + in[kN + i];
            CHECK_EQ(static_cast<int64_t>(out[i]), sum > 0 ? sum : 0);
        }
    }
}

TEST_CASE("CreateVecIndex: firstValue + i over one block, part of a repeat and several repeats, the rest untouched")
{
    std::uniform_int_distribution<int> start(-300, 300);
    const double first = start(check::Rng());
    CheckIndex<int16_t, 11>(first);
    CheckIndex<int16_t, 100>(first);
    CheckIndex<int16_t, 1000>(first);
    CheckIndex<half, 5>(first);
    CheckIndex<half, 700>(first);
    CheckIndex<int32_t, 8>(first * 1000);
    CheckIndex<int32_t, 333>(first * 1000);
    CheckIndex<float, 2>(first + 0.5);
    CheckIndex<float, 999>(first + 0.5);
}

TEST_CASE("ShiftRight's shift range and CreateVecIndex's dst size are rules, with clean counterparts")
{
    const std::string range =
        "ShiftRight: scalarValue is within [0, 16] for 16-bit types, [0, 32] for 32-bit types";
    CHECK(fault::Broke(&ShiftPastWidth16<true>, range));
    CHECK(fault::Broke(&ShiftPastWidth16<false>, ""));
    CHECK(fault::Broke(&ShiftPastWidth32<true>, range));
    CHECK(fault::Broke(&ShiftPastWidth32<false>, ""));
    CHECK(fault::Broke(&NegativeShift<true>, range));
    CHECK(fault::Broke(&NegativeShift<false>, ""));
    CHECK(fault::Broke(&IndexPastDst<true>, "CreateVecIndex: vector operands hold count elements"));
    CHECK(fault::Broke(&IndexPastDst<false>, ""));
    CHECK(fault::Broke(&IndexCountPastRegister<true>, "CreateVecIndex: count fits the vector unit's count register"));
    CHECK(fault::Broke(&IndexCountPastRegister<false>, ""));
}

TEST_CASE("SetPadValue: DataCopyPad without isPad pads with it (half, float, int8_t rows)")
{
    std::uniform_real_distribution<float> real(-8.0f, 8.0f);
    std::uniform_int_distribution<int> byte(-128, 127);
    {
        std::vector<half> rows(20);
        for (half& v : rows) v = static_cast<half>(real(check::Rng()));
        CheckPad<half, 1, 20>(static_cast<half>(real(check::Rng())), rows);
    }
    {
        std::vector<float> rows(32 * 59);
        for (float& v : rows) v = real(check::Rng());
        CheckPad<float, 32, 59>(real(check::Rng()), rows);
    }
    {
        std::vector<int8_t> rows(3 * 37);
        for (int8_t& v : rows) v = static_cast<int8_t>(byte(check::Rng()));
        CheckPad<int8_t, 3, 37>(static_cast<int8_t>(byte(check::Rng())), rows);
    }
}

TEST_CASE("SetPadValue's type is the type DataCopyPad moves; a 64-bit pad value is 0")
{
    CHECK(fault::Broke(&PadTypeMismatch<true>,
                       "DataCopyPad(GM->UB): SetPadValue's type has the size of the type DataCopyPad moves"));
    CHECK(fault::Broke(&PadTypeMismatch<false>, ""));
    CHECK(fault::Broke(&PadWide<true>, "DataCopyPad(GM->UB): DataCopyPad of a 64-bit type pads with paddingValue 0 only"));
    CHECK(fault::Broke(&PadWide<false>, ""));
}

TEST_MAIN()
