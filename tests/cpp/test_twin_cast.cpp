// Cast over the A2 conversion table: each pair's round modes against the docs' worked examples
// (precision_conversion.md), saturation, the mask/repeat forms with both mask kinds, and the rules: a
// round mode the pair lacks, NaN to an integer, a negative half to uint8_t, a missing MTE2 -> V wait.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "kernel_operator.h"
#include "twin/launch.h"
#include "fault_launch.h"

using namespace AscendC;

namespace {

constexpr uint32_t kN = 32;  // elements per test: whole 32-byte blocks for every type

// out[0..kN) = Cast<T>(in[0..kN)) with `mode`, count form.
template <typename T, typename U, RoundMode mode>
void CastCountKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> sb, db;
    pipe.InitBuffer(sb, kN * sizeof(U));
    pipe.InitBuffer(db, kN * sizeof(T));
    GlobalTensor<U> inGm;
    GlobalTensor<T> outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ U*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    LocalTensor<U> s = sb.Get<U>();
    LocalTensor<T> d = db.Get<T>();
    DataCopy(s, inGm, kN);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Cast(d, s, mode, kN);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, d, kN);
}

template <typename T, typename U, RoundMode mode>
std::vector<T> CastAll(const std::vector<U>& values, ascend_twin::LaunchStats* stats = nullptr)
{
    std::vector<U> in(kN, U(0));
    for (size_t i = 0; i < values.size(); ++i) in[i] = values[i];
    std::vector<T> out(kN);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "cast_test";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&CastCountKernel<T, U, mode>);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size() * sizeof(U)}, {"out", out.data(), out.size() * sizeof(T)}};
    const ascend_twin::LaunchStats s = ascend_twin::Launch(spec);
    if (stats) *stats = s;
    out.resize(values.size());
    return out;
}

template <typename T>
std::vector<float> AsFloat(const std::vector<T>& v)
{
    std::vector<float> f;
    for (const T& x : v) f.push_back(static_cast<float>(x));
    return f;
}

std::vector<half> Halves(std::initializer_list<float> v)
{
    std::vector<half> h;
    for (float f : v) h.push_back(half(f));
    return h;
}

using fault::Broke;
using fault::Violation;

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& v)
{
    std::vector<uint8_t> b(1024);
    std::memcpy(b.data(), v.data(), v.size() * sizeof(T));
    return b;
}

// Mask/repeat forms. Input: 128 halves and 128 int8_t; output 128 floats, 256 halves.
void CastMaskKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> hb, ib, fb, ob;
    pipe.InitBuffer(hb, 128 * sizeof(half));
    pipe.InitBuffer(ib, 128);
    pipe.InitBuffer(fb, 128 * sizeof(float));
    pipe.InitBuffer(ob, 256 * sizeof(half));
    GlobalTensor<uint8_t> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out));
    LocalTensor<half> h = hb.Get<half>();
    LocalTensor<int8_t> i8 = ib.Get<int8_t>();
    LocalTensor<float> f = fb.Get<float>();
    LocalTensor<half> o = ob.Get<half>();
    DataCopy(h.ReinterpretCast<uint8_t>(), inGm, 256);
    DataCopy(i8.ReinterpretCast<uint8_t>(), inGm[256], 128);
    Duplicate(f, -7.0f, 128);
    Duplicate(o, half(-7.0f), 256);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    // half -> float, continuous mask: 64 lanes (the wider type's), 2 repeats, src 4 blocks per repeat.
    Cast(f, h, RoundMode::CAST_NONE, uint64_t(64), 2, {1, 1, 8, 4});
    // float -> half back over the even lanes of repeat 0 only (bitwise mask, 64 lanes per repeat).
    uint64_t even[2] = {0x5555555555555555ull, 0};
    Cast(o, f, RoundMode::CAST_TRUNC, even, 1, {1, 1, 4, 8});
    // int8_t -> half, 128 lanes per repeat: both mask words count; lanes 60..67 only.
    uint64_t mid[2] = {0xF000000000000000ull, 0xFull};
    Cast(o[128], i8, RoundMode::CAST_NONE, mid, 1, {1, 1, 8, 4});
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, f.ReinterpretCast<uint8_t>(), 512);
    DataCopy(outGm[512], o.ReinterpretCast<uint8_t>(), 512);
}

template <RoundMode mode>
void HalfToFloatModeKernel(GM_ADDR in, GM_ADDR out)
{
    CastCountKernel<float, half, mode>(in, out);
}

void FloatToInt32NoneKernel(GM_ADDR in, GM_ADDR out) { CastCountKernel<int32_t, float, RoundMode::CAST_NONE>(in, out); }
void FloatToBf16OddKernel(GM_ADDR in, GM_ADDR out) { CastCountKernel<bfloat16_t, float, RoundMode::CAST_ODD>(in, out); }
void FloatToInt16Kernel(GM_ADDR in, GM_ADDR out) { CastCountKernel<int16_t, float, RoundMode::CAST_RINT>(in, out); }
void HalfToUint8Kernel(GM_ADDR in, GM_ADDR out) { CastCountKernel<uint8_t, half, RoundMode::CAST_FLOOR>(in, out); }

// The cast reads UB the copy-in is still writing: no MTE2 -> V wait.
void CastNoWaitKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> sb, db;
    pipe.InitBuffer(sb, 256);
    pipe.InitBuffer(db, 256);
    GlobalTensor<half> inGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(in));
    LocalTensor<half> s = sb.Get<half>();
    DataCopy(s, inGm, 64);
    Cast(db.Get<float>(), s, RoundMode::CAST_NONE, uint64_t(64), 1, {1, 1, 8, 4});
}

// Mask form with a continuous mask beyond the wider type's 64 lanes.
void CastWideMaskKernel(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> sb, db;
    pipe.InitBuffer(sb, 256);
    pipe.InitBuffer(db, 512);
    LocalTensor<half> s = sb.Get<half>();
    Duplicate(s, half(1.0f), 128);
    Cast(db.Get<float>(), s, RoundMode::CAST_NONE, uint64_t(128), 1, {1, 1, 8, 4});
}

// int32_t -> half with DEQSCALE: in = int32_t[128] ++ the scale (a half in the low 16 bits of in[128]);
// out = half[256]: [0..128) the count form, [128..256) the mask form over the odd lanes of two repeats.
// form: 0 SetDeqScale(half), 1 none, 2 SetDeqScale(float, int16_t, bool).
template <int form>
void DeqKernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> sb, db;
    pipe.InitBuffer(sb, 128 * sizeof(int32_t));
    pipe.InitBuffer(db, 256 * sizeof(half));
    GlobalTensor<int32_t> inGm;
    GlobalTensor<half> outGm;
    GlobalTensor<half> scaleGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(in));
    scaleGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(in) + 256);
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(out));
    LocalTensor<int32_t> s = sb.Get<int32_t>();
    LocalTensor<half> d = db.Get<half>();
    DataCopy(s, inGm, 128);
    Duplicate(d, half(-7.0f), 256);
    if constexpr (form == 0) {
        DataCacheCleanAndInvalid<half, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(scaleGm);
        SetDeqScale(scaleGm.GetValue(0));
    }
    if constexpr (form == 2) SetDeqScale(1.0f, int16_t(0), true);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Cast(d, s, RoundMode::CAST_NONE, 128);
    uint64_t odd[2] = {0xAAAAAAAAAAAAAAAAull, 0};
    Cast(d[128], s, RoundMode::CAST_FLOOR, odd, 2, {1, 1, 4, 8});  // the round mode is ignored
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, d, 256);
}

// The half nearest to x (ties: even significand), found among the neighbours of a float-rounded guess,
// saturated to +-65504.
float NearestHalf(double x)
{
    if (x >= 65504.0) return 65504.0f;
    if (x <= -65504.0) return -65504.0f;
    const half guess(static_cast<float>(x));
    float best = static_cast<float>(guess);
    uint16_t bestBits = guess.bits;
    for (int d = -2; d <= 2; ++d) {
        half h;
        h.bits = static_cast<uint16_t>(guess.bits + d);
        const float v = static_cast<float>(h);
        if ((h.bits & 0x7c00u) == 0x7c00u || std::isnan(v)) continue;
        if ((v < 0) != (best < 0) && v != 0 && best != 0) continue;
        const double e = std::fabs(v - x), eb = std::fabs(best - x);
        if (e < eb || (e == eb && (h.bits & 1u) == 0 && (bestBits & 1u) == 1)) {
            best = v;
            bestBits = h.bits;
        }
    }
    return best;
}

// int4b_t: in = half[256] ++ 64 bytes of packed int4b_t (128 elements); out = 128 bytes of int4b_t (the
// count form half -> int4b_t), 64 bytes (mask form), then half[384] (int4b_t -> half), then 4 int32_t:
// GetSize/GetLength of the int4b_t views and a GetValue.
void Int4Kernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> hb, qb, mb, pb, ob;
    pipe.InitBuffer(hb, 256 * sizeof(half));
    pipe.InitBuffer(qb, 128);
    pipe.InitBuffer(mb, 64);
    pipe.InitBuffer(pb, 64);
    pipe.InitBuffer(ob, 384 * sizeof(half));
    GlobalTensor<uint8_t> inGm, outGm;
    GlobalTensor<int32_t> sizesGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out));
    sizesGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out + 192 + 768));
    LocalTensor<half> h = hb.Get<half>();
    LocalTensor<int4b_t> q = qb.Get<int8_t>().ReinterpretCast<int4b_t>();   // 256 elements
    LocalTensor<int4b_t> m = mb.Get<int8_t>().ReinterpretCast<int4b_t>();   // 128 elements
    LocalTensor<int4b_t> packed = pb.Get<int8_t>().ReinterpretCast<int4b_t>();
    LocalTensor<half> o = ob.Get<half>();
    DataCopy(h.ReinterpretCast<uint8_t>(), inGm, 512);
    DataCopy(packed.ReinterpretCast<uint8_t>(), inGm[512], 64);
    Duplicate(m.ReinterpretCast<uint16_t>(), uint16_t(0x7777), 32);
    Duplicate(o, half(-7.0f), 384);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Cast(q, h, RoundMode::CAST_FLOOR, 256);
    uint64_t pairs[2] = {0x0F0F0F0F0F0F0F0Full, 0x00000000FFFF0000ull};
    Cast(m, h, RoundMode::CAST_TRUNC, pairs, 1, {1, 1, 2, 8});
    Cast(o, packed, RoundMode::CAST_NONE, 128);
    Cast(o[128], packed, RoundMode::CAST_NONE, uint64_t(64), 2, {1, 1, 8, 1});  // src: 64 elements a repeat
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, q.ReinterpretCast<uint8_t>(), 128);
    DataCopy(outGm[128], m.ReinterpretCast<uint8_t>(), 64);
    DataCopy(outGm[192], o.ReinterpretCast<uint8_t>(), 768);
    SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
    sizesGm.SetValue(0, static_cast<int32_t>(q.GetSize()));
    sizesGm.SetValue(1, static_cast<int32_t>(q[64].GetLength()));
    sizesGm.SetValue(2, static_cast<int32_t>(static_cast<int8_t>(packed.GetValue(5))));
    sizesGm.SetValue(3, static_cast<int32_t>(packed.ReinterpretCast<half>().GetSize()));
    sizesGm.SetValue(4, static_cast<int32_t>(qb.Get<int4b_t>().GetSize()));     // 128 bytes
    sizesGm.SetValue(5, static_cast<int32_t>(qb.Get<int4b_t>(64).GetLength()));  // 64 elements, 32 bytes
}

// int4b_t rules; bad plants the fault.
template <int which, bool bad>
void Int4RuleKernel(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> hb, qb;
    pipe.InitBuffer(hb, 256 * sizeof(half));
    pipe.InitBuffer(qb, 128);
    LocalTensor<half> h = hb.Get<half>();
    LocalTensor<int4b_t> q = qb.Get<int8_t>().ReinterpretCast<int4b_t>();
    Duplicate(h, half(1.5f), 256);
    PipeBarrier<PIPE_V>();
    if constexpr (which == 0) {
        Cast(q, h, RoundMode::CAST_RINT, bad ? 255 : 254);
    } else if constexpr (which == 1) {
        Cast(q, h, RoundMode::CAST_RINT, uint64_t(bad ? 127 : 126), 1, {1, 1, 2, 8});
    } else if constexpr (which == 2) {
        uint64_t mask[2] = {bad ? 0x1ull : 0x3ull, 0};
        Cast(q, h, RoundMode::CAST_RINT, mask, 1, {1, 1, 2, 8});
    } else if constexpr (which == 3) {
        Cast(q[bad ? 63 : 64], h, RoundMode::CAST_RINT, 128);
    } else {
        Cast(q, h, RoundMode::CAST_RINT, 256);
        PipeBarrier<PIPE_V>();
        Cast(h, q, bad ? RoundMode::CAST_RINT : RoundMode::CAST_NONE, 256);
    }
}

// The nibble a byte array holds at element i (sign-extended).
int Nib(const uint8_t* bytes, int i)
{
    const int v = (bytes[i / 2] >> (4 * (i % 2))) & 0xf;
    return v >= 8 ? v - 16 : v;
}

}  // namespace

TEST_CASE("Cast float/half/bfloat16 -> integers: the docs' examples under every mode, saturation")
{
    // half -> int8_t: 2^7 - 0.5 saturates to 127 except under FLOOR/TRUNC, which give 127 anyway.
    const std::vector<half> h127 = Halves({127.5f, -200.0f, 3.5f, -3.5f, 2.5f});
    CHECK((CastAll<int8_t, half, RoundMode::CAST_RINT>(h127) == std::vector<int8_t>({127, -128, 4, -4, 2})));
    CHECK((CastAll<int8_t, half, RoundMode::CAST_NONE>(h127) == std::vector<int8_t>({127, -128, 4, -4, 2})));
    CHECK((CastAll<int8_t, half, RoundMode::CAST_TRUNC>(h127) == std::vector<int8_t>({127, -128, 3, -3, 2})));
    CHECK((CastAll<int8_t, half, RoundMode::CAST_ROUND>(h127) == std::vector<int8_t>({127, -128, 4, -4, 3})));
    // half -> uint8_t: 1.75 -> 2/1/2/2/1; 300 saturates to 255.
    const std::vector<half> h175 = Halves({1.75f, 300.0f, 0.5f});
    CHECK((CastAll<uint8_t, half, RoundMode::CAST_RINT>(h175) == std::vector<uint8_t>({2, 255, 0})));
    CHECK((CastAll<uint8_t, half, RoundMode::CAST_FLOOR>(h175) == std::vector<uint8_t>({1, 255, 0})));
    CHECK((CastAll<uint8_t, half, RoundMode::CAST_CEIL>(h175) == std::vector<uint8_t>({2, 255, 1})));
    CHECK((CastAll<uint8_t, half, RoundMode::CAST_ROUND>(h175) == std::vector<uint8_t>({2, 255, 1})));
    CHECK((CastAll<uint8_t, half, RoundMode::CAST_TRUNC>(h175) == std::vector<uint8_t>({1, 255, 0})));
    // half -> int16_t: 2^7 - 0.5 -> 128/127/128/128/127.
    const std::vector<half> h16 = Halves({127.5f, -65504.0f});
    CHECK((CastAll<int16_t, half, RoundMode::CAST_RINT>(h16) == std::vector<int16_t>({128, -32768})));
    CHECK((CastAll<int16_t, half, RoundMode::CAST_FLOOR>(h16) == std::vector<int16_t>({127, -32768})));
    CHECK((CastAll<int16_t, half, RoundMode::CAST_CEIL>(h16) == std::vector<int16_t>({128, -32768})));
    CHECK((CastAll<int16_t, half, RoundMode::CAST_TRUNC>(h16) == std::vector<int16_t>({127, -32768})));
    // half -> int32_t: -1.5 -> -2/-2/-1/-2/-1.
    const std::vector<half> hm = Halves({-1.5f, 65504.0f});
    CHECK((CastAll<int32_t, half, RoundMode::CAST_RINT>(hm) == std::vector<int32_t>({-2, 65504})));
    CHECK((CastAll<int32_t, half, RoundMode::CAST_FLOOR>(hm) == std::vector<int32_t>({-2, 65504})));
    CHECK((CastAll<int32_t, half, RoundMode::CAST_CEIL>(hm) == std::vector<int32_t>({-1, 65504})));
    CHECK((CastAll<int32_t, half, RoundMode::CAST_ROUND>(hm) == std::vector<int32_t>({-2, 65504})));
    CHECK((CastAll<int32_t, half, RoundMode::CAST_TRUNC>(hm) == std::vector<int32_t>({-1, 65504})));
    // bfloat16_t -> int32_t: 2^6 + 0.5 -> 64/64/65/65/64.
    const std::vector<bfloat16_t> b = {AscendC::Cast(64.5f), AscendC::Cast(-1.0e20f)};
    CHECK((CastAll<int32_t, bfloat16_t, RoundMode::CAST_RINT>(b) == std::vector<int32_t>({64, INT32_MIN})));
    CHECK((CastAll<int32_t, bfloat16_t, RoundMode::CAST_FLOOR>(b) == std::vector<int32_t>({64, INT32_MIN})));
    CHECK((CastAll<int32_t, bfloat16_t, RoundMode::CAST_CEIL>(b) == std::vector<int32_t>({65, INT32_MIN})));
    CHECK((CastAll<int32_t, bfloat16_t, RoundMode::CAST_ROUND>(b) == std::vector<int32_t>({65, INT32_MIN})));
    CHECK((CastAll<int32_t, bfloat16_t, RoundMode::CAST_TRUNC>(b) == std::vector<int32_t>({64, INT32_MIN})));
    // float -> int16_t: 2^22 + 0.5 saturates to 2^15 - 1 in every mode.
    const std::vector<float> f22 = {4194304.5f, -1.0e9f, -2.5f};
    CHECK((CastAll<int16_t, float, RoundMode::CAST_RINT>(f22) == std::vector<int16_t>({32767, -32768, -2})));
    CHECK((CastAll<int16_t, float, RoundMode::CAST_TRUNC>(f22) == std::vector<int16_t>({32767, -32768, -2})));
    CHECK((CastAll<int16_t, float, RoundMode::CAST_ROUND>(f22) == std::vector<int16_t>({32767, -32768, -3})));
    // float -> int32_t and int64_t: 2^22 + 0.5 -> 2^22 / 2^22 / 2^22+1 / 2^22+1 / 2^22.
    const std::vector<float> f = {4194304.5f, 3.0e9f, -3.0e9f, INFINITY};
    CHECK((CastAll<int32_t, float, RoundMode::CAST_RINT>(f) ==
          std::vector<int32_t>({4194304, INT32_MAX, INT32_MIN, INT32_MAX})));
    CHECK((CastAll<int32_t, float, RoundMode::CAST_FLOOR>(f)[0] == 4194304));
    CHECK((CastAll<int32_t, float, RoundMode::CAST_CEIL>(f)[0] == 4194305));
    CHECK((CastAll<int32_t, float, RoundMode::CAST_ROUND>(f)[0] == 4194305));
    CHECK((CastAll<int32_t, float, RoundMode::CAST_TRUNC>(f)[0] == 4194304));
    const std::vector<float> f64 = {4194304.5f, 3.0e9f, -1.0e19f, 1.0e19f};
    CHECK((CastAll<int64_t, float, RoundMode::CAST_CEIL>(f64) ==
          std::vector<int64_t>({4194305, 3000000000ll, INT64_MIN, INT64_MAX})));
    CHECK((CastAll<int64_t, float, RoundMode::CAST_RINT>(f64)[0] == 4194304));
}

TEST_CASE("Cast integers -> float/half: the docs' examples under every mode")
{
    // int32_t -> float: 2^25 + 3 -> 2^25 + 4 (RINT, CEIL, ROUND), 2^25 (FLOOR, TRUNC); CAST_NONE = RINT.
    const std::vector<int32_t> i = {(1 << 25) + 3, -((1 << 25) + 3), 7};
    CHECK((CastAll<float, int32_t, RoundMode::CAST_RINT>(i) == std::vector<float>({33554436.f, -33554436.f, 7.f})));
    CHECK((CastAll<float, int32_t, RoundMode::CAST_NONE>(i) == std::vector<float>({33554436.f, -33554436.f, 7.f})));
    CHECK((CastAll<float, int32_t, RoundMode::CAST_FLOOR>(i) == std::vector<float>({33554432.f, -33554436.f, 7.f})));
    CHECK((CastAll<float, int32_t, RoundMode::CAST_CEIL>(i) == std::vector<float>({33554436.f, -33554432.f, 7.f})));
    CHECK((CastAll<float, int32_t, RoundMode::CAST_ROUND>(i) == std::vector<float>({33554436.f, -33554436.f, 7.f})));
    CHECK((CastAll<float, int32_t, RoundMode::CAST_TRUNC>(i) == std::vector<float>({33554432.f, -33554432.f, 7.f})));
    // int64_t -> float: 2^35 + 2^12 + 2^11 -> 2^35 + 2^13 (RINT, CEIL, ROUND), 2^35 + 2^12 (FLOOR, TRUNC).
    const int64_t big = (1ll << 35) + (1ll << 12) + (1ll << 11);
    const float up = 34359746560.f, down = 34359742464.f;  // 2^35 + 2^13, 2^35 + 2^12
    CHECK((CastAll<float, int64_t, RoundMode::CAST_RINT>({big}) == std::vector<float>({up})));
    CHECK((CastAll<float, int64_t, RoundMode::CAST_FLOOR>({big}) == std::vector<float>({down})));
    CHECK((CastAll<float, int64_t, RoundMode::CAST_CEIL>({big}) == std::vector<float>({up})));
    CHECK((CastAll<float, int64_t, RoundMode::CAST_ROUND>({big}) == std::vector<float>({up})));
    CHECK((CastAll<float, int64_t, RoundMode::CAST_TRUNC>({big}) == std::vector<float>({down})));
    // int16_t -> half: 2^12 + 2 -> 2^12 (RINT, FLOOR, TRUNC), 2^12 + 4 (CEIL, ROUND).
    const std::vector<int16_t> s = {4098, -32768, 5};
    CHECK((AsFloat(CastAll<half, int16_t, RoundMode::CAST_RINT>(s)) == std::vector<float>({4096.f, -32768.f, 5.f})));
    CHECK((AsFloat(CastAll<half, int16_t, RoundMode::CAST_NONE>(s)) == std::vector<float>({4096.f, -32768.f, 5.f})));
    CHECK((AsFloat(CastAll<half, int16_t, RoundMode::CAST_FLOOR>(s)) == std::vector<float>({4096.f, -32768.f, 5.f})));
    CHECK((AsFloat(CastAll<half, int16_t, RoundMode::CAST_CEIL>(s)) == std::vector<float>({4100.f, -32768.f, 5.f})));
    CHECK((AsFloat(CastAll<half, int16_t, RoundMode::CAST_ROUND>(s)) == std::vector<float>({4100.f, -32768.f, 5.f})));
    CHECK((AsFloat(CastAll<half, int16_t, RoundMode::CAST_TRUNC>(s)) == std::vector<float>({4096.f, -32768.f, 5.f})));
    // Exact conversions.
    CHECK((AsFloat(CastAll<half, int8_t, RoundMode::CAST_NONE>({-1, 127, -128})) == std::vector<float>({-1.f, 127.f, -128.f})));
    CHECK((AsFloat(CastAll<half, uint8_t, RoundMode::CAST_NONE>({1, 255})) == std::vector<float>({1.f, 255.f})));
    CHECK((CastAll<float, int16_t, RoundMode::CAST_NONE>({32767, -32768}) == std::vector<float>({32767.f, -32768.f})));
}

TEST_CASE("Cast float -> float rounds to integral values; integer narrowing saturates")
{
    const std::vector<float> x = {0.5f, -0.5f, 2.5f, -1.25f};
    CHECK((CastAll<float, float, RoundMode::CAST_RINT>(x) == std::vector<float>({0.f, -0.f, 2.f, -1.f})));
    CHECK((CastAll<float, float, RoundMode::CAST_FLOOR>(x) == std::vector<float>({0.f, -1.f, 2.f, -2.f})));
    CHECK((CastAll<float, float, RoundMode::CAST_CEIL>(x) == std::vector<float>({1.f, -0.f, 3.f, -1.f})));
    CHECK((CastAll<float, float, RoundMode::CAST_ROUND>(x) == std::vector<float>({1.f, -1.f, 3.f, -1.f})));
    CHECK((CastAll<float, float, RoundMode::CAST_TRUNC>(x) == std::vector<float>({0.f, -0.f, 2.f, -1.f})));
    CHECK((CastAll<int16_t, int32_t, RoundMode::CAST_NONE>({INT32_MAX, INT32_MIN, -5}) ==
          std::vector<int16_t>({32767, -32768, -5})));
    CHECK((CastAll<int32_t, int64_t, RoundMode::CAST_NONE>({1ll << 31, -(1ll << 40), 9}) ==
          std::vector<int32_t>({INT32_MAX, INT32_MIN, 9})));
    CHECK((CastAll<int64_t, int32_t, RoundMode::CAST_NONE>({INT32_MAX, -1}) == std::vector<int64_t>({INT32_MAX, -1})));
    // float -> half under CAST_ODD (0.5 + 2^-12: inexact, the odd neighbour 0.5 + 2^-11).
    CHECK((AsFloat(CastAll<half, float, RoundMode::CAST_ODD>({0.5f + 0.000244140625f})) ==
          std::vector<float>({0.5f + 0.00048828125f})));
    ascend_twin::LaunchStats stats;
    CastAll<int32_t, half, RoundMode::CAST_RINT>(Halves({1.0f}), &stats);
    const auto& c = stats.cores[0];
    CHECK_EQ(c.vecElementOps[static_cast<uint32_t>(ascend_twin::VecOp::kCast)], 32ull);
    CHECK_EQ(c.vecRepeats[static_cast<uint32_t>(ascend_twin::VecOp::kCast)], 1ull);  // 128 bytes of int32_t
}

TEST_CASE("Cast mask/repeat forms: continuous and bitwise masks, lanes of the wider type")
{
    std::vector<uint8_t> in(384);
    half* h = reinterpret_cast<half*>(in.data());
    int8_t* i8 = reinterpret_cast<int8_t*>(in.data() + 256);
    for (int i = 0; i < 128; ++i) {
        h[i] = half(static_cast<float>(i) + 0.25f);
        i8[i] = static_cast<int8_t>(i - 64);
    }
    std::vector<uint8_t> out(1024);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "cast_mask";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&CastMaskKernel);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size()}, {"out", out.data(), out.size()}};
    const ascend_twin::LaunchStats stats = ascend_twin::Launch(spec);
    const float* f = reinterpret_cast<const float*>(out.data());
    const half* o = reinterpret_cast<const half*>(out.data() + 512);
    for (int i = 0; i < 128; ++i) CHECK_EQ(f[i], static_cast<float>(i) + 0.25f);
    for (int i = 0; i < 64; ++i) CHECK_EQ(static_cast<float>(o[i]), i % 2 == 0 ? static_cast<float>(i) + 0.25f : -7.0f);
    for (int i = 64; i < 128; ++i) CHECK_EQ(static_cast<float>(o[i]), -7.0f);
    for (int j = 0; j < 128; ++j) {
        const bool on = j >= 60 && j < 68;  // lanes 60..63 from mask[0], 64..67 from mask[1]
        CHECK_EQ(static_cast<float>(o[128 + j]), on ? static_cast<float>(j - 64) : -7.0f);
    }
    const auto& c = stats.cores[0];
    CHECK_EQ(c.vecElementOps[static_cast<uint32_t>(ascend_twin::VecOp::kCast)], 128ull + 32 + 8);
    CHECK_EQ(c.vecCalls[static_cast<uint32_t>(ascend_twin::VecOp::kCast)], 3ull);
}

TEST_CASE("Cast rules: round modes per pair, NaN to integers, negative to uint8_t, synchronisation")
{
    const std::string mode = "Cast: Cast uses a round mode the conversion supports on A2";
    CHECK((Broke(&HalfToFloatModeKernel<RoundMode::CAST_RINT>, mode)));
    CHECK((Broke(&HalfToFloatModeKernel<RoundMode::CAST_NONE>, "")));
    CHECK((Broke(&FloatToInt32NoneKernel, mode)));
    CHECK((Broke(&FloatToBf16OddKernel, mode)));
    std::vector<float> nan(32, 1.0f);
    nan[3] = NAN;
    CHECK((Broke(&FloatToInt16Kernel, "Cast: Cast converts to an integer type only values the docs define a result for",
                Bytes(nan))));
    CHECK((Broke(&FloatToInt16Kernel, "", Bytes(std::vector<float>(32, 1.0f)))));
    CHECK((Broke(&HalfToUint8Kernel, "Cast: Cast to uint8_t takes no negative input (an exception on A2)",
                Bytes(Halves({1.0f, -0.25f})))));
    CHECK((Broke(&HalfToUint8Kernel, "", Bytes(Halves({1.0f, 0.25f})))));
    CHECK((Broke(&CastNoWaitKernel, "Cast: accesses of different pipes to the same UB bytes are ordered by synchronisation")));
    CHECK((Broke(&CastWideMaskKernel, "Cast: a continuous mask selects at most one repeat of elements")));
}

TEST_CASE("Cast int32_t -> half: src * DEQSCALE's half, RINT, saturated; the round mode is ignored")
{
    const uint32_t seed = std::random_device{}();
    std::mt19937 rng(seed);
    const int before = check::Failures();
    for (int trial = 0; trial < 4; ++trial) {
        std::vector<int32_t> in(256 / 2 + 8, 0);
        std::uniform_int_distribution<int> shift(0, 30);
        for (int i = 0; i < 128; ++i) {
            const int32_t mag = static_cast<int32_t>(rng() >> (1 + shift(rng)));
            in[i] = (rng() & 1) ? mag : -mag;
        }
        in[0] = 2049;  // 2048 + 1: a tie at scale 1, rounds to even (2048)
        in[1] = 2051;  // rounds up to 2052
        in[2] = std::numeric_limits<int32_t>::max();  // saturates (unless the scale is tiny)
        // A random half scale between 2^-16 and 2^4, sometimes negative.
        std::uniform_real_distribution<float> lg(-16.0f, 4.0f);
        half scale(std::pow(2.0f, lg(rng)) * ((rng() & 1) ? 1.0f : -1.0f));
        if (trial == 0) scale = half(1.0f);
        std::memcpy(&in[128], &scale.bits, 2);
        std::vector<half> out(256);
        ascend_twin::LaunchSpec spec;
        spec.kernel = "cast_deq";
        spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&DeqKernel<0>);
        spec.blockDim = 1;
        spec.args = {{"in", in.data(), in.size() * sizeof(int32_t)}, {"out", out.data(), out.size() * sizeof(half)}};
        ascend_twin::Launch(spec);
        const double sc = static_cast<float>(scale);
        for (int i = 0; i < 128; ++i) {
            const float want = NearestHalf(static_cast<double>(in[i]) * sc);
            CHECK_EQ(static_cast<float>(out[i]), want);
            const float masked = (i % 2) ? want : -7.0f;  // odd lanes of both 64-lane repeats
            CHECK_EQ(static_cast<float>(out[128 + i]), masked);
        }
        if (trial == 0) {
            CHECK_EQ(static_cast<float>(out[0]), 2048.0f);
            CHECK_EQ(static_cast<float>(out[1]), 2052.0f);
            CHECK_EQ(static_cast<float>(out[2]), 65504.0f);
        }
    }
    if (check::Failures() != before) std::printf("  seed %u\n", seed);
}

TEST_CASE("Cast int32_t -> half needs SetDeqScale(half), not the CastDequant form")
{
    const std::string rule = "Cast: Cast int32_t -> half uses the scale SetDeqScale(half) set";
    std::vector<uint8_t> in(1024, 0);
    in[512] = 0x00;
    in[513] = 0x3c;  // half 1.0
    CHECK((Broke(&DeqKernel<1>, rule, in)));
    CHECK((Broke(&DeqKernel<2>, rule, in)));
    CHECK((Broke(&DeqKernel<0>, "", in)));
}

TEST_CASE("Cast half <-> int4b_t: two elements a byte, saturation to [-8, 7], LocalTensor<int4b_t> counts")
{
    const uint32_t seed = std::random_device{}();
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> val(-10.0f, 10.0f);
    std::vector<uint8_t> in(512 + 64);
    std::vector<half> hs(256);
    for (half& v : hs) v = half(std::round(val(rng) * 4) / 4);  // quarters: ties and exact integers occur
    std::memcpy(in.data(), hs.data(), 512);
    for (int i = 512; i < 576; ++i) in[i] = static_cast<uint8_t>(rng());
    std::vector<uint8_t> out(192 + 768 + 32);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "cast_int4";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&Int4Kernel);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size()}, {"out", out.data(), out.size()}};
    ascend_twin::Launch(spec);
    const uint8_t* packed = in.data() + 512;
    const int before = check::Failures();
    auto sat = [](double r) { return static_cast<int>(r < -8 ? -8 : (r > 7 ? 7 : r)); };
    for (int i = 0; i < 256; ++i) CHECK_EQ(Nib(out.data(), i), sat(std::floor(static_cast<float>(hs[i]))));
    const uint64_t pairs[2] = {0x0F0F0F0F0F0F0F0Full, 0x00000000FFFF0000ull};
    for (int i = 0; i < 128; ++i) {
        const bool on = (pairs[i / 64] >> (i % 64)) & 1;
        CHECK_EQ(Nib(out.data() + 128, i), on ? sat(std::trunc(static_cast<float>(hs[i]))) : 7);
    }
    std::vector<half> o(384);
    std::memcpy(o.data(), out.data() + 192, 768);
    for (int i = 0; i < 128; ++i) CHECK_EQ(static_cast<float>(o[i]), static_cast<float>(Nib(packed, i)));
    for (int r = 0; r < 2; ++r) {
        for (int j = 0; j < 128; ++j) {
            const float want = j < 64 ? static_cast<float>(Nib(packed, r * 64 + j)) : -7.0f;
            CHECK_EQ(static_cast<float>(o[128 + r * 128 + j]), want);
        }
    }
    int32_t sizes[6];
    std::memcpy(sizes, out.data() + 192 + 768, 24);
    CHECK_EQ(sizes[0], 256);                // 128 bytes of int8_t as int4b_t
    CHECK_EQ(sizes[1], 96);                 // bytes from element 64 on
    CHECK_EQ(sizes[2], Nib(packed, 5));     // the high nibble of byte 2
    CHECK_EQ(sizes[3], 32);                 // 64 bytes as half
    CHECK_EQ(sizes[4], 256);                // TBuf::Get<int4b_t>() of 128 bytes
    CHECK_EQ(sizes[5], 32);                 // TBuf::Get<int4b_t>(64): 32 bytes
    if (check::Failures() != before) std::printf("  seed %u\n", seed);
}

TEST_CASE("Cast int4b_t rules: even count and continuous mask, paired mask bits, byte views, round modes")
{
    const std::string even = "Cast: Cast with int4b_t: count and a continuous mask are even";
    CHECK((Broke(&Int4RuleKernel<0, true>, even)));
    CHECK((Broke(&Int4RuleKernel<0, false>, "")));
    CHECK((Broke(&Int4RuleKernel<1, true>, even)));
    CHECK((Broke(&Int4RuleKernel<1, false>, "")));
    CHECK((Broke(&Int4RuleKernel<2, true>,
                 "Cast: Cast with int4b_t: a bitwise mask sets the two bits of each pair (0-1, 2-3, ...) alike")));
    CHECK((Broke(&Int4RuleKernel<2, false>, "")));
    CHECK((Broke(&Int4RuleKernel<3, true>,
                 "LocalTensor::operator[]: an int4b_t tensor offset is even (a view starts on a whole byte)")));
    CHECK((Broke(&Int4RuleKernel<3, false>, "")));
    CHECK((Broke(&Int4RuleKernel<4, true>, "Cast: Cast uses a round mode the conversion supports on A2")));
    CHECK((Broke(&Int4RuleKernel<4, false>, "")));
}

TEST_MAIN()
