// AscendDequant ("lib/quantization/ascend_dequant.h") against references computed here from fresh random int32_t
// inputs and scales: every A2 dtype combination of the tensor and the scalar scale, calCount below n (the rest of a
// row undefined, the padding untouched), DEQUANT_WITH_SINGLE_ROW's {1, n, calCount} -> {n / calCount, calCount,
// calCount} and DEQUANT_WITH_MULTI_ROW, the deprecated calCount forms, the framework's buffer;
// GetAscendDequantMaxMinTmpSize / TmpBufferFactorSize; every run-time rule with a planted fault and a clean
// counterpart.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "check.h"
#include "fault_launch.h"
#include "lib/quantization/ascend_dequant.h"
#include "tiling/quantization/ascend_dequant_tiling.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

struct Case {
    int form = 0;  // 0 tensor + tmp + params, 1 tensor + params (framework), 2 scalar + tmp + params,
                   // 3 scalar + params, 4 tensor + tmp + calCount, 5 tensor (framework) over all, 6 tensor + tmp
    bool multiRow = false;
    uint32_t m = 4, n = 16, calCount = 16;
    uint32_t count = 0;  // form 4
    float scalar = 0.0f;
};
Case gCase;

template <typename T>
uint32_t Elems(uint32_t bytes) { return bytes / sizeof(T); }

template <typename dstT, typename scaleT, DeQuantMode mode>
void Body(const Case& c, const LocalTensor<dstT>& dst, const LocalTensor<int32_t>& src,
          const LocalTensor<scaleT>& scale, const LocalTensor<uint8_t>& tmp)
{
    const DequantParams params{c.m, c.n, c.calCount};
    constexpr bool kScalar = !std::is_same_v<scaleT, uint64_t> &&
                             twin_detail::kDequantTypes<dstT, scaleT, false>;
    if (c.form == 0) AscendDequant<dstT, scaleT, mode>(dst, src, scale, tmp, params);
    if (c.form == 1) AscendDequant<dstT, scaleT, mode>(dst, src, scale, params);
    if constexpr (kScalar) {
        scaleT s;
        if constexpr (std::is_same_v<scaleT, float>) s = c.scalar;
        else s = AscendC::Cast(c.scalar);
        if (c.form == 2) AscendDequant<dstT, scaleT, mode>(dst, src, s, tmp, params);
        if (c.form == 3) AscendDequant<dstT, scaleT, mode>(dst, src, s, params);
    }
    if (c.form == 4) AscendDequant<dstT, scaleT, mode>(dst, src, scale, tmp, c.count);
    if (c.form == 5) AscendDequant<dstT, scaleT, mode>(dst, src, scale);
    if (c.form == 6) AscendDequant<dstT, scaleT, mode>(dst, src, scale, tmp);
}

// in = src int32 [m * n] | scale (n elements, 32-byte padded); out = dst [m, n_dst].
template <typename dstT, typename scaleT>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const uint32_t srcBytes = c.m * c.n * 4;
    const uint32_t scaleBytes = AlignUp(c.n * sizeof(scaleT), 32);
    const uint32_t dstBytes = c.m * AlignUp(c.n * sizeof(dstT), 32);
    TPipe pipe;
    TBuf<TPosition::VECIN> sb, kb;
    TBuf<TPosition::VECOUT> db;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(sb, srcBytes);
    pipe.InitBuffer(kb, scaleBytes);
    pipe.InitBuffer(db, dstBytes);
    pipe.InitBuffer(tb, (64 + c.m * c.n + c.n + 8) * 4);  // GetAscendDequantMaxMinTmpSize's maximum
    LocalTensor<int32_t> src = sb.Get<int32_t>();
    LocalTensor<scaleT> scale = kb.Get<scaleT>();
    LocalTensor<dstT> dst = db.Get<dstT>();
    LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    GlobalTensor<uint8_t> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out));
    DataCopy(src.template ReinterpretCast<uint8_t>(), inGm, srcBytes);
    DataCopy(scale.template ReinterpretCast<uint8_t>(), inGm[srcBytes], scaleBytes);
    Duplicate(dst.template ReinterpretCast<uint16_t>(), uint16_t(0x1234), static_cast<int32_t>(dstBytes / 2));
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    if (c.form >= 4) {  // the forms without DequantParams take the scale's size as n
        scale.SetSize(c.n);
        src.SetSize(c.m * c.n);
    }
    if (c.multiRow) Body<dstT, scaleT, DeQuantMode::DEQUANT_WITH_MULTI_ROW>(c, dst, src, scale, tmp);
    else Body<dstT, scaleT, DeQuantMode::DEQUANT_WITH_SINGLE_ROW>(c, dst, src, scale, tmp);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, dst.template ReinterpretCast<uint8_t>(), dstBytes);
}

using check::Rng;

// The reference value of one element: float(src) * float(scale), rounded to float, then to dstT (bfloat16_t
// CAST_RINT, half to nearest) and back.
template <typename dstT>
double Expected(int32_t s, float scale)
{
    const float p = static_cast<float>(s) * scale;
    if constexpr (std::is_same_v<dstT, float>) return p;
    else if constexpr (std::is_same_v<dstT, half>) return static_cast<float>(half(p));
    else return ascend_twin::Bf16BitsToFloat(ascend_twin::FloatToBf16Bits(p));
}

template <typename dstT>
double Got(const std::vector<uint8_t>& out, uint64_t i, bool& undefinedBytes, bool& untouched)
{
    uint8_t b[sizeof(dstT)];
    std::memcpy(b, out.data() + i * sizeof(dstT), sizeof(dstT));
    undefinedBytes = b[0] == 0xff && b[sizeof(dstT) - 1] == 0xff;
    untouched = sizeof(dstT) == 2 ? (b[0] == 0x34 && b[1] == 0x12) : (b[0] == 0x34 && b[1] == 0x12);
    if constexpr (std::is_same_v<dstT, float>) {
        float f;
        std::memcpy(&f, b, 4);
        return f;
    } else if constexpr (std::is_same_v<dstT, half>) {
        uint16_t h;
        std::memcpy(&h, b, 2);
        return ascend_twin::HalfBitsToFloat(h);
    } else {
        uint16_t h;
        std::memcpy(&h, b, 2);
        return ascend_twin::Bf16BitsToFloat(h);
    }
}

template <typename dstT, typename scaleT>
int Run(Case c, const char* what)
{
    gCase = c;
    const uint32_t scaleBytes = AlignUp(c.n * sizeof(scaleT), 32);
    std::vector<uint8_t> in(c.m * c.n * 4 + scaleBytes);
    std::vector<float> scales(c.n);
    for (uint32_t i = 0; i < c.m * c.n; ++i) {
        const int32_t v = std::uniform_int_distribution<int32_t>(-3000000, 3000000)(Rng());
        std::memcpy(in.data() + i * 4, &v, 4);
    }
    for (uint32_t i = 0; i < c.n; ++i) {
        float s = std::uniform_real_distribution<float>(-1e-3f, 1e-3f)(Rng());
        uint8_t* p = in.data() + c.m * c.n * 4 + i * sizeof(scaleT);
        if constexpr (std::is_same_v<scaleT, bfloat16_t>) {
            const uint16_t b = ascend_twin::FloatToBf16Bits(s);
            s = ascend_twin::Bf16BitsToFloat(b);
            std::memcpy(p, &b, 2);
        } else if constexpr (std::is_same_v<scaleT, uint64_t>) {
            uint32_t bits;
            std::memcpy(&bits, &s, 4);
            const uint64_t v = (uint64_t{0x5a5a} << 32) | bits;  // the high half carries control bits on A2
            std::memcpy(p, &v, 8);
        } else {
            std::memcpy(p, &s, 4);
        }
        scales[i] = s;
    }
    if constexpr (std::is_same_v<scaleT, bfloat16_t>) {
        c.scalar = ascend_twin::Bf16BitsToFloat(ascend_twin::FloatToBf16Bits(7.5e-4f));
    } else {
        c.scalar = 7.5e-4f;
    }
    gCase = c;
    const uint32_t dstInnerMax = AlignUp(c.n * sizeof(dstT), 32) / sizeof(dstT);
    std::vector<uint8_t> out(c.m * dstInnerMax * sizeof(dstT));
    ascend_twin::LaunchSpec spec;
    spec.kernel = "dequant";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&Kernel<dstT, scaleT>);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size()}, {"out", out.data(), out.size()}};
    try {
        ascend_twin::Launch(spec);
    } catch (const ascend_twin::RuleViolation& e) {
        std::printf("  %s: %s: %s (%s)\n", what, e.call.c_str(), e.rule.c_str(), e.detail.c_str());
        return 1;
    }
    // What A2 computes: rows of n (after the single-row rule), the first calCount of each scaled.
    uint32_t m = c.m, n = c.n, cal = c.calCount;
    uint64_t total = static_cast<uint64_t>(m) * n;
    if (c.form >= 4) {
        cal = n;
        total = c.form == 4 ? c.count : total;
    } else if (!c.multiRow && m == 1 && cal % (32 / sizeof(dstT)) == 0 && n % cal == 0) {
        m = n / cal;
        n = cal;
        total = static_cast<uint64_t>(m) * n;
    }
    const uint32_t dstInner = AlignUp(n * sizeof(dstT), 32) / sizeof(dstT);
    int bad = 0;
    for (uint64_t f = 0; f < static_cast<uint64_t>(m) * dstInner && f < out.size() / sizeof(dstT); ++f) {
        const uint64_t r = f / dstInner;
        const uint32_t col = static_cast<uint32_t>(f % dstInner);
        const uint64_t flat = r * n + col;
        bool undef = false, untouched = false;
        const double got = Got<dstT>(out, f, undef, untouched);
        const bool computed = col < n && flat < total;
        if (computed && col < cal) {
            int32_t s;
            std::memcpy(&s, in.data() + flat * 4, 4);
            const bool scalarForm = c.form == 2 || c.form == 3;
            const double want = Expected<dstT>(s, scalarForm ? c.scalar : scales[col]);
            if (got != want && bad++ < 3) std::printf("  %s: dst[%llu][%u] = %.9g, expected %.9g\n", what,
                                                      static_cast<unsigned long long>(r), col, got, want);
        } else if (computed) {
            if (!undef && bad++ < 3) std::printf("  %s: dst[%llu][%u] should be undefined\n", what,
                                                 static_cast<unsigned long long>(r), col);
        } else if (!untouched && bad++ < 3) {
            std::printf("  %s: dst[%llu][%u] written past the computed elements\n", what,
                        static_cast<unsigned long long>(r), col);
        }
    }
    return bad;
}

template <typename dstT, typename scaleT>
int Sweep(bool scalarToo)
{
    int failed = 0;
    char what[128];
    for (int form : {0, 1, 2, 3, 4, 5, 6}) {
        if ((form == 2 || form == 3) && !scalarToo) continue;
        for (int shape = 0; shape < 4; ++shape) {
            Case c;
            c.form = form;
            // {4, 40, 40}; {3, 48, 20} (a part of each row); {1, 64, 32} (single row -> {2, 32, 32}); the same with
            // DEQUANT_WITH_MULTI_ROW ({1, 64, 32} as it is).
            const uint32_t shapes[4][3] = {{4, 40, 40}, {3, 48, 20}, {1, 64, 32}, {1, 64, 32}};
            c.m = shapes[shape][0];
            c.n = shapes[shape][1];
            c.calCount = shapes[shape][2];
            c.multiRow = shape == 3;
            c.count = c.m * c.n - 5;
            std::snprintf(what, sizeof(what), "dst %zu scale %zu form %d shape %d", sizeof(dstT), sizeof(scaleT), form,
                          shape);
            failed += Run<dstT, scaleT>(c, what) != 0 ? 1 : 0;
        }
    }
    return failed;
}

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    (void)pipe;
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<int32_t> src = ub.Alloc<int32_t, 4 * 32>();
    LocalTensor<float> dst = ub.Alloc<float, 4 * 32>();
    LocalTensor<float> scale = ub.Alloc<float, 32>();
    LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 1024>();
    Duplicate(src, 3, 4 * 32);
    Duplicate(scale, 0.5f, 32);
    if constexpr (kFault == 0) AscendDequant<float, float>(dst, src, scale, tmp, {4, 32, 32});  // clean
    if constexpr (kFault == 1) AscendDequant<float, float>(dst, src, scale, tmp, {4, 30, 30});  // n % 8
    if constexpr (kFault == 2) AscendDequant<float, float>(dst, src, scale, tmp, {5, 32, 32});  // m * n > src
    if constexpr (kFault == 3) AscendDequant<float, float>(dst, src, scale, tmp, {4, 32, 0});
    if constexpr (kFault == 4) AscendDequant<float, float>(dst, src, scale, tmp, {4, 32, 40});  // calCount > n
    if constexpr (kFault == 5) {
        LocalTensor<float> small = dst;
        small.SetSize(3 * 32);
        AscendDequant<float, float>(small, src, scale, tmp, {4, 32, 32});
    }
    if constexpr (kFault == 6) {
        LocalTensor<float> shortScale = scale;
        shortScale.SetSize(24);
        AscendDequant<float, float>(dst, src, shortScale, tmp, {4, 32, 32});
    }
    if constexpr (kFault == 7) {
        LocalTensor<uint8_t> small = tmp;
        small.SetSize((32 + 32) * 4 - 32);
        AscendDequant<float, float>(dst, src, scale, small, {4, 32, 32});
    }
    if constexpr (kFault == 8) AscendDequant<float, float>(src.ReinterpretCast<float>(), src, scale, tmp, {4, 32, 32});
    if constexpr (kFault == 9) AscendDequant<float, float>(dst, src, scale, dst.ReinterpretCast<uint8_t>(), {2, 32, 32});
    if constexpr (kFault == 10) {
        LocalTensor<float> odd = scale;
        odd.SetSize(24);  // 128 src elements are not a multiple of 24
        AscendDequant<float, float>(dst, src, odd, tmp);
    }
    if constexpr (kFault == 11) AscendDequant<float, float>(dst, src, 0.25f, tmp, {4, 32, 16});  // clean
    if constexpr (kFault == 12 || kFault == 13) {  // without DequantParams: 4 rows of 32, dst one row short in 13
        LocalTensor<float> rows = dst;
        rows.SetSize(kFault == 12 ? 4 * 32 : 3 * 32);
        AscendDequant<float, float>(rows, src, scale, tmp);
    }
    if constexpr (kFault == 14 || kFault == 15) {  // a uint64_t deqScale of 8 elements, of 4 in 15
        LocalTensor<half> half16 = ub.Alloc<half, 16 * 16>();  // 16 rows of 8, each padded to 32 bytes
        LocalTensor<uint64_t> deq = ub.Alloc<uint64_t, 8>();
        Duplicate(deq.ReinterpretCast<uint32_t>(), 0x3F000000u, 16);  // 0.5 in each element's low word
        deq.SetSize(kFault == 14 ? 8 : 4);
        AscendDequant<half, uint64_t>(half16, src, deq, tmp);
    }
}

using fault::Broke;

}  // namespace

TEST_CASE("AscendDequant, tensor scale: (half, uint64_t) and (float, float)")
{
    CHECK_EQ((Sweep<half, uint64_t>(false)), 0);
    CHECK_EQ((Sweep<float, float>(true)), 0);
}
TEST_CASE("AscendDequant with bfloat16_t: (float, bf16), (bf16, bf16), (bf16, float)")
{
    CHECK_EQ((Sweep<float, bfloat16_t>(true)), 0);
    CHECK_EQ((Sweep<bfloat16_t, bfloat16_t>(true)), 0);
    CHECK_EQ((Sweep<bfloat16_t, float>(true)), 0);
}

TEST_CASE("GetAscendDequantMaxMinTmpSize and GetAscendDequantTmpBufferFactorSize return A2's sizes")
{
    uint32_t mx = 0, mn = 0;
    GetAscendDequantMaxMinTmpSize(ge::Shape({4, 32}), 4, mx, mn);
    CHECK_EQ(mx, (64u + 128 + 40) * 4);
    CHECK_EQ(mn, (64u + 32 + 40) * 4);
    GetAscendDequantMaxMinTmpSize(ge::Shape({48}), 4, mx, mn);
    CHECK_EQ(mx, (64u + 48 + 56) * 4);
    uint32_t live = 9, extra = 9;
    GetAscendDequantTmpBufferFactorSize(ge::Shape({4, 32}), live, extra);
    CHECK_EQ(live, 1u);
    CHECK_EQ(extra, 72u + 32);
    GetAscendDequantTmpBufferFactorSize(ge::Shape({32}), live, extra);
    CHECK_EQ(live, 2u);
    CHECK_EQ(extra, 72u);
}

TEST_CASE("AscendDequant rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "AscendDequant: params.n is a multiple of 8: a row of int32_t is 32-byte aligned "
                                 "(A2's check)"));
    CHECK(Broke(&FaultKernel<2>, "AscendDequant: params.m * params.n <= the elements srcTensor holds (A2's check)"));
    CHECK(Broke(&FaultKernel<3>, "AscendDequant: 0 < params.calCount <= params.n (A2's check)"));
    CHECK(Broke(&FaultKernel<4>, "AscendDequant: 0 < params.calCount <= params.n (A2's check)"));
    CHECK(Broke(&FaultKernel<5>, "AscendDequant: dstTensor holds params.m rows of params.n rounded up to 32 bytes of "
                                 "dstT (A2's check)"));
    CHECK(Broke(&FaultKernel<6>, "AscendDequant: params.calCount <= the elements deqScale holds (A2's check)"));
    CHECK(Broke(&FaultKernel<7>, "AscendDequant: sharedTmpBuffer holds the scale and one row as floats: (calCount "
                                 "rounded up to 8 + n) * 4 bytes (A2's check: stackBuffer size is not large enough)"));
    CHECK(Broke(&FaultKernel<8>, "AscendDequant: src and dst do not overlap (docs: 不支持源操作数与目的操作数地址重叠)"));
    CHECK(Broke(&FaultKernel<9>, "AscendDequant: sharedTmpBuffer overlaps no operand"));
    CHECK(Broke(&FaultKernel<10>, "AscendDequant: without DequantParams, srcTensor's size is a multiple of deqScale's "
                                  "(A2's check)"));
    CHECK(Broke(&FaultKernel<11>, ""));
    CHECK(Broke(&FaultKernel<12>, ""));
    CHECK(Broke(&FaultKernel<13>, "AscendDequant: dstTensor holds the rows A2 writes (rows of n rounded up to 32 bytes "
                                  "of dstT)"));
    CHECK(Broke(&FaultKernel<14>, ""));
    CHECK(Broke(&FaultKernel<15>, "AscendDequant: without DequantParams, a uint64_t deqScale holds a multiple of 8 "
                                  "elements (A2's check)"));
}

TEST_MAIN()
