// A2's region-proposal sort (Concat, Sort<T, isFullSort>, Extract, GetSortLen, GetSortOffset) against references
// sorted here from fresh random inputs (with repeated values, to see the input order kept): float and half, full and
// per-32 sorts, 1 to 9 repeats; the host GetConcatTmpSize / GetSortTmpSize / GetSortMaxMinTmpSize on dav-2201; every
// run-time rule with a planted fault and a clean counterpart.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "fault_launch.h"
#include "kernel_operator.h"
#include "tiling/sort/sort_tiling_intf.h"
#include "twin/launch.h"

using namespace AscendC;

namespace {

struct Case {
    int32_t repeat = 1;
    bool full = true;
};
Case gCase;

template <typename T, bool full>
void Kernel(GM_ADDR in, GM_ADDR out)
{
    const uint32_t n = static_cast<uint32_t>(gCase.repeat) * 32;
    TPipe pipe;
    TBuf<TPosition::VECIN> vb, ib;
    TBuf<TPosition::VECCALC> sb, tb;
    TBuf<TPosition::VECOUT> ob, oib;
    pipe.InitBuffer(vb, n * sizeof(T));
    pipe.InitBuffer(ib, n * 4);
    pipe.InitBuffer(sb, n * 8);
    pipe.InitBuffer(tb, n * 8);
    pipe.InitBuffer(ob, n * sizeof(T));
    pipe.InitBuffer(oib, n * 4);
    GlobalTensor<T> vGm, ovGm;
    GlobalTensor<uint32_t> iGm, oiGm;
    vGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in));
    iGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(in + n * sizeof(T)));
    ovGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    oiGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(out + n * sizeof(T)));
    LocalTensor<T> v = vb.Get<T>(n);
    LocalTensor<uint32_t> idx = ib.Get<uint32_t>(n);
    LocalTensor<T> sorted = sb.Get<T>(GetSortLen<T>(n));
    LocalTensor<T> tmp = tb.Get<T>(GetSortLen<T>(n));
    LocalTensor<T> ov = ob.Get<T>(n);
    LocalTensor<uint32_t> oi = oib.Get<uint32_t>(n);
    DataCopy(v, vGm, n);
    DataCopy(idx, iGm, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    LocalTensor<T> concat;
    Concat(concat, v, tmp, gCase.repeat);
    Sort<T, full>(sorted, concat, idx, tmp, gCase.repeat);
    PipeBarrier<PIPE_V>();
    Extract(ov, oi, sorted, gCase.repeat);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(ovGm, ov, n);
    DataCopy(oiGm, oi, n);
}

using check::Rng;

template <typename T, bool full>
int Run(int32_t repeat)
{
    const uint32_t n = static_cast<uint32_t>(repeat) * 32;
    std::vector<uint8_t> in(n * sizeof(T) + n * 4);
    T* v = reinterpret_cast<T*>(in.data());
    uint32_t* idx = reinterpret_cast<uint32_t*>(in.data() + n * sizeof(T));
    std::vector<double> val(n);
    for (uint32_t i = 0; i < n; ++i) {
        // integers in [-40, 40]: exact in half and float, with repeats
        const int k = std::uniform_int_distribution<int>(-40, 40)(Rng());
        v[i] = static_cast<T>(static_cast<float>(k));
        val[i] = k;
        idx[i] = std::uniform_int_distribution<uint32_t>(0, 0xffffffffu)(Rng());
    }
    std::vector<uint8_t> out(in.size());
    gCase = {repeat, full};
    ascend_twin::LaunchSpec spec;
    spec.kernel = "sort";
    spec.entry = reinterpret_cast<ascend_twin::KernelEntry>(&Kernel<T, full>);
    spec.blockDim = 1;
    spec.args = {{"in", in.data(), in.size()}, {"out", out.data(), out.size()}};
    ascend_twin::Launch(spec);
    // The reference: positions ordered by value, descending, ties in input order, per group of 32 or whole.
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    const uint32_t group = full ? n : 32;
    for (uint32_t g = 0; g < n; g += group) {
        std::stable_sort(order.begin() + g, order.begin() + g + group,
                         [&](uint32_t a, uint32_t b) { return val[a] > val[b]; });
    }
    const T* ov = reinterpret_cast<const T*>(out.data());
    const uint32_t* oi = reinterpret_cast<const uint32_t*>(out.data() + n * sizeof(T));
    int bad = 0;
    for (uint32_t k = 0; k < n; ++k) {
        const bool okV = std::memcmp(&ov[k], &v[order[k]], sizeof(T)) == 0;
        const bool okI = oi[k] == idx[order[k]];
        if ((!okV || !okI) && bad++ < 3) {
            std::printf("  Sort %s repeat %d: [%u] index %u, expected value %g index %u\n", full ? "full" : "per 32",
                        repeat, k, oi[k], val[order[k]], idx[order[k]]);
        }
    }
    return bad != 0 ? 1 : 0;
}

template <int kFault>
void FaultKernel(GM_ADDR, GM_ADDR)
{
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> v = ub.Alloc<float, 128>();
    LocalTensor<uint32_t> idx = ub.Alloc<uint32_t, 128>();
    LocalTensor<float> sorted = ub.Alloc<float, 256>();
    LocalTensor<float> tmp = ub.Alloc<float, 256>();
    LocalTensor<float> ov = ub.Alloc<float, 128>();
    LocalTensor<uint32_t> oi = ub.Alloc<uint32_t, 128>();
    Duplicate(v, 2.0f, 128);
    Duplicate(idx.ReinterpretCast<float>(), 0.0f, 128);
    if constexpr (kFault == 0) {  // the clean counterpart
        Sort<float, true>(sorted, v, idx, tmp, 4);
        Extract(ov, oi, sorted, 4);
    }
    if constexpr (kFault == 1) Sort<float, true>(sorted, v, idx, tmp, 256);
    if constexpr (kFault == 2) Sort<float, true>(sorted, v, idx, tmp, 5);  // 160 elements in 128
    if constexpr (kFault == 3) {  // dst of 128 floats for the 4 repeats' 128 pairs
        LocalTensor<float> shortDst = sorted;
        shortDst.SetSize(128);
        Sort<float, true>(shortDst, v, idx, tmp, 4);
    }
    if constexpr (kFault == 4) {  // isFullSort with a tmp of 128 floats
        LocalTensor<float> shortTmp = tmp;
        shortTmp.SetSize(128);
        Sort<float, true>(sorted, v, idx, shortTmp, 4);
    }
    if constexpr (kFault == 5) Sort<float, true>(idx.ReinterpretCast<float>(), v, idx, tmp, 2);  // dst over index
    if constexpr (kFault == 6) Sort<float, true>(sorted, v, idx, sorted, 4);  // tmp is dst
    if constexpr (kFault == 7) {  // Extract: sorted too short
        LocalTensor<float> shortSorted = sorted;
        shortSorted.SetSize(128);
        Sort<float, false>(sorted, v, idx, tmp, 4);
        Extract(ov, oi, shortSorted, 4);
    }
    if constexpr (kFault == 8) {  // Extract: dstValue over sorted
        Sort<float, false>(sorted, v, idx, tmp, 4);
        Extract(sorted, oi, sorted, 4);
    }
    if constexpr (kFault == 9) Sort<float, false>(sorted, v, idx, v, 4);  // clean: no tmp without isFullSort
    if constexpr (kFault == 10) {  // Concat's repeatTime
        LocalTensor<float> c;
        Concat(c, v, tmp, -1);
    }
}

using fault::Broke;

}  // namespace

TEST_CASE("Sort: full and per-32 sorts of float and half, values and indices, ties in input order")
{
    int failed = 0;
    failed += Run<float, true>(4);
    failed += Run<float, true>(9);
    failed += Run<float, false>(3);
    failed += Run<half, true>(5);
    failed += Run<half, false>(2);
    failed += Run<float, true>(1);
    CHECK_EQ(failed, 0);
}

TEST_CASE("GetSortLen, GetSortOffset and the host sizes on dav-2201")
{
    CHECK_EQ(GetSortLen<float>(128), 256u);
    CHECK_EQ(GetSortLen<half>(128), 512u);
    CHECK_EQ(GetSortOffset<float>(3), 6u);
    CHECK_EQ(GetSortOffset<half>(3), 12u);
    platform_ascendc::PlatformAscendC* plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    CHECK_EQ(GetConcatTmpSize(*plat, 128, 4), 0u);
    CHECK_EQ(GetSortTmpSize(*plat, 128, 4), 1024u);
    CHECK_EQ(GetSortTmpSize(*plat, 128, 2), 1024u);
    uint32_t mx = 7, mn = 9;  // left as they are: the SortConfig forms are dav-3510 only
    GetSortMaxMinTmpSize(ge::Shape({128}), ge::DT_FLOAT, ge::DT_UINT32, false, SortConfig(), mx, mn);
    CHECK_EQ(mx, 7u);
    CHECK_EQ(mn, 9u);
}

TEST_CASE("Sort, Concat and Extract rules: planted faults and clean counterparts")
{
    CHECK(Broke(&FaultKernel<0>, ""));
    CHECK(Broke(&FaultKernel<1>, "Sort: repeatTime is in [0, 255]"));
    CHECK(Broke(&FaultKernel<2>, "Sort: concat and index hold repeatTime * 32 elements"));
    CHECK(Broke(&FaultKernel<3>, "Sort: dst holds repeatTime * 32 sorted elements of 8 bytes (GetSortLen)"));
    CHECK(Broke(&FaultKernel<4>, "Sort: with isFullSort, tmp holds repeatTime * 32 elements of 8 bytes"));
    CHECK(Broke(&FaultKernel<5>, "Sort: dst overlaps neither concat nor index"));
    CHECK(Broke(&FaultKernel<6>, "Sort: tmp overlaps no operand"));
    CHECK(Broke(&FaultKernel<7>, "Extract: sorted holds repeatTime * 32 sorted elements of 8 bytes"));
    CHECK(Broke(&FaultKernel<8>, "Extract: dstValue, dstIndex and sorted do not overlap"));
    CHECK(Broke(&FaultKernel<9>, ""));
    CHECK(Broke(&FaultKernel<10>, "Concat: repeatTime is in [0, 255]"));
}

TEST_MAIN()
