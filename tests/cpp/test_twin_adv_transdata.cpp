// TransData ("lib/transpose/transdata.h") against references built here index by index from fresh random inputs:
// the four conversions (NCDHW <-> FRACTAL_Z_3D, NCDHW <-> NDC1HWC0) for the four types, h * w padded (15 -> 16)
// and not (16), c and n multiples of 16 and not (padded lanes 0 in a FRACTAL_Z_3D / NDC1HWC0 result), both forms;
// GetTransDataMaxMinTmpSize against A2's formula; every run-time rule with a planted fault and a clean counterpart.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "check.h"
#include "fault_launch.h"
#include "lib/transpose/transdata.h"
#include "tiling/transpose/transdata_tiling.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr TransDataConfig kToFz = {DataFormat::NCDHW, DataFormat::FRACTAL_Z_3D};
constexpr TransDataConfig kFromFz = {DataFormat::FRACTAL_Z_3D, DataFormat::NCDHW};
constexpr TransDataConfig kTo6hd = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
constexpr TransDataConfig kFrom6hd = {DataFormat::NDC1HWC0, DataFormat::NCDHW};

struct Dims {
    int32_t n, c, d, h, w;
    bool framework;
};
Dims gDims;

int32_t PadHw(const Dims& x) { return (x.h * x.w + 15) / 16 * 16; }
int32_t NcdhwElems(const Dims& x) { return x.n * x.c * x.d * PadHw(x); }
int32_t C1(const Dims& x) { return (x.c + 15) / 16; }
int32_t N1(const Dims& x) { return (x.n + 15) / 16; }
// FRACTAL_Z_3D (modes 1, 2) or NDC1HWC0 (3, 4): c and n padded to 16.
int32_t OtherElems(const Dims& x, int mode)
{
    return (mode <= 2 ? N1(x) * 16 : x.n) * C1(x) * 16 * x.d * x.h * x.w;
}

template <const TransDataConfig& cfg, typename T, typename P>
void Convert(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t, bool framework,
             const P& params)
{
    if (framework) TransData<cfg>(d, s, params);
    else TransData<cfg>(d, s, t, params);
}

template <typename T, int kMode>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Dims x = gDims;
    const int32_t c1 = C1(x), n1 = N1(x);
    const bool fromNcdhw = kMode == 1 || kMode == 3;
    const int32_t inElems = fromNcdhw ? NcdhwElems(x) : OtherElems(x, kMode);
    const int32_t outElems = fromNcdhw ? OtherElems(x, kMode) : NcdhwElems(x);
    TPipe pipe;
    TBuf<TPosition::VECIN> sb;
    TBuf<TPosition::VECOUT> db;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(sb, inElems * sizeof(T));
    pipe.InitBuffer(db, outElems * sizeof(T));
    if (!x.framework) pipe.InitBuffer(tb, 2 * (N1(x) * 16 * C1(x) * 16 * x.d * PadHw(x)) * 2 + 1024);
    GlobalTensor<T> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    LocalTensor<T> s = sb.Get<T>(), d = db.Get<T>();
    DataCopy(s, inGm, inElems);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    auto ncdhw = MakeLayout(MakeShape(x.n, x.c, x.d, x.h, x.w), MakeStride());
    auto fz = MakeLayout(MakeShape(x.d, c1, x.h, x.w, n1, 16, 16), MakeStride());
    auto hd = MakeLayout(MakeShape(x.n, x.d, c1, x.h, x.w, 16), MakeStride());
    LocalTensor<uint8_t> t = x.framework ? LocalTensor<uint8_t>() : tb.Get<uint8_t>();
    if constexpr (kMode == 1) {
        Convert<kToFz>(d, s, t, x.framework, TransDataParams<decltype(ncdhw), decltype(fz)>{ncdhw, fz});
    }
    if constexpr (kMode == 2) {
        Convert<kFromFz>(d, s, t, x.framework, TransDataParams<decltype(fz), decltype(ncdhw)>{fz, ncdhw});
    }
    if constexpr (kMode == 3) {
        Convert<kTo6hd>(d, s, t, x.framework, TransDataParams<decltype(ncdhw), decltype(hd)>{ncdhw, hd});
    }
    if constexpr (kMode == 4) {
        Convert<kFrom6hd>(d, s, t, x.framework, TransDataParams<decltype(hd), decltype(ncdhw)>{hd, ncdhw});
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, d, outElems);
}

// The offset of element (n, c, d, k = h * W + w) in each format.
int64_t AtNcdhw(const Dims& x, int n, int c, int d, int k) { return ((int64_t(n) * x.c + c) * x.d + d) * PadHw(x) + k; }
int64_t AtFz(const Dims& x, int n, int c, int d, int k)
{
    // [D, C1, H, W, N1, N0, C0]
    return ((((int64_t(d) * C1(x) + c / 16) * (x.h * x.w) + k) * N1(x) + n / 16) * 16 + n % 16) * 16 + c % 16;
}
int64_t At6hd(const Dims& x, int n, int c, int d, int k)
{
    // [N, D, C1, H, W, C0]
    return (((int64_t(n) * x.d + d) * C1(x) + c / 16) * (x.h * x.w) + k) * 16 + c % 16;
}

template <typename T, int kMode>
int Run(const Dims& x)
{
    const bool fromNcdhw = kMode == 1 || kMode == 3;
    std::vector<uint16_t> in(fromNcdhw ? NcdhwElems(x) : OtherElems(x, kMode));
    for (uint16_t& v : in) v = static_cast<uint16_t>(std::uniform_int_distribution<int>(0, 0x7bff)(check::Rng()));
    std::vector<uint16_t> out(fromNcdhw ? OtherElems(x, kMode) : NcdhwElems(x), 0x5555);
    gDims = x;
    ascend_twin::LaunchSpec spec;
    spec.kernel = "transdata";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&Kernel<T, kMode>);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size() * 2}, {"out", out.data(), out.size() * 2}};
    ascend_twin::Launch(spec);
    int bad = 0;
    for (int n = 0; n < x.n; ++n) {
        for (int c = 0; c < x.c; ++c) {
            for (int d = 0; d < x.d; ++d) {
                for (int k = 0; k < x.h * x.w; ++k) {
                    const int64_t nc = AtNcdhw(x, n, c, d, k);
                    const int64_t ot = (kMode <= 2) ? AtFz(x, n, c, d, k) : At6hd(x, n, c, d, k);
                    const uint16_t want = fromNcdhw ? in[nc] : in[ot];
                    const uint16_t got = fromNcdhw ? out[ot] : out[nc];
                    if (got != want && bad++ < 3) {
                        std::printf("  mode %d (%d %d %d %d %d): (%d, %d, %d, %d) = %04x, expected %04x\n", kMode, x.n,
                                    x.c, x.d, x.h, x.w, n, c, d, k, got, want);
                    }
                }
            }
        }
    }
    // A FRACTAL_Z_3D / NDC1HWC0 result's padded lanes (c or n beyond the shape's) are 0.
    if (fromNcdhw) {
        const int32_t nAll = kMode <= 2 ? N1(x) * 16 : x.n;
        for (int n = 0; n < nAll; ++n) {
            for (int c = 0; c < C1(x) * 16; ++c) {
                if (n < x.n && c < x.c) continue;
                for (int d = 0; d < x.d; ++d) {
                    for (int k = 0; k < x.h * x.w; ++k) {
                        const int64_t ot = (kMode <= 2) ? AtFz(x, n, c, d, k) : At6hd(x, n, c, d, k);
                        if (out[ot] != 0 && bad++ < 3) std::printf("  mode %d: padded lane (%d, %d) = %04x\n", kMode,
                                                                   n, c, out[ot]);
                    }
                }
            }
        }
    }
    return bad != 0 ? 1 : 0;
}

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<half> s = ub.Alloc<half, 4096>();
    LocalTensor<half> d = ub.Alloc<half, 4096>();
    LocalTensor<uint8_t> t = ub.Alloc<uint8_t, 16384>();
    Duplicate(s, static_cast<half>(1.0f), 4096);
    PipeBarrier<PIPE_V>();
    auto ncdhw = MakeLayout(MakeShape(16, 16, 1, 3, 5), MakeStride());
    auto fz = MakeLayout(MakeShape(1, 1, 3, 5, 1, 16, 16), MakeStride());
    auto hd = MakeLayout(MakeShape(16, 1, 1, 3, 5, 16), MakeStride());
    TransDataParams<decltype(ncdhw), decltype(fz)> toFz{ncdhw, fz};
    if constexpr (kFault == 0) TransData<kToFz>(d, s, t, toFz);  // clean
    if constexpr (kFault == 1) {  // fractal d, h, w not the NCDHW's
        auto bad = MakeLayout(MakeShape(1, 1, 5, 3, 1, 16, 16), MakeStride());
        TransData<kToFz>(d, s, t, TransDataParams<decltype(ncdhw), decltype(bad)>{ncdhw, bad});
    }
    if constexpr (kFault == 2) {  // c1 of 2 for c 16
        auto bad = MakeLayout(MakeShape(1, 2, 3, 5, 1, 16, 16), MakeStride());
        TransData<kToFz>(d, s, t, TransDataParams<decltype(ncdhw), decltype(bad)>{ncdhw, bad});
    }
    if constexpr (kFault == 3) {  // n of 17 in the NDC1HWC0 layout
        auto bad = MakeLayout(MakeShape(17, 1, 1, 3, 5, 16), MakeStride());
        TransData<kTo6hd>(d, s, t, TransDataParams<decltype(ncdhw), decltype(bad)>{ncdhw, bad});
    }
    if constexpr (kFault == 4) {  // the NCDHW source of 4095 elements (4096 needed)
        LocalTensor<half> shortS = s;
        shortS.SetSize(4095);
        TransData<kToFz>(d, shortS, t, toFz);
    }
    if constexpr (kFault == 5) {  // the fractal result in 3000 elements (3840 needed)
        LocalTensor<half> shortD = d;
        shortD.SetSize(3000);
        TransData<kToFz>(shortD, s, t, toFz);
    }
    if constexpr (kFault == 6) {  // a buffer of 8000 bytes (8704 needed)
        LocalTensor<uint8_t> shortT = t;
        shortT.SetSize(8000);
        TransData<kToFz>(d, s, shortT, toFz);
    }
    if constexpr (kFault == 7) TransData<kToFz>(s, s, t, toFz);  // dst over src
    if constexpr (kFault == 8) {  // the buffer over dst
        LocalTensor<uint8_t> over(TPosition::VECCALC, static_cast<uint32_t>(reinterpret_cast<uintptr_t>(d.GetPhyAddr())), 16384);
        TransData<kToFz>(d, s, over, toFz);
    }
    if constexpr (kFault == 9) {  // c of 8: the padded C0 lanes (clean)
        auto c8 = MakeLayout(MakeShape(16, 8, 1, 3, 5), MakeStride());
        TransData<kTo6hd>(d, s, t, TransDataParams<decltype(c8), decltype(hd)>{c8, hd});
    }
    if constexpr (kFault == 10) {  // src 16 bytes off its block
        TransData<kTo6hd>(d, s[8], t, TransDataParams<decltype(ncdhw), decltype(hd)>{ncdhw, hd});
    }
    if constexpr (kFault == 11) {  // the clean counterparts of 3 and 9: NDC1HWC0 both ways
        TransData<kTo6hd>(d, s, t, TransDataParams<decltype(ncdhw), decltype(hd)>{ncdhw, hd});
        PipeBarrier<PIPE_V>();
        TransData<kFrom6hd>(s, d, t, TransDataParams<decltype(hd), decltype(ncdhw)>{hd, ncdhw});
    }
}

}  // namespace

TEST_CASE("TransData: the four conversions, four types, h * w padded and not, c and n padded and not, both forms")
{
    int failed = 0;
    failed += Run<half, 1>({16, 16, 1, 3, 5, false});  // the example's shape
    failed += Run<half, 2>({16, 16, 1, 3, 5, false});
    failed += Run<half, 3>({16, 16, 1, 3, 5, false});
    failed += Run<half, 4>({16, 16, 1, 3, 5, false});
    failed += Run<int16_t, 1>({16, 32, 2, 2, 8, true});
    failed += Run<int16_t, 2>({32, 16, 2, 3, 3, true});
    failed += Run<bfloat16_t, 3>({3, 48, 2, 1, 7, false});
    failed += Run<uint16_t, 4>({5, 32, 3, 4, 4, true});
    // c and n not multiples of 16: padded C0 / N0 lanes
    failed += Run<half, 1>({20, 20, 1, 3, 5, false});
    failed += Run<half, 2>({20, 20, 1, 3, 5, false});
    failed += Run<half, 3>({3, 20, 2, 2, 2, true});
    failed += Run<half, 4>({3, 20, 2, 2, 2, false});
    CHECK_EQ(failed, 0);
}

TEST_CASE("GetTransDataMaxMinTmpSize gives A2's sizes (the transdata example's own buffer sizes, worked by hand)")
{
    platform_ascendc::PlatformAscendC& plat = *platform_ascendc::PlatformAscendCManager::GetInstance();
    const ge::Shape ncdhw({16, 16, 1, 3, 5}), fz({1, 1, 3, 5, 1, 16, 16}), hd({16, 1, 1, 3, 5, 16});
    uint32_t mx = 0, mn = 0;
    CHECK(GetTransDataMaxMinTmpSize(plat, ncdhw, fz, ge::DT_FLOAT16, kToFz, mx, mn));
    CHECK_EQ(mn, 8704u);  // max(512, 480) + 16 * 16 * 16 * 2
    CHECK_EQ(mx, 8704u);
    CHECK(GetTransDataMaxMinTmpSize(plat, fz, ncdhw, ge::DT_BF16, kFromFz, mx, mn));
    CHECK_EQ(mn, 8192u);
    CHECK(GetTransDataMaxMinTmpSize(plat, ncdhw, hd, ge::DT_INT16, kTo6hd, mx, mn));
    CHECK_EQ(mn, 544u);  // 16 * 2 + 256 * 2
    CHECK(GetTransDataMaxMinTmpSize(plat, hd, ncdhw, ge::DT_UINT16, kFrom6hd, mx, mn));
    CHECK_EQ(mn, 1024u);  // 256 * 2 + 512
    // c 8, n 20: c1 = 1, n1 = 2, the doubled size of a padded FRACTAL_Z_3D -> NCDHW
    CHECK(GetTransDataMaxMinTmpSize(plat, ge::Shape({1, 1, 3, 5, 2, 16, 16}), ge::Shape({20, 8, 1, 3, 5}),
                                    ge::DT_FLOAT16, kFromFz, mx, mn));
    CHECK_EQ(mn, 32u * 16u * 16u * 2u * 2u);
    // A2 refuses: float, a shape of the wrong format, a c1 that is not ceil(c / 16), an unsupported pair
    CHECK(!GetTransDataMaxMinTmpSize(plat, ncdhw, fz, ge::DT_FLOAT, kToFz, mx, mn));
    CHECK(!GetTransDataMaxMinTmpSize(plat, ncdhw, hd, ge::DT_FLOAT16, kToFz, mx, mn));
    CHECK(!GetTransDataMaxMinTmpSize(plat, ncdhw, ge::Shape({16, 1, 2, 3, 5, 16}), ge::DT_FLOAT16, kTo6hd, mx, mn));
    constexpr TransDataConfig other = {DataFormat::NCHW, DataFormat::NC1HWC0};
    CHECK(!GetTransDataMaxMinTmpSize(plat, ncdhw, hd, ge::DT_FLOAT16, other, mx, mn));
}

TEST_CASE("TransData rules: planted faults and clean counterparts")
{
    using fault::Broke;
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "TransData: the FRACTAL_Z_3D layout's d, h, w are the NCDHW layout's"));
    CHECK(Broke(&FaultKernel<2>, "TransData: the FRACTAL_Z_3D layout's c0 and n0 are 16, c1 = ceil(c / 16), n1 = "
                                 "ceil(n / 16)"));
    CHECK(Broke(&FaultKernel<3>, "TransData: the NDC1HWC0 layout's n, d, h, w are the NCDHW layout's"));
    CHECK(Broke(&FaultKernel<4>, "TransData: the NCDHW tensor holds n * c * d * padHw elements (each row of h * w "
                                 "padded to 16)"));
    CHECK(Broke(&FaultKernel<5>, "TransData: the FRACTAL_Z_3D tensor holds its layout's elements"));
    CHECK(Broke(&FaultKernel<6>, "TransData: sharedTmpBuffer holds GetTransDataMaxMinTmpSize's size"));
    CHECK(Broke(&FaultKernel<7>, "TransData: srcTensor and dstTensor do not overlap (docs: "
                                 "不支持源操作数与目的操作数地址重叠)"));
    CHECK(Broke(&FaultKernel<8>, "TransData: the temporary buffer overlaps neither operand (docs: "
                                 "不支持sharedTmpBuffer与源操作数和目的操作数地址重叠)"));
    CHECK(Broke(&FaultKernel<9>, ""));
    CHECK(Broke(&FaultKernel<10>, "TransData: UB operands start at a 32-byte aligned address"));
    CHECK(Broke(&FaultKernel<11>, ""));
}

TEST_MAIN()
