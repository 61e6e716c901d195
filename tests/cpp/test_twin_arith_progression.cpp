// ArithProgression / Arange ("lib/index/arithprogression.h") against float64 references (firstValue + i *
// diffValue) from fresh random inputs, every A2 dtype, counts around one block and one repeat; the vector mask
// A2's implementation leaves; the host size functions; every run-time rule with a planted fault and a clean
// counterpart (the compile-time dtype rule: compile_fail/adv_math_a2.cpp).
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
#include "lib/index/arithprogression.h"
#include "tiling/arithprogression/arithprogression_tiling.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

struct Case {
    double first = 0;
    double diff = 0;
    int32_t count = 1;
    bool arange = false;
};
Case gCase;
uint64_t gMaskHigh = 0, gMaskLow = 0;

template <typename T>
void Kernel(GM_ADDR, GM_ADDR out)
{
    const Case c = gCase;
    TPipe pipe;
    TBuf<TPosition::VECOUT> buf;
    const uint32_t bytes = (c.count * sizeof(T) + 31) / 32 * 32;
    pipe.InitBuffer(buf, bytes);
    LocalTensor<T> y = buf.Get<T>();
    if (c.arange) Arange(y, T(c.first), T(c.diff), c.count);
    else ArithProgression(y, T(c.first), T(c.diff), c.count);
    gMaskHigh = ascend_twin::CurrentCore().maskHigh;
    gMaskLow = ascend_twin::CurrentCore().maskLow;
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    GlobalTensor<T> o;
    o.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    DataCopyPad(o, y, DataCopyExtParams{1, static_cast<uint32_t>(c.count * sizeof(T)), 0, 0, 0});
}

using check::Rng;

template <typename T>
double ToDouble(T v)
{
    if constexpr (std::is_same_v<T, half>) return static_cast<double>(static_cast<float>(v));
    else return static_cast<double>(v);
}

template <typename T>
ascend_twin::LaunchStats Run(const Case& c, std::vector<T>& out)
{
    gCase = c;
    std::vector<uint8_t> in(32);
    ascend_twin::LaunchSpec spec;
    spec.kernel = "arith";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&Kernel<T>);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size()}, {"out", out.data(), out.size() * sizeof(T)}};
    return ascend_twin::Launch(spec);
}

template <typename T>
int CheckType()
{
    constexpr int32_t block = 32 / sizeof(T);
    constexpr int32_t repeat = 256 / sizeof(T);
    const bool isInt = std::is_integral_v<T>;
    int failed = 0;
    for (int32_t count : {1, block - 1, block, block + 1, repeat - 3, repeat, repeat + 1, 3 * repeat, 1000, 1003}) {
        Case c;
        c.count = count;
        c.arange = count % 2 == 1;
        // Values kept inside T's range.
        if (isInt) {
            c.first = std::uniform_int_distribution<int>(-500, 500)(Rng());
            c.diff = std::uniform_int_distribution<int>(0, std::is_same_v<T, int16_t> ? 30 : 100000)(Rng());
        } else if (std::is_same_v<T, half>) {
            c.first = std::uniform_int_distribution<int>(-64, 64)(Rng()) / 4.0;
            c.diff = std::uniform_int_distribution<int>(0, 8)(Rng()) / 64.0;
        } else {
            c.first = std::uniform_real_distribution<double>(-100.0, 100.0)(Rng());
            c.diff = std::uniform_real_distribution<double>(0.0, 3.0)(Rng());
        }
        const double first = ToDouble(T(c.first));
        const double diff = ToDouble(T(c.diff));
        std::vector<T> out(count);
        const ascend_twin::LaunchStats stats = Run<T>(c, out);
        // Each value is a chain of at most count / repeat + 8 adds in T from the scalar block, each rounding by
        // at most half an ulp; integers are exact.
        const double eps = std::is_same_v<T, float> ? 6e-8 : (std::is_same_v<T, half> ? 4.9e-4 : 0.0);
        const double bound = eps * (count / repeat + 9) * (std::fabs(first) + diff * count);
        int bad = 0;
        for (int32_t i = 0; i < count; ++i) {
            const double ref = first + diff * i;
            const double got = ToDouble(out[i]);
            if (std::fabs(got - ref) > bound && bad++ < 3) {
                std::printf("  count %d: y[%d] = %.9g, expected %.9g\n", count, i, got, ref);
            }
        }
        // The mask A2's implementation leaves: untouched up to one block, the first block's lanes up to one
        // repeat, else the tail rounded up to a block (full when there is none).
        bool maskOk = true;
        if (count > block && count <= repeat) maskOk = gMaskHigh == 0 && gMaskLow == (1ull << block) - 1;
        if (count > repeat && count % repeat == 0) maskOk = gMaskHigh == ~0ull && gMaskLow == ~0ull;
        if (count > repeat && count % repeat != 0) {
            const int32_t lanes = (count % repeat + block - 1) / block * block;
            const uint64_t low = lanes >= 64 ? ~0ull : (1ull << lanes) - 1;
            const uint64_t high = lanes <= 64 ? 0 : (lanes >= 128 ? ~0ull : (1ull << (lanes - 64)) - 1);
            maskOk = gMaskHigh == high && gMaskLow == low;
        }
        if (!maskOk) std::printf("  count %d: mask %016llx %016llx\n", count, (unsigned long long)gMaskHigh,
                                 (unsigned long long)gMaskLow);
        const auto& k = stats.cores[0];
        const uint64_t ops = k.vecElementOps[static_cast<uint32_t>(ascend_twin::VecOp::kArithProgression)];
        const bool countOk = ops == static_cast<uint64_t>(count > block ? count - block : 0);
        if (!countOk) std::printf("  count %d: %llu element-ops counted\n", count, (unsigned long long)ops);
        failed += (bad != 0 || !maskOk || !countOk) ? 1 : 0;
    }
    return failed;
}

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR out)
{
    if constexpr (kFault < 10) {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 1024);
        LocalTensor<float> y = b.Get<float>();
        if constexpr (kFault == 0) ArithProgression(y, 1.0f, 0.5f, 256);  // the clean counterpart
        if constexpr (kFault == 1) ArithProgression(y, 1.0f, 0.5f, 0);
        if constexpr (kFault == 2) ArithProgression(y, 1.0f, -0.5f, 10);
        if constexpr (kFault == 3) ArithProgression(y, 1.0f, 0.5f, 257);  // y holds 256
        if constexpr (kFault == 5) ArithProgression(y[1], 1.0f, 0.5f, 8);
        if constexpr (kFault == 6 || kFault == 7) {  // copied out without (6) and with (7) V -> MTE3
            ArithProgression(y, 1.0f, 0.5f, 100);
            if constexpr (kFault == 7) {
                SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
                WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
            }
            GlobalTensor<float> o;
            o.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
            DataCopy(o, y, 104);  // 100 rounded up to a block: the adds wrote those bytes too
        }
        if constexpr (kFault == 8) Arange(y, 0.0f, 0.0f, 256);  // diffValue 0 is allowed
    } else {
        LocalMemAllocator<Hardware::UB> ub;
        LocalTensor<int32_t> y = ub.Alloc<int32_t, 64>();
        if constexpr (kFault == 10) ArithProgression(y, 3, 2, 8);   // one block: the scalar unit alone, no TPipe needed
        if constexpr (kFault == 11) ArithProgression(y, 3, 2, 9);   // more: A2 fetches an event id from the TPipe
        if constexpr (kFault == 12) ArithProgression(LocalMemAllocator<Hardware::L1>().Alloc<TPosition::A1, int32_t, 64>(), 3, 2, 8);
    }
}

using fault::Broke;

}  // namespace

TEST_CASE("ArithProgression/Arange float") { CHECK_EQ(CheckType<float>(), 0); }
TEST_CASE("ArithProgression/Arange half") { CHECK_EQ(CheckType<half>(), 0); }
TEST_CASE("ArithProgression/Arange int32_t") { CHECK_EQ(CheckType<int32_t>(), 0); }
TEST_CASE("ArithProgression/Arange int16_t") { CHECK_EQ(CheckType<int16_t>(), 0); }

TEST_CASE("GetArithProgressionMaxMinTmpSize and GetArangeMaxMinTmpSize: no temporary space")
{
    uint32_t mx = 7, mn = 7;
    GetArithProgressionMaxMinTmpSize(mx, mn);
    CHECK_EQ(mx, 0u);
    CHECK_EQ(mn, 0u);
    mx = mn = 7;
    GetArangeMaxMinTmpSize(mx, mn);
    CHECK_EQ(mx + mn, 0u);
}

TEST_CASE("ArithProgression rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "ArithProgression: count > 0"));
    CHECK(Broke(&FaultKernel<2>, "ArithProgression: diffValue >= 0"));
    CHECK(Broke(&FaultKernel<3>,
                "ArithProgression: dstLocal holds count elements (docs: dst的大小应大于等于count * sizeof(T))"));
    CHECK(Broke(&FaultKernel<5>, "ArithProgression: UB operands start at a 32-byte aligned address"));
    CHECK(Broke(&FaultKernel<6>,
                "DataCopy(UB->GM): accesses of different pipes to the same UB bytes are ordered by synchronisation"));
    CHECK(Broke(&FaultKernel<7>, ""));
    CHECK(Broke(&FaultKernel<8>, ""));
    CHECK(Broke(&FaultKernel<10>, ""));
    CHECK(Broke(&FaultKernel<12>, "ArithProgression: dstLocal is at VECIN, VECCALC or VECOUT"));
    CHECK(Broke(&FaultKernel<11>,
                "ArithProgression: a TPipe exists (A2's implementation fetches its S->V event id from GetTPipePtr())"));
}

TEST_MAIN()
