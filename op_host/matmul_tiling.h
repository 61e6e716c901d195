// MatMul tiling: C[M,N] = op(A)[M,K] @ op(B)[K,N] (+ bias[N]) on the cube cores.
//
// The kernel reads op_kernel/matmul_tiling_data.h (GET_TILING_DATA): the Matmul API's own TCubeTiling,
// unchanged, so that CANN's Matmul object reads the same bytes, plus our split of C over the cube cores.
// This host-only part chooses the split, the base blocks and the L1 staging, and predicts what every
// core moves between GM and the cube core (tests compare the twin's counters with it).
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <stdexcept>
#include <vector>

#include "../op_kernel/matmul_tiling_data.h"  // the struct the kernel reads (GET_TILING_DATA)
#include "platform_info.h"

namespace ascend_ext {

// TCubeTiling::iterateOrder values: which way the Matmul object moves to the next base block of C.
inline constexpr int32_t kMatmulOrderM = 0;  // along M first (outer loop over N)
inline constexpr int32_t kMatmulOrderN = 1;  // along N first (outer loop over M)

inline constexpr uint64_t kFractal = 16;  // rows/columns of one cube fractal; base blocks are multiples of it

// What one core moves between GM and its cube unit, by operand (re-reads included).
struct MatmulCoreTraffic {
    uint64_t aBytes = 0;
    uint64_t bBytes = 0;
    uint64_t biasBytes = 0;
    uint64_t cBytes = 0;
    uint64_t macs = 0;  // multiply-accumulates of the core's block (unpadded)
    uint64_t Read() const { return aBytes + bBytes + biasBytes; }
};

struct MatmulPlan {
    MatmulTilingData tiling{};
    uint32_t blockDim = 0;  // 0: nothing to launch (see `empty`)
    // Set when M, N or K is 0: M or N = 0 gives an empty C; K = 0 gives C = bias (or zeros) without a
    // launch (the Matmul API needs singleCoreK > 0). The caller handles both without the kernel.
    bool empty = false;
    const char* unsupported = nullptr;  // non-null: the shape cannot be tiled (says why)
    // Per-core on-chip use (bytes) of the largest block.
    uint64_t l1Bytes = 0, l0aBytes = 0, l0bBytes = 0, l0cBytes = 0;
    // Predicted GM traffic over all cores, and the busiest core's multiply-accumulates.
    MatmulCoreTraffic total;
    uint64_t maxCoreMacs = 0;
    uint64_t estimatedCycles = 0;  // the cost model's estimate for the chosen split
};

// Bias (and L0C) element size for operands of `dsize` bytes: float32 for every A2 dtype (see below); double in
// the CPU twin's float64 build (gradient checks; the NPU never gets a float64 matmul).
inline constexpr uint32_t MatmulAccBytes(uint32_t dsize) { return dsize == 8 ? 8 : 4; }

// The 16-row/column units of a length, split over `cores`: the first `former` cores get one more unit.
struct MatmulAxisSplit {
    uint32_t cores, former, formerLen, tailLen;
};

inline MatmulAxisSplit SplitMatmulAxis(uint64_t length, uint32_t cores)
{
    const uint64_t units = CeilDiv(length, kFractal);
    const uint64_t q = units / cores;
    const uint64_t r = units % cores;
    return {cores, static_cast<uint32_t>(r), static_cast<uint32_t>((q + 1) * kFractal),
            static_cast<uint32_t>(q * kFractal)};
}

// Offset and length of grid row/column `idx` (the last one stops at `length`).
inline std::pair<uint64_t, uint64_t> MatmulAxisBlock(const MatmulAxisSplit& s, uint64_t length, uint32_t idx)
{
    const uint64_t offset = idx < s.former ? uint64_t{idx} * s.formerLen
                                           : uint64_t{s.former} * s.formerLen + uint64_t{idx - s.former} * s.tailLen;
    const uint64_t len = idx < s.former ? s.formerLen : s.tailLen;
    return {offset, offset >= length ? 0 : (len < length - offset ? len : length - offset)};
}

// GM traffic of one core computing an cm x cn block with the given TCubeTiling, following the walk of the
// Matmul object (the NORM schedule as the twin implements it): base blocks of C in iterateOrder, each
// accumulated over K in L0C; L1 holds depthA1 / (stepM * stepKa) groups of A (a group: stepM base rows x
// stepKa base columns of K) and likewise for B, replaced first-in first-out; a group missing from L1 is
// loaded from GM. The stationary operand (A for ORDER_N) is read once when all its K groups fit in L1,
// else once per base block of the other axis; the streaming operand is read once when all its groups of
// the core fit, else once per base block of the stationary axis (cyclic access to more groups than slots
// misses every time). Bias is read for each base block of C.
inline MatmulCoreTraffic PredictMatmulCoreTraffic(const AscendC::tiling::TCubeTiling& t, uint64_t cm, uint64_t cn,
                                                  uint32_t dsize, uint32_t outSize)
{
    MatmulCoreTraffic r;
    const uint64_t k = static_cast<uint64_t>(t.singleCoreK);
    if (cm == 0 || cn == 0) return r;
    const uint64_t mIter = CeilDiv(cm, t.baseM), nIter = CeilDiv(cn, t.baseN), kIter = CeilDiv(k, t.baseK);
    const uint64_t kGroupsA = CeilDiv(kIter, t.stepKa), kGroupsB = CeilDiv(kIter, t.stepKb);
    const uint64_t slotsA = t.depthA1 / (t.stepM * t.stepKa), slotsB = t.depthB1 / (t.stepN * t.stepKb);
    const uint64_t mGroups = CeilDiv(mIter, t.stepM), nGroups = CeilDiv(nIter, t.stepN);
    uint64_t aPasses, bPasses;
    if (t.iterateOrder == kMatmulOrderN) {
        aPasses = (kGroupsA <= slotsA || nIter == 1) ? 1 : nIter;
        bPasses = (nGroups * kGroupsB <= slotsB || mIter == 1) ? 1 : mIter;
    } else {
        bPasses = (kGroupsB <= slotsB || mIter == 1) ? 1 : mIter;
        aPasses = (mGroups * kGroupsA <= slotsA || nIter == 1) ? 1 : nIter;
    }
    r.aBytes = aPasses * cm * k * dsize;
    r.bBytes = bPasses * cn * k * dsize;
    r.biasBytes = t.isBias ? mIter * cn * MatmulAccBytes(dsize) : 0;
    r.cBytes = cm * cn * outSize;
    r.macs = cm * cn * k;
    return r;
}

namespace matmul_tiling_detail {

struct Base {
    uint64_t m, n, k;
};

// The staging of A and B in L1 for one iterate order; `aStationary` tells which operand stays.
struct L1Choice {
    int32_t order, stepM, stepN, stepKa, stepKb, depthA1, depthB1;
    uint64_t bytes;
};

// Cost model (cycles of one cube core at the platform clock; documented assumptions, not measurements):
// fp16/bf16 Mmad does 16x16x16 MACs per cycle, fp32 a quarter of it; one core streams 128 GM bytes per
// cycle (GM through L2, re-reads included); all cores together share ~1.6 TB/s of HBM (~890 bytes per
// cycle at 1.8 GHz) for the bytes that are not re-reads.
inline constexpr uint64_t kMacsPerCycle16 = 4096, kMacsPerCycle32 = 1024, kCoreBytesPerCycle = 128,
                          kHbmBytesPerCycle = 890, kMinCoreCycles = 4096;

inline MatmulCoreTraffic TrafficFor(const AscendC::tiling::TCubeTiling& t, uint64_t cm, uint64_t cn, uint32_t ds)
{
    return PredictMatmulCoreTraffic(t, cm, cn, ds, ds);
}

// Picks steps and depths for an cm x cn x K block: the choice with the least GM traffic, then the
// deepest K staging, then double buffering. Options per operand: the whole core panel resident (read
// once), one full-K strip (double buffered if it fits), or K streamed in steps with two slots.
inline L1Choice ChooseL1(AscendC::tiling::TCubeTiling t, uint64_t cm, uint64_t cn, uint32_t ds, uint64_t l1Budget)
{
    const Base b{static_cast<uint64_t>(t.baseM), static_cast<uint64_t>(t.baseN), static_cast<uint64_t>(t.baseK)};
    const uint64_t mIter = CeilDiv(cm, b.m), nIter = CeilDiv(cn, b.n), kIter = CeilDiv(t.singleCoreK, b.k);
    const uint64_t tileA = b.m * b.k * ds, tileB = b.n * b.k * ds;
    struct Opt {
        uint64_t step, stepK, db;  // step: base blocks along M (A) or N (B); stepK = 0: streamed, sized later
    };
    L1Choice best{};
    uint64_t bestTraffic = UINT64_MAX;
    for (int32_t order : {kMatmulOrderN, kMatmulOrderM}) {
        const bool aStationary = order == kMatmulOrderN;
        const uint64_t otherIter = aStationary ? nIter : mIter;  // base blocks of the streaming operand
        const Opt stationary[] = {{1, kIter, 2}, {1, kIter, 1}, {1, 0, 2}};
        const Opt streaming[] = {{otherIter, kIter, 1}, {1, kIter, 2}, {1, kIter, 1}, {1, 0, 2}};
        for (const Opt& s : stationary) {
            for (const Opt& o : streaming) {
                const Opt a = aStationary ? s : o;
                const Opt bb = aStationary ? o : s;
                uint64_t fixed = 0, perStep = 0;
                (a.stepK ? fixed : perStep) += a.step * a.db * tileA * (a.stepK ? a.stepK : 1);
                (bb.stepK ? fixed : perStep) += bb.step * bb.db * tileB * (bb.stepK ? bb.stepK : 1);
                if (fixed > l1Budget) continue;
                uint64_t streamedK = 0;
                if (perStep != 0) {
                    streamedK = (l1Budget - fixed) / perStep;
                    if (streamedK == 0) continue;
                    if (streamedK > kIter) streamedK = kIter;
                }
                t.iterateOrder = order;
                t.stepM = static_cast<int32_t>(a.step);
                t.stepKa = static_cast<int32_t>(a.stepK ? a.stepK : streamedK);
                t.depthA1 = static_cast<int32_t>(a.step * a.db * t.stepKa);
                t.stepN = static_cast<int32_t>(bb.step);
                t.stepKb = static_cast<int32_t>(bb.stepK ? bb.stepK : streamedK);
                t.depthB1 = static_cast<int32_t>(bb.step * bb.db * t.stepKb);
                const MatmulCoreTraffic tr = TrafficFor(t, cm, cn, ds);
                const uint64_t traffic = tr.aBytes + tr.bBytes;
                const uint64_t bytes = t.depthA1 * tileA + t.depthB1 * tileB;
                const bool better =
                    traffic < bestTraffic ||
                    (traffic == bestTraffic &&
                     std::min(t.stepKa, t.stepKb) > std::min(best.stepKa, best.stepKb)) ||
                    (traffic == bestTraffic && std::min(t.stepKa, t.stepKb) == std::min(best.stepKa, best.stepKb) &&
                     bytes > best.bytes);
                if (better) {
                    bestTraffic = traffic;
                    best = {order, t.stepM, t.stepN, t.stepKa, t.stepKb, t.depthA1, t.depthB1, bytes};
                }
            }
        }
    }
    return best;
}

}  // namespace matmul_tiling_detail

// The op's operands as the op package receives them (op_host/matmul.cpp): a and b by their stored
// (row-major) shapes, the attrs trans_a and trans_b, and whether the optional float32 bias is given.
struct MatmulProblem {
    uint64_t m = 0, n = 0, k = 0;
    bool transA = false, transB = false, hasBias = false;
};

struct MatmulDecoded {
    MatmulProblem problem;
    const char* error = nullptr;  // non-null: the operands describe no matmul (says why)
};

// op(a) is [M, K] (a stored [K, M] when transA), op(b) is [K, N] (b stored [N, K] when transB), bias [N].
// The one decode of the op: the CPU adapter and the NPU TilingFunc both call it. biasDims null: no bias.
inline MatmulDecoded DecodeMatmulProblem(const int64_t* aDims, size_t aRank, const int64_t* bDims, size_t bRank,
                                         bool transA, bool transB, const int64_t* biasDims, size_t biasRank)
{
    MatmulDecoded r;
    if (aRank != 2 || bRank != 2) {
        r.error = "a and b must be 2-D";
        return r;
    }
    const int64_t m = aDims[transA ? 1 : 0], ka = aDims[transA ? 0 : 1];
    const int64_t kb = bDims[transB ? 1 : 0], n = bDims[transB ? 0 : 1];
    if (m < 0 || n < 0 || ka < 0 || kb < 0) {
        r.error = "a and b have a negative dimension";
    } else if (ka != kb) {
        r.error = "the inner dimensions of op(a) and op(b) differ";
    } else if (biasDims != nullptr && (biasRank != 1 || biasDims[0] != n)) {
        r.error = "bias must be 1-D of length N";
    }
    if (r.error != nullptr) return r;
    r.problem = {static_cast<uint64_t>(m), static_cast<uint64_t>(n), static_cast<uint64_t>(ka), transA, transB,
                 biasDims != nullptr};
    return r;
}

// Split-K is not used: every core owns whole blocks of C and accumulates their full K in L0C in float32.
// A K split would need a cross-core reduction: atomic adds into C (C zeroed first, summation order and so
// the result depending on core timing, and half/bf16 C rounded at every partial add) or float32 partials in
// a workspace summed by a second pass. For K >> M*N (e.g. 8 x 8 x 100000) the op is a stream of A and B
// through one core; the cost is bandwidth of that core, which we accept for results that are deterministic
// and independent of the core count. Revisit with a workspace reduction if profiles show such shapes matter.
//
// Bias is float32 for every input dtype: the A2 Matmul supports a float bias with float, half and bf16
// inputs (a bf16 bias is not supported there), and it is added in L0C at float32 precision. float64 is the
// CPU twin's own extension (double operands, bias and L0C; see lib/matmul_intf.h), never planned for the NPU.
inline MatmulPlan ComputeMatmulTiling(uint64_t m, uint64_t n, uint64_t k, DType dtype, bool transA, bool transB,
                                      bool hasBias, const PlatformInfo& platform)
{
    using namespace matmul_tiling_detail;
    MatmulPlan plan;
    plan.tiling.transA = transA;
    plan.tiling.transB = transB;
    constexpr uint64_t kInt32Max = 0x7fffffff;
    if (m > kInt32Max || n > kInt32Max || k > kInt32Max) {
        plan.unsupported = "M, N and K must each be below 2^31 (TCubeTiling holds int32 sizes)";
        return plan;
    }
    if (m == 0 || n == 0 || k == 0) {
        plan.empty = true;
        return plan;
    }
    const uint32_t ds = DTypeSize(dtype);
    const uint32_t acc = MatmulAccBytes(ds);
    const uint64_t macRate = ds >= 4 ? kMacsPerCycle32 : kMacsPerCycle16;
    const uint64_t mUnits = CeilDiv(m, kFractal), nUnits = CeilDiv(n, kFractal);

    uint64_t bestCycles = UINT64_MAX;
    for (uint32_t mc = 1; mc <= platform.aicNum && mc <= mUnits; ++mc) {
        for (uint32_t nc = 1; mc * nc <= platform.aicNum && nc <= nUnits; ++nc) {
            const MatmulAxisSplit ms = SplitMatmulAxis(m, mc), ns = SplitMatmulAxis(n, nc);
            if (ms.tailLen == 0 && ms.former != mc) continue;
            if (ns.tailLen == 0 && ns.former != nc) continue;
            const uint64_t cmMax = std::min<uint64_t>(ms.former ? ms.formerLen : ms.tailLen, m);
            const uint64_t cnMax = std::min<uint64_t>(ns.former ? ns.formerLen : ns.tailLen, n);

            AscendC::tiling::TCubeTiling t{};
            // Base block: the recommended 128 x 256 of C; K depth as deep as double-buffered L0A/L0B allow
            // (64 for 16-bit types, 32 for float32 at full size), all multiples of 16.
            t.baseM = static_cast<int32_t>(std::min<uint64_t>(128, AlignUp(cmMax, kFractal)));
            // (baseN at most what one L0C block of baseM rows holds: 256 for float32; 128 for the twin's double.)
            t.baseN = static_cast<int32_t>(std::min<uint64_t>({256, AlignUp(cnMax, kFractal),
                                                               AlignDown(platform.l0cSize / (t.baseM * acc), kFractal)}));
            const uint64_t kByL0 = std::min(platform.l0aSize / (2ull * t.baseM * ds), platform.l0bSize / (2ull * t.baseN * ds));
            t.baseK = static_cast<int32_t>(std::min<uint64_t>(AlignDown(kByL0, kFractal), AlignUp(k, kFractal)));
            t.singleCoreK = static_cast<int32_t>(k);
            t.isBias = hasBias;
            const uint64_t biasBytes = hasBias ? uint64_t(t.baseN) * acc : 0;
            const L1Choice l1 = ChooseL1(t, cmMax, cnMax, ds, L1Usable(platform) - biasBytes);
            if (l1.bytes == 0) continue;
            t.iterateOrder = l1.order;
            t.stepM = l1.stepM;
            t.stepN = l1.stepN;
            t.stepKa = l1.stepKa;
            t.stepKb = l1.stepKb;
            t.depthA1 = l1.depthA1;
            t.depthB1 = l1.depthB1;

            MatmulCoreTraffic total;
            uint64_t maxBytes = 0, maxMacs = 0, minMacs = UINT64_MAX, maxPaddedMacs = 0;
            for (uint32_t i = 0; i < mc; ++i) {
                for (uint32_t j = 0; j < nc; ++j) {
                    const uint64_t cm = MatmulAxisBlock(ms, m, i).second, cn = MatmulAxisBlock(ns, n, j).second;
                    const MatmulCoreTraffic tr = PredictMatmulCoreTraffic(t, cm, cn, ds, ds);
                    total.aBytes += tr.aBytes;
                    total.bBytes += tr.bBytes;
                    total.biasBytes += tr.biasBytes;
                    total.cBytes += tr.cBytes;
                    total.macs += tr.macs;
                    maxBytes = std::max(maxBytes, tr.Read() + tr.cBytes);
                    maxMacs = std::max(maxMacs, tr.macs);
                    minMacs = std::min(minMacs, tr.macs);
                    maxPaddedMacs = std::max(maxPaddedMacs, AlignUp(cm, kFractal) * AlignUp(cn, kFractal) *
                                                                AlignUp(k, kFractal));
                }
            }
            // Balance: every core within one base block of C (baseM x baseN x K MACs) of the mean.
            const uint64_t blockMacs = uint64_t(t.baseM) * t.baseN * k;
            const uint64_t cores = uint64_t(mc) * nc;
            if (maxMacs * cores > total.macs + blockMacs * cores || (minMacs + blockMacs) * cores < total.macs) {
                continue;
            }
            // Re-reads of A and B by other cores are mostly served by the on-chip L2; HBM sees each operand
            // about once.
            const uint64_t uniqueBytes = (m * k + k * n + m * n) * ds;
            const uint64_t cycles = std::max({maxPaddedMacs / macRate, maxBytes / kCoreBytesPerCycle,
                                              uniqueBytes / kHbmBytesPerCycle});
            // A core costs a launch slot and re-reads of A/B; below kMinCoreCycles of work it saves nothing.
            const uint64_t coreCycles = std::max(maxPaddedMacs / macRate, maxBytes / kCoreBytesPerCycle);
            if (cores > 1 && coreCycles < kMinCoreCycles) continue;
            if (cycles < bestCycles) {  // ties keep the grid with fewer cores, found first
                bestCycles = cycles;
                plan.estimatedCycles = cycles;
                plan.total = total;
                plan.maxCoreMacs = maxMacs;
                plan.blockDim = mc * nc;
                plan.l1Bytes = l1.bytes + biasBytes;
                MatmulTilingData& d = plan.tiling;
                d.mCoreNum = mc;
                d.nCoreNum = nc;
                d.mFormerNum = ms.former;
                d.mFormerLen = ms.formerLen;
                d.mTailLen = ms.tailLen;
                d.nFormerNum = ns.former;
                d.nFormerLen = ns.formerLen;
                d.nTailLen = ns.tailLen;
                t.singleCoreM = static_cast<int32_t>(cmMax);
                t.singleCoreN = static_cast<int32_t>(cnMax);
                d.cubeTiling = t;
            }
        }
    }
    if (plan.blockDim == 0) {
        plan.unsupported = "no split of this shape fits the cube core's L1";
        return plan;
    }
    AscendC::tiling::TCubeTiling& t = plan.tiling.cubeTiling;
    t.usedCoreNum = static_cast<int32_t>(plan.blockDim);
    t.M = static_cast<int32_t>(m);
    t.N = static_cast<int32_t>(n);
    t.Ka = static_cast<int32_t>(k);
    t.Kb = static_cast<int32_t>(k);
    // L0A/L0B double buffered (the base K depth was chosen so that they fit); L0C double buffered when two
    // float32 base blocks of C fit.
    t.dbL0A = 2;
    t.dbL0B = 2;
    t.dbL0C = 2ull * t.baseM * t.baseN * acc <= platform.l0cSize ? 2 : 1;
    t.transLength = 0;  // C goes from L0C straight to GM: no UB staging on A2
    t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
    plan.l0aBytes = uint64_t(t.baseM) * t.baseK * ds * t.dbL0A;
    plan.l0bBytes = uint64_t(t.baseN) * t.baseK * ds * t.dbL0B;
    plan.l0cBytes = uint64_t(t.baseM) * t.baseN * MatmulAccBytes(ds) * t.dbL0C;
    return plan;
}

inline MatmulPlan ComputeMatmulTiling(const MatmulProblem& p, DType dtype, const PlatformInfo& platform)
{
    return ComputeMatmulTiling(p.m, p.n, p.k, dtype, p.transA, p.transB, p.hasBias, platform);
}

// The plan as named numbers, for ascend_ext.twin.plan() and the snapshot tests.
inline std::vector<std::pair<const char*, uint64_t>> DescribeMatmulPlan(const MatmulPlan& plan)
{
    const MatmulTilingData& d = plan.tiling;
    const AscendC::tiling::TCubeTiling& t = d.cubeTiling;
    return {{"block_dim", plan.blockDim},
            {"empty", plan.empty},
            {"m_core_num", d.mCoreNum},
            {"n_core_num", d.nCoreNum},
            {"single_core_m", uint64_t(t.singleCoreM)},
            {"single_core_n", uint64_t(t.singleCoreN)},
            {"single_core_k", uint64_t(t.singleCoreK)},
            {"base_m", uint64_t(t.baseM)},
            {"base_n", uint64_t(t.baseN)},
            {"base_k", uint64_t(t.baseK)},
            {"step_m", uint64_t(t.stepM)},
            {"step_n", uint64_t(t.stepN)},
            {"step_ka", uint64_t(t.stepKa)},
            {"step_kb", uint64_t(t.stepKb)},
            {"depth_a1", uint64_t(t.depthA1)},
            {"depth_b1", uint64_t(t.depthB1)},
            {"iterate_order", uint64_t(t.iterateOrder)},
            {"db_l0c", uint64_t(t.dbL0C)},
            {"l1_bytes", plan.l1Bytes},
            {"l0a_bytes", plan.l0aBytes},
            {"l0b_bytes", plan.l0bBytes},
            {"l0c_bytes", plan.l0cBytes},
            {"gm_bytes_a", plan.total.aBytes},
            {"gm_bytes_b", plan.total.bBytes},
            {"gm_bytes_bias", plan.total.biasBytes},
            {"gm_bytes_c", plan.total.cBytes},
            {"max_core_macs", plan.maxCoreMacs},
            {"estimated_cycles", plan.estimatedCycles}};
}

// The plan of ascend_ext.twin.plan("matmul", sizes): [m, n, k] or [m, n, k, trans_a, trans_b, has_bias] (the op's
// declaration names this function).
inline std::vector<std::pair<const char*, uint64_t>> MatmulPlanFromSizes(const std::vector<int64_t>& s, DType dtype,
                                                                        const PlatformInfo& platform)
{
    if (s.size() != 3 && s.size() != 6) {
        throw std::invalid_argument("matmul sizes: [m, n, k] or [m, n, k, trans_a, trans_b, has_bias]");
    }
    const bool flags = s.size() == 6;
    return DescribeMatmulPlan(ComputeMatmulTiling(static_cast<uint64_t>(s[0]), static_cast<uint64_t>(s[1]),
                                                  static_cast<uint64_t>(s[2]), dtype, flags && s[3], flags && s[4],
                                                  flags && s[5], platform));
}

}  // namespace ascend_ext
