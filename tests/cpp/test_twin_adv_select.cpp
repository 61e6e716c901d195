// The advanced Select with a byte mask ("lib/select/selectwithbytesmask.h") against references built here from fresh
// random inputs: half and float, masks of uint8_t, bool, int16_t and int32_t, both scalar positions, mask rows wider
// than the tensor's with and without isReuseMask (the mask's compacted rows where A2 writes them);
// GetSelectMaxMinTmpSize against A2's formula worked by hand; every run-time rule with a planted fault and a clean
// counterpart.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "fault_launch.h"
#include "lib/select/selectwithbytesmask.h"
#include "tiling/select/selectwithbytesmask_tiling.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

struct Case {
    uint32_t rows = 1, k1 = 8, k2 = 32;
    bool scalarFirst = false;
    uint32_t tmpBytes = 1024;
};
Case gCase;
float gScalar = 0;

template <typename T, typename U, bool reuse>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const uint32_t n = c.rows * c.k1, nm = c.rows * c.k2;
    TPipe pipe;
    TBuf<TPosition::VECIN> xb, mb;
    TBuf<TPosition::VECOUT> yb;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(xb, AlignUp(n * sizeof(T), 32));
    pipe.InitBuffer(mb, AlignUp(nm * sizeof(U), 32));
    pipe.InitBuffer(yb, AlignUp(n * sizeof(T) + nm * sizeof(U), 32));
    pipe.InitBuffer(tb, c.tmpBytes);
    GlobalTensor<T> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    GlobalTensor<U> maskGm, maskOutGm;
    maskGm.SetGlobalBuffer(reinterpret_cast<__gm__ U*>(in + n * sizeof(T)));
    maskOutGm.SetGlobalBuffer(reinterpret_cast<__gm__ U*>(out + n * sizeof(T)));
    LocalTensor<T> x = xb.Get<T>(n);
    LocalTensor<U> m = mb.Get<U>(nm);
    LocalTensor<T> y = yb.Get<T>(n);
    DataCopy(x, inGm, n);
    DataCopy(m, maskGm, nm);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    SelectWithBytesMaskShapeInfo info;
    info.firstAxis = c.rows;
    info.srcLastAxis = c.k1;
    info.maskLastAxis = c.k2;
    const T s = static_cast<T>(gScalar);
    if (c.scalarFirst) Select<T, U, reuse>(y, s, x, m, tb.Get<uint8_t>(), info);
    else Select<T, U, reuse>(y, x, s, m, tb.Get<uint8_t>(), info);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, y, n);
    DataCopy(maskOutGm, m, nm);
}

using check::Rng;

template <typename T>
double Value(T v)
{
    if constexpr (std::is_same_v<T, half>) {
        uint16_t bits;
        std::memcpy(&bits, &v, 2);
        const int e = (bits >> 10) & 0x1f;
        const double mant = bits & 0x3ff;
        const double mag = e == 0 ? std::ldexp(mant, -24) : std::ldexp(1.0 + mant / 1024.0, e - 15);
        return (bits & 0x8000) != 0 ? -mag : mag;
    } else {
        return static_cast<double>(v);
    }
}

template <typename T, typename U, bool reuse>
int Run(const Case& c)
{
    const uint32_t n = c.rows * c.k1, nm = c.rows * c.k2;
    std::vector<uint8_t> in(n * sizeof(T) + nm * sizeof(U));
    T* x = reinterpret_cast<T*>(in.data());
    U* m = reinterpret_cast<U*>(in.data() + n * sizeof(T));
    for (uint32_t i = 0; i < n; ++i) {
        x[i] = static_cast<T>(std::uniform_real_distribution<float>(-50.f, 50.f)(Rng()));
    }
    for (uint32_t i = 0; i < nm; ++i) {
        const int v = std::uniform_int_distribution<int>(0, 3)(Rng());  // 0 half the time, else 1..3
        if constexpr (std::is_same_v<U, bool>) m[i] = v >= 2;
        else m[i] = static_cast<U>(v >= 2 ? v - 1 : 0);
    }
    const std::vector<uint8_t> mask0(in.begin() + n * sizeof(T), in.end());
    std::vector<uint8_t> out(in.size(), 0x5a);
    gCase = c;
    gScalar = std::uniform_real_distribution<float>(-9.f, 9.f)(Rng());
    ascend_twin::LaunchSpec spec;
    spec.kernel = "select";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&Kernel<T, U, reuse>);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size()}, {"out", out.data(), out.size()}};
    ascend_twin::Launch(spec);
    const T* y = reinterpret_cast<const T*>(out.data());
    const U* mOut = reinterpret_cast<const U*>(out.data() + n * sizeof(T));
    const U* mIn = reinterpret_cast<const U*>(mask0.data());
    const double scalar = Value(static_cast<T>(gScalar));
    int bad = 0;
    for (uint32_t r = 0; r < c.rows; ++r) {
        for (uint32_t k = 0; k < c.k1; ++k) {
            const bool set = mIn[r * c.k2 + k] != 0;
            // mask 0 takes src0, any other value src1 (the docs)
            const bool tensor = c.scalarFirst ? set : !set;
            const double ref = tensor ? Value(x[r * c.k1 + k]) : scalar;
            const double got = Value(y[r * c.k1 + k]);
            if (got != ref && bad++ < 3) {
                std::printf("  Select %ux%u/%u scalarFirst %d: [%u][%u] = %g, expected %g\n", c.rows, c.k1, c.k2,
                            c.scalarFirst, r, k, got, ref);
            }
        }
    }
    // The mask: unchanged unless isReuseMask with differing axes, where its front holds the compacted rows.
    for (uint32_t i = 0; i < nm; ++i) {
        U expect = mIn[i];
        if (reuse && c.k1 != c.k2 && i < n) expect = mIn[(i / c.k1) * c.k2 + i % c.k1];
        if (mOut[i] != expect && bad++ < 3) std::printf("  mask[%u] = %d, expected %d\n", i, int(mOut[i]), int(expect));
    }
    return bad != 0 ? 1 : 0;
}

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> x = ub.Alloc<float, 256>();
    LocalTensor<float> y = ub.Alloc<float, 256>();
    LocalTensor<uint8_t> m = ub.Alloc<uint8_t, 1024>();
    LocalTensor<float> mAsDst = m.ReinterpretCast<float>();  // 256 floats over the mask's bytes
    LocalTensor<uint8_t> t = ub.Alloc<uint8_t, 2048>();
    Duplicate(x, 1.5f, 256);
    Duplicate(m.ReinterpretCast<uint16_t>(), static_cast<uint16_t>(0x0100), 512);
    SelectWithBytesMaskShapeInfo info;  // [8, 32] floats, [8, 64] mask bytes
    info.firstAxis = 8;
    info.srcLastAxis = 32;
    info.maskLastAxis = 64;
    m.SetSize(8 * 64);
    LocalTensor<uint8_t> t1k = t;
    t1k.SetSize(1024);
    if constexpr (kFault == 0) Select(y, x, 2.0f, m, t1k, info);  // the clean counterpart
    if constexpr (kFault == 1) {  // the tensor's size is not firstAxis * srcLastAxis
        LocalTensor<float> shortX = x;
        shortX.SetSize(128);
        Select(y, shortX, 2.0f, m, t1k, info);
    }
    if constexpr (kFault == 2) {  // the mask's size is not firstAxis * maskLastAxis
        LocalTensor<uint8_t> shortM = m;
        shortM.SetSize(256);
        Select(y, x, 2.0f, shortM, t1k, info);
    }
    if constexpr (kFault == 3) {  // the mask's last axis under the tensor's
        SelectWithBytesMaskShapeInfo narrow = info;
        narrow.srcLastAxis = 64;
        narrow.maskLastAxis = 32;
        narrow.firstAxis = 4;
        LocalTensor<uint8_t> m128 = m;
        m128.SetSize(128);
        Select(y, x, 2.0f, m128, t1k, narrow);
    }
    if constexpr (kFault == 4) {  // a mask row of 40 bytes
        SelectWithBytesMaskShapeInfo odd = info;
        odd.maskLastAxis = 40;
        LocalTensor<uint8_t> m320 = m;
        m320.SetSize(320);
        Select(y, x, 2.0f, m320, t1k, odd);
    }
    if constexpr (kFault == 5) {  // a tensor row of 4 floats (16 bytes)
        SelectWithBytesMaskShapeInfo odd = info;
        odd.firstAxis = 64;
        odd.srcLastAxis = 4;
        odd.maskLastAxis = 32;
        LocalTensor<uint8_t> m2k = t;
        m2k.SetSize(2048);
        Select(y, x, 2.0f, m2k, t1k, odd);
    }
    if constexpr (kFault == 6) {  // 992 bytes of buffer
        LocalTensor<uint8_t> small = t;
        small.SetSize(992);
        Select(y, x, 2.0f, m, small, info);
    }
    if constexpr (kFault == 7) Select<float, uint8_t, false>(y, x, 2.0f, m, t1k, info);  // no room for the mask copy
    if constexpr (kFault == 8) {  // dst of 128 elements
        LocalTensor<float> shortY = y;
        shortY.SetSize(128);
        Select(shortY, x, 2.0f, m, t1k, info);
    }
    if constexpr (kFault == 9) {  // dst 8 elements into the tensor
        LocalTensor<float> shifted = x[8];
        shifted.SetSize(256);
        Select(shifted, x, 2.0f, m, t1k, info);
    }
    if constexpr (kFault == 10) Select(mAsDst, x, 2.0f, m, t1k, info);  // dst is the mask
    if constexpr (kFault == 11) Select(y, x, 2.0f, m, y.ReinterpretCast<uint8_t>(), info);  // the buffer is dst
    if constexpr (kFault == 12) Select(x, x, 2.0f, m, t1k, info);  // the clean counterpart of 9: in place
    if constexpr (kFault == 13) {  // the clean counterpart of 7: 1024 + the 256-byte compacted mask
        LocalTensor<uint8_t> enough = t;
        enough.SetSize(1280);
        Select<float, uint8_t, false>(y, x, 2.0f, m, enough, info);
    }
    if constexpr (kFault == 14) Select(y, 2.0f, x, m, t1k, info);  // the clean counterpart, scalar first
}

using fault::Broke;

}  // namespace

TEST_CASE("Select with a byte mask: half and float, four mask dtypes, both scalar positions")
{
    int failed = 0;
    failed += Run<float, uint8_t, true>({2, 32, 32, false, 1024});
    failed += Run<float, uint8_t, true>({7, 24, 64, true, 1024});
    failed += Run<float, uint8_t, false>({7, 24, 64, false, 1024 + 192});
    failed += Run<half, bool, true>({5, 48, 64, false, 1024});
    failed += Run<half, int16_t, false>({3, 16, 32, true, 1024 + 96});
    failed += Run<float, int32_t, true>({4, 8, 16, true, 2048});
    failed += Run<half, uint8_t, true>({40, 160, 160, false, 1024});
    CHECK_EQ(failed, 0);
}

TEST_CASE("GetSelectMaxMinTmpSize gives A2's sizes")
{
    uint32_t mx = 0, mn = 0;
    GetSelectMaxMinTmpSize(ge::Shape({2, 32}), ge::Shape({1}), 4, ge::Shape({2, 32}), 1, false, mx, mn);
    CHECK_EQ(mx, 1024u);  // max(1024, 64 * 2 + 512)
    CHECK_EQ(mn, 1024u);
    GetSelectMaxMinTmpSize(ge::Shape({100, 100}), ge::Shape({1}), 2, ge::Shape({100, 128}), 1, false, mx, mn);
    CHECK_EQ(mx, 10016u * 2 + 512 + 10016u);  // 10000 -> 10016; the compacted mask 10000 bytes -> 10016
    CHECK_EQ(mn, 4096u * 2 + 512 + 10016u);
    GetSelectMaxMinTmpSize(ge::Shape(std::vector<int64_t>{}), ge::Shape({100, 100}), 2, ge::Shape({100, 128}), 2, true, mx, mn);
    CHECK_EQ(mx, 10016u * 2 + 512);  // isReuseMask: no mask copy; src1 the tensor
    CHECK_EQ(GetSelectMinTmpSize(ge::Shape({100, 100}), ge::Shape({1}), 2, ge::Shape({100, 128}), 1, true),
             4096u * 2 + 512);
    CHECK_EQ(GetSelectWithBytesMaskMaxTmpSize(ge::Shape({8, 8}), ge::Shape({1}), 4, ge::Shape({8, 32}), 4, false),
             1024u + 256u);
}

TEST_CASE("Select rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "Select: info.firstAxis * info.srcLastAxis is the source tensor's size"));
    CHECK(Broke(&FaultKernel<2>, "Select: info.firstAxis * info.maskLastAxis is the mask's size"));
    CHECK(Broke(&FaultKernel<3>, "Select: info.maskLastAxis >= info.srcLastAxis"));
    CHECK(Broke(&FaultKernel<4>, "Select: the mask's last axis is 32-byte aligned and a multiple of 16 elements (docs: "
                                 "maskTensor尾轴需32字节对齐且元素个数为16的倍数)"));
    CHECK(Broke(&FaultKernel<5>, "Select: the source tensor's last axis is 32-byte aligned (docs: "
                                 "源操作数Tensor尾轴需32字节对齐)"));
    CHECK(Broke(&FaultKernel<6>, "Select: sharedTmpBuffer holds at least 1024 bytes (GetSelectMaxMinTmpSize's minimum)"));
    CHECK(Broke(&FaultKernel<7>, "Select: sharedTmpBuffer holds 1024 bytes and the compacted mask (isReuseMask false, "
                                 "maskLastAxis != srcLastAxis; GetSelectMaxMinTmpSize's minimum)"));
    CHECK(Broke(&FaultKernel<8>, "Select: dst holds info.firstAxis * info.srcLastAxis elements"));
    CHECK(Broke(&FaultKernel<9>, "Select: dst is the source tensor or shares no byte with it (docs: "
                                 "源操作数与目的操作数可以复用)"));
    CHECK(Broke(&FaultKernel<10>, "Select: dst and mask do not overlap"));
    CHECK(Broke(&FaultKernel<11>, "Select: sharedTmpBuffer overlaps no operand"));
    CHECK(Broke(&FaultKernel<12>, ""));
    CHECK(Broke(&FaultKernel<13>, ""));
    CHECK(Broke(&FaultKernel<14>, ""));
}

TEST_MAIN()
