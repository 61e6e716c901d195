// Broadcast (high-level API, "lib/pad/broadcast.h") against references computed independently in double from
// fresh random inputs: 1-D (one element repeated, and a plain copy), 1-D -> 2-D along axis 1 ([m] as [m, 1] ->
// [m, k], k aligned and not) and along axis 0 ([k] as [1, k] -> [m, k]); float, half, int8_t, uint8_t; the
// sharedTmpBuffer form at the minimum, an intermediate and the maximum size, the framework's buffer and the
// BroadCast spelling. GetBroadCastMaxMinTmpSize against sizes worked out by hand from A2's formula. Every
// run-time rule with a planted fault and a clean counterpart (the compile-time rules: compile_fail/, see
// CMakeLists.txt).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "check.h"
#include "lib/pad/broadcast.h"
#include "tiling/pad/broadcast_tiling.h"
#include "twin/launch.h"
#include "fault_launch.h"

using namespace AscendC;

namespace {

constexpr uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

struct Case {
    uint32_t dstShape[2] = {1, 1};
    uint32_t srcShape[2] = {1, 1};
    int form = 0;           // 0: Broadcast + sharedTmpBuffer, 1: Broadcast with the framework's buffer, 2: BroadCast
    uint32_t tmpBytes = 32;  // forms 0 and 2
};

Case gCase;
bool gMaskNormalFull = false;

template <typename T, int32_t dim, int32_t axis>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const Case c = gCase;
    uint32_t srcN = 1;
    uint32_t dstN = 1;
    for (int32_t i = 0; i < dim; ++i) {
        srcN *= c.srcShape[i];
        dstN *= c.dstShape[i];
    }
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(inQ, 1, AlignUp(srcN * sizeof(T), 32));
    pipe.InitBuffer(outQ, 1, AlignUp(dstN * sizeof(T), 32));
    if (c.form != 1) pipe.InitBuffer(tmpBuf, c.tmpBytes);
    GlobalTensor<T> inGm;
    GlobalTensor<T> outGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    LocalTensor<T> x = inQ.template AllocTensor<T>();
    DataCopyPad(x, inGm, DataCopyExtParams{1, static_cast<uint32_t>(srcN * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, T(0)});
    inQ.EnQue(x);
    x = inQ.template DeQue<T>();
    LocalTensor<T> y = outQ.template AllocTensor<T>();
    SetMaskCount();  // Broadcast leaves the mask in normal mode with every lane on, as the device does
    if (c.form == 1) {
        Broadcast<T, dim, axis>(y, x, c.dstShape, c.srcShape);
    } else {
        LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
        if (c.form == 0) Broadcast<T, dim, axis>(y, x, c.dstShape, c.srcShape, tmp);
        else BroadCast<T, dim, axis>(y, x, c.dstShape, c.srcShape, tmp);
    }
    const ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    gMaskNormalFull = !core.maskCounter && core.maskHigh == ~0ull && core.maskLow == ~0ull;
    outQ.EnQue(y);
    inQ.FreeTensor(x);
    y = outQ.template DeQue<T>();
    DataCopyPad(outGm, y, DataCopyExtParams{1, static_cast<uint32_t>(dstN * sizeof(T)), 0, 0, 0});
    outQ.FreeTensor(y);
}

using check::Rng;

template <typename T>
T RandomValue()
{
    if constexpr (std::is_same_v<T, float>) {
        return std::uniform_real_distribution<float>(-1000.0f, 1000.0f)(Rng());
    } else if constexpr (std::is_same_v<T, half>) {
        return half(std::uniform_real_distribution<float>(-60000.0f, 60000.0f)(Rng()));
    } else {
        return static_cast<T>(std::uniform_int_distribution<int>(std::numeric_limits<T>::min(),
                                                                 std::numeric_limits<T>::max())(Rng()));
    }
}

template <typename T>
double ToDouble(T v)
{
    if constexpr (std::is_same_v<T, half>) return static_cast<double>(static_cast<float>(v));
    else return static_cast<double>(v);
}

template <typename T>
void TmpRange(int32_t dim, const Case& c, uint32_t& minValue, uint32_t& maxValue)
{
    const std::vector<int64_t> src(c.srcShape, c.srcShape + dim);
    const std::vector<int64_t> dst(c.dstShape, c.dstShape + dim);
    minValue = maxValue = 0xdeadbeef;
    GetBroadCastMaxMinTmpSize(*platform_ascendc::PlatformAscendCManager::GetInstance(), ge::Shape(src),
                              ge::Shape(dst), sizeof(T), false, maxValue, minValue);
}

template <typename T, int32_t dim, int32_t axis>
ascend_twin::LaunchStats Run(const Case& c, std::vector<T>& in, std::vector<T>& out)
{
    gCase = c;
    ascend_twin::LaunchSpec spec;
    spec.kernel = "broadcast";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&Kernel<T, dim, axis>);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size() * sizeof(T)}, {"out", out.data(), out.size() * sizeof(T)}};
    return ascend_twin::Launch(spec);
}

// One shape, every form and tmp size; returns the number of failed runs.
template <typename T, int32_t dim, int32_t axis>
int CheckShape(const char* what, uint32_t d0, uint32_t d1, uint32_t s0, uint32_t s1)
{
    Case c;
    c.dstShape[0] = d0;
    c.dstShape[1] = d1;
    c.srcShape[0] = s0;
    c.srcShape[1] = s1;
    const uint32_t rows = dim == 2 ? d0 : 1;
    const uint32_t cols = dim == 2 ? d1 : d0;
    const uint32_t srcRows = dim == 2 ? s0 : 1;
    const uint32_t srcCols = dim == 2 ? s1 : s0;
    uint32_t minValue = 0;
    uint32_t maxValue = 0;
    TmpRange<T>(dim, c, minValue, maxValue);
    if (minValue == 0xdeadbeef) {
        std::printf("  %s: GetBroadCastMaxMinTmpSize refused the shapes\n", what);
        return 1;
    }
    const uint32_t lo = AlignUp(minValue == 0 ? 32 : minValue, 32);
    const uint32_t hi = AlignUp(maxValue > lo ? maxValue : lo, 32);
    struct Run_ {
        int form;
        uint32_t tmp;
    } runs[] = {{0, lo}, {0, AlignUp((lo + hi) / 2, 32)}, {0, hi}, {1, 0}, {2, lo}};
    int failed = 0;
    for (const Run_& r : runs) {
        c.form = r.form;
        c.tmpBytes = r.tmp;
        std::vector<T> in(static_cast<size_t>(srcRows) * srcCols);
        for (T& v : in) v = RandomValue<T>();
        std::vector<T> out(static_cast<size_t>(rows) * cols);
        std::memset(out.data(), 0x5a, out.size() * sizeof(T));
        gMaskNormalFull = false;
        Run<T, dim, axis>(c, in, out);
        // The reference: numpy's broadcasting, element (r, j) of dst reads (r mod srcRows, j mod srcCols).
        int bad = 0;
        for (uint32_t r0 = 0; r0 < rows; ++r0) {
            for (uint32_t j = 0; j < cols; ++j) {
                const double ref = ToDouble(in[(r0 % srcRows) * srcCols + (j % srcCols)]);
                const double got = ToDouble(out[static_cast<size_t>(r0) * cols + j]);
                if (!(got == ref) && bad++ < 3) {
                    std::printf("  %s form %d tmp %u: (%u, %u) = %g, expected %g\n", what, r.form, r.tmp, r0, j, got,
                                ref);
                }
            }
        }
        if (!gMaskNormalFull) std::printf("  %s form %d: the mask is not normal with every lane on\n", what, r.form);
        failed += (bad != 0 || !gMaskNormalFull) ? 1 : 0;
    }
    return failed;
}

template <typename T>
int CheckType(uint32_t alignedCols)
{
    int failed = 0;
    // 1-D: one element repeated, and a copy.
    failed += CheckShape<T, 1, 0>("1-D [1] -> [37]", 37, 1, 1, 1);
    failed += CheckShape<T, 1, 0>("1-D [45] -> [45]", 45, 1, 45, 1);
    // 1-D -> 2-D along axis 1: [m] as [m, 1] -> [m, k].
    failed += CheckShape<T, 2, 1>("[m,1] -> [m,k], k aligned", 16, alignedCols, 16, 1);
    failed += CheckShape<T, 2, 1>("[m,1] -> [m,k], k aligned, many rows", 300, alignedCols * 2, 300, 1);
    failed += CheckShape<T, 2, 1>("[m,1] -> [m,k], k not aligned", 5, 13, 5, 1);
    failed += CheckShape<T, 2, 1>("[m,1] -> [m,k], k not aligned, many rows", 77, alignedCols + 3, 77, 1);
    failed += CheckShape<T, 2, 1>("[1,1] -> [1,k]", 1, 40, 1, 1);
    // 1-D -> 2-D along axis 0: [k] as [1, k] -> [m, k] (k * sizeof(T) a multiple of 32 bytes).
    failed += CheckShape<T, 2, 0>("[1,k] -> [m,k]", 7, alignedCols, 1, alignedCols);
    failed += CheckShape<T, 2, 0>("[1,k] -> [m,k], many rows", 130, alignedCols * 3, 1, alignedCols * 3);
    failed += CheckShape<T, 2, 0>("[1,k] -> [1,k]", 1, alignedCols, 1, alignedCols);
    return failed;
}

// --- planted faults --------------------------------------------------------------------------------------

template <int kFault>
void FaultKernel(GM_ADDR in, GM_ADDR)
{
    if constexpr (kFault == 20) {  // a b16 type outside A2's list: compiles, refused when it runs
        LocalMemAllocator<Hardware::UB> ub;
        LocalTensor<bfloat16_t> a = ub.Alloc<bfloat16_t, 256>();
        LocalTensor<bfloat16_t> b = ub.Alloc<bfloat16_t, 256>();
        LocalTensor<uint8_t> t = ub.Alloc<uint8_t, 1024>();
        const uint32_t d2[2] = {4, 16};
        const uint32_t s2[2] = {4, 1};
        Broadcast<bfloat16_t, 2, 1>(b, a, d2, s2, t);
        return;
    }
    if constexpr (kFault >= 16) {  // with a TPipe: the framework's buffer, and the pipes around Broadcast
        TPipe pipe;
        TBuf<TPosition::VECCALC> sb, db, fill;
        pipe.InitBuffer(sb, 32);
        pipe.InitBuffer(db, 128);
        LocalTensor<float> s = sb.Get<float>();
        LocalTensor<float> d = db.Get<float>();
        const uint32_t dShape[2] = {4, 8};
        const uint32_t sShape[2] = {4, 1};
        if constexpr (kFault == 16 || kFault == 17) {
            // UB left for the framework's buffer: 224 bytes (minimum 256 - 32), then exactly 256.
            const uint32_t left = kFault == 16 ? 224 : 256;
            pipe.InitBuffer(fill, 196608 - 128 - 32 - 128 - left);
            Duplicate(s, 2.0f, 8);
            Broadcast<float, 2, 1>(d, s, dShape, sShape);
        } else {  // 18: src copied in without MTE2 -> V; 19: with it
            GlobalTensor<float> inGm;
            inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
            pipe.InitBuffer(fill, 256);
            LocalTensor<uint8_t> tmp = fill.Get<uint8_t>();
            DataCopy(s, inGm, 8);
            if constexpr (kFault == 19) {
                SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
                WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
            }
            Broadcast<float, 2, 1>(d, s, dShape, sShape, tmp);
        }
        return;
    } else {
        LocalMemAllocator<Hardware::UB> ub;
        LocalTensor<float> a = ub.Alloc<float, 256>();
        LocalTensor<float> b = ub.Alloc<float, 256>();
        LocalTensor<uint8_t> t = ub.Alloc<uint8_t, 1024>();
        LocalTensor<uint8_t> tA1 = LocalMemAllocator<Hardware::L1>().Alloc<TPosition::A1, uint8_t, 1024>();
        Duplicate(a, 1.0f, 256);
        const uint32_t d2[2] = {4, 8};
        const uint32_t s2[2] = {4, 1};  // float, axis 1, k aligned: minimum 256 bytes
        if constexpr (kFault == 0) Broadcast<float, 2, 1>(b, a, d2, s2, t);  // the clean counterpart
        if constexpr (kFault == 1) Broadcast<float, 2, 1>(b, a, d2, s2, tA1);
        if constexpr (kFault == 2) Broadcast<float, 2, 1>(b, a[1], d2, s2, t);
        if constexpr (kFault == 3) Broadcast<float, 2, 1>(b, a[8], d2, s2, t);
        if constexpr (kFault == 4) {
            const uint32_t s3[2] = {3, 1};
            Broadcast<float, 2, 1>(b, a, d2, s3, t);
        }
        if constexpr (kFault == 5) Broadcast<float, 2, 0>(b, a, d2, s2, t);
        if constexpr (kFault == 6 || kFault == 7) {
            const uint32_t d[2] = {3, kFault == 6 ? 4u : 8u};
            const uint32_t s[2] = {1, kFault == 6 ? 4u : 8u};
            Broadcast<float, 2, 0>(b, a, d, s, t);
        }
        if constexpr (kFault == 8) {
            LocalTensor<float> small = b;
            small.SetSize(16);  // dstShape has 32 elements
            Broadcast<float, 2, 1>(small, a, d2, s2, t);
        }
        if constexpr (kFault == 9) Broadcast<float, 2, 1>(a, a[8], d2, s2, t);  // src inside dst
        if constexpr (kFault == 10 || kFault == 11) {
            LocalTensor<uint8_t> tmp = t;
            tmp.SetSize(kFault == 10 ? 224 : 256);
            Broadcast<float, 2, 1>(b, a, d2, s2, tmp);
        }
        if constexpr (kFault == 12) {
            LocalTensor<uint8_t> overDst = b.ReinterpretCast<uint8_t>();  // its first 256 bytes hold dst's 128
            Broadcast<float, 2, 1>(b, a, d2, s2, overDst);
        }
        if constexpr (kFault == 13) {
            LocalTensor<uint8_t> after = b.ReinterpretCast<uint8_t>()[512];  // past dst's 128 bytes
            Broadcast<float, 2, 1>(b, a, d2, s2, after);
        }
        if constexpr (kFault == 14) Broadcast<float, 2, 1>(b, a, d2, s2);  // no TPipe
        if constexpr (kFault == 15) {
            BroadcastTiling tiling{};
            Broadcast<float>(b, a, d2, s2, &tiling);
        }
    }
}

using fault::Broke;
using fault::Violation;

}  // namespace

TEST_CASE("Broadcast float: 1-D, 1-D -> 2-D along axis 1 and axis 0, every form") { CHECK_EQ(CheckType<float>(8), 0); }
TEST_CASE("Broadcast half: 1-D, 1-D -> 2-D along axis 1 and axis 0, every form") { CHECK_EQ(CheckType<half>(16), 0); }
TEST_CASE("Broadcast int8_t and uint8_t (through half on A2)")
{
    CHECK_EQ(CheckType<int8_t>(32), 0);
    CHECK_EQ(CheckType<uint8_t>(32), 0);
}

TEST_CASE("Broadcast counts one V instruction")
{
    Case c;
    c.dstShape[0] = 4;
    c.dstShape[1] = 80;
    c.srcShape[0] = 4;
    c.srcShape[1] = 1;
    c.tmpBytes = 4096;
    std::vector<float> in(4, 1.0f), out(320);
    const ascend_twin::LaunchStats stats = Run<float, 2, 1>(c, in, out);
    const auto& k = stats.cores[0];
    const uint32_t op = static_cast<uint32_t>(ascend_twin::VecOp::kBroadcast);
    CHECK_EQ(k.vecElementOps[op], 320ull);
    CHECK_EQ(k.vecCalls[op], 1ull);
    CHECK_EQ(k.vecRepeats[op], 5ull);  // 1280 bytes of dst
    CHECK(std::string(ascend_twin::VecOpName(ascend_twin::VecOp::kBroadcast)) == "Broadcast");
}

TEST_CASE("GetBroadCastMaxMinTmpSize returns A2's sizes")
{
    const platform_ascendc::PlatformAscendC& p = *platform_ascendc::PlatformAscendCManager::GetInstance();
    CHECK(platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B3") != nullptr);
    CHECK(platform_ascendc::PlatformAscendCManager::GetInstance("Ascend310P3") == nullptr);
    CHECK(p.GetCurNpuArch() == NpuArch::DAV_2201);
    struct Want {
        std::vector<int64_t> src, dst;
        uint32_t typeSize, min, max;
    } wants[] = {
        // [m,1] -> [m,k], k a whole number of blocks: min = one block per element of one block's rows
        // (blk * blk * typeSize), max = every row (m rounded up to 8) * blk * typeSize.
        {{1024, 1}, {1024, 16}, 2, 16 * 16 * 2, 1024 * 16 * 2},  // the docs' example
        {{16, 1}, {16, 16}, 4, 8 * 8 * 4, 16 * 8 * 4},
        // k not aligned: plus blk (resp. m) rows of k rounded up to a block. With m < blk the maximum is
        // below the minimum, as A2's function computes it.
        {{5, 1}, {5, 13}, 4, 8 * 8 * 4 + 8 * 16 * 4, 8 * 8 * 4 + 5 * 16 * 4},
        // b8: src and dst as half, each rounded up to 16 elements, in front.
        {{3, 1}, {3, 20}, 1, (16 + 64) * 2 + 16 * 16 * 2 + 16 * 32 * 2, (16 + 64) * 2 + 8 * 16 * 2 + 3 * 32 * 2},
        {{1}, {100}, 1, (16 + 112) * 2 + 32, (16 + 112) * 2 + 32},
        {{1, 64}, {4, 64}, 1, (64 + 256) * 2 + 32, (64 + 256) * 2 + 32},
        {{1, 16}, {3, 16}, 2, 32, 32},  // axis 0: one block of zeros
        {{7}, {7}, 4, 0, 0},
        {{1, 1}, {6, 9}, 2, 0, 0},
        {{1}, {0}, 4, 0, 0},  // a 0 in dstShape where src has 1 is accepted
    };
    for (const Want& w : wants) {
        uint32_t mn = 1, mx = 1;
        AscendC::GetBroadCastMaxMinTmpSize(p, ge::Shape(w.src), ge::Shape(w.dst), w.typeSize, false, mx, mn);
        CHECK_EQ(mn, w.min);
        CHECK_EQ(mx, w.max);
    }
    // Refused: the outputs stay as they were.
    const std::vector<std::vector<int64_t>> bad[] = {
        {{2, 3}, {4, 3}},        // does not broadcast
        {{1, 12}, {3, 12}},      // axis 0 with dstShape[1] not a whole block (float)
        {{2, 1, 1}, {2, 4, 1}},  // dim 3
        {{2, 1}, {2}},           // different dim counts
        {{0, 4}, {0, 4}},        // src holds nothing
    };
    for (const auto& b : bad) {
        uint32_t mn = 7, mx = 7;
        AscendC::GetBroadCastMaxMinTmpSize(p, ge::Shape(b[0]), ge::Shape(b[1]), 4, false, mx, mn);
        CHECK_EQ(mn, 7u);
        CHECK_EQ(mx, 7u);
    }
}

TEST_CASE("Broadcast rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "Broadcast: Broadcast's operands are at VECIN, VECCALC or VECOUT"));
    CHECK(Broke(&FaultKernel<2>, "Broadcast: UB operands start at a 32-byte aligned address"));
    CHECK(Broke(&FaultKernel<3>, ""));
    CHECK(Broke(&FaultKernel<4>,
                "Broadcast: srcShape broadcasts to dstShape: each srcShape[i] is dstShape[i] or 1, and srcShape has no 0"));
    CHECK(Broke(&FaultKernel<5>, "Broadcast: the axis template parameter is the axis srcShape broadcasts along"));
    CHECK(Broke(&FaultKernel<6>,
                "Broadcast: with dim 2 and axis 0, srcShape[1] * sizeof(T) is a multiple of 32 bytes"));
    CHECK(Broke(&FaultKernel<7>, ""));
    CHECK(Broke(&FaultKernel<8>, "Broadcast: Broadcast's operands hold their shapes"));
    CHECK(Broke(&FaultKernel<9>, "Broadcast: Broadcast's src and dst do not overlap"));
    CHECK(Broke(&FaultKernel<10>, "Broadcast: sharedTmpBuffer holds at least GetBroadCastMaxMinTmpSize's minimum"));
    CHECK(Broke(&FaultKernel<11>, ""));
    CHECK(Broke(&FaultKernel<12>, "Broadcast: sharedTmpBuffer does not overlap src or dst"));
    CHECK(Broke(&FaultKernel<13>, ""));
    const std::string framework =
        "Broadcast: without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 bytes) holds "
        "Broadcast's minimum temporary size";
    CHECK(Broke(&FaultKernel<14>, framework));
    CHECK(Broke(&FaultKernel<15>,
                "Broadcast(BroadcastTiling*): the dynamic-shape Broadcast and GetBroadcastTilingInfo exist on Ascend "
                "950PR/950DT only"));
    CHECK(Broke(&FaultKernel<16>, framework));
    CHECK(Broke(&FaultKernel<17>, ""));
    CHECK(Broke(&FaultKernel<18>,
                "Broadcast: accesses of different pipes to the same UB bytes are ordered by synchronisation"));
    CHECK(Broke(&FaultKernel<20>, "Broadcast: Broadcast's T is uint8_t, int8_t, half or float on A2"));
    CHECK(Broke(&FaultKernel<19>, ""));
}

TEST_MAIN()
