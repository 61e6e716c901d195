// ShiftLeft and ShiftRight with a scalar shift in their count and mask forms (ShiftRight's roundEn too), and
// TQueSync, against references computed independently: the shifts by repeated doubling modulo 2^width (the
// signed ShiftLeft keeping its sign bit, as the docs' example has it) and by floor division by 2^shift, on fresh
// random inputs; the run-time rules (the shift range in every form, TQueSync's event ids and pairing, a missing
// TQueSync found as a race), each with the same kernel made right.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "fault_launch.h"
#include "kernel_operator.h"

using namespace AscendC;

namespace {

// ---- independent references ---------------------------------------------------------------------------------

// a << shift: unsigned, doubling modulo 2^width; signed, the bits under the sign doubled modulo 2^(width - 1),
// the sign kept.
template <typename T>
int64_t LeftRef(T a, int shift)
{
    constexpr int kBits = sizeof(T) * 8;
    if constexpr (std::is_signed_v<T>) {
        const int64_t m = int64_t(1) << (kBits - 1);
        int64_t low = ((static_cast<int64_t>(a) % m) + m) % m;
        for (int i = 0; i < shift; ++i) low = (low * 2) % m;
        return a < 0 ? low - m : low;
    } else {
        const int64_t m = int64_t(1) << kBits;
        int64_t v = static_cast<int64_t>(a);
        for (int i = 0; i < shift; ++i) v = (v * 2) % m;
        return v;
    }
}

// a >> shift = floor(a / 2^shift); roundEn (signed only) adds the last bit shifted out.
template <typename T>
int64_t RightRef(T a, int shift, bool roundEn)
{
    int64_t r = static_cast<int64_t>(std::floor(static_cast<double>(a) / std::ldexp(1.0, shift)));
    if (std::is_signed_v<T> && roundEn && shift > 0) {
        const int64_t q = static_cast<int64_t>(std::floor(static_cast<double>(a) / std::ldexp(1.0, shift - 1)));
        r += ((q % 2) + 2) % 2;
    }
    return r;
}

template <typename T>
std::vector<T> Random(size_t n)
{
    std::uniform_int_distribution<int64_t> dist(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    std::vector<T> v(n);
    for (T& x : v) x = static_cast<T>(dist(check::Rng()));
    return v;
}

// ---- kernels: in = [src | dst's initial values], out = dst -----------------------------------------------------

enum class Form { kCount, kMaskBits, kMaskCount };

struct Params {
    bool left = true;
    Form form = Form::kCount;
    int shift = 0;
    int count = 0;          // count form
    uint64_t bits[2] = {};  // mask-bit form
    uint64_t mask = 0;      // mask-continuous form
    uint8_t repeats = 1;
    bool roundEn = false;
    int elems = 0;  // elements of src and of dst
};
Params g;  // the launch's parameters (the kernel runs in this process)

template <typename T>
void ShiftKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by;
    pipe.InitBuffer(bx, g.elems * sizeof(T));
    pipe.InitBuffer(by, g.elems * sizeof(T));
    LocalTensor<T> x = bx.Get<T>(), y = by.Get<T>();
    GlobalTensor<T> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    DataCopy(x, inGm, g.elems);
    DataCopy(y, inGm[g.elems], g.elems);
    TQueSync<PIPE_MTE2, PIPE_V> toV;
    toV.SetFlag(0);
    toV.WaitFlag(0);
    const T s = static_cast<T>(g.shift);
    const UnaryRepeatParams rp;
    if (g.left) {
        if (g.form == Form::kCount) ShiftLeft(y, x, s, g.count);
        if (g.form == Form::kMaskBits) ShiftLeft(y, x, s, g.bits, g.repeats, rp);
        if (g.form == Form::kMaskCount) ShiftLeft(y, x, s, g.mask, g.repeats, rp);
    } else {
        if (g.form == Form::kCount) ShiftRight(y, x, s, g.count);
        if (g.form == Form::kMaskBits) ShiftRight(y, x, s, g.bits, g.repeats, rp, g.roundEn);
        if (g.form == Form::kMaskCount) ShiftRight(y, x, s, g.mask, g.repeats, rp, g.roundEn);
    }
    TQueSync<PIPE_V, PIPE_MTE3> toMte3;
    toMte3.SetFlag(1);
    toMte3.WaitFlag(1);
    DataCopy(outGm, y, g.elems);
}

// Runs the kernel over random src and dst, checks every element: shifted where the form covers it, untouched
// elsewhere.
template <typename T>
void Check(const Params& p)
{
    g = p;
    constexpr int kLanes = 256 / sizeof(T);
    std::vector<T> src = Random<T>(p.elems), init = Random<T>(p.elems);
    std::vector<uint8_t> in((2 * p.elems) * sizeof(T)), out(p.elems * sizeof(T));
    std::memcpy(in.data(), src.data(), p.elems * sizeof(T));
    std::memcpy(in.data() + p.elems * sizeof(T), init.data(), p.elems * sizeof(T));
    const auto broken = fault::Run(&ShiftKernel<T>, in, out, "shift_test");
    CHECK(!broken);
    if (broken) {
        std::printf("  %s: %s (%s)\n", broken->call.c_str(), broken->rule.c_str(), broken->detail.c_str());
        return;
    }
    const T* y = reinterpret_cast<const T*>(out.data());
    int wrong = 0;
    for (int i = 0; i < p.elems; ++i) {
        bool covered = false;
        if (p.form == Form::kCount) covered = i < p.count;
        const int r = i / kLanes, lane = i % kLanes;
        if (p.form == Form::kMaskCount) covered = r < p.repeats && static_cast<uint64_t>(lane) < p.mask;
        if (p.form == Form::kMaskBits) covered = r < p.repeats && ((p.bits[lane / 64] >> (lane % 64)) & 1u);
        const int64_t want = !covered ? static_cast<int64_t>(init[i])
                             : p.left ? LeftRef(src[i], p.shift)
                                      : RightRef(src[i], p.shift, p.form != Form::kCount && p.roundEn);
        if (static_cast<int64_t>(y[i]) != want && ++wrong <= 3) {
            std::printf("  element %d: %lld, want %lld (src %lld, shift %d)\n", i, static_cast<long long>(y[i]),
                        static_cast<long long>(want), static_cast<long long>(src[i]), p.shift);
        }
    }
    CHECK_EQ(wrong, 0);
}

template <typename T>
std::vector<int> Shifts()
{
    constexpr int kBits = sizeof(T) * 8;
    std::uniform_int_distribution<int> d(2, kBits - 2);
    return {0, 1, d(check::Rng()), kBits - 1, kBits};
}

template <typename T>
void AllForms(bool left)
{
    constexpr int kLanes = 256 / sizeof(T);
    for (int shift : Shifts<T>()) {
        for (bool roundEn : {false, true}) {
            if (left && roundEn) continue;
            Params p;
            p.left = left;
            p.shift = shift;
            p.roundEn = roundEn;
            p.elems = 3 * kLanes;
            p.form = Form::kCount;
            p.count = 2 * kLanes + 16 * 2 / static_cast<int>(sizeof(T));  // a part of the third repeat
            Check<T>(p);
            p.form = Form::kMaskCount;
            p.mask = kLanes - 5;
            p.repeats = 2;
            Check<T>(p);
            p.form = Form::kMaskBits;
            std::uniform_int_distribution<uint64_t> bits;
            p.bits[0] = bits(check::Rng());
            p.bits[1] = sizeof(T) == 2 ? bits(check::Rng()) : 0;  // 32-bit types have 64 lanes
            Check<T>(p);
        }
    }
}

// ---- planted faults -------------------------------------------------------------------------------------------

template <typename T, bool kLeft, Form kForm>
void ShiftBy(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    constexpr int kLanes = 256 / sizeof(T);
    pipe.InitBuffer(buf, 2 * kLanes * sizeof(T));
    LocalTensor<T> t = buf.Get<T>();
    Duplicate(t, static_cast<T>(5), 2 * kLanes);
    const T s = static_cast<T>(g.shift);
    uint64_t bits[2] = {~0ull, sizeof(T) == 2 ? ~0ull : 0};
    if constexpr (kForm == Form::kCount) {
        if constexpr (kLeft) ShiftLeft(t[kLanes], t, s, kLanes);
        else ShiftRight(t[kLanes], t, s, kLanes);
    } else if constexpr (kForm == Form::kMaskBits) {
        if constexpr (kLeft) ShiftLeft(t[kLanes], t, s, bits, 1, UnaryRepeatParams());
        else ShiftRight(t[kLanes], t, s, bits, 1, UnaryRepeatParams(), true);
    } else {
        if constexpr (kLeft) ShiftLeft(t[kLanes], t, s, static_cast<uint64_t>(kLanes), 1, UnaryRepeatParams());
        else ShiftRight(t[kLanes], t, s, static_cast<uint64_t>(kLanes), 1, UnaryRepeatParams());
    }
}

bool Is(const std::string& got, const std::string& want)
{
    if (got != want) std::printf("  got \"%s\", want \"%s\"\n", got.c_str(), want.c_str());
    return got == want;
}

template <typename T, bool kLeft, Form kForm>
std::string ShiftViolation(int shift)
{
    g.shift = shift;
    return fault::Violation(&ShiftBy<T, kLeft, kForm>);
}

// TQueSync: an id past 7; a second SetFlag before the WaitFlag (2: MTE2 -> V, 5: S -> M, a pair no HardEvent
// names); a WaitFlag with no SetFlag; a flag left out (a race the hazard detector names). kFault = 0: clean.
template <int kFault>
void SyncKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    DataCopy(t, inGm, 64);
    TQueSync<PIPE_MTE2, PIPE_V> toV;
    if constexpr (kFault != 4) toV.SetFlag(kFault == 1 ? 8 : 2);
    if constexpr (kFault == 2) toV.SetFlag(2);
    if constexpr (kFault == 3) {
        TQueSync<PIPE_MTE3, PIPE_V>().WaitFlag(2);
    }
    if constexpr (kFault != 4) toV.WaitFlag(2);
    Adds(t, t, 1.0f, 64);
    TQueSync<PIPE_V, PIPE_MTE3> toMte3;
    toMte3.SetFlag(3);
    toMte3.WaitFlag(3);
    DataCopy(outGm, t, 64);
    // The docs' example: a scalar write, then MTE3 reads it.
    TQueSync<PIPE_MTE3, PIPE_S> toS;
    toS.SetFlag(0);
    toS.WaitFlag(0);
    t.SetValue(0, 42.0f);
    TQueSync<PIPE_S, PIPE_MTE3> sToMte3;
    sToMte3.SetFlag(0);
    sToMte3.WaitFlag(0);
    DataCopy(outGm[64], t, 8);
    // A pair no HardEvent names (S -> M): its own flag, the same pairing rule.
    TQueSync<PIPE_S, PIPE_M> sToM;
    sToM.SetFlag(4);
    if constexpr (kFault == 5) sToM.SetFlag(4);
    sToM.WaitFlag(4);
}

// A LocalTensor member never given a buffer used as an operand (hicann/ops-math floor_mod's MaskTensor).
template <bool kFault>
void UnsetOperand(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, maskBuf;
    pipe.InitBuffer(buf, 64 * sizeof(int32_t));
    pipe.InitBuffer(maskBuf, 64 * sizeof(int32_t));
    LocalTensor<int32_t> t = buf.Get<int32_t>();
    LocalTensor<int32_t> mask;
    if constexpr (!kFault) mask = maskBuf.Get<int32_t>();
    Duplicate(t, 5, 64);
    ShiftLeft(mask, t, 2, 64);
}

}  // namespace

TEST_CASE("ShiftLeft: logical for uint16_t/uint32_t, sign-keeping for int16_t/int32_t, count and mask forms")
{
    AllForms<int16_t>(true);
    AllForms<uint16_t>(true);
    AllForms<int32_t>(true);
    AllForms<uint32_t>(true);
}

TEST_CASE("ShiftLeft: the docs' example (int16_t 1010101010101010 << 1 and << 3)")
{
    const int16_t a = static_cast<int16_t>(0xAAAA);
    CHECK_EQ(static_cast<uint16_t>(twin_detail::ShiftLeftOne<int16_t>(a, 1)), 0xD554);
    CHECK_EQ(static_cast<uint16_t>(twin_detail::ShiftLeftOne<int16_t>(a, 3)), 0xD550);
    CHECK_EQ(static_cast<uint16_t>(twin_detail::ShiftLeftOne<uint16_t>(0xAAAA, 1)), 0x5554);
    // roundEn: 17 >> 5 rounds up to 1 (docs: bit 4 of 17 is 1); -16 >> 5 = -1 plus bit 4 of -16 (0xFFF0): 0;
    // -17 >> 5 = -1 plus bit 4 of -17 (0xFFEF): -1.
    CHECK_EQ(static_cast<int>(twin_detail::ShiftRightOne<int16_t>(17, 5, true)), 1);
    CHECK_EQ(static_cast<int>(twin_detail::ShiftRightOne<int16_t>(17, 5, false)), 0);
    CHECK_EQ(static_cast<int>(twin_detail::ShiftRightOne<int16_t>(-16, 5, true)), 0);
    CHECK_EQ(static_cast<int>(twin_detail::ShiftRightOne<int16_t>(-17, 5, true)), -1);
}

TEST_CASE("ShiftRight: count and mask forms, roundEn on the signed types (no effect on the unsigned ones)")
{
    AllForms<int16_t>(false);
    AllForms<uint16_t>(false);
    AllForms<int32_t>(false);
    AllForms<uint32_t>(false);
}

TEST_CASE("ShiftLeft/ShiftRight: the shift range is a rule in every form, with clean counterparts")
{
    const std::string left = "ShiftLeft: scalarValue is within [0, 16] for 16-bit types, [0, 32] for 32-bit types";
    const std::string right = "ShiftRight: scalarValue is within [0, 16] for 16-bit types, [0, 32] for 32-bit types";
    CHECK(Is(ShiftViolation<int16_t, true, Form::kCount>(17), left));
    CHECK(Is(ShiftViolation<int16_t, true, Form::kCount>(16), std::string()));
    CHECK(Is(ShiftViolation<int32_t, true, Form::kCount>(-1), left));
    CHECK(Is(ShiftViolation<int32_t, true, Form::kCount>(0), std::string()));
    CHECK(Is(ShiftViolation<uint32_t, true, Form::kMaskBits>(33), left));
    CHECK(Is(ShiftViolation<uint32_t, true, Form::kMaskBits>(32), std::string()));
    CHECK(Is(ShiftViolation<uint16_t, true, Form::kMaskCount>(17), left));
    CHECK(Is(ShiftViolation<uint16_t, true, Form::kMaskCount>(16), std::string()));
    CHECK(Is(ShiftViolation<int16_t, false, Form::kMaskBits>(17), right));
    CHECK(Is(ShiftViolation<int16_t, false, Form::kMaskBits>(16), std::string()));
    CHECK(Is(ShiftViolation<int32_t, false, Form::kMaskCount>(33), right));
    CHECK(Is(ShiftViolation<int32_t, false, Form::kMaskCount>(32), std::string()));
}

TEST_CASE("TQueSync: its flags order the pipes as SetFlag/WaitFlag do; ids, pairing and a left-out flag are rules")
{
    std::vector<float> x(64);
    std::uniform_real_distribution<float> d(-10.0f, 10.0f);
    for (float& v : x) v = d(check::Rng());
    std::vector<uint8_t> in(64 * sizeof(float)), out(72 * sizeof(float));
    std::memcpy(in.data(), x.data(), in.size());
    CHECK(!fault::Run(&SyncKernel<0>, in, out));
    const float* y = reinterpret_cast<const float*>(out.data());
    for (int i = 0; i < 64; ++i) CHECK_EQ(static_cast<double>(y[i]), static_cast<double>(x[i]) + 1.0);
    CHECK_EQ(static_cast<double>(y[64]), 42.0);
    for (int i = 1; i < 8; ++i) CHECK_EQ(static_cast<double>(y[64 + i]), static_cast<double>(x[i]) + 1.0);
    CHECK(Is(fault::Violation(&SyncKernel<1>), "TQueSync::SetFlag: event ids are 0..7 on A2"));
    const std::string set_twice =
        "TQueSync::SetFlag: every SetFlag is matched by a WaitFlag before the same flag is set again";
    CHECK(Is(fault::Violation(&SyncKernel<2>), set_twice));
    CHECK(Is(fault::Violation(&SyncKernel<5>), set_twice));
    CHECK(Is(fault::Violation(&SyncKernel<3>),
             "TQueSync::WaitFlag: every WaitFlag waits for a SetFlag made before it"));
    const std::string race = fault::Violation(&SyncKernel<4>);
    CHECK(race.find("Adds") != std::string::npos);
    std::printf("  left-out flag: %s\n", race.c_str());
    CHECK(Is(fault::Violation(&SyncKernel<0>), ""));
}

TEST_CASE("An operand LocalTensor never given a buffer is named as such")
{
    std::vector<uint8_t> in(1024), out(1024);
    const auto broken = fault::Run(&UnsetOperand<true>, in, out);
    CHECK(broken && broken->call == "ShiftLeft" &&
          broken->detail.find("operand 'dst' is a LocalTensor with no buffer") != std::string::npos);
    CHECK(!fault::Run(&UnsetOperand<false>, in, out));
}

TEST_MAIN()
