// Brcb, Axpy's mask/repeat forms and DataCopy UB -> UB against hand-computed values; their rules: Brcb's
// dstBlkStride 0 and src/dst overlap, Axpy half -> float overlap, the UB -> UB copy on the V pipe (a missing
// MTE2 -> V wait is caught, the V -> V order is not required), blockCount's range.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "kernel_operator.h"
#include "twin/launch.h"
#include "fault_launch.h"

using namespace AscendC;

namespace {

// in: 64 floats. out: Brcb result (16 blocks = 128 floats) ++ Axpy results (128 floats) ++ copies (128 floats).
void Kernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, bb, ab, cb, hb;
    pipe.InitBuffer(xb, 64 * sizeof(float));
    pipe.InitBuffer(bb, 128 * sizeof(float));
    pipe.InitBuffer(ab, 128 * sizeof(float));
    pipe.InitBuffer(cb, 128 * sizeof(float));
    pipe.InitBuffer(hb, 64 * sizeof(half));
    GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    LocalTensor<float> x = xb.Get<float>();
    LocalTensor<float> b = bb.Get<float>();
    LocalTensor<float> a = ab.Get<float>();
    LocalTensor<float> c = cb.Get<float>();
    DataCopy(x, inGm, 64);
    Duplicate(b, -1.0f, 128);
    Duplicate(a, 1.0f, 128);
    Duplicate(c, -2.0f, 128);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    // Brcb: 2 repeats of 8 elements, dstBlkStride 1, dstRepStride 8: 16 contiguous blocks.
    Brcb(b, x, 2, {1, 8});
    // Axpy float/float, continuous mask 10 lanes, 2 repeats: a[r*64 + j] = x[j] * 2 + 1 for j < 10.
    Axpy(a, x, 2.0f, uint64_t(10), 2, {1, 1, 8, 0});
    // Axpy float/half, bitwise mask: lane 63 only, into c[64..128) (c = -2 there).
    LocalTensor<half> h = hb.Get<half>();
    Cast(h, x, RoundMode::CAST_NONE, 64);  // h = half(x[0..64))
    uint64_t last[2] = {1ull << 63, 0};
    Axpy(c[64], h, half(3.0f), last, 1, {1, 1, 8, 4});
    // UB -> UB copies: count form (8 floats), and DataCopyParams: 2 blocks of 1, srcGap 1, dstGap 2.
    DataCopy(c, b, 8);
    DataCopy(c[16], b[8], DataCopyParams{2, 1, 1, 2});
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, b, 128);
    DataCopy(outGm[128], a, 128);
    DataCopy(outGm[256], c, 128);
}

using fault::Broke;
using fault::Violation;

template <int kFault>
void FaultKernel(GM_ADDR in, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb;
    pipe.InitBuffer(xb, 512);
    pipe.InitBuffer(yb, 512);
    GlobalTensor<float> inGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    LocalTensor<float> x = xb.Get<float>();
    LocalTensor<float> y = yb.Get<float>();
    if constexpr (kFault == 0 || kFault == 1) {  // UB -> UB copy of freshly copied-in data
        DataCopy(x, inGm, 64);
        if constexpr (kFault == 1) {
            SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
            WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        }
        DataCopy(y, x, 64);
        Adds(y, y, 1.0f, 64);  // V after V: ordered without a barrier
        return;
    }
    Duplicate(x, 1.0f, 128);
    Duplicate(y, 1.0f, 128);
    if constexpr (kFault == 2) Brcb(y, x, 1, {0, 8});
    if constexpr (kFault == 3) Brcb(x, x[8], 1, {1, 8});  // dst blocks over the 8 floats read
    if constexpr (kFault == 4) Brcb(y, x, 1, {1, 8});     // the clean counterpart
    if constexpr (kFault == 5) Axpy(x, x.ReinterpretCast<half>(), half(1.0f), uint64_t(64), 1, {1, 1, 8, 4});
    if constexpr (kFault == 6) Axpy(x, y.ReinterpretCast<half>(), half(1.0f), uint64_t(64), 1, {1, 1, 8, 4});
    if constexpr (kFault == 7) DataCopy(y, x, DataCopyParams{4096, 1, 0, 0});
    if constexpr (kFault == 8) Axpy(x, x.ReinterpretCast<half>(), half(1.0f), 64);
}

}  // namespace

TEST_CASE("Brcb, Axpy mask forms and DataCopy UB->UB compute what the docs define")
{
    std::vector<float> in(64), out(384, 0.0f);
    for (int i = 0; i < 64; ++i) in[i] = static_cast<float>(i + 1);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "brcb_test";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&Kernel);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size() * sizeof(float)}, {"out", out.data(), out.size() * sizeof(float)}};
    const ascend_twin::LaunchStats stats = ascend_twin::Launch(spec);
    const float* b = out.data();
    const float* a = out.data() + 128;
    const float* c = out.data() + 256;
    for (int i = 0; i < 128; ++i) CHECK_EQ(b[i], static_cast<float>(i / 8 + 1));  // block k holds x[k]
    for (int r = 0; r < 2; ++r) {
        for (int j = 0; j < 64; ++j) {
            // srcRepStride 0: both repeats read x[0..10).
            CHECK_EQ(a[r * 64 + j], j < 10 ? static_cast<float>(j + 1) * 2.0f + 1.0f : 1.0f);
        }
    }
    for (int i = 0; i < 8; ++i) CHECK_EQ(c[i], b[i]);                  // count form
    for (int i = 8; i < 16; ++i) CHECK_EQ(c[i], -2.0f);
    for (int i = 0; i < 8; ++i) CHECK_EQ(c[16 + i], b[8 + i]);         // block 0: b[8..16)
    for (int i = 24; i < 40; ++i) CHECK_EQ(c[i], -2.0f);              // dstGap 2 blocks
    for (int i = 0; i < 8; ++i) CHECK_EQ(c[40 + i], b[24 + i]);        // block 1: after srcGap 1
    for (int i = 64; i < 127; ++i) CHECK_EQ(c[i], -2.0f);
    CHECK_EQ(c[127], 64.0f * 3.0f - 2.0f);                             // lane 63: half(64) * 3 + (-2)
    const auto& k = stats.cores[0];
    CHECK_EQ(k.vecElementOps[static_cast<uint32_t>(ascend_twin::VecOp::kBrcb)], 128ull);
    CHECK_EQ(k.vecRepeats[static_cast<uint32_t>(ascend_twin::VecOp::kBrcb)], 2ull);
    CHECK_EQ(k.vecElementOps[static_cast<uint32_t>(ascend_twin::VecOp::kAxpy)], 21ull);
}

TEST_CASE("Brcb/Axpy/DataCopy(UB->UB) rules")
{
    CHECK(Broke(&FaultKernel<0>,
                "DataCopy(UB->UB): accesses of different pipes to the same UB bytes are ordered by synchronisation"));
    CHECK(Broke(&FaultKernel<1>, ""));
    CHECK(Broke(&FaultKernel<2>, "Brcb: Brcb's dstBlkStride is not 0 (undefined behaviour on the device)"));
    CHECK(Broke(&FaultKernel<3>, "Brcb: Brcb's src and dst do not share memory"));
    CHECK(Broke(&FaultKernel<4>, ""));
    CHECK(Broke(&FaultKernel<5>, "Axpy: Axpy from half to float does not overlap src and dst"));
    CHECK(Broke(&FaultKernel<6>, ""));
    CHECK(Broke(&FaultKernel<7>, "DataCopy(UB->UB): blockCount is within the instruction's range"));
    CHECK(Broke(&FaultKernel<8>, "Axpy: Axpy from half to float does not overlap src and dst"));
}

TEST_MAIN()
