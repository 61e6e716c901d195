// AscendAntiQuant<int8_t / int4b_t, half, false> ("lib/quantization/ascend_antiquant.h": per channel with tensor
// offset and scale; scalar offset and scale; scalar scale) against float64 references computed here from fresh random inputs (src
// a whole number of 32-byte blocks): N a multiple of 128, below 128, with a tail past the last 128 columns; K above 255
// (two row groups); with and without sharedTmpBuffer; every run-time rule with a planted fault and a clean
// counterpart.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "adv_launch.h"
#include "check.h"
#include "fault_launch.h"
#include "lib/quantization/ascend_antiquant.h"

using namespace AscendC;

namespace {

struct Case {
    uint32_t k = 8, n = 128;
    bool shared = true;
    int scalar = 0;  // 0 tensor offset and scale; 1 scalar offset and scale; 2 scalar scale only
    float offset = 0, scale = 0;  // the scalars (half values)
    bool int4 = false;            // int4b_t src (two elements a byte, low nibble first)
};
Case gCase;

uint32_t Pad32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

// in = src [k * n] int8 | offset [n] half | scale [n] half; out = dst [k * n] half (32-byte padded each).
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    const uint32_t total = c.k * c.n;
    const uint32_t sBytes = Pad32(c.int4 ? total / 2 : total), nBytes = Pad32(c.n * 2), dBytes = Pad32(total * 2);
    TPipe pipe;
    TBuf<TPosition::VECIN> sb, ob, cb;
    TBuf<TPosition::VECOUT> db;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(sb, sBytes);
    pipe.InitBuffer(ob, nBytes);
    pipe.InitBuffer(cb, nBytes);
    pipe.InitBuffer(db, dBytes);
    pipe.InitBuffer(tb, 1024);
    LocalTensor<int8_t> src = sb.Get<int8_t>(c.int4 ? total / 2 : total);
    LocalTensor<half> offset = ob.Get<half>(c.n), scale = cb.Get<half>(c.n), dst = db.Get<half>();
    GlobalTensor<uint8_t> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(out));
    DataCopy(src.ReinterpretCast<uint8_t>(), inGm, sBytes);
    DataCopy(offset.ReinterpretCast<uint8_t>(), inGm[sBytes], nBytes);
    DataCopy(scale.ReinterpretCast<uint8_t>(), inGm[sBytes + nBytes], nBytes);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    const half so = static_cast<half>(c.offset), ss = static_cast<half>(c.scale);
    const LocalTensor<int4b_t> src4 = src.ReinterpretCast<int4b_t>();
    if (c.int4 && c.scalar == 1) AscendAntiQuant<int4b_t, half, false>(dst, src4, so, ss, tb.Get<uint8_t>(), c.k);
    else if (c.int4) AscendAntiQuant<int4b_t, half, false>(dst, src4, offset, scale, tb.Get<uint8_t>(), c.k);
    else if (c.scalar == 1 && c.shared) AscendAntiQuant<int8_t, half, false>(dst, src, so, ss, tb.Get<uint8_t>(), c.k);
    else if (c.scalar == 1) AscendAntiQuant<int8_t, half, false>(dst, src, so, ss, c.k);
    else if (c.scalar == 2) AscendAntiQuant<int8_t, half, false>(dst, src, ss, tb.Get<uint8_t>(), c.k);
    else if (c.shared) AscendAntiQuant<int8_t, half, false>(dst, src, offset, scale, tb.Get<uint8_t>(), c.k);
    else AscendAntiQuant<int8_t, half, false>(dst, src, offset, scale, c.k);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, dst.ReinterpretCast<uint8_t>(), dBytes);
}

using check::Rng;

int Run(Case c, const char* what)
{
    c.offset = static_cast<float>(adv::RoundHalf(std::uniform_real_distribution<float>(-10, 10)(Rng())));
    c.scale = static_cast<float>(adv::RoundHalf(std::uniform_real_distribution<float>(-2, 2)(Rng())));
    gCase = c;
    const uint32_t total = c.k * c.n;
    const uint32_t sBytes = Pad32(c.int4 ? total / 2 : total), nBytes = Pad32(c.n * 2);
    std::vector<uint8_t> in(sBytes + 2 * nBytes);
    std::vector<double> src(total), off(c.n), sc(c.n);
    std::uniform_int_distribution<int> q(c.int4 ? -8 : -128, c.int4 ? 7 : 127);
    for (uint32_t i = 0; i < total; ++i) {
        const int v = q(Rng());
        if (c.int4) in[i / 2] |= static_cast<uint8_t>((v & 0xf) << (4 * (i % 2)));
        else in[i] = static_cast<uint8_t>(static_cast<int8_t>(v));
        src[i] = v;
    }
    for (uint32_t j = 0; j < c.n; ++j) {
        off[j] = adv::Put<half>(in.data() + sBytes + j * 2, std::uniform_real_distribution<float>(-10, 10)(Rng()));
        sc[j] = adv::Put<half>(in.data() + sBytes + nBytes + j * 2, std::uniform_real_distribution<float>(-2, 2)(Rng()));
    }
    std::vector<uint8_t> out(Pad32(total * 2));
    if (!adv::Launch1(&Kernel, "antiquant", in, out, what)) return 1;
    int bad = 0;
    for (uint32_t i = 0; i < c.k; ++i) {
        for (uint32_t j = 0; j < c.n; ++j) {
            // (src + offset) * scale; A2 rounds the sum and the product to half: within 2 * 2^-11 of float64
            const double o = c.scalar == 0 ? off[j] : (c.scalar == 1 ? c.offset : 0.0);
            const double want = (src[i * c.n + j] + o) * (c.scalar == 0 ? sc[j] : c.scale);
            const double got = adv::Get<half>(out.data() + (i * c.n + j) * 2);
            if (!(std::fabs(got - want) <= 1.1e-3 * std::fabs(want) + 1e-6) && bad++ < 3) {
                std::printf("  %s: dst[%u][%u] = %.9g, expected %.9g\n", what, i, j, got, want);
            }
        }
    }
    return bad;
}

// src [8, 128] int8, offset and scale [128], dst [8, 128] half, a 1024-byte temporary buffer.
template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    (void)pipe;
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<int8_t> src = ub.Alloc<int8_t, 1024>();
    LocalTensor<half> dst = ub.Alloc<half, 1024>();
    LocalTensor<half> offset = ub.Alloc<half, 128>();
    LocalTensor<half> scale = ub.Alloc<half, 128>();
    LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 1024>();
    Duplicate(src.ReinterpretCast<int16_t>(), int16_t(0x0102), 512);
    Duplicate(offset, half(0.5f), 128);
    Duplicate(scale, half(2.0f), 128);
    PipeBarrier<PIPE_V>();
    if constexpr (kFault == 0) AscendAntiQuant<int8_t, half, false>(dst, src, offset, scale, tmp, 8);  // clean
    if constexpr (kFault == 1) AscendAntiQuant<int8_t, half, false>(dst, src, offset, scale, tmp, 0);
    if constexpr (kFault == 2) AscendAntiQuant<int8_t, half, false>(dst, src, offset, scale, tmp, 7);
    if constexpr (kFault == 3) AscendAntiQuant<int8_t, half, false>(dst, src, offset, scale, tmp, 128);  // N 8
    if constexpr (kFault == 4) {
        LocalTensor<half> small = dst;
        small.SetSize(1008);
        AscendAntiQuant<int8_t, half, false>(small, src, offset, scale, tmp, 8);
    }
    if constexpr (kFault == 5) {
        LocalTensor<half> small = scale;
        small.SetSize(112);
        AscendAntiQuant<int8_t, half, false>(dst, src, offset, small, tmp, 8);
    }
    if constexpr (kFault == 6 || kFault == 7) {  // shapeInfo [1, 256] for 128 elements; 7: [1, 128] (clean)
        const AntiQuantShapeInfo info = {1, kFault == 6 ? 256u : 128u, 1, 128};
        AscendAntiQuant<int8_t, half, false>(dst, src, offset, scale, tmp, 8, info);
    }
    if constexpr (kFault == 8) {  // offset inside dst
        LocalTensor<half> inside = dst[512];
        inside.SetSize(128);
        AscendAntiQuant<int8_t, half, false>(dst, src, inside, scale, tmp, 8);
    }
    if constexpr (kFault == 9) {  // src the first half of dst
        LocalTensor<int8_t> inside = dst.ReinterpretCast<int8_t>();
        inside.SetSize(1024);
        AscendAntiQuant<int8_t, half, false>(dst, inside, offset, scale, tmp, 8);
    }
    if constexpr (kFault == 10) AscendAntiQuant<int8_t, half, false>(dst[8], src, offset, scale, tmp, 7);
    if constexpr (kFault == 11) AscendAntiQuant<int8_t, half, false>(dst, src, offset, scale, 8);  // clean: framework
    if constexpr (kFault == 12) {  // N 8192 halves = 512 blocks: past the 8-bit repeat stride
        LocalTensor<int8_t> big = ub.Alloc<int8_t, 8192>();
        LocalTensor<half> bigDst = ub.Alloc<half, 8192>();
        LocalTensor<half> bigOff = ub.Alloc<half, 8192>();
        LocalTensor<half> bigScale = ub.Alloc<half, 8192>();
        AscendAntiQuant<int8_t, half, false>(bigDst, big, bigOff, bigScale, tmp, 1);
    }
    // the scalar forms: 13 clean (k is not read: 7), 14 dst short, 15 src inside dst
    if constexpr (kFault == 13) AscendAntiQuant<int8_t, half, false>(dst, src, half(0.5f), half(2.0f), tmp, 7);
    if constexpr (kFault == 14) {
        LocalTensor<half> small = dst;
        small.SetSize(1008);
        AscendAntiQuant<int8_t, half, false>(small, src, half(2.0f), tmp, 8);
    }
    if constexpr (kFault == 15) {
        LocalTensor<int8_t> inside = dst.ReinterpretCast<int8_t>();
        inside.SetSize(1024);
        AscendAntiQuant<int8_t, half, false>(dst, inside, half(0.5f), half(2.0f), 8);
    }
}

using fault::Broke;

}  // namespace

TEST_CASE("AscendAntiQuant int8_t/int4b_t -> half, tensor and scalar forms: shapes, row groups, column tails, against float64")
{
    const Case cases[] = {{8, 128, true},    {8, 128, false},  {4, 16, true},      {5, 256, true},
                          {300, 144, true},  {260, 48, false}, {2, 2000, true},    {8, 128, true, 1},
                          {8, 128, false, 1}, {3, 96, true, 2}, {100, 160, true, 1},
                          {8, 128, true, 0, 0, 0, true}, {300, 144, true, 0, 0, 0, true},
                          {4, 64, true, 1, 0, 0, true}};
    int failed = 0;
    char what[96];
    for (const Case& c : cases) {
        std::snprintf(what, sizeof(what), "%s [%u, %u]%s%s", c.int4 ? "int4b_t" : "int8_t", c.k, c.n,
                      c.shared ? "" : " framework", c.scalar == 1 ? " scalars" : (c.scalar == 2 ? " scalar scale" : ""));
        failed += Run(c, what) != 0 ? 1 : 0;
    }
    CHECK_EQ(failed, 0);
}

TEST_CASE("AscendAntiQuant rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    const char* kRule = "AscendAntiQuant: k > 0 and src.GetSize() a multiple of k (src is [K, N] with K = k, docs)";
    CHECK(Broke(&FaultKernel<1>, kRule));
    CHECK(Broke(&FaultKernel<2>, kRule));
    const char* nRule = "AscendAntiQuant: N * sizeof(half) is a multiple of 32 (docs: 参与计算的数据长度要求32B对齐) and "
                        "at most 255 blocks (A2 puts N * 2 / 32 into an 8-bit repeat stride)";
    CHECK(Broke(&FaultKernel<3>, nRule));
    CHECK(Broke(&FaultKernel<4>, "AscendAntiQuant: dst holds src.GetSize() elements"));
    CHECK(Broke(&FaultKernel<5>, "AscendAntiQuant: offset and scale hold N = src.GetSize() / k elements (one per "
                                 "column)"));
    CHECK(Broke(&FaultKernel<6>, "AscendAntiQuant: shapeInfo.offsetHeight * offsetWidth <= offset.GetSize() and "
                                 "scaleHeight * scaleWidth <= scale.GetSize() (A2's check)"));
    CHECK(Broke(&FaultKernel<7>, ""));
    const char* over = "AscendAntiQuant: dst overlaps no source (docs: 不支持源操作数与目的操作数地址重叠; A2's check)";
    CHECK(Broke(&FaultKernel<8>, over));
    CHECK(Broke(&FaultKernel<9>, over));
    CHECK(fault::Violation(&FaultKernel<10>).rfind("AscendAntiQuant: ", 0) == 0);  // misaligned dst
    CHECK(Broke(&FaultKernel<11>, ""));
    CHECK(Broke(&FaultKernel<12>, nRule));
    CHECK(Broke(&FaultKernel<13>, ""));
    CHECK(Broke(&FaultKernel<14>, "AscendAntiQuant: dst holds src.GetSize() elements"));
    CHECK(Broke(&FaultKernel<15>, over));
}

TEST_MAIN()
