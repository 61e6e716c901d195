// DropOut ("lib/filter/dropout.h") against float64 references computed here from fresh random inputs and masks:
// half and float, the four modes A2 infers (bytes, bytes with padded mask rows, bits, bits with padded rows) and the
// same modes named explicitly, with and without sharedTmpBuffer, a temporary buffer smaller than the data (several
// chunks), isInitBitMode with CMPMASK loaded by the kernel; the mask packed in place in the padded modes;
// GetDropOutMaxMinTmpSize; every run-time rule with a planted fault and a clean counterpart.
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
#include "lib/filter/dropout.h"
#include "tiling/filter/dropout_tiling.h"

using namespace AscendC;

namespace {

constexpr uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

struct Case {
    uint32_t mode = 0;  // the template argument
    bool framework = false;
    bool initBitMode = false;  // DropOut<T, true>: the kernel loads CMPMASK with zeros first
    uint32_t tmpBytes = 1024;
    uint32_t firstAxis = 4, srcLastAxis = 64, maskLastAxis = 64;
    float keepProb = 0.7f;
};
Case gCase;

template <typename T>
uint32_t MaskBytes(const Case& c, uint32_t runMode)
{
    const uint32_t data = c.firstAxis * c.srcLastAxis;
    if (runMode == 1 || runMode == 4) return c.firstAxis * c.maskLastAxis;
    return runMode == 3 ? (data + 7) / 8 : data;
}

uint32_t RunMode(const Case& c)
{
    if (c.mode != 0) return c.mode;
    if (c.srcLastAxis < c.maskLastAxis) return 1;
    if (c.srcLastAxis == c.maskLastAxis) return 2;
    return c.srcLastAxis == c.maskLastAxis * 8 ? 3 : 4;
}

template <typename T, bool init, uint32_t mode>
void Call(const Case& c, const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& mask,
          const LocalTensor<uint8_t>& tmp)
{
    DropOutShapeInfo info;
    info.firstAxis = c.firstAxis;
    info.srcLastAxis = c.srcLastAxis;
    info.maskLastAxis = c.maskLastAxis;
    if (c.framework) DropOut<T, init, mode>(dst, src, mask, c.keepProb, info);
    else DropOut<T, init, mode>(dst, src, mask, tmp, c.keepProb, info);
}

template <typename T, bool init>
void CallMode(const Case& c, const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& mask,
              const LocalTensor<uint8_t>& tmp)
{
    switch (c.mode) {
        case 0: Call<T, init, 0>(c, dst, src, mask, tmp); break;
        case 1: Call<T, init, 1>(c, dst, src, mask, tmp); break;
        case 2: Call<T, init, 2>(c, dst, src, mask, tmp); break;
        case 3: Call<T, init, 3>(c, dst, src, mask, tmp); break;
        default: Call<T, init, 4>(c, dst, src, mask, tmp); break;
    }
}

// in = src [firstAxis * srcLastAxis] (32-byte padded) | mask; out = dst (padded) | the mask after the call.
template <typename T>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const uint32_t dataBytes = AlignUp(c.firstAxis * c.srcLastAxis * sizeof(T), 32);
    const uint32_t maskBytes = AlignUp(MaskBytes<T>(c, RunMode(c)), 32);
    TPipe pipe;
    TBuf<TPosition::VECIN> sb, mb;
    TBuf<TPosition::VECOUT> db;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(sb, dataBytes);
    pipe.InitBuffer(mb, maskBytes);
    pipe.InitBuffer(db, dataBytes);
    if (!c.framework) pipe.InitBuffer(tb, c.tmpBytes);
    LocalTensor<T> src = sb.Get<T>();
    LocalTensor<uint8_t> mask = mb.Get<uint8_t>();
    LocalTensor<T> dst = db.Get<T>();
    LocalTensor<uint8_t> tmp;
    if (!c.framework) tmp = tb.Get<uint8_t>();
    GlobalTensor<uint8_t> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out));
    DataCopy(src.template ReinterpretCast<uint8_t>(), inGm, dataBytes);
    DataCopy(mask, inGm[dataBytes], maskBytes);
    Duplicate(dst.template ReinterpretCast<uint16_t>(), uint16_t(0x7e00), static_cast<int32_t>(dataBytes / 2));
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    if (c.initBitMode) {
        LocalTensor<T> zeros = dst;  // dst is written after: a block of zeros for CMPMASK
        Duplicate(zeros, static_cast<T>(0), static_cast<int32_t>(32 / sizeof(T)));
        PipeBarrier<PIPE_V>();
        SetCmpMask<T>(zeros);
        PipeBarrier<PIPE_V>();
        CallMode<T, true>(c, dst, src, mask, tmp);
    } else {
        CallMode<T, false>(c, dst, src, mask, tmp);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, dst.template ReinterpretCast<uint8_t>(), dataBytes);
    DataCopy(outGm[dataBytes], mask, maskBytes);
}

using check::Rng;

template <typename T>
int Run(const Case& c, const char* what)
{
    gCase = c;
    const uint32_t mode = RunMode(c);
    const uint32_t data = c.firstAxis * c.srcLastAxis;
    const uint32_t dataBytes = AlignUp(data * sizeof(T), 32);
    const uint32_t maskBytes = AlignUp(MaskBytes<T>(c, mode), 32);
    std::vector<uint8_t> in(dataBytes + maskBytes);
    std::vector<double> src(data);
    for (uint32_t i = 0; i < data; ++i) {
        const float v = std::uniform_real_distribution<float>(-4.0f, 4.0f)(Rng());
        src[i] = adv::Put<T>(in.data() + i * sizeof(T), v);
    }
    uint8_t* maskIn = in.data() + dataBytes;
    for (uint32_t i = 0; i < maskBytes; ++i) maskIn[i] = 0xA5;  // padding: invalid values
    // keep[k]: whether element k is kept, from the mask laid out as the mode reads it.
    std::vector<bool> keep(data);
    const bool bits = mode == 3 || mode == 4;
    const uint32_t rowStride = (mode == 1 || mode == 4) ? c.maskLastAxis : (bits ? 0 : c.srcLastAxis);
    for (uint32_t r = 0; r < c.firstAxis; ++r) {
        for (uint32_t j = 0; j < c.srcLastAxis; ++j) {
            const uint32_t k = r * c.srcLastAxis + j;
            keep[k] = std::uniform_int_distribution<int>(0, 1)(Rng()) == 1;
            if (bits) {
                const uint32_t bit = mode == 4 ? r * c.maskLastAxis * 8 + j : k;
                if (bit % 8 == 0) maskIn[bit / 8] = 0;
                maskIn[bit / 8] |= static_cast<uint8_t>(keep[k]) << (bit % 8);
            } else {
                maskIn[r * rowStride + j] = keep[k] ? 1 : 0;
            }
        }
    }
    std::vector<uint8_t> out(dataBytes + maskBytes);
    if (!adv::Launch1(&Kernel<T>, "dropout", in, out, what)) return 1;
    // dst = src * keep / keepProb: half rounds three times (the scale, the product by the mask, the Muls), float
    // twice; a dropped element is exactly 0.
    const double tol = std::is_same_v<T, half> ? 2e-3 : 4e-7;
    int bad = 0;
    for (uint32_t k = 0; k < data; ++k) {
        const double got = adv::Get<T>(out.data() + k * sizeof(T));
        const double want = keep[k] ? src[k] / static_cast<double>(c.keepProb) : 0.0;
        const bool ok = keep[k] ? std::fabs(got - want) <= tol * std::fabs(want) + 1e-30 : got == 0.0;
        if (!ok && bad++ < 3) std::printf("  %s: dst[%u] = %.9g, expected %.9g\n", what, k, got, want);
    }
    if (mode == 1 || mode == 4) {  // the valid bytes of each row packed to the front of the mask
        const uint32_t valid = mode == 1 ? c.srcLastAxis : c.srcLastAxis / 8;
        for (uint32_t r = 0; r < c.firstAxis; ++r) {
            for (uint32_t j = 0; j < valid; ++j) {
                const uint8_t got = out[dataBytes + r * valid + j];
                const uint8_t want = maskIn[r * c.maskLastAxis + j];
                if (got != want && bad++ < 3) std::printf("  %s: packed mask[%u] = %u, expected %u\n", what,
                                                          r * valid + j, got, want);
            }
        }
    }
    return bad;
}

template <typename T>
int Sweep()
{
    int failed = 0;
    char what[160];
    struct Shape {
        uint32_t first, src, mask, mode;
    };
    // Inferred: bytes (2), bytes with padded rows (1), bits (3), bits with padded rows (4); the same named; a long
    // row in bytes (several chunks of the temporary buffer).
    const Shape shapes[] = {{4, 64, 64, 0},  {3, 48, 64, 0},  {5, 64, 8, 0}, {3, 96, 32, 0}, {4, 64, 64, 2},
                            {3, 48, 64, 1},  {5, 64, 8, 3},   {3, 96, 32, 4}, {2, 1000, 1000, 0}, {7, 30, 32, 0}};
    for (const Shape& s : shapes) {
        for (int form = 0; form < 3; ++form) {  // 0 sharedTmpBuffer, 1 the framework's, 2 isInitBitMode
            Case c;
            c.firstAxis = s.first;
            c.srcLastAxis = s.src;
            c.maskLastAxis = s.mask;
            c.mode = s.mode;
            c.framework = form == 1;
            c.initBitMode = form == 2;
            c.keepProb = std::uniform_real_distribution<float>(0.05f, 0.95f)(Rng());
            c.tmpBytes = s.src == 1000 ? 512 : 1024;  // GetDropOutMaxMinTmpSize's minimum: several chunks
            std::snprintf(what, sizeof(what), "%s {%u, %u, %u} mode %u form %d", sizeof(T) == 2 ? "half" : "float",
                          s.first, s.src, s.mask, s.mode, form);
            failed += Run<T>(c, what) != 0 ? 1 : 0;
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
    LocalTensor<float> src = ub.Alloc<float, 256>();
    LocalTensor<float> dst = ub.Alloc<float, 256>();
    LocalTensor<uint8_t> mask = ub.Alloc<uint8_t, 256>();
    LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 512>();
    Duplicate(src, 1.5f, 256);
    Duplicate(mask.ReinterpretCast<uint16_t>(), uint16_t(0x0101), 128);
    PipeBarrier<PIPE_V>();
    DropOutShapeInfo info;
    info.firstAxis = 4;
    info.srcLastAxis = 64;
    info.maskLastAxis = 64;
    if constexpr (kFault == 0) DropOut(dst, src, mask, tmp, 0.5f, info);  // clean: bytes
    if constexpr (kFault == 1) DropOut<float, false, 5>(dst, src, mask, tmp, 0.5f, info);
    if constexpr (kFault == 2) DropOut(dst, src, mask, tmp, 1.0f, info);
    if constexpr (kFault == 3) {
        info.firstAxis = 0;
        DropOut(dst, src, mask, tmp, 0.5f, info);
    }
    if constexpr (kFault == 4) {  // mode 1 with an odd maskLastAxis
        info.srcLastAxis = 32;
        info.maskLastAxis = 63;
        DropOut<float, false, 1>(dst, src, mask, tmp, 0.5f, info);
    }
    if constexpr (kFault == 5) {  // padded byte rows of 48: not 32-byte rows
        info.srcLastAxis = 40;
        info.maskLastAxis = 48;
        DropOut(dst, src, mask, tmp, 0.5f, info);
    }
    if constexpr (kFault == 6) {  // padded byte rows: 31 valid bytes (odd)
        info.srcLastAxis = 31;
        DropOut(dst, src, mask, tmp, 0.5f, info);
    }
    if constexpr (kFault == 7) {  // padded bit rows: 40 elements are 5 bytes (odd)
        info.srcLastAxis = 40;
        info.maskLastAxis = 32;
        DropOut(dst, src, mask, tmp, 0.5f, info);
    }
    if constexpr (kFault == 8) {
        LocalTensor<float> small = src;
        small.SetSize(255);
        DropOut(dst, small, mask, tmp, 0.5f, info);
    }
    if constexpr (kFault == 9) {
        LocalTensor<uint8_t> small = mask;
        small.SetSize(224);
        DropOut(dst, src, small, tmp, 0.5f, info);
    }
    if constexpr (kFault == 10) {  // bytes, float: a chunk of 32 needs 192 bytes
        LocalTensor<uint8_t> small = tmp;
        small.SetSize(160);
        DropOut(dst, src, mask, small, 0.5f, info);
    }
    if constexpr (kFault == 11 || kFault == 12) {  // bits: 256 bytes to zero for CMPMASK (clean with 256)
        info.maskLastAxis = 8;
        LocalTensor<uint8_t> small = tmp;
        small.SetSize(kFault == 11 ? 224 : 256);
        DropOut(dst, src, mask, small, 0.5f, info);
    }
    if constexpr (kFault == 13) {  // partial overlap
        info.firstAxis = 2;
        DropOut(src[8], src, mask, tmp, 0.5f, info);
    }
    if constexpr (kFault == 14) DropOut(src, src, mask, tmp, 0.5f, info);     // clean: in place
    if constexpr (kFault == 15) DropOut(dst, src, dst.ReinterpretCast<uint8_t>(), tmp, 0.5f, info);
    if constexpr (kFault == 16) DropOut(dst, src, mask, src.ReinterpretCast<uint8_t>(), 0.5f, info);
    if constexpr (kFault == 17) DropOut(dst[4], src, mask, tmp, 0.5f, info);  // 16 bytes into UB: misaligned
    if constexpr (kFault == 18 || kFault == 19) {  // isInitBitMode: CMPMASK loaded by the kernel (19) or not (18)
        info.maskLastAxis = 8;
        if constexpr (kFault == 19) {
            Duplicate(dst, 0.0f, 8);
            PipeBarrier<PIPE_V>();
            SetCmpMask(dst);
            PipeBarrier<PIPE_V>();
        }
        DropOut<float, true>(dst, src, mask, tmp, 0.5f, info);
    }
}

using fault::Broke;

}  // namespace

TEST_CASE("DropOut float: every mode, inferred and named, three forms, against float64") { CHECK_EQ(Sweep<float>(), 0); }
TEST_CASE("DropOut half: every mode, inferred and named, three forms, against float64") { CHECK_EQ(Sweep<half>(), 0); }

TEST_CASE("GetDropOutMaxMinTmpSize returns A2's sizes")
{
    uint32_t mx = 0, mn = 0;
    GetDropOutMaxMinTmpSize(ge::Shape({4, 64}), 4, false, mx, mn);
    CHECK_EQ(mn, 512u);
    CHECK_EQ(mx, 2u * 256 * 4);
    GetDropOutMaxMinTmpSize(ge::Shape({8}), 2, false, mx, mn);
    CHECK_EQ(mx, 512u);  // the minimum when the data is smaller
    CHECK_EQ(GetDropOutMinTmpSize(ge::Shape({3, 100}), 2, false), 512u);
    CHECK_EQ(GetDropOutMaxTmpSize(ge::Shape({3, 100}), 2, false), 2u * 300 * 4);
}

TEST_CASE("DropOut rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "DropOut: dropOutMode is 0, 1, 2, 3 or 4 (A2's check)"));
    CHECK(Broke(&FaultKernel<2>, "DropOut: keepProb is in (0, 1) (A2's check)"));
    CHECK(Broke(&FaultKernel<3>, "DropOut: info.firstAxis, info.srcLastAxis and info.maskLastAxis are > 0 (A2's "
                                 "check)"));
    CHECK(Broke(&FaultKernel<4>, "DropOut: info.maskLastAxis is even when dropOutMode is 1 or 4 (A2's check)"));
    CHECK(Broke(&FaultKernel<5>, "DropOut: with padded mask rows (dropOutMode 1 or 4, or inferred), "
                                 "info.maskLastAxis is a multiple of 32 (docs: the rows are padded to 32 bytes; A2 "
                                 "steps rows by maskLastAxis / 32 blocks)"));
    CHECK(Broke(&FaultKernel<6>, "DropOut: with padded mask rows in byte mode, info.srcLastAxis is even and at most "
                                 "info.maskLastAxis (docs: the valid mask bytes are an even number)"));
    CHECK(Broke(&FaultKernel<7>, "DropOut: with padded mask rows in bit mode, info.srcLastAxis is a multiple of 16 "
                                 "and its srcLastAxis / 8 mask bytes fit a row (docs: the valid mask bytes are an "
                                 "even number)"));
    CHECK(Broke(&FaultKernel<8>, "DropOut: srcLocal and dstLocal hold info.firstAxis * info.srcLastAxis elements"));
    CHECK(Broke(&FaultKernel<9>, "DropOut: maskLocal holds the bytes the mode reads (firstAxis * maskLastAxis with "
                                 "padded rows, else one byte or one bit an element)"));
    CHECK(Broke(&FaultKernel<10>, "DropOut: in byte mode, sharedTmpBuffer holds a chunk of 32 elements: 64 bytes "
                                  "for half, 192 for float (A2's check: Insufficient temporary space)"));
    CHECK(Broke(&FaultKernel<11>, "DropOut: in bit mode without isInitBitMode, sharedTmpBuffer holds 256 bytes (A2: "
                                  "sharedTmpBuffer length need >= 256 Byte)"));
    CHECK(Broke(&FaultKernel<12>, ""));
    CHECK(Broke(&FaultKernel<13>, "DropOut: srcLocal and dstLocal are the same or do not overlap (docs: they may "
                                  "share their space; 通用说明和约束: partial overlaps are not supported)"));
    CHECK(Broke(&FaultKernel<14>, ""));
    CHECK(Broke(&FaultKernel<15>, "DropOut: maskLocal does not overlap dstLocal"));
    CHECK(Broke(&FaultKernel<16>, "DropOut: sharedTmpBuffer overlaps no operand"));
    CHECK(fault::Violation(&FaultKernel<17>).rfind("DropOut: ", 0) == 0);
    CHECK(Broke(&FaultKernel<18>, "Select: the CMPMASK register is read only where an instruction set it"));
    CHECK(Broke(&FaultKernel<19>, ""));
}

TEST_MAIN()
