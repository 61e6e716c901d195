// Pad and UnPad ("lib/pad/pad.h") against references built here element by element from fresh random inputs: the
// unaligned Pad (left and right columns) for float, half, int16_t, int32_t and uint32_t, both forms; the aligned Pad
// (redundant columns filled, partly and wholly, over more than 255 rows); UnPad for float, half and int32_t;
// GetPadMaxMinTmpSize / PadTilingFunc / GetUnPadMaxMinTmpSize / UnPadTilingFunc against A2's formulas worked by
// hand; every run-time rule with a planted fault and a clean counterpart.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "fault_launch.h"
#include "lib/pad/pad.h"
#include "tiling/pad/pad_tiling.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

struct Case {
    bool unpad = false;
    int form = 0;  // 0 sharedTmpBuffer, 1 the framework's buffer
    uint32_t h = 1, w = 8, ori = 8;
    uint16_t left = 0, right = 0;
    int32_t value = 0;
    uint32_t stack = 0;  // PadTilingFunc's stackBufferSize
};
Case gCase;
tiling::PadTiling gPadTiling;
tiling::UnPadTiling gUnPadTiling;

uint32_t OutWidth(const Case& c, bool aligned)
{
    if (c.unpad) return c.w - c.right;
    return aligned ? c.w : c.w + c.left + c.right;
}

template <typename T>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const bool aligned = c.w * sizeof(T) % 32 == 0;
    const uint32_t outElems = c.h * OutWidth(c, aligned);
    TPipe pipe;
    TBuf<TPosition::VECIN> xb;
    TBuf<TPosition::VECOUT> yb;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(xb, AlignUp(c.h * c.w * sizeof(T), 32));
    pipe.InitBuffer(yb, AlignUp(outElems * sizeof(T), 32));
    if (c.form == 0) pipe.InitBuffer(tb, c.stack == 0 ? 32 : c.stack);
    GlobalTensor<T> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    LocalTensor<T> x = xb.Get<T>();
    LocalTensor<T> y = yb.Get<T>();
    DataCopy(x, inGm, c.h * c.w);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    if (c.unpad) {
        UnPadParams p{0, c.right};
        if (c.form == 0) {
            LocalTensor<uint8_t> t = tb.Get<uint8_t>();
            UnPad(y, x, p, t, gUnPadTiling);
        } else {
            UnPad(y, x, p, gUnPadTiling);
        }
    } else {
        PadParams p{c.left, c.right, c.value};
        if (c.form == 0) Pad(y, x, p, tb.Get<uint8_t>(), gPadTiling);
        else Pad(y, x, p, gPadTiling);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopyPad(outGm, y, DataCopyExtParams{1, static_cast<uint32_t>(outElems * sizeof(T)), 0, 0, 0});
}

using check::Rng;

template <typename T>
T Random()
{
    const int v = std::uniform_int_distribution<int>(std::is_unsigned_v<T> ? 0 : -1000, 1000)(Rng());
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, float>) return static_cast<T>(static_cast<float>(v));
    else return static_cast<T>(v);
}

template <typename T>
double Value(T v)
{
    if constexpr (std::is_same_v<T, half>) {
        uint16_t bits;
        std::memcpy(&bits, &v, 2);
        // IEEE binary16 decoded here (normal and subnormal numbers; the inputs hold no infinity or NaN).
        const int e = (bits >> 10) & 0x1f;
        const double m = bits & 0x3ff;
        const double mag = e == 0 ? std::ldexp(m, -24) : std::ldexp(1.0 + m / 1024.0, e - 15);
        return (bits & 0x8000) != 0 ? -mag : mag;
    } else {
        return static_cast<double>(v);
    }
}

template <typename T>
int Run(const Case& c)
{
    const bool aligned = c.w * sizeof(T) % 32 == 0;
    const uint32_t ow = OutWidth(c, aligned);
    std::vector<T> in(c.h * c.w);
    for (T& v : in) v = Random<T>();
    std::vector<T> out(c.h * ow);
    for (T& v : out) v = Random<T>();
    gCase = c;
    const ge::Shape shape({c.h, c.w}), ori({c.h, c.ori});
    if (c.unpad) UnPadTilingFunc(shape, 0, sizeof(T), gUnPadTiling);
    else PadTilingFunc(shape, ori, c.stack, sizeof(T), gPadTiling);
    ascend_twin::LaunchSpec spec;
    spec.kernel = c.unpad ? "unpad" : "pad";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&Kernel<T>);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size() * sizeof(T)}, {"out", out.data(), out.size() * sizeof(T)}};
    ascend_twin::Launch(spec);
    int bad = 0;
    for (uint32_t r = 0; r < c.h; ++r) {
        for (uint32_t k = 0; k < ow; ++k) {
            // The reference: the source element this column shows, or the pad value.
            bool isPad = false;
            uint32_t from = 0;
            if (c.unpad) {
                from = k;
            } else if (aligned) {
                isPad = k >= c.ori && k < c.ori + c.right;
                from = k;
            } else {
                isPad = k < c.left || k >= c.left + c.w;
                from = k - c.left;
            }
            const T got = out[r * ow + k];
            const bool ok = isPad ? Value(got) == static_cast<double>(c.value)
                                  : std::memcmp(&got, &in[r * c.w + from], sizeof(T)) == 0;
            if (!ok && bad++ < 3) {
                std::printf("  %s %ux%u (ori %u) l%u r%u form %d: [%u][%u] = %g, expected %g\n",
                            c.unpad ? "UnPad" : "Pad", c.h, c.w, c.ori, c.left, c.right, c.form, r, k, Value(got),
                            isPad ? static_cast<double>(c.value) : Value(in[r * c.w + from]));
            }
        }
    }
    return bad != 0 ? 1 : 0;
}

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> x = ub.Alloc<float, 512>();
    LocalTensor<float> y = ub.Alloc<float, 512>();
    LocalTensor<uint8_t> t = ub.Alloc<uint8_t, 4096>();
    Duplicate(x, 1.5f, 512);
    tiling::PadTiling pt;
    PadTilingFunc(ge::Shape({16, 31}), ge::Shape({16, 31}), 4096, 4, pt);  // tmpBuffer1BlockNum 4: 4096 bytes
    tiling::PadTiling at;
    PadTilingFunc(ge::Shape({16, 16}), ge::Shape({16, 13}), 0, 4, at);  // aligned, 3 redundant columns
    tiling::UnPadTiling ut;
    UnPadTilingFunc(ge::Shape({16, 16}), 0, 4, ut);
    PadParams p{0, 1, 7};
    if constexpr (kFault == 0) Pad(y, x, p, t, pt);  // the clean counterpart
    if constexpr (kFault == 1) {  // leftPad of 32 bytes
        PadParams q{8, 1, 7};
        tiling::PadTiling wide;
        PadTilingFunc(ge::Shape({8, 23}), ge::Shape({8, 23}), 4096, 4, wide);
        Pad(y, x, q, t, wide);
    }
    if constexpr (kFault == 2) {  // rightPad of 32 bytes
        PadParams q{0, 9, 7};
        tiling::PadTiling wide;
        PadTilingFunc(ge::Shape({8, 23}), ge::Shape({8, 23}), 4096, 4, wide);
        Pad(y, x, q, t, wide);
    }
    if constexpr (kFault == 3) {  // 3 x 5 floats: 60 bytes
        PadParams q{0, 3, 7};
        tiling::PadTiling odd;
        PadTilingFunc(ge::Shape({3, 5}), ge::Shape({3, 5}), 4096, 4, odd);
        Pad(y, x, q, t, odd);
    }
    if constexpr (kFault == 4) {  // the tiling's 16 x 31 in a 256-element source
        LocalTensor<float> shortX = x;
        shortX.SetSize(256);
        Pad(y, shortX, p, t, pt);
    }
    if constexpr (kFault == 5) {  // aligned without redundant columns
        tiling::PadTiling full;
        PadTilingFunc(ge::Shape({16, 16}), ge::Shape({16, 16}), 0, 4, full);
        Pad(y, x, p, t, full);
    }
    if constexpr (kFault == 6) {  // aligned with a left pad
        PadParams q{1, 1, 7};
        Pad(y, x, q, t, at);
    }
    if constexpr (kFault == 7) {  // aligned without a right pad
        PadParams q{0, 0, 7};
        Pad(y, x, q, t, at);
    }
    if constexpr (kFault == 8) {  // aligned: 13 + 4 columns past the 16
        PadParams q{0, 4, 7};
        Pad(y, x, q, t, at);
    }
    if constexpr (kFault == 9) {  // unaligned: 31 + 2 is not a whole number of blocks
        PadParams q{0, 2, 7};
        Pad(y, x, q, t, pt);
    }
    if constexpr (kFault == 10) {  // dst of 496 elements for the 16 x 32 result
        LocalTensor<float> shortY = y;
        shortY.SetSize(496);
        Pad(shortY, x, p, t, pt);
    }
    if constexpr (kFault == 11) {  // PadTilingFunc given 512 bytes: tmpBuffer1BlockNum 0
        tiling::PadTiling small;
        PadTilingFunc(ge::Shape({16, 31}), ge::Shape({16, 31}), 512, 4, small);
        Pad(y, x, p, t, small);
    }
    if constexpr (kFault == 12) {  // a 2048-byte buffer for the tiling's 4096
        LocalTensor<uint8_t> half = t;
        half.SetSize(2048);
        Pad(y, x, p, half, pt);
    }
    if constexpr (kFault == 13) Pad(y, t.ReinterpretCast<float>(), p, t, pt);  // the buffer is src
    if constexpr (kFault == 14) Pad(x, x, p, t, pt);  // unaligned in place
    if constexpr (kFault == 15) {  // aligned: dst a block into src
        Pad(x[8], x, p, t, at);
    }
    if constexpr (kFault == 16) {  // UnPad of an unaligned width
        UnPadParams u{0, 1};
        tiling::UnPadTiling odd;
        UnPadTilingFunc(ge::Shape({16, 31}), 0, 4, odd);
        UnPad(y, x, u, odd);
    }
    if constexpr (kFault == 17) {  // UnPad without a right pad
        UnPadParams u{0, 0};
        UnPad(y, x, u, ut);
    }
    if constexpr (kFault == 18) {  // UnPad into 200 elements: 16 x 15 = 240
        UnPadParams u{0, 1};
        LocalTensor<float> shortY = y;
        shortY.SetSize(200);
        UnPad(shortY, x, u, ut);
    }
    if constexpr (kFault == 19) Pad(y, x, p, pt);  // the framework form without a TPipe
    if constexpr (kFault == 20) Pad(y, x, p, t[16], pt);  // a buffer off the 32-byte grid
    if constexpr (kFault == 21) {  // the clean counterpart of 5..8 and 15: the aligned Pad
        PadParams q{0, 3, 7};
        Pad(y, x, q, t, at);
    }
    if constexpr (kFault == 22) {  // the clean counterpart of 16..18
        UnPadParams u{0, 1};
        LocalTensor<float> exactY = y;
        exactY.SetSize(240);
        UnPad(exactY, x, u, ut);
    }
    if constexpr (kFault == 23) {  // the clean counterpart of 10 and 12: exactly what the result and tiling use
        LocalTensor<uint8_t> exact = t;
        exact.SetSize(4096);
        LocalTensor<float> exactY = y;
        exactY.SetSize(512);
        Pad(exactY, x, p, exact, pt);
    }
    if constexpr (kFault == 25) {  // aligned: 16 columns of which 5 are valid (11 redundant: past the last block)
        tiling::PadTiling far;
        PadTilingFunc(ge::Shape({16, 16}), ge::Shape({16, 5}), 0, 4, far);
        PadParams q{0, 2, 7};
        Pad(y, x, q, t, far);
    }
    if constexpr (kFault == 24) {  // the clean counterpart of 8: 13 + 3 columns fill the 16
        PadParams q{0, 3, 7};
        Pad(x, x, q, t, at);  // aligned in place: A2's DataCopy onto itself, then the Duplicate
    }
}

using fault::Broke;

}  // namespace

TEST_CASE("Pad of an unaligned width: left and right columns, both forms, five dtypes")
{
    int failed = 0;
    failed += Run<float>({false, 0, 16, 31, 31, 0, 1, 321, 31744});
    failed += Run<float>({false, 1, 40, 29, 29, 1, 2, -5, 1024});
    failed += Run<half>({false, 0, 16, 13, 13, 1, 2, 321, 1024});
    failed += Run<half>({false, 1, 32, 45, 45, 2, 1, -7, 8192});
    failed += Run<int16_t>({false, 0, 16, 7, 7, 4, 5, -32, 2048});
    failed += Run<int32_t>({false, 0, 8, 5, 5, 1, 2, 123456, 1024});
    failed += Run<uint32_t>({false, 1, 8, 3, 3, 2, 3, 99, 1024});
    CHECK_EQ(failed, 0);
}

TEST_CASE("Pad of an aligned width: the redundant columns partly and wholly, more than 255 rows")
{
    int failed = 0;
    failed += Run<float>({false, 0, 4, 16, 13, 0, 3, 9, 0});
    failed += Run<float>({false, 1, 4, 16, 13, 0, 2, 9, 0});
    failed += Run<half>({false, 0, 300, 32, 30, 0, 1, -3, 0});
    failed += Run<int32_t>({false, 0, 260, 8, 1, 0, 7, 5, 0});
    CHECK_EQ(failed, 0);
}

TEST_CASE("UnPad: the right columns dropped, rows packed, both forms")
{
    int failed = 0;
    failed += Run<float>({true, 0, 8, 8, 8, 0, 1, 0, 0});
    failed += Run<half>({true, 1, 20, 32, 32, 0, 5, 0, 0});
    failed += Run<int32_t>({true, 0, 16, 16, 16, 0, 7, 0, 0});
    CHECK_EQ(failed, 0);
}

TEST_CASE("GetPadMaxMinTmpSize, PadTilingFunc, GetUnPadMaxMinTmpSize and UnPadTilingFunc give A2's values")
{
    uint32_t mx = 1, mn = 1;
    GetPadMaxMinTmpSize(ge::Shape({16, 31}), 4, mx, mn);
    CHECK_EQ(mx, 31744u);  // ceil(496 / 16) * 16 * 8 * 2 * 4
    CHECK_EQ(mn, 1024u);
    GetPadMaxMinTmpSize(ge::Shape({3, 7}), 2, mx, mn);
    CHECK_EQ(mx, 2048u);  // ceil(21 / 16) * 16 * 16 * 2 * 2
    CHECK_EQ(mn, 1024u);
    tiling::PadTiling t;
    PadTilingFunc(ge::Shape({16, 31}), ge::Shape({16, 31}), 31744, 4, t);
    const uint32_t expect[26] = {16, 31, 31, 23, 3, 255, 0, 16, 7905, 23, 31, 496, 3968,
                                 496, 0, 31, 32, 496, 1, 0, 254, 0, 62, 0, 0, 0};
    uint32_t got[26];
    std::memcpy(got, &t, sizeof(got));
    for (int i = 0; i < 26; ++i) {
        if (got[i] != expect[i]) std::printf("  PadTiling word %d: %u, expected %u\n", i, got[i], expect[i]);
        CHECK_EQ(got[i], expect[i]);
    }
    // The optiling:: class gives the same bytes.
    optiling::PadTiling cls;
    PadTilingFunc(ge::Shape({16, 31}), ge::Shape({16, 31}), 31744, 4, cls);
    tiling::PadTiling saved;
    cls.SaveToBuffer(&saved, sizeof(saved));
    CHECK(std::memcmp(&saved, &t, sizeof(t)) == 0);
    // Without a buffer the tmp fields stay 0.
    PadTilingFunc(ge::Shape({300, 32}), ge::Shape({300, 30}), 0, 2, t);
    CHECK_EQ(t.heightFractal, 1u);
    CHECK_EQ(t.heightFractalTail, 45u);
    CHECK_EQ(t.tailBlockOffset, 255u * 32u + 16u);
    CHECK_EQ(t.tmpBuffer1BlockNum, 0u);
    platform_ascendc::PlatformAscendC* plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    GetUnPadMaxMinTmpSize(*plat, ge::Shape({8, 8}), 4, mx, mn);
    CHECK_EQ(mx, 0u);  // dav-2201: no buffer
    CHECK_EQ(mn, 0u);
    tiling::UnPadTiling u;
    UnPadTilingFunc(ge::Shape({8, 8}), 2048, 4, u);
    const uint32_t uexpect[8] = {8, 8, 2, 32, 256, 32, 1, 8};
    uint32_t ugot[8];
    std::memcpy(ugot, &u, sizeof(ugot));
    for (int i = 0; i < 8; ++i) CHECK_EQ(ugot[i], uexpect[i]);
}

TEST_CASE("Pad and UnPad rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "Pad: leftPad * sizeof(T) is under 32 bytes"));
    CHECK(Broke(&FaultKernel<2>, "Pad: rightPad * sizeof(T) is under 32 bytes"));
    CHECK(Broke(&FaultKernel<3>, "Pad: the source's data (srcHeight * srcWidth elements) is a whole number of 32-byte "
                                 "blocks (docs: 源操作数的数据量必须32B对齐)"));
    CHECK(Broke(&FaultKernel<4>, "Pad: srcTensor holds tiling.srcHeight * tiling.srcWidth elements"));
    CHECK(Broke(&FaultKernel<5>, "Pad: a 32-byte aligned width has redundant columns to pad (tiling.srcOriWidth != "
                                 "tiling.srcWidth; docs: 已32B对齐，且全部为有效数据，则不支持)"));
    CHECK(Broke(&FaultKernel<6>, "Pad: a 32-byte aligned width pads on the right only (leftPad 0; docs: "
                                 "只支持在右边进行pad)"));
    CHECK(Broke(&FaultKernel<7>, "Pad: a 32-byte aligned width has rightPad > 0"));
    CHECK(Broke(&FaultKernel<8>, "Pad: srcOriWidth + rightPad is at most srcWidth (docs: "
                                 "pad之后的总width不超过原width向最近32B对齐后的宽度)"));
    CHECK(Broke(&FaultKernel<9>, "Pad: (srcWidth + leftPad + rightPad) * sizeof(T) is a whole number of 32 bytes (the "
                                 "width padded to its 32-byte alignment)"));
    CHECK(Broke(&FaultKernel<10>, "Pad: dstTensor holds the result"));
    CHECK(Broke(&FaultKernel<11>, "Pad: tiling.tmpBuffer1BlockNum >= 1 for an unaligned width (PadTilingFunc given at "
                                  "least GetPadMaxMinTmpSize's minimum as stackBufferSize)"));
    CHECK(Broke(&FaultKernel<12>, "Pad: sharedTmpBuffer holds the 2 * tiling.tmpBuffer1BlockNum * 512 bytes the tiling "
                                  "makes A2 use"));
    CHECK(Broke(&FaultKernel<13>, "Pad: the temporary buffer overlaps neither srcTensor nor dstTensor"));
    CHECK(Broke(&FaultKernel<14>, "Pad: dstTensor and srcTensor do not overlap (an unaligned width writes rows of "
                                  "another length than it reads)"));
    CHECK(Broke(&FaultKernel<15>, "Pad: dstTensor and srcTensor are the same tensor or do not overlap"));
    CHECK(Broke(&FaultKernel<16>, "UnPad: tiling.srcWidth * sizeof(T) is a whole number of 32 bytes (docs: "
                                  "width非32B对齐，则不支持调用本接口unpad)"));
    CHECK(Broke(&FaultKernel<17>, "UnPad: unPadParams.rightPad > 0 (docs: rightPad要求小于32B，大于0)"));
    CHECK(Broke(&FaultKernel<18>, "UnPad: dstTensor holds the result"));
    CHECK(Broke(&FaultKernel<19>, "Pad: without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 "
                                  "bytes) holds the API's minimum temporary size"));
    CHECK(Broke(&FaultKernel<20>, "Pad: UB operands start at a 32-byte aligned address"));
    CHECK(Broke(&FaultKernel<21>, ""));
    CHECK(Broke(&FaultKernel<22>, ""));
    CHECK(Broke(&FaultKernel<23>, ""));
    CHECK(Broke(&FaultKernel<24>, ""));
    CHECK(Broke(&FaultKernel<25>, "Pad: srcWidth is srcOriWidth rounded up to 32 bytes (the redundant columns lie in "
                                  "each row's last block; docs: pad之后的总width不超过原width向最近32B对齐后的宽度)"));
}

TEST_MAIN()
