// Xor ("lib/math/xor.h") against references computed here bit by bit from fresh random inputs, int16_t and
// uint16_t, its four forms, with counts that take several parts of a small temporary buffer and a tail;
// GetXorMaxMinTmpSize / GetXorTmpBufferFactorSize; every run-time rule with a planted fault and a clean counterpart.
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "fault_launch.h"
#include "lib/math/xor.h"
#include "tiling/math/xor_tiling.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

constexpr uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

struct Case {
    int form = 0;  // 0 tmp + calCount, 1 framework + calCount, 2 tmp, 3 framework (over src0's size)
    uint32_t n = 1;
    uint32_t tmpBytes = 256;
};
Case gCase;

template <typename T>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const uint32_t bytes = AlignUp(c.n * sizeof(T), 32);
    TPipe pipe;
    TBuf<TPosition::VECIN> ab, bb;
    TBuf<TPosition::VECOUT> yb;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(ab, bytes);
    pipe.InitBuffer(bb, bytes);
    pipe.InitBuffer(yb, bytes);
    const bool framework = c.form == 1 || c.form == 3;
    if (!framework) pipe.InitBuffer(tb, c.tmpBytes);
    GlobalTensor<T> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    LocalTensor<T> a = ab.Get<T>();
    LocalTensor<T> b = bb.Get<T>();
    LocalTensor<T> y = yb.Get<T>();
    const DataCopyExtParams copy{1, static_cast<uint32_t>(c.n * sizeof(T)), 0, 0, 0};
    DataCopyPad(a, inGm, copy, DataCopyPadExtParams<T>{false, 0, 0, 0});
    DataCopyPad(b, inGm[c.n], copy, DataCopyPadExtParams<T>{false, 0, 0, 0});
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    a.SetSize(c.n);
    b.SetSize(c.n);
    if (c.form == 0) Xor(y, a, b, tb.Get<uint8_t>(), c.n);
    else if (c.form == 1) Xor(y, a, b, c.n);
    else if (c.form == 2) Xor(y, a, b, tb.Get<uint8_t>());
    else Xor(y, a, b);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopyPad(outGm, y, copy);
}

using check::Rng;

// The reference: each of the 16 bits set when exactly one input has it.
uint16_t XorRef(uint16_t a, uint16_t b)
{
    uint16_t r = 0;
    for (int bit = 0; bit < 16; ++bit) {
        const bool x = ((a >> bit) & 1) != 0;
        const bool y = ((b >> bit) & 1) != 0;
        if (x != y) r = static_cast<uint16_t>(r | (1u << bit));
    }
    return r;
}

template <typename T>
int CheckType()
{
    int failed = 0;
    const Case cases[] = {{0, 1000, 256}, {0, 4096, 1024}, {1, 333, 0}, {2, 777, 512}, {3, 64, 0}};
    for (const Case& c : cases) {
        std::vector<T> in(2 * c.n);
        for (T& v : in) v = static_cast<T>(std::uniform_int_distribution<uint32_t>(0, 0xffff)(Rng()));
        std::vector<T> out(c.n);
        gCase = c;
        ascend_twin::LaunchSpec spec;
        spec.kernel = "xor";
        spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&Kernel<T>);
        spec.blockDim = 1;
        spec.args = {{"in", in.data(), in.size() * sizeof(T)}, {"out", out.data(), out.size() * sizeof(T)}};
        ascend_twin::Launch(spec);
        int bad = 0;
        for (uint32_t i = 0; i < c.n; ++i) {
            const uint16_t ref = XorRef(static_cast<uint16_t>(in[i]), static_cast<uint16_t>(in[c.n + i]));
            if (static_cast<uint16_t>(out[i]) != ref && bad++ < 3) {
                std::printf("  form %d n %u: %04x ^ %04x -> %04x, expected %04x\n", c.form, c.n,
                            static_cast<uint16_t>(in[i]), static_cast<uint16_t>(in[c.n + i]),
                            static_cast<uint16_t>(out[i]), ref);
            }
        }
        failed += bad != 0 ? 1 : 0;
    }
    return failed;
}

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<int16_t> a = ub.Alloc<int16_t, 256>();
    LocalTensor<int16_t> b = ub.Alloc<int16_t, 256>();
    LocalTensor<int16_t> y = ub.Alloc<int16_t, 256>();
    LocalTensor<uint8_t> t = ub.Alloc<uint8_t, 256>();
    Duplicate(a, static_cast<int16_t>(0x5a5a), 256);
    Duplicate(b, static_cast<int16_t>(0x0ff0), 256);
    if constexpr (kFault == 0) Xor(y, a, b, t, 256);  // the clean counterpart
    if constexpr (kFault == 1) {  // without calCount the sources differ in size
        LocalTensor<int16_t> shortB = b;
        shortB.SetSize(128);
        Xor(y, a, shortB, t);
    }
    if constexpr (kFault == 2) Xor(y, a, b, t, 257);  // past the tensors
    if constexpr (kFault == 3) Xor(a, a, b, t, 256);  // dst is src0
    if constexpr (kFault == 4) Xor(y, a, y, t, 256);  // dst is src1
    if constexpr (kFault == 5) {  // below the 256-byte minimum
        LocalTensor<uint8_t> small = t;
        small.SetSize(224);
        Xor(y, a, b, small, 256);
    }
    if constexpr (kFault == 6) Xor(y, a, b, y.ReinterpretCast<uint8_t>(), 128);  // the temporary buffer is dst
    if constexpr (kFault == 7) Xor(y, a, b, 256);  // the framework form without a TPipe
    if constexpr (kFault == 8) Xor(y, a, b, t, 100);  // the clean counterpart of 2: calCount within the tensors
    if constexpr (kFault == 9) {  // the clean counterpart of 5: exactly the minimum
        LocalTensor<uint8_t> exact = t;
        exact.SetSize(256);
        Xor(y, a, b, exact, 256);
    }
}

using fault::Broke;

}  // namespace

TEST_CASE("Xor int16_t: four forms against bitwise references") { CHECK_EQ(CheckType<int16_t>(), 0); }
TEST_CASE("Xor uint16_t: four forms against bitwise references") { CHECK_EQ(CheckType<uint16_t>(), 0); }

TEST_CASE("GetXorMaxMinTmpSize and GetXorTmpBufferFactorSize return A2's sizes")
{
    uint32_t mx = 1, mn = 1;
    GetXorMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn);
    CHECK_EQ(mn, 256u);
    CHECK_EQ(mx, 2000u);
    GetXorMaxMinTmpSize(ge::Shape({8, 8}), 2, true, mx, mn);  // below the minimum: the maximum is the minimum
    CHECK_EQ(mn, 256u);
    CHECK_EQ(mx, 256u);
    uint32_t live = 9, extra = 9;
    GetXorTmpBufferFactorSize(2, live, extra);
    CHECK_EQ(live, 1u);
    CHECK_EQ(extra, 0u);
}

TEST_CASE("Xor rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "Xor: without calCount, src0Tensor and src1Tensor hold the same number of elements "
                                 "(docs)"));
    CHECK(Broke(&FaultKernel<2>, "Xor: calCount is at most the number of elements dstTensor and the source tensors "
                                 "hold"));
    CHECK(Broke(&FaultKernel<3>, "Xor: src and dst do not overlap (docs: 不支持源操作数与目的操作数地址重叠)"));
    CHECK(Broke(&FaultKernel<4>, "Xor: src and dst do not overlap (docs: 不支持源操作数与目的操作数地址重叠)"));
    CHECK(Broke(&FaultKernel<5>, "Xor: sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum"));
    CHECK(Broke(&FaultKernel<6>, "Xor: sharedTmpBuffer does not overlap src or dst"));
    CHECK(Broke(&FaultKernel<7>, "Xor: without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 "
                                 "bytes) holds the API's minimum temporary size"));
    CHECK(Broke(&FaultKernel<8>, ""));
    CHECK(Broke(&FaultKernel<9>, ""));
}

TEST_MAIN()
