// AscendQuant ("lib/quantization/ascend_quant.h") against float64 references computed here from fresh random inputs:
// half and float, A2's twelve forms (per tensor; per channel with a scalar or a tensor offset; with and without
// sharedTmpBuffer and counts), AscendQuantConfig fixing the counts at compile time, temporary buffers of one and of
// many chunks, saturation to int8_t, a float scale tensor converted to half in place; GetAscendQuantMaxMinTmpSize /
// TmpBufferFactorSize; every run-time rule with a planted fault and a clean counterpart.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "adv_launch.h"
#include "check.h"
#include "fault_launch.h"
#include "lib/quantization/ascend_quant.h"
#include "tiling/quantization/ascend_quant_tiling.h"

using namespace AscendC;

namespace {

constexpr uint32_t kN = 1024;  // per tensor
constexpr uint32_t kSc = 64;   // per channel: kRows rows of kSc
constexpr uint32_t kRows = 6;
constexpr AscendQuantConfig kTensorCfg = {kN, 0, 0, 512};
constexpr AscendQuantConfig kChannelCfg = {kRows * kSc, kSc, kSc, 64};

struct Case {
    int form = 0;
    uint32_t tmpBytes = 512;
    float scale = 0.5f, offset = 3.0f;
};
Case gCase;

uint32_t Count(int form) { return form < 4 || form == 12 ? kN : kRows * kSc; }

template <typename T>
void Body(const Case& c, const LocalTensor<int8_t>& dst, LocalTensor<T>& src, LocalTensor<T>& scale,
          LocalTensor<T>& offset, const LocalTensor<uint8_t>& tmp)
{
    const uint32_t n = Count(c.form);
    const T off = static_cast<T>(c.offset);
    switch (c.form) {
        case 0: AscendQuant<T>(dst, src, tmp, c.scale, c.offset, n); break;
        case 1: AscendQuant<T>(dst, src, c.scale, c.offset, n); break;
        case 2: AscendQuant<T>(dst, src, tmp, c.scale, c.offset); break;
        case 3: AscendQuant<T>(dst, src, c.scale, c.offset); break;
        case 4: AscendQuant<T>(dst, src, tmp, scale, off, kSc, n); break;
        case 5: AscendQuant<T>(dst, src, scale, off, kSc, n); break;
        case 6: AscendQuant<T>(dst, src, tmp, scale, off); break;
        case 7: AscendQuant<T>(dst, src, scale, off); break;
        case 8: AscendQuant<T>(dst, src, tmp, scale, offset, kSc, kSc, n); break;
        case 9: AscendQuant<T>(dst, src, scale, offset, kSc, kSc, n); break;
        case 10: AscendQuant<T>(dst, src, tmp, scale, offset); break;
        case 11: AscendQuant<T>(dst, src, scale, offset); break;
        case 12: AscendQuant<T, false, kTensorCfg>(dst, src, tmp, c.scale, c.offset, 7); break;  // config's count wins
        case 13: AscendQuant<T, false, kChannelCfg>(dst, src, tmp, scale, off, kSc, n); break;
        default: AscendQuant<T, false, kChannelCfg>(dst, src, tmp, scale, offset, kSc, kSc, n); break;
    }
}

// in = src [kN] | scale [kSc] | offset [kSc]; out = dst [kN] int8_t | scale's bytes after the call.
template <typename T>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    TPipe pipe;
    TBuf<TPosition::VECIN> sb, kb, ob;
    TBuf<TPosition::VECOUT> db;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(sb, kN * sizeof(T));
    pipe.InitBuffer(kb, kSc * sizeof(T));
    pipe.InitBuffer(ob, kSc * sizeof(T));
    pipe.InitBuffer(db, kN);
    pipe.InitBuffer(tb, c.tmpBytes);
    LocalTensor<T> src = sb.Get<T>();
    LocalTensor<T> scale = kb.Get<T>();
    LocalTensor<T> offset = ob.Get<T>();
    LocalTensor<int8_t> dst = db.Get<int8_t>();
    LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    GlobalTensor<uint8_t> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out));
    DataCopy(src.template ReinterpretCast<uint8_t>(), inGm, kN * sizeof(T));
    DataCopy(scale.template ReinterpretCast<uint8_t>(), inGm[kN * sizeof(T)], kSc * sizeof(T));
    DataCopy(offset.template ReinterpretCast<uint8_t>(), inGm[(kN + kSc) * sizeof(T)], kSc * sizeof(T));
    Duplicate(dst.template ReinterpretCast<int16_t>(), int16_t(0x5555), static_cast<int32_t>(kN / 2));
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    src.SetSize(Count(c.form));  // the forms without counts take the tensors' sizes
    Body<T>(c, dst, src, scale, offset, tmp);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, dst.template ReinterpretCast<uint8_t>(), kN);
    DataCopy(outGm[kN], scale.template ReinterpretCast<uint8_t>(), kSc * sizeof(T));
}

using check::Rng;

template <typename T>
int Run(const Case& c, const char* what)
{
    gCase = c;
    std::vector<uint8_t> in((kN + 2 * kSc) * sizeof(T));
    std::vector<double> x(kN), s(kSc), o(kSc);
    for (uint32_t i = 0; i < kN; ++i) {
        // Mostly within int8_t after scaling; every 50th element far out (saturation).
        const float v = i % 50 == 7 ? (i % 100 == 7 ? 900.0f : -900.0f)
                                    : std::uniform_real_distribution<float>(-100.0f, 100.0f)(Rng());
        x[i] = adv::Put<T>(in.data() + i * sizeof(T), v);
    }
    for (uint32_t j = 0; j < kSc; ++j) {
        s[j] = adv::Put<T>(in.data() + (kN + j) * sizeof(T), std::uniform_real_distribution<float>(0.2f, 1.2f)(Rng()));
        o[j] = adv::Put<T>(in.data() + (kN + kSc + j) * sizeof(T), std::uniform_real_distribution<float>(-8.0f, 8.0f)(Rng()));
    }
    std::vector<uint8_t> out(kN + kSc * sizeof(T));
    if (!adv::Launch1(&Kernel<T>, "ascend_quant", in, out, what)) return 1;
    // int8(x * scale + offset) to nearest, saturated; A2 computes in half, so within one step of the float64 value.
    const bool perTensor = c.form < 4 || c.form == 12;
    const bool offsetTensor = c.form >= 8 && c.form != 12 && c.form != 13;
    const uint32_t n = Count(c.form);
    const double hs = adv::RoundHalf(c.scale);
    const double ho = adv::RoundHalf(c.offset);
    int bad = 0;
    for (uint32_t i = 0; i < kN; ++i) {
        const int got = static_cast<int8_t>(out[i]);
        if (i >= n) {
            if (out[i] != 0x55 && bad++ < 3) std::printf("  %s: dst[%u] written past calCount\n", what, i);
            continue;
        }
        const double y = x[i] * (perTensor ? hs : s[i % kSc]) + (perTensor || !offsetTensor ? ho : o[i % kSc]);
        const double want = std::fmin(127.0, std::fmax(-128.0, std::nearbyint(y)));
        if (std::fabs(got - want) > 1.0 && bad++ < 3) {
            std::printf("  %s: dst[%u] = %d, expected %g (x %g)\n", what, i, got, want, x[i]);
        }
    }
    if (!perTensor && std::is_same_v<T, float>) {  // the scale tensor now holds its values as halves
        for (uint32_t j = 0; j < kSc; ++j) {
            uint16_t h;
            std::memcpy(&h, out.data() + kN + j * 2, 2);
            if (ascend_twin::HalfBitsToFloat(h) != adv::RoundHalf(static_cast<float>(s[j])) &&
                bad++ < 3) {
                std::printf("  %s: scale[%u] after the call is not the half of %g\n", what, j, s[j]);
            }
        }
    }
    return bad;
}

template <typename T>
int Sweep()
{
    int failed = 0;
    char what[128];
    for (int form = 0; form <= 14; ++form) {
        for (uint32_t tmp : {512u, 64u, 4096u}) {
            if (form >= 12 && tmp != 512) continue;  // the config's workLocalSize sets the chunks
            Case c;
            c.form = form;
            c.tmpBytes = tmp;
            c.scale = std::uniform_real_distribution<float>(0.2f, 1.2f)(Rng());
            c.offset = std::uniform_real_distribution<float>(-8.0f, 8.0f)(Rng());
            std::snprintf(what, sizeof(what), "%s form %d tmp %u", sizeof(T) == 2 ? "half" : "float", form, tmp);
            failed += Run<T>(c, what) != 0 ? 1 : 0;
        }
    }
    return failed;
}

// g++ 12 stops with an internal error on a function-local static config as the template argument.
constexpr AscendQuantConfig kFaultCfg2 = {288, 0, 0, 0};
constexpr AscendQuantConfig kFaultCfg3 = {256, 0, 0, 1024};
constexpr AscendQuantConfig kFaultCfg8 = {256, 0, 48, 0};  // 48 is not a multiple of 32
constexpr AscendQuantConfig kFaultCfg9 = {256, 32, 64, 0};

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    (void)pipe;
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<half> src = ub.Alloc<half, 256>();
    LocalTensor<int8_t> dst = ub.Alloc<int8_t, 256>();
    LocalTensor<half> scale = ub.Alloc<half, 64>();
    LocalTensor<half> offset = ub.Alloc<half, 64>();
    LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 512>();
    Duplicate(src, half(1.5f), 256);
    Duplicate(scale, half(2.0f), 64);
    Duplicate(offset, half(1.0f), 64);
    PipeBarrier<PIPE_V>();
    const half off = half(1.0f);
    if constexpr (kFault == 0) AscendQuant(dst, src, tmp, 0.5f, 1.0f, 256);  // clean
    if constexpr (kFault == 1) AscendQuant(dst, src, tmp, 0.5f, 1.0f, 288);
    if constexpr (kFault == 2) {
        AscendQuant<half, false, kFaultCfg2>(dst, src, tmp, 0.5f, 1.0f, 256);
    }
    if constexpr (kFault == 3) {
        AscendQuant<half, false, kFaultCfg3>(dst, src, tmp, 0.5f, 1.0f, 256);
    }
    if constexpr (kFault == 4) AscendQuant(dst, src, tmp, scale, off, 96, 192);  // scaleCount > scale's 64
    if constexpr (kFault == 5) AscendQuant(dst, src, tmp, scale, off, 0, 256);
    if constexpr (kFault == 6) AscendQuant(dst, src, tmp, scale, offset, 64, 32, 256);
    if constexpr (kFault == 7) AscendQuant(dst, src, tmp, scale, off, 64, 224 - 32 + 8);  // not a multiple of 64
    if constexpr (kFault == 8) {
        AscendQuant<half, false, kFaultCfg8>(dst, src, tmp, scale, off, 64, 256);
    }
    if constexpr (kFault == 9) {
        AscendQuant<half, false, kFaultCfg9>(dst, src, tmp, scale, offset, 64, 64, 256);
    }
    if constexpr (kFault == 10 || kFault == 11) {  // a chunk needs 64 bytes: 32 (10), 64 (11, clean)
        LocalTensor<uint8_t> small = tmp;
        small.SetSize(kFault == 10 ? 32 : 64);
        AscendQuant(dst, src, small, 0.5f, 1.0f, 256);
    }
    if constexpr (kFault == 12) AscendQuant(dst, src, tmp, scale, offset, 64, 64, 256);  // clean: per channel
    if constexpr (kFault == 13) {  // dst inside src, not at its start
        LocalTensor<int8_t> inside = src.ReinterpretCast<int8_t>()[64];
        AscendQuant(inside, src, tmp, 0.5f, 1.0f, 128);
    }
    if constexpr (kFault == 14) AscendQuant(src.ReinterpretCast<int8_t>(), src, tmp, 0.5f, 1.0f, 256);  // clean
    if constexpr (kFault == 15) AscendQuant(dst, src, tmp, dst.ReinterpretCast<half>(), off, 64, 64);
    if constexpr (kFault == 16) AscendQuant(dst, src, src.ReinterpretCast<uint8_t>(), 0.5f, 1.0f, 128);
    if constexpr (kFault == 17) {  // float scale and offset tensors sharing bytes
        LocalTensor<float> fsrc = ub.Alloc<float, 256>();
        LocalTensor<float> fscale = ub.Alloc<float, 64>();
        Duplicate(fsrc, 1.5f, 256);
        Duplicate(fscale, 0.5f, 64);
        PipeBarrier<PIPE_V>();
        AscendQuant(dst, fsrc, tmp, fscale, fscale, 64, 64, 256);
    }
    if constexpr (kFault == 18) AscendQuant(dst, src, tmp.ReinterpretCast<uint8_t>()[16], 0.5f, 1.0f, 256);
}

using fault::Broke;

}  // namespace

TEST_CASE("AscendQuant half: twelve forms and config, chunks, saturation, against float64") { CHECK_EQ(Sweep<half>(), 0); }
TEST_CASE("AscendQuant float: twelve forms and config, chunks, saturation, scale converted in place")
{
    CHECK_EQ(Sweep<float>(), 0);
}

TEST_CASE("GetAscendQuantMaxMinTmpSize and GetAscendQuantTmpBufferFactorSize return A2's sizes")
{
    uint32_t mx = 0, mn = 0;
    GetAscendQuantMaxMinTmpSize(ge::Shape({4, 1024}), 2, mx, mn);
    CHECK_EQ(mx, 8192u);
    CHECK_EQ(mn, 512u);
    GetAscendQuantMaxMinTmpSize(ge::Shape({64}), 4, mx, mn);
    CHECK_EQ(mx, 512u);
    uint32_t live = 9, extra = 9;
    GetAscendQuantTmpBufferFactorSize(live, extra);
    CHECK_EQ(live, 2u);
    CHECK_EQ(extra, 0u);
}

TEST_CASE("AscendQuant rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "AscendQuant: calCount <= the sizes of srcTensor and dstTensor (A2's check)"));
    CHECK(Broke(&FaultKernel<2>, "AscendQuant: config.calcCount <= the sizes of srcTensor and dstTensor (A2's "
                                 "check)"));
    CHECK(Broke(&FaultKernel<3>, "AscendQuant: config.workLocalSize <= sharedTmpBuffer's size (A2's check)"));
    CHECK(Broke(&FaultKernel<4>, "AscendQuant: 0 < scaleCount <= scaleTensor's size (A2's check)"));
    CHECK(Broke(&FaultKernel<5>, "AscendQuant: 0 < scaleCount <= scaleTensor's size (A2's check)"));
    CHECK(Broke(&FaultKernel<6>, "AscendQuant: offsetCount equals scaleCount and is <= offsetTensor's size (A2's "
                                 "check)"));
    CHECK(Broke(&FaultKernel<7>, "AscendQuant: calCount is a non-zero multiple of scaleCount (A2's check)"));
    CHECK(Broke(&FaultKernel<8>, "AscendQuant: config.scaleCount is a multiple of 32 within scaleTensor that divides "
                                 "config.calcCount (A2's check)"));
    CHECK(Broke(&FaultKernel<9>, "AscendQuant: config.offsetCount equals config.scaleCount and is <= offsetTensor's "
                                 "size (A2's check)"));
    CHECK(Broke(&FaultKernel<10>, "AscendQuant: the temporary buffer (config.workLocalSize when set) holds a chunk "
                                  "of 32 halves: 64 bytes (A2's check: splitSize should not be zero)"));
    CHECK(Broke(&FaultKernel<11>, ""));
    CHECK(Broke(&FaultKernel<12>, ""));
    CHECK(Broke(&FaultKernel<13>, "AscendQuant: dstTensor and srcTensor start together or do not overlap (docs: "
                                  "they may share their space)"));
    CHECK(Broke(&FaultKernel<14>, ""));
    CHECK(Broke(&FaultKernel<15>, "AscendQuant: scaleTensor and offsetTensor overlap neither dstTensor nor (float: "
                                  "A2 converts them to half in place) srcTensor"));
    CHECK(Broke(&FaultKernel<16>, "AscendQuant: sharedTmpBuffer overlaps no operand"));
    CHECK(Broke(&FaultKernel<17>, "AscendQuant: float scaleTensor and offsetTensor do not overlap: A2 converts each "
                                  "to half in place"));
    CHECK(fault::Violation(&FaultKernel<18>).rfind("AscendQuant: ", 0) == 0);
}

TEST_MAIN()
