// The Matmul high-level API on the twin: MatmulType, Matmul (MatmulImpl), REGIST_MATMUL_OBJ, with the
// official names, template parameters and argument orders. As in the real header, what Matmul is depends on
// ASCENDC_CUBE_ONLY (include/adv_api/matmul/matmul_intf.h):
// - with it, the object computes on the cube core that runs the kernel (a KERNEL_TYPE_AIC_ONLY kernel):
//   ascend_twin::CubeMatmul (twin/include/twin/kernel_cube.h), a cube core with L1/L0A/L0B/L0C walking the
//   TCubeTiling;
// - without it, the kernel is a MIX kernel (AIC:AIV = 1:2 unless it declares 1:1): on each AIV the object is a
//   client that sends its calls to the block's AIC, which serves them inside REGIST_MATMUL_OBJ and then returns
//   from the kernel (twin/include/twin/kernel_matmul_mix.h). A kernel that declares no type becomes a 1:2 MIX
//   kernel here, as the device compiler infers.
//
// Deliberately stricter than the hardware/toolchain, each stated in the error it raises:
// - A, B and bias in GM, ND format (the positions and formats our kernels and the A2 samples use); C in GM, or
//   (MIX kernels) at VECIN/VECCALC/VECOUT; other MatmulTypes (TSCM/L1, NZ, ...) do not compile;
// - input/output/bias type combinations outside the A2 support table do not compile;
// - atomic accumulation into GM (enAtomic), enPartialSum, fakeMsg and the doPad form of GetTensorC are refused.
// - MatmulCallBackFunc's CopyA1/CopyB1 with a transposed A/B (the twin models the non-transposed L1 tiles only).
//
// One deliberate extension, off unless the kernel is built as the twin's float64 variant
// (ASCEND_TWIN_ALLOW_FP64, which only cmake/builtin_ops.py defines, for gradient checks on the CPU):
// A, B, C and bias all double, accumulated in double. The A2 cube unit has no float64; without that macro
// a double Matmul does not compile here either, and the NPU build never gets a float64 variant.
#pragma once

#include <cstring>
#include <type_traits>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "twin/kernel_cube.h"
#include "twin/kernel_matmul_mix.h"
#include "twin/matmul_config.h"

namespace AscendC {

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false, TPosition SRCPOS = TPosition::GM>
struct MatmulType {
    constexpr static TPosition pos = POSITION;
    constexpr static CubeFormat format = FORMAT;
    using T = TYPE;
    constexpr static bool isTrans = ISTRANS;
    constexpr static LayoutMode layout = LAYOUT;
    constexpr static bool ibShare = IBSHARE;
    constexpr static TPosition srcPos = SRCPOS;
};

template <void (*DataCopyOut)(const __gm__ void* gm, const LocalTensor<int8_t>& co1Local,
                              const void* dataCopyOutParams, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr,
          void (*CopyA1)(const LocalTensor<int8_t>& aMatrix, const __gm__ void* gm, int row, int col, int useM,
                         int useK, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr,
          void (*CopyB1)(const LocalTensor<int8_t>& bMatrix, const __gm__ void* gm, int row, int col, int useK,
                         int useN, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr>
struct MatmulCallBackFunc {
    constexpr static void (*DataCopyOutPtr)(const __gm__ void* gm, const LocalTensor<int8_t>& co1Local,
                                            const void* dataCopyOutParams, const uint64_t tilingPtr,
                                            const uint64_t dataPtr) = DataCopyOut;
    constexpr static void (*CopyA1Ptr)(const LocalTensor<int8_t>& aMatrix, const __gm__ void* gm, int row, int col,
                                       int useM, int useK, const uint64_t tilingPtr, const uint64_t dataPtr) = CopyA1;
    constexpr static void (*CopyB1Ptr)(const LocalTensor<int8_t>& bMatrix, const __gm__ void* gm, int row, int col,
                                       int useK, int useN, const uint64_t tilingPtr, const uint64_t dataPtr) = CopyB1;
};

// SparseMatmulType (include/adv_api/matmul/matmul_type_def.h, the 4:2 sparse Matmul docs): B's MatmulType with the
// position of its index matrix; HasSparseIndex tells it apart.
template <TPosition POSITION, TPosition INDEX_POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct SparseMatmulType : public MatmulType<POSITION, FORMAT, TYPE, ISTRANS, LAYOUT, IBSHARE> {
    constexpr static TPosition indexPosition = INDEX_POSITION;
};
template <typename INPUT_TYPE, typename = void>
struct HasSparseIndex : std::false_type {};
template <typename INPUT_TYPE>
struct HasSparseIndex<INPUT_TYPE, std::void_t<decltype(&INPUT_TYPE::indexPosition)>> : std::true_type {};

// The type of the cube's L0C result for an input type (impl/adv_api/detail/matmul/utils/matmul_utils.h), on A2:
// float for float, half and bfloat16_t inputs, int32_t for int8_t and int4b_t. Other types have no Type.
template <typename T>
struct GetMmDstType {};
template <>
struct GetMmDstType<float> {
    using Type = float;
};
template <>
struct GetMmDstType<half> {
    using Type = float;
};
template <>
struct GetMmDstType<bfloat16_t> {
    using Type = float;
};
template <>
struct GetMmDstType<int8_t> {
    using Type = int32_t;
};
template <>
struct GetMmDstType<int4b_t> {
    using Type = int32_t;
};

namespace Impl::Detail {
template <const auto& MM_CFG, typename... Args>
struct MatmulPolicy {};
// The NBuffer33 schedule (matmul_policy.h): the core's A whole in L1 as up to 3 x 3 base blocks, B streamed a
// column of base blocks at a time; the same product as the default policy.
template <const auto& MM_CFG, typename... Args>
struct NBuffer33MatmulPolicy : MatmulPolicy<MM_CFG, Args...> {};
// The triangular policies (matmul_policy.h, scheduler_base.h IsInTrianMatmul; A2 supports them): every base block of
// the core's C is computed, only those on or above (Upper: base row index <= base column index) or on or below
// (Lower) the diagonal of the core's base-block grid are written.
template <const auto& MM_CFG, typename... Args>
struct TrianUpperMatmulPolicy : MatmulPolicy<MM_CFG, Args...> {};
template <const auto& MM_CFG, typename... Args>
struct TrianLowerMatmulPolicy : MatmulPolicy<MM_CFG, Args...> {};
}  // namespace Impl::Detail

namespace twin_detail {
template <template <const auto&, typename...> class P>
struct IsNBuffer33 : std::false_type {};
template <>
struct IsNBuffer33<Impl::Detail::NBuffer33MatmulPolicy> : std::true_type {};
// 0: no triangle, 1: TrianUpperMatmulPolicy, 2: TrianLowerMatmulPolicy
template <template <const auto&, typename...> class P>
struct TrianOf : std::integral_constant<uint8_t, 0> {};
template <>
struct TrianOf<Impl::Detail::TrianUpperMatmulPolicy> : std::integral_constant<uint8_t, 1> {};
template <>
struct TrianOf<Impl::Detail::TrianLowerMatmulPolicy> : std::integral_constant<uint8_t, 2> {};
}  // namespace twin_detail

namespace twin_detail {
template <typename T>
constexpr ascend_twin::CubeType CubeTypeOf()
{
    if constexpr (std::is_same_v<T, float>) return ascend_twin::CubeType::kFloat32;
    else if constexpr (std::is_same_v<T, half>) return ascend_twin::CubeType::kFloat16;
    else if constexpr (std::is_same_v<T, double>) return ascend_twin::CubeType::kFloat64;
    else if constexpr (std::is_same_v<T, int8_t>) return ascend_twin::CubeType::kInt8;
    else if constexpr (std::is_same_v<T, int32_t>) return ascend_twin::CubeType::kInt32;
    else if constexpr (std::is_same_v<T, int4b_t>) return ascend_twin::CubeType::kInt4;
    else return ascend_twin::CubeType::kBFloat16;
}
// The first byte of a GM operand (GlobalTensor<int4b_t> has no element pointer: its elements are half bytes).
template <typename T>
inline const void* GmOperand(const GlobalTensor<T>& gm)
{
    if constexpr (std::is_same_v<T, int4b_t>) return ascend_twin::internal::Access::Int4Bytes(gm);
    else return TwinData(gm);
}
template <typename T>
constexpr bool kCubeInput = std::is_same_v<T, float> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;
#if defined(ASCEND_TWIN_ALLOW_FP64)
constexpr bool kAllowFp64 = true;
#else
constexpr bool kAllowFp64 = false;
#endif
#ifdef ASCENDC_CUBE_ONLY
constexpr bool kCubeOnly = true;
#else
constexpr bool kCubeOnly = false;
#endif
// Spelled per MatmulType so that the object's MIX-only members are checked when used, not when declared.
template <class T>
constexpr bool kCubeOnlyFor = kCubeOnly;
template <TPosition P>
constexpr bool kUbPosition = P == TPosition::VECIN || P == TPosition::VECCALC || P == TPosition::VECOUT;
}  // namespace twin_detail

// ---- A constant tiling (include/adv_api/matmul/constant_tiling.h): GetMatmulApiTiling ----
namespace Impl {
constexpr int32_t L1_SIZE = 512 * 1024;  // A2 (dav-2201): L1 is 512 KiB
constexpr int32_t QUEUE_DEPTH = 1;       // the depth of the Matmul API's queues (matmul_config_utils.h)
}  // namespace Impl

namespace twin_detail {
// The MatmulConfig of an object's MM_CFG (the API's ToMatmulConfig): the MatmulConfig itself, or a constant
// tiling's cfg.
constexpr MatmulConfig ToConfig(const MatmulConfig& c) { return c; }
constexpr MatmulConfig ToConfig(const MatmulApiStaticTiling& t) { return t.cfg; }
constexpr int32_t CeilDiv(int32_t a, int32_t b) { return (a + b - 1) / b; }

// The fields a constant tiling and the TCubeTiling share, in TCubeTiling's order.
#define ASCEND_TWIN_STATIC_TILING_FIELDS(X)                                                                          \
    X(usedCoreNum) X(M) X(N) X(Ka) X(Kb) X(singleCoreM) X(singleCoreN) X(singleCoreK) X(baseM) X(baseN) X(baseK)     \
    X(depthA1) X(depthB1) X(stepM) X(stepN) X(isBias) X(transLength) X(iterateOrder) X(shareMode) X(shareL1Size)     \
    X(shareL0CSize) X(shareUbSize) X(stepKa) X(stepKb) X(depthAL1CacheUB) X(depthBL1CacheUB) X(dbL0A) X(dbL0B)       \
    X(dbL0C) X(ALayoutInfoB) X(ALayoutInfoS) X(ALayoutInfoN) X(ALayoutInfoG) X(ALayoutInfoD) X(BLayoutInfoB)         \
    X(BLayoutInfoS) X(BLayoutInfoN) X(BLayoutInfoG) X(BLayoutInfoD) X(CLayoutInfoB) X(CLayoutInfoS1) X(CLayoutInfoN) \
    X(CLayoutInfoG) X(CLayoutInfoS2) X(BatchNum) X(mxTypePara)

// The tiling an object with a constant tiling walks, as the API's MatmulTiling<MM_CFG> reads it: each field the
// constant one fixes (not -1), else the runtime TCubeTiling's. Without a runtime tiling (REGIST_MATMUL_OBJ with a
// null pointer, the full constant tiling) every field the object reads must be fixed.
inline TCubeTiling MergeStaticTiling(const MatmulApiStaticTiling& st, const TCubeTiling* runtime)
{
    TCubeTiling t;
    if (runtime != nullptr) t = *runtime;
#define ASCEND_TWIN_MERGE(f) \
    if (st.f != -1) t.f = st.f;
    ASCEND_TWIN_STATIC_TILING_FIELDS(ASCEND_TWIN_MERGE)
#undef ASCEND_TWIN_MERGE
    if (runtime == nullptr) {
        const char* unset = nullptr;
#define ASCEND_TWIN_REQUIRED(f) \
    if (unset == nullptr && st.f == -1) unset = #f;
        ASCEND_TWIN_REQUIRED(M) ASCEND_TWIN_REQUIRED(N) ASCEND_TWIN_REQUIRED(Ka) ASCEND_TWIN_REQUIRED(Kb)
        ASCEND_TWIN_REQUIRED(singleCoreM) ASCEND_TWIN_REQUIRED(singleCoreN) ASCEND_TWIN_REQUIRED(singleCoreK)
        ASCEND_TWIN_REQUIRED(baseM) ASCEND_TWIN_REQUIRED(baseN) ASCEND_TWIN_REQUIRED(baseK)
        ASCEND_TWIN_REQUIRED(depthA1) ASCEND_TWIN_REQUIRED(depthB1) ASCEND_TWIN_REQUIRED(stepM)
        ASCEND_TWIN_REQUIRED(stepN) ASCEND_TWIN_REQUIRED(stepKa) ASCEND_TWIN_REQUIRED(stepKb)
        ASCEND_TWIN_REQUIRED(isBias) ASCEND_TWIN_REQUIRED(iterateOrder) ASCEND_TWIN_REQUIRED(dbL0A)
        ASCEND_TWIN_REQUIRED(dbL0B) ASCEND_TWIN_REQUIRED(dbL0C)
#undef ASCEND_TWIN_REQUIRED
        if (unset != nullptr) {
            ascend_twin::FailF("REGIST_MATMUL_OBJ/Matmul::Init",
                               "without a runtime TCubeTiling (a null tiling pointer) the constant tiling "
                               "(MatmulApiStaticTiling, GetMatmulApiTiling with singleCoreM/N/K and basicM/N/K set) "
                               "fixes every field the object reads",
                               "MatmulApiStaticTiling.%s is -1 (unset) and the tiling pointer is null", unset);
        }
    }
    return t;
}
}  // namespace twin_detail

// GetMatmulApiTiling (include/adv_api/matmul/constant_tiling.h): the constant tiling of a MatmulConfig whose
// basicM/N/K (partial constant tiling) or basicM/N/K and singleCoreM/N/K (full constant tiling) are set.
// - basicM/N/K only: baseM/N/K, dbL0A/dbL0B (2 when a base tile fits in half of L0A/L0B) and isBias
//   (enableSetBias); the rest comes from the runtime TCubeTiling.
// - with singleCoreM/N/K: also M/N/Ka/Kb and singleCoreM/N/K (the single-core shape; the kernel sets the real
//   shapes with SetOrgShape/SetTail), dbL0C = 1, shareMode = 0, shareUbSize = 0, the L1 split and what follows
//   from it (iterateOrder, transLength, shareL1Size, shareL0CSize).
// The L1 split is the twin's own rule-satisfying choice, not CANN's search (the example values the API's docs
// promise to hold are the ones above): stepM = stepN = 1, the largest stepKa = stepKb whose A1 and B1 groups
// (double-buffered when they fit, depth = step * stepK * 2, else 1) and the bias fit in l1Size (capped at what a
// TPipe hands out, TOTAL_L1_SIZE). What the object computes does not depend on it.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
__aicore__ constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG,
                                                              int32_t l1Size = Impl::L1_SIZE)
{
    using twin_detail::CeilDiv;
    constexpr int32_t sa = sizeof(typename A_TYPE::T), sb = sizeof(typename B_TYPE::T);
    constexpr int32_t sc = sizeof(typename C_TYPE::T), sbias = sizeof(typename BIAS_TYPE::T);
    MatmulApiStaticTiling tiling;
    tiling.cfg = mmCFG;
    const int32_t bm = static_cast<int32_t>(mmCFG.basicM), bn = static_cast<int32_t>(mmCFG.basicN);
    const int32_t bk = static_cast<int32_t>(mmCFG.basicK);
    const bool based = bm != 0 && bn != 0 && bk != 0;
    if (based) {
        tiling.baseM = bm;
        tiling.baseN = bn;
        tiling.baseK = bk;
        tiling.dbL0A = bm * bk * sa > static_cast<int32_t>(TOTAL_L0A_SIZE) / 2 ? 1 : 2;
        tiling.dbL0B = bn * bk * sb > static_cast<int32_t>(TOTAL_L0B_SIZE) / 2 ? 1 : 2;
        tiling.isBias = mmCFG.enableSetBias;
    }
    if (mmCFG.singleCoreM == 0 || mmCFG.singleCoreN == 0 || mmCFG.singleCoreK == 0 || !based) return tiling;
    const int32_t sm = static_cast<int32_t>(mmCFG.singleCoreM), sn = static_cast<int32_t>(mmCFG.singleCoreN);
    const int32_t sk = static_cast<int32_t>(mmCFG.singleCoreK);
    tiling.M = sm;
    tiling.N = sn;
    tiling.Ka = tiling.Kb = sk;
    tiling.singleCoreM = sm;
    tiling.singleCoreN = sn;
    tiling.singleCoreK = sk;
    const int32_t biasBytes = mmCFG.enableSetBias ? bn * sbias : 0;
    const int32_t budget = l1Size < static_cast<int32_t>(TOTAL_L1_SIZE) ? l1Size : static_cast<int32_t>(TOTAL_L1_SIZE);
    int32_t stepK = CeilDiv(sk, bk), db = 2;
    while ((stepK > 1 || db > 1) && db * stepK * bk * (bm * sa + bn * sb) + biasBytes > budget) {
        if (stepK > 1) {
            stepK = CeilDiv(stepK, 2);
        } else {
            db = 1;
        }
    }
    tiling.stepM = tiling.stepN = 1;
    tiling.stepKa = tiling.stepKb = stepK;
    tiling.depthA1 = tiling.depthB1 = db * stepK;
    // The API's walk order: N first when A's K is loaded whole and B's is not, or both are and A is the cheaper
    // to reload; else M first.
    const bool fullK = sk <= stepK * bk;
    const int32_t aLoads = sm + sn * CeilDiv(sm, bm), bLoads = sn + sm * CeilDiv(sn, bn);
    tiling.iterateOrder = fullK && aLoads < bLoads ? 1 : 0;
    tiling.dbL0C = 1;
    const int32_t c1 = bm * bn * sc, biasLength = mmCFG.enableSetBias ? bn * sbias : 0;
    tiling.transLength = c1 > biasLength ? c1 : biasLength;
    tiling.shareMode = 0;
    tiling.shareL1Size = tiling.depthA1 * bm * bk * sa + tiling.depthB1 * bn * bk * sb + biasBytes;
    tiling.shareL0CSize = bm * bn * 4;
    tiling.shareUbSize = 0;
    return tiling;
}

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>,
          template <const auto& = MM_CFG, typename...> class MATMUL_POLICY = Impl::Detail::MatmulPolicy,
          typename = void>
class MatmulImpl {
public:
    using AType = A_TYPE;
    using BType = B_TYPE;
    using CType = C_TYPE;
    using BiasType = BIAS_TYPE;

private:
    using SrcAT = typename A_TYPE::T;
    using SrcBT = typename B_TYPE::T;
    using DstT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;
    static constexpr bool kCubeOnly = twin_detail::kCubeOnlyFor<A_TYPE>;
    static constexpr bool kCInUb = twin_detail::kUbPosition<C_TYPE::pos>;
    // C at CO1 (L0C): Iterate(enPartialSum, LocalTensor) leaves each block in the kernel's CO1 tensor as NZ, and
    // the kernel moves it on with its own Fixpipe.
    static constexpr bool kCInCo1 = C_TYPE::pos == TPosition::CO1;

    // The A2 (910B) Matmul type table for floating inputs: A and B of one type (float, half or
    // bfloat16_t); C float, half or bfloat16_t; bias float, or half for half/bfloat16_t inputs.
    static constexpr bool kFp64 = std::is_same_v<SrcAT, double>;
    static_assert(!kFp64 || twin_detail::kAllowFp64,
                  "Matmul on A2: the cube unit has no double; the twin admits it only in its float64 build "
                  "(ASCEND_TWIN_ALLOW_FP64, for gradient checks on the CPU)");
    static_assert(!kFp64 || (std::is_same_v<SrcBT, double> && std::is_same_v<DstT, double> &&
                             std::is_same_v<BiasT, double>),
                  "the twin's float64 Matmul takes double A, B, C and bias");
    // int8_t (Matmul使用说明, table 2, A2 rows): A and B int8_t, bias int32_t, C int32_t or half (the dequantisation
    // of SetQuantScalar/SetQuantVector); C int8_t (REQ8) is not modelled by the twin. int4b_t: A and B int4b_t,
    // bias int32_t, C int32_t (C half, the dequantisation, is not modelled), in cube-only objects; the inner axis
    // of A and B even (a run-time rule).
    static constexpr bool kInt4 = std::is_same_v<SrcAT, int4b_t>;
    static constexpr bool kInt8 = std::is_same_v<SrcAT, int8_t> || kInt4;
    static_assert(kFp64 || ((twin_detail::kCubeInput<SrcAT> || kInt8) && std::is_same_v<SrcAT, SrcBT>),
                  "Matmul on A2: A and B are both float, half, bfloat16_t, int8_t or int4b_t");
    static_assert(!kInt4 || std::is_same_v<DstT, int32_t>,
                  "Matmul on A2 with int4b_t A and B: the twin models C int32_t (C half, the dequantisation, is not "
                  "modelled)");
    static_assert(kFp64 || kInt8 || twin_detail::kCubeInput<DstT>, "Matmul on A2: C is float, half or bfloat16_t");
    static_assert(kFp64 || kInt8 || std::is_same_v<BiasT, float> ||
                      (std::is_same_v<BiasT, half> && !std::is_same_v<SrcAT, float>),
                  "Matmul on A2: bias is float, or half with half/bfloat16_t inputs");
    static_assert(!kInt8 || std::is_same_v<DstT, int32_t> || std::is_same_v<DstT, half>,
                  "Matmul on A2 with int8_t or int4b_t A and B: C is int32_t or half (C int8_t, REQ8, is not modelled "
                  "by the twin)");
    static_assert(!kInt8 || kCubeOnly,
                  "Matmul with int8_t or int4b_t A and B: the twin models it in cube-only objects (ASCENDC_CUBE_ONLY), "
                  "not in a MIX kernel's client/server pair");
    static_assert(!kInt8 || std::is_same_v<BiasT, int32_t> || std::is_same_v<BIAS_TYPE, C_TYPE>,
                  "Matmul on A2 with int8_t or int4b_t A and B: the bias is int32_t");
    // The bias's MatmulType (by default C's) matters once SetBias is called: SetBias checks it is at GM.
    static_assert((A_TYPE::pos == TPosition::GM || A_TYPE::pos == TPosition::TSCM) && B_TYPE::pos == TPosition::GM,
                  "the twin's Matmul reads A, B and bias from GM, and A from TSCM/L1 (B at TSCM and UB inputs are not "
                  "modelled)");
    // A at TPosition::TSCM (the kernel's L1 tensor, fully loaded: SetTensorA docs, TSCM输入的矩阵乘): NZ, as A2's
    // L1 -> L0A load reads it (Matmul使用说明 states NZ for TSCM inputs; on A2 an ND TSCM matrix would be read as NZ
    // all the same: the twin refuses it, a deliberate strictness).
    static constexpr bool kATscm = A_TYPE::pos == TPosition::TSCM;
    static_assert(!kATscm || A_TYPE::format == CubeFormat::NZ,
                  "Matmul with A at TPosition::TSCM: A_TYPE's format is CubeFormat::NZ (the L1 layout the Matmul reads; "
                  "a deliberate strictness: A2 compiles an ND TSCM A and reads its L1 as NZ all the same)");
    static_assert(!kATscm || !A_TYPE::ibShare,
                  "Matmul with A at TPosition::TSCM: A is not IBShare (the API: \"When A is ibShare, A pos should be "
                  "GM\")");
    static_assert(!kATscm || !std::is_same_v<SrcAT, int4b_t>,
                  "Matmul with A at TPosition::TSCM: the twin does not model int4b_t A in L1");
    // A cube-only object (ASCENDC_CUBE_ONLY) with C at VECIN/VECCALC/VECOUT writes into GM only (its IterateAll and
    // GetTensorC take the GlobalTensor, as the API's MatmulImpl does on A2, which has no L0C -> UB path); the
    // LocalTensor forms below need a MIX kernel's client.
    static_assert(C_TYPE::pos == TPosition::GM || kCInUb || (kCInCo1 && kCubeOnly),
                  "the twin's Matmul writes C to GM, to VECIN/VECCALC/VECOUT, or in a cube-only kernel to CO1: C in "
                  "TSCM/L1 is not modelled");
    // Iterate(enPartialSum, LocalTensor) docs / the API's checks: C at CO1 is NZ, of the L0C type of A.
    static_assert(!kCInCo1 || C_TYPE::format == CubeFormat::NZ,
                  "Matmul with C at CO1: C_TYPE's format is CubeFormat::NZ (the L0C layout)");
    static constexpr bool CIsL0cType()
    {
        if constexpr (kCInCo1) {
            return std::is_same_v<DstT, typename GetMmDstType<SrcAT>::Type>;
        } else {
            return true;
        }
    }
    static_assert(CIsL0cType(),
                  "Matmul with C at CO1: C_TYPE's type is GetMmDstType<A's type>::Type (float for float, half and "
                  "bfloat16_t A)");
    // The configuration: a MatmulConfig (CFG_NORM, CFG_MDL, Get*Config(), GetMMConfig<>()). The twin runs every
    // one with its NORM walk (MDL, SpecialMDL, preload, unit flag, K reordering and the other load-order and
    // buffering switches leave the result as it is) and refuses what changes what the object computes.
    using CfgType = std::decay_t<decltype(MM_CFG)>;
    static_assert(std::is_same_v<CfgType, MatmulConfig> || std::is_same_v<CfgType, MatmulApiStaticTiling>,
                  "Matmul's MM_CFG is a MatmulConfig or a constant tiling (MatmulApiStaticTiling, GetMatmulApiTiling)");
    static constexpr bool kStaticTiling = std::is_same_v<CfgType, MatmulApiStaticTiling>;
    // NBuffer33MatmulPolicy (the API's IterateAll and Iterate asserts, the policy's scheduler: MDL, no UB): MDL,
    // cube-only, IterateAll only; its tiling rules (steps at most 3, the core's A whole in L1) at IterateAll.
    static constexpr bool kNBuffer33 = twin_detail::IsNBuffer33<MATMUL_POLICY>::value;
    static constexpr MatmulConfig kCfg = twin_detail::ToConfig(MM_CFG);
    static_assert(!kNBuffer33 || kCfg.doMultiDataLoad, "NBuffer33MatmulPolicy only support MDL config.");
    static_assert(twin_detail::TrianOf<MATMUL_POLICY>::value == 0 || (kCubeOnly && !kCInCo1),
                  "TrianUpperMatmulPolicy/TrianLowerMatmulPolicy: the twin models them in cube-only objects writing C "
                  "to GM (not in a MIX kernel's client/server pair, not with C at CO1)");
    static_assert(!kNBuffer33 || kCubeOnly,
                  "NBuffer33MatmulPolicy: pure Cube mode only (ASCENDC_CUBE_ONLY; its scheduler has no UB form)");
    // A constant tiling (GetMatmulApiTiling docs): on A2 of the NORM or MDL template; its base tiles fit in L0A, L0B
    // (twice when dbL0A and dbL0B are both 2) and L0C (twice when dbL0C is 2), as the API checks at compile time.
    static constexpr MatmulApiStaticTiling kStatic = [] {
        if constexpr (kStaticTiling) {
            return MatmulApiStaticTiling(MM_CFG);
        } else {
            return MatmulApiStaticTiling{};
        }
    }();
    static_assert(!kStaticTiling || ((kCfg.doNorm || kCfg.doMultiDataLoad) && !kCfg.doSpecialMDL &&
                                     !kCfg.doBasicBlock && !kCfg.doSpecialBasicBlock && !kCfg.doIBShareNorm),
                  "GetMatmulApiTiling / a constant tiling: on A2 the Matmul templates with constant tilings are "
                  "Norm and MDL (its cfg is CFG_NORM/CFG_MDL or GetNormalConfig/GetMDLConfig/GetMMConfig of them)");
    static constexpr int64_t kL0abFactor = ((kStatic.dbL0A - 1) & (kStatic.dbL0B - 1)) ? 2 : 1;
    static_assert(int64_t(kStatic.baseM) * kStatic.baseK * int64_t(sizeof(SrcAT)) * kL0abFactor <= TOTAL_L0A_SIZE,
                  "a constant tiling (MatmulApiStaticTiling): baseM * baseK * sizeof(A) (twice with dbL0A = dbL0B = 2) "
                  "fits in L0A (64 KiB)");
    static_assert(int64_t(kStatic.baseN) * kStatic.baseK * int64_t(sizeof(SrcBT)) * kL0abFactor <= TOTAL_L0B_SIZE,
                  "a constant tiling (MatmulApiStaticTiling): baseN * baseK * sizeof(B) (twice with dbL0A = dbL0B = 2) "
                  "fits in L0B (64 KiB)");
    static_assert(int64_t(kStatic.baseM) * kStatic.baseN * (kFp64 ? 8 : 4) * (kStatic.dbL0C == 2 ? 2 : 1) <=
                      TOTAL_L0C_SIZE,
                  "a constant tiling (MatmulApiStaticTiling): baseM * baseN of the float L0C (twice with dbL0C = 2) "
                  "fits in L0C (128 KiB)");
    static_assert(!kStaticTiling || kCubeOnly,
                  "the twin models constant tilings (MatmulApiStaticTiling) in cube-only Matmul objects "
                  "(ASCENDC_CUBE_ONLY), not in a MIX kernel's client/server pair");
    // C in ND_ALIGN: ND with each row 32-byte aligned in GM (the Fixpipe's destination stride; GetOrgWidth). A in
    // VECTOR (GEMV, A2 takes it for A only): A's rows as in ND, never transposed (SetTensorA checks it).
    static_assert((A_TYPE::format == CubeFormat::ND || A_TYPE::format == CubeFormat::VECTOR || kATscm) &&
                      B_TYPE::format == CubeFormat::ND &&
                      (C_TYPE::format == CubeFormat::ND || C_TYPE::format == CubeFormat::ND_ALIGN ||
                       (C_TYPE::format == CubeFormat::NZ && kCfg.isEnableChannelSplit) || kCInCo1),
                  "the twin's Matmul models ND layouts (and C in ND_ALIGN, A in VECTOR, C in NZ with channel split or at "
                  "CO1)");
    // isEnableChannelSplit (the API's ConfigCommonStaticCheck): C in GM, NZ, float (L0C float).
    static_assert(!kCfg.isEnableChannelSplit || (C_TYPE::pos == TPosition::GM && C_TYPE::format == CubeFormat::NZ &&
                                                 std::is_same_v<DstT, float> && !kFp64),
                  "MatmulConfig isEnableChannelSplit: C is at GM, in NZ format and float");
    static_assert(!kCfg.doBasicBlock && !kCfg.doSpecialBasicBlock,
                  "the twin does not model the BasicBlock and SpecialBasicBlock Matmul templates");
    // The IBShare template (CFG_IBSHARE_NORM, GetIBShareNormConfig): the AIVs of a block share the A or B group in
    // L1. The result is the Norm walk's; the documented constraints are enforced (the tiling's in the engine).
    static_assert(!kCfg.doIBShareNorm || !kCubeOnly,
                  "GetIBShareNormConfig/CFG_IBSHARE_NORM: the IBShare template is for MIX kernels only, not a "
                  "cube-only kernel (ASCENDC_CUBE_ONLY)");
    static_assert(!kCfg.doIBShareNorm || (A_TYPE::ibShare != B_TYPE::ibShare),
                  "Matmul with the IBShare template (doIBShareNorm): exactly one of A and B is shared "
                  "(MatmulType<..., IBSHARE = true>): when A is ibShare B is not, when A is not B is");
    // isPartialOutput: each Iterate computes one base block's product over one baseK slice (K innermost), not
    // accumulated in L0C; the API has it for the MDL template only (its partial-output scheduler), with no bias,
    // no IterateAll and no LocalTensor output on A2.
    static_assert(!kCfg.isPartialOutput || kCfg.doMultiDataLoad,
                  "MatmulConfig isPartialOutput needs the MDL template (CFG_MDL, GetMDLConfig)");
    static_assert(!kCfg.intraBlockPartSum, "the twin does not model intraBlockPartSum");
    // MixDualMaster and A and B both IBShare change how a MIX kernel's AIVs and AIC cooperate (the API's server and
    // client); a cube-only kernel's Matmul (the API's MatmulImpl on the AIC) computes alone and ignores both.
    static_assert(!kCfg.enableMixDualMaster || kCubeOnly,
                  "the twin does not model MixDualMaster (enableMixDualMaster) in a MIX kernel");
    // isA2B2Shared: the objects share one L0A/L0B double buffer (each base block in half of L0A/L0B; the engine checks
    // the 32 KB); the results are those of separate buffers. isCO1Shared is not supported on A2 (MatmulConfig docs).
    // isEnableChannelSplit: below, with the formats.
    static_assert(!kCfg.isCO1Shared, "MatmulConfig isCO1Shared is not supported on A2 (MatmulConfig docs)");
    static_assert(!kCfg.enableRelu && kCfg.decompMode == DecompressionMode::DECOMP_NONE,
                  "the twin does not model the Fixpipe ReLU (enableRelu) or decompression (decompMode)");
    static_assert(kCfg.enableInit && kCfg.enableSetOrgShape,
                  "the twin models Matmul objects with enableInit and enableSetOrgShape (the default)");
    // A and B both IBShare in a MIX kernel: each AIV's IterateAll is computed by its own engine (the API's server
    // keeps an object per AIV); on A2 the result comes from IterateAll into a GlobalTensor only (Matmul使用说明).
    static_assert(!(A_TYPE::ibShare && B_TYPE::ibShare) || !kCfg.doIBShareNorm,
                  "Matmul with the IBShare template (doIBShareNorm): exactly one of A and B is shared "
                  "(MatmulType<..., IBSHARE = true>): when A is ibShare B is not, when A is not B is");
    using Engine = std::conditional_t<kCubeOnly, ascend_twin::CubeMatmul, ascend_twin::MatmulMix>;
    // SparseMatmulType B (the 4:2 sparse Matmul docs' parameter table and constraints): B and its index at GM, int8_t
    // (A int8_t too: the cube's sparse Mmad), transposed (ISTRANS true), no batch layout, no IBShare; the MDL template,
    // cube-only. The twin models B in ND (the docs also allow NZ).
    static constexpr bool kSparseB = HasSparseIndex<B_TYPE>::value;
    template <class BT>
    static constexpr bool SparseOk()
    {
        if constexpr (HasSparseIndex<BT>::value) {
            return BT::pos == TPosition::GM && BT::indexPosition == TPosition::GM;
        } else {
            return true;
        }
    }
    static_assert(SparseOk<B_TYPE>(), "SparseMatmulType: B and its index matrix are at TPosition::GM only");
    static_assert(!kSparseB || (std::is_same_v<SrcBT, int8_t> && std::is_same_v<SrcAT, int8_t>),
                  "SparseMatmulType: B is int8_t only (and A int8_t)");
    static_assert(!kSparseB || B_TYPE::isTrans, "SparseMatmulType: ISTRANS is true only (B transposed)");
    static_assert(!kSparseB || (B_TYPE::layout == LayoutMode::NONE && !B_TYPE::ibShare),
                  "SparseMatmulType: LAYOUT is LayoutMode::NONE and IBSHARE false only");
    static_assert(!kSparseB || (kCfg.doMultiDataLoad && kCubeOnly),
                  "a Sparse Matmul (SparseMatmulType B) runs with the MDL template in pure Cube mode only "
                  "(CFG_MDL, ASCENDC_CUBE_ONLY)");
    static_assert(!kSparseB || B_TYPE::format == CubeFormat::ND,
                  "SparseMatmulType: the twin models B in CubeFormat::ND (not NZ)");
    static_assert(!kSparseB || !(MM_CB::CopyB1Ptr != nullptr), "SparseMatmulType B with a CopyB1 callback is not "
                                                                  "modelled by the twin");
    // MatmulCallBackFunc (its docs; the API's CopyTileToCubeByCallBack): CopyA1/CopyB1 replace the API's GM -> L1
    // copy of each base tile of A/B (useM x useK / useK x useN at base-block indices row, col of the core's block;
    // gm the tensor SetTensorA/SetTensorB set; tilingPtr SetUserDefInfo's value, dataPtr SetSelfDefineData's). The
    // function leaves the tile in L1 (aMatrix/bMatrix) as the API's own copy would: NZ, C0 = 32 / sizeof(T)
    // columns per fractal, Ceil(rows, 16) rows per fractal (32 for int8_t B, whose rows are K).
    static constexpr bool kCopyA1 = MM_CB::CopyA1Ptr != nullptr;
    static constexpr bool kCopyB1 = MM_CB::CopyB1Ptr != nullptr;
    static_assert(MM_CB::DataCopyOutPtr == nullptr,
                  "MatmulCallBackFunc's DataCopyOut (C's move out of L0C) is not modelled by the twin (CopyA1 and "
                  "CopyB1 are)");
    static_assert(!(kCopyA1 || kCopyB1) || kCubeOnly,
                  "MatmulCallBackFunc's CopyA1/CopyB1: the twin models them in cube-only objects (ASCENDC_CUBE_ONLY), "
                  "not in a MIX kernel's client/server pair");
    static_assert(!(kCopyA1 || kCopyB1) || (!kCfg.isPartialOutput && !kNBuffer33 && !kFp64),
                  "MatmulCallBackFunc's CopyA1/CopyB1: the twin models them with the Norm/MDL walks of A2 types "
                  "(not with isPartialOutput, NBuffer33MatmulPolicy or the float64 build)");
    static_assert(!(kCopyA1 || kCopyB1) || (A_TYPE::format == CubeFormat::ND && B_TYPE::format == CubeFormat::ND),
                  "MatmulCallBackFunc's CopyA1/CopyB1: the twin models them for A and B in ND");

    template <class Dep>
    static constexpr void CheckQuantForm()
    {
        static_assert(sizeof(Dep) == 0 || (std::is_same_v<DstT, int8_t> || (kInt8 && std::is_same_v<DstT, half>)),
                      "Matmul::SetQuantScalar/SetQuantVector: on A2 for int8_t A and B with half or int8_t C, or "
                      "half/bfloat16_t A and B with int8_t C (the quantisation scenarios of the docs)");
        static_assert(sizeof(Dep) == 0 || (kInt8 && std::is_same_v<DstT, half> && kCubeOnly),
                      "Matmul::SetQuantScalar/SetQuantVector: the twin models the dequantisation of int8_t A and B "
                      "to half C in cube-only objects (ASCENDC_CUBE_ONLY)");
    }
    static constexpr ascend_twin::CubeMatmulTypes Types()
    {
        return {twin_detail::CubeTypeOf<SrcAT>(), twin_detail::CubeTypeOf<SrcBT>(), twin_detail::CubeTypeOf<DstT>(),
                twin_detail::CubeTypeOf<BiasT>(), A_TYPE::isTrans, B_TYPE::isTrans, kCubeOnly,
                static_cast<int8_t>(kCfg.iterateOrder == IterateOrder::UNDEF ? -1
                                                                            : static_cast<int>(kCfg.iterateOrder)),
                kCfg.enableSetBias, kCfg.enableSetTail, kCfg.enableEnd,
                static_cast<uint8_t>(!kCfg.doIBShareNorm ? 0 : A_TYPE::ibShare ? 1 : 2), kCfg.isA2B2Shared,
                kCfg.isPartialOutput, C_TYPE::format == CubeFormat::ND_ALIGN, kCfg.isEnableChannelSplit, kNBuffer33,
                twin_detail::TrianOf<MATMUL_POLICY>::value, kSparseB, kATscm};
    }
public:
    static constexpr bool kTwinA2B2Shared = kCfg.isA2B2Shared;  // REGIST_MATMUL_OBJ: one value for every object
    static constexpr bool kTwinABShare = A_TYPE::ibShare && B_TYPE::ibShare;  // likewise (kfc_register_obj.h)
    __aicore__ inline MatmulImpl() : engine_(MakeArg())
    {
        if constexpr (kCopyA1 || kCopyB1) engine_.SetCopyInHook(&CopyInByCallback, this, kCopyA1, kCopyB1);
    }
    MatmulImpl(const MatmulImpl&) = delete;  // the engine's copy-in hook points at this object
    MatmulImpl& operator=(const MatmulImpl&) = delete;
    // SetUserDefInfo / SetSelfDefineData (their docs): the tilingPtr and dataPtr the callbacks receive. Neither is
    // supported with MixDualMaster; SetSelfDefineData comes before SetTensorA/SetTensorB. On A2 only the uint64_t
    // form of SetSelfDefineData exists (its SetSelfDefineData(T dataPtr) prototype is not supported).
    __aicore__ inline void SetUserDefInfo(const uint64_t tilingPtr)
    {
        static_assert(sizeof(MM_CB) == 0 || !kCfg.enableMixDualMaster,
                      "Matmul::SetUserDefInfo is not supported with MixDualMaster (enableMixDualMaster)");
        userDefInfo_ = tilingPtr;
    }
    __aicore__ inline void SetSelfDefineData(const uint64_t dataPtr)
    {
        static_assert(sizeof(MM_CB) == 0 || !kCfg.enableMixDualMaster,
                      "Matmul::SetSelfDefineData is not supported with MixDualMaster (enableMixDualMaster)");
        if (tensorsSet_) {
            ascend_twin::FailF("Matmul::SetSelfDefineData",
                               "SetSelfDefineData is called before SetTensorA and SetTensorB (its docs)",
                               "called after SetTensorA/SetTensorB of the computation it would feed");
        }
        selfDefineData_ = dataPtr;
    }
    template <class T>
    __aicore__ inline void SetSelfDefineData(T dataPtr)
    {
        static_assert(std::is_integral_v<T>,
                      "Matmul::SetSelfDefineData on A2: only SetSelfDefineData(const uint64_t dataPtr); the "
                      "SetSelfDefineData(T dataPtr) prototype (a user struct) is not supported on Atlas A2");
        if constexpr (std::is_integral_v<T>) SetSelfDefineData(static_cast<uint64_t>(dataPtr));
    }
    __aicore__ inline void Init(const TCubeTiling* __restrict cubeTiling, TPipe* tpipe = nullptr)
    {
        (void)tpipe;
        if constexpr (kStaticTiling) {
            merged_ = twin_detail::MergeStaticTiling(kStatic, cubeTiling);
            engine_.Init(&merged_);
        } else {
            engine_.Init(cubeTiling);
        }
    }
    __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgK)
    {
        if constexpr (kCubeOnly) {
            engine_.SetOrgShape(orgM, orgN, orgK, orgK, 0);
        } else {
            engine_.SetOrgShape(orgM, orgN, orgK, orgK, orgN);  // the API's client passes orgKc = orgN
        }
    }
    __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0)
    {
        engine_.SetOrgShape(orgM, orgN, orgKa, orgKb, orgKc);
    }
    __aicore__ inline void SetSingleShape(int singleM, int singleN, int singleK)
    {
        if constexpr (kCubeOnly) {
            engine_.SetSingleShape(singleM, singleN, singleK);
        } else {
            engine_.SetTail(singleM, singleN, singleK);
        }
    }
    __aicore__ inline void SetTail(int tailM = -1, int tailN = -1, int tailK = -1)
    {
        engine_.SetTail(tailM, tailN, tailK);
    }
    __aicore__ inline void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false)
    {
        static_assert(!kATscm,
                      "Matmul::SetTensorA(GlobalTensor) with A at TPosition::TSCM: the Matmul reads A from L1 and never "
                      "copies it from GM; pass the TSCM LocalTensor (the twin refuses at compile time what the API "
                      "would run on an unset L1 address)");
        if constexpr (A_TYPE::format == CubeFormat::VECTOR) {
            if (isTransposeA) {
                ascend_twin::FailF("Matmul::SetTensorA", "in GEMV mode (A in CubeFormat::VECTOR) A is not transposed",
                                   "isTransposeA = true");
            }
        }
        if constexpr (kCubeOnly) {
            walking_ = false;
            tensorsSet_ = true;
            aGm_ = gm.GetPhyAddr();
            engine_.SetTensorA(twin_detail::GmOperand(gm), isTransposeA);
        } else {
            CheckTranspose<A_TYPE>("Matmul::SetTensorA", isTransposeA);
            engine_.SetTensorA(twin_detail::GmOperand(gm), gm.GetSize() * sizeof(SrcAT), isTransposeA);
        }
    }
    // A at TPosition::TSCM (SetTensorA docs: leftMatrix a LocalTensor at TSCM, the whole single-core A in NZ, already
    // in L1: no GM -> L1 copy). The MIX client sends its L1 address (GetTscmAddr) to the AIC; a cube-only object
    // reads the AIC's own L1 tensor.
    __aicore__ inline void SetTensorA(const LocalTensor<SrcAT>& leftMatrix, bool isTransposeA = false)
    {
        static_assert(kATscm,
                      "Matmul::SetTensorA(LocalTensor): the twin models A at TPosition::TSCM (MatmulType<TPosition::TSCM, "
                      "CubeFormat::NZ, ...>); A at VECOUT (a UB input) is not modelled");
        static_assert(!kCopyA1, "Matmul with A at TPosition::TSCM: no CopyA1 callback (the twin does not model both)");
        if (twin_detail::TwinPosition(leftMatrix) != TPosition::TSCM) {
            ascend_twin::FailF("Matmul::SetTensorA", "with A at TPosition::TSCM leftMatrix is a TSCM tensor (L1, from "
                               "a TSCM queue)",
                               "the tensor is at TPosition::%s", twin_detail::PositionName(twin_detail::TwinPosition(leftMatrix)));
        }
        const auto* l1 = reinterpret_cast<const uint8_t*>(twin_detail::TwinData(leftMatrix));
        const uint64_t bytes = static_cast<uint64_t>(leftMatrix.GetSize()) * sizeof(SrcAT);
        if constexpr (kCubeOnly) {
            walking_ = false;
            tensorsSet_ = true;
            engine_.SetTensorAL1(l1, bytes, isTransposeA);
        } else {
            CheckTranspose<A_TYPE>("Matmul::SetTensorA", isTransposeA);
            engine_.SetTensorAL1(static_cast<uint64_t>(l1 - twin_detail::TscmBase()), bytes, isTransposeA);
        }
    }
    __aicore__ inline void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false)
    {
        if constexpr (kCubeOnly) {
            walking_ = false;
            tensorsSet_ = true;
            bGm_ = gm.GetPhyAddr();
            engine_.SetTensorB(twin_detail::GmOperand(gm), isTransposeB);
        } else {
            CheckTranspose<B_TYPE>("Matmul::SetTensorB", isTransposeB);
            engine_.SetTensorB(twin_detail::GmOperand(gm), gm.GetSize() * sizeof(SrcBT), isTransposeB);
        }
    }
    template <class T = BiasT>
    __aicore__ inline void SetBias(const GlobalTensor<T>& biasGlobal)
    {
        static_assert(std::is_same_v<T, BiasT> && BIAS_TYPE::pos == TPosition::GM,
                      "the twin's Matmul reads A, B and bias from GM (TSCM/L1 and UB inputs are not modelled)");
        static_assert(!kInt8 || std::is_same_v<T, int32_t>,
                      "Matmul::SetBias with int8_t or int4b_t A and B: the bias is int32_t (BIAS_TYPE's type)");
        if constexpr (kCfg.isPartialOutput) {
            ascend_twin::FailF("Matmul::SetBias", "a Matmul with isPartialOutput takes no bias (the API asserts it)",
                               "SetBias with MatmulConfig isPartialOutput");
        }
        engine_.SetBias(twin_detail::TwinData(biasGlobal));
    }
    // SetSparseIndex (its docs): the index matrix of a SparseMatmulType B (uint8_t, NZ), after SetTensorB.
    __aicore__ inline void SetSparseIndex(const GlobalTensor<uint8_t>& indexGlobal)
    {
        static_assert(sizeof(MM_CB) == 0 || kSparseB,
                      "Matmul::SetSparseIndex needs B of SparseMatmulType (and the MDL template)");
        engine_.SetSparseIndex(twin_detail::TwinData(indexGlobal));
    }
    __aicore__ inline void DisableBias() { engine_.DisableBias(); }
    __aicore__ inline void ClearBias() { engine_.DisableBias(); }

    // The (de)quantisation of C's move out of L0C (SetQuantScalar/SetQuantVector docs): for A2 int8_t A and B with
    // half or int8_t C, and half/bfloat16_t A and B with int8_t C; the twin models int8_t A and B with half C
    // (DEQF16 / VDEQF16: C = half(int32_t sum * scale), the scale the word's bits 0-31 with bits 0-12 dropped) in
    // cube-only objects. Called before Iterate/IterateAll; Init clears it.
    __aicore__ inline void SetQuantScalar(const uint64_t quantScalar)
    {
        CheckQuantForm<int>();
        if constexpr (kCubeOnly) engine_.SetQuantScalar(quantScalar);
    }
    template <class T>
    __aicore__ inline void SetQuantVector(const GlobalTensor<T>& quantTensor)
    {
        static_assert(std::is_same_v<T, uint64_t>, "Matmul::SetQuantVector takes a GlobalTensor<uint64_t>");
        CheckQuantForm<T>();
        if constexpr (kCubeOnly) engine_.SetQuantVector(twin_detail::TwinData(quantTensor));
    }
    template <class T>
    __aicore__ inline void SetQuantVector(const LocalTensor<T>& quantTensor)
    {
        static_assert(std::is_same_v<T, uint64_t>, "Matmul::SetQuantVector takes a LocalTensor<uint64_t>");
        static_assert(!std::is_same_v<T, T>, "Matmul::SetQuantVector with the parameters in L1 (LocalTensor) is not "
                                             "modelled by the twin (its GlobalTensor form is)");
        (void)quantTensor;
    }

    // The GM buffer an asynchronous Iterate<false> caches its blocks in (MIX kernels).
    template <class T>
    __aicore__ inline void SetWorkspace(GlobalTensor<T>& addr)
    {
        static_assert(!kCubeOnly, "the twin models SetWorkspace for a MIX kernel's asynchronous Iterate");
        engine_.SetWorkspace(twin_detail::TwinData(addr), addr.GetSize() * sizeof(T));
    }
    template <class T>
    __aicore__ inline void SetWorkspace(__gm__ const T* addr, int size)
    {
        static_assert(!kCubeOnly, "the twin models SetWorkspace for a MIX kernel's asynchronous Iterate");
        engine_.SetWorkspace(const_cast<T*>(addr), size > 0 ? static_cast<uint64_t>(size) * sizeof(T) : 0);
    }
    // Unsupported on A2 (SetLocalWorkspace docs: Atlas A2 不支持); the A2 client accepts it and does nothing.
    __aicore__ inline void SetLocalWorkspace(const LocalTensor<uint8_t>& tmpBuffer)
    {
        static_assert(!kCubeOnly, "SetLocalWorkspace is not supported on A2 (SetLocalWorkspace docs)");
        (void)tmpBuffer;
    }

    static constexpr bool kMixABShare = A_TYPE::ibShare && B_TYPE::ibShare && !kCubeOnly;
    template <bool sync = true>
    __aicore__ inline bool Iterate(bool enPartialSum = false)
    {
        static_assert(!(kMixABShare && sync == sync),
                      "A and B both IBShare on A2: the result comes from IterateAll into a GlobalTensor only "
                      "(Matmul使用说明: no Iterate/GetTensorC)");
        static_assert(!(kNBuffer33 && sync == sync), "Iterate does not support NBuffer33MatmulPolicy.");
        if constexpr (kCubeOnly) {
            static_assert(sync, "the twin runs a cube-only Matmul synchronously (Iterate<false> is for MIX kernels)");
            if (!walking_) {
                engine_.StartIterate("Matmul::Iterate");
                walking_ = true;
                tensorsSet_ = false;
            }
            if (engine_.NextBlock()) return true;
            walking_ = false;
            return false;
        } else {
            return engine_.Iterate(sync, enPartialSum);
        }
    }
    // C at CO1: the next block into the kernel's CO1 tensor (NZ, its float L0C type), accumulated onto it with
    // enPartialSum; for C elsewhere the tensor is not used (as the API: Iterate(enPartialSum)).
    template <bool sync = true, typename T>
    __aicore__ inline bool Iterate(bool enPartialSum, const LocalTensor<T>& localCmatrix)
    {
        if constexpr (kCInCo1) {
            static_assert(sync, "the twin runs a cube-only Matmul synchronously (Iterate<false> is for MIX kernels)");
            static_assert(std::is_same_v<T, typename GetMmDstType<SrcAT>::Type>,
                          "Matmul::Iterate(enPartialSum, LocalTensor): the tensor's type is the L0C type "
                          "GetMmDstType<A's type>::Type");
            if (localCmatrix.GetPosition() != static_cast<int32_t>(TPosition::CO1)) {
                ascend_twin::FailF("Matmul::Iterate", "with C at CO1 the tensor is a CO1 (L0C) LocalTensor",
                                   "a LocalTensor at position %d", localCmatrix.GetPosition());
            }
            if (!walking_) {
                engine_.StartIterate("Matmul::Iterate");
                walking_ = true;
            }
            if (!engine_.NextBlock()) {
                walking_ = false;
                return false;
            }
            engine_.WriteBlockNz("Matmul::Iterate", reinterpret_cast<float*>(twin_detail::TwinData(localCmatrix)),
                                 localCmatrix.GetSize(), enPartialSum);
            return true;
        } else {
            (void)localCmatrix;
            return Iterate<sync>(enPartialSum);
        }
    }
    template <bool sync = true>
    __aicore__ inline void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                                      bool enSequentialWrite = false, bool waitIterateAll = false,
                                      bool fakeMsg = false)
    {
        NoPartialOutput("Matmul::IterateAll");
        if constexpr (kCubeOnly) {
            static_assert(sync, "the twin runs IterateAll of a cube-only Matmul synchronously");
            static_assert(!kCInCo1, "Matmul with C at CO1: the blocks are taken with Iterate(enPartialSum, LocalTensor) "
                                    "and moved on by the kernel's Fixpipe, not written to GM by IterateAll/GetTensorC");
            (void)enSequentialWrite;
            (void)waitIterateAll;
            (void)fakeMsg;
            tensorsSet_ = false;
            engine_.IterateAll(twin_detail::TwinData(gm), enAtomic);
        } else {
            engine_.IterateAll(sync, twin_detail::TwinData(gm), enAtomic, enSequentialWrite, waitIterateAll, fakeMsg);
        }
    }
    template <bool sync = true>
    __aicore__ inline void IterateAll(const LocalTensor<DstT>& ubCmatrix, uint8_t enAtomic = 0)
    {
        static_assert(!(kMixABShare && sync == sync),
                      "A and B both IBShare on A2: the result comes from IterateAll into a GlobalTensor only");
        NoPartialOutput("Matmul::IterateAll");
        static_assert(!kCubeOnly && kCInUb, "IterateAll into a LocalTensor needs C at VECIN/VECCALC/VECOUT (MIX kernel)");
        engine_.IterateAllLocal(sync, twin_detail::TwinData(ubCmatrix), uint64_t(ubCmatrix.GetSize()) * sizeof(DstT),
                                enAtomic);
    }
    // IterateBatch (IterateBatch docs, mix form into GM): batchA A and batchB B matrices of the tiling's single-core
    // shape in one call, laid out as MatmulType's LAYOUT says. The API's constraints, at compile time: the Norm
    // template only, A and B of one layout, no quantisation (int8_t inputs), no MixDualMaster, not A and B both
    // IBShare; at run time (twin/src/matmul_mix.cpp): the batch counts' relations, BSNGD's layout fields and no
    // sequential write, the batch fitting L1. Deliberately stricter (not modelled by the twin, refused): LAYOUT NONE
    // (the API's server then does nothing), the SBNGD and BNGS1S2 layouts, IterateBatch<false>, enPartialSum,
    // enAtomic, a BSNGD G-axis broadcast (batchA != batchB), the cube-only and UB-output forms.
    template <bool sync = true, bool waitIterateBatch = false>
    __aicore__ inline void IterateBatch(const GlobalTensor<DstT>& gm, uint32_t batchA, uint32_t batchB,
                                        bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                                        const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                                        const bool enPartialSum = false, const uint8_t enAtomic = 0)
    {
        static_assert(!kCubeOnly, "the twin models IterateBatch in MIX kernels (the cube-only form, after "
                                  "SetBatchNum, is not modelled)");
        static_assert(!kATscm, "the twin does not model IterateBatch with A at TPosition::TSCM");
        static_assert(!kCfg.enableMixDualMaster, "IterateBatch not support when enableMixDualMaster is enabled");
        static_assert(!(A_TYPE::ibShare && B_TYPE::ibShare), "IterateBatch not support when sameab is enabled");
        static_assert(A_TYPE::layout == B_TYPE::layout, "IterateBatch: A and B have the same layout (IterateBatch docs)");
        static_assert(kCfg.doNorm, "IterateBatch: BatchMatmul only supports the Norm template (IterateBatch docs)");
        static_assert(!kInt8, "IterateBatch: no quantisation and no int8_t/int4b_t inputs (IterateBatch docs)");
        static_assert(A_TYPE::layout != LayoutMode::NONE,
                      "IterateBatch needs MatmulType's LAYOUT (NORMAL or BSNGD): with LayoutMode::NONE the API's "
                      "server returns without computing (the twin refuses it)");
        static_assert((A_TYPE::layout == LayoutMode::NORMAL || A_TYPE::layout == LayoutMode::BSNGD) &&
                          (C_TYPE::layout == LayoutMode::NORMAL || C_TYPE::layout == LayoutMode::BSNGD),
                      "the twin models IterateBatch with the NORMAL and BSNGD layouts (SBNGD and BNGS1S2 are not "
                      "modelled)");
        static_assert(C_TYPE::pos == TPosition::GM, "IterateBatch into a GlobalTensor: C_TYPE is at TPosition::GM");
        engine_.IterateBatch(sync, twin_detail::TwinData(gm), batchA, batchB, enSequentialWrite, matrixStrideA,
                             matrixStrideB, matrixStrideC, enPartialSum, enAtomic);
    }
    // IterateNBatch (IterateNBatch docs): batchLoop IterateBatch calls in one, C into the SetWorkspace buffer; the
    // IterateBatch constraints, plus: a layout other than NONE and NORMAL, MatmulConfig isNBatch (without it the API
    // returns doing nothing: the twin refuses it at compile time), SetWorkspace first. GetBatchTensorC takes the next
    // batch of C after an IterateNBatch<false>, which the twin does not model (refused when called).
    template <bool sync = true, bool waitIterateBatch = false>
    __aicore__ inline void IterateNBatch(const uint32_t batchLoop, uint32_t batchA, uint32_t batchB,
                                         bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                                         const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                                         const bool enPartialSum = false, const uint8_t enAtomic = 0)
    {
        static_assert(!kCubeOnly, "the twin models IterateNBatch in MIX kernels");
        static_assert(!kATscm, "the twin does not model IterateNBatch with A at TPosition::TSCM");
        static_assert(!kCfg.enableMixDualMaster, "IterateNBatch not support when enableMixDualMaster is enabled.");
        static_assert(A_TYPE::layout != LayoutMode::NONE && B_TYPE::layout != LayoutMode::NONE &&
                          A_TYPE::layout != LayoutMode::NORMAL && B_TYPE::layout != LayoutMode::NORMAL &&
                          C_TYPE::layout != LayoutMode::NORMAL,
                      "BMM does not support the layout being NONE or NORMAL");
        static_assert(kCfg.isNBatch, "IterateNBatch needs MatmulConfig isNBatch = true (MatmulBatchParams): without "
                                     "it the API's IterateNBatch returns doing nothing (the twin refuses it)");
        static_assert(!(A_TYPE::ibShare && B_TYPE::ibShare), "IterateNBatch not support when sameab is enabled");
        static_assert(A_TYPE::layout == B_TYPE::layout, "IterateNBatch: A and B have the same layout");
        static_assert(kCfg.doNorm, "IterateNBatch: BatchMatmul only supports the Norm template");
        static_assert(!kInt8, "IterateNBatch: no quantisation and no int8_t/int4b_t inputs");
        static_assert(A_TYPE::layout == LayoutMode::BSNGD && C_TYPE::layout == LayoutMode::BSNGD,
                      "the twin models IterateNBatch with the BSNGD layout (SBNGD and BNGS1S2 are not modelled)");
        engine_.IterateNBatch(sync, batchLoop, batchA, batchB, enSequentialWrite, matrixStrideA, matrixStrideB,
                              matrixStrideC, enPartialSum, enAtomic);
    }
    template <bool sync = true>
    __aicore__ inline GlobalTensor<DstT> GetBatchTensorC(uint32_t batchA, uint32_t batchB,
                                                         bool enSequentialWrite = false)
    {
        static_assert(!kCubeOnly, "GetBatchTensorC follows a MIX kernel's IterateNBatch<false>");
        (void)enSequentialWrite;
        uint64_t elements = 0;
        GlobalTensor<DstT> global;
        void* p = engine_.GetBatchTensorC(batchA, batchB, &elements);
        global.SetGlobalBuffer(reinterpret_cast<__gm__ DstT*>(p), elements);
        return global;
    }
    __aicore__ inline void WaitIterateAll()
    {
        static_assert(!kCubeOnly, "WaitIterateAll follows a MIX kernel's IterateAll<false>");
        engine_.WaitIterateAll();
    }
    template <bool sync = true>
    __aicore__ inline void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false)
    {
        if constexpr (kCubeOnly) {
            static_assert(sync, "the twin runs a cube-only Matmul synchronously");
            static_assert(!kCInCo1, "Matmul with C at CO1: the blocks are taken with Iterate(enPartialSum, LocalTensor) "
                                    "and moved on by the kernel's Fixpipe, not written to GM by IterateAll/GetTensorC");
            if (enAtomic != 0) {
                ascend_twin::FailF("Matmul::GetTensorC", "the twin does not model atomic accumulation into GM (enAtomic)",
                                   "enAtomic = %u", enAtomic);
            }
            engine_.WriteBlock("Matmul::GetTensorC", twin_detail::TwinData(gm), enSequentialWrite, true, 0);
        } else {
            engine_.GetTensorC(sync, twin_detail::TwinData(gm), enAtomic, enSequentialWrite);
        }
    }
    template <bool sync = true, bool doPad = false>
    __aicore__ inline void GetTensorC(const LocalTensor<DstT>& c, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                                      uint32_t height = 0, uint32_t width = 0, uint32_t srcGap = 0,
                                      uint32_t dstGap = 0)
    {
        static_assert(!kCubeOnly && kCInUb, "GetTensorC into a LocalTensor needs C at VECIN/VECCALC/VECOUT (MIX kernel)");
        static_assert(!doPad, "the twin does not model GetTensorC's doPad form");
        static_assert(!kCfg.isPartialOutput, "Matmul with isPartialOutput: no LocalTensor output on A2 (GetTensorC)");
        (void)height;
        (void)width;
        (void)srcGap;
        (void)dstGap;
        engine_.GetTensorCLocal(sync, twin_detail::TwinData(c), uint64_t(c.GetSize()) * sizeof(DstT), enAtomic,
                                enSequentialWrite, true, "Matmul::GetTensorC");
    }
    // After Iterate<false>: the next block, in the SetWorkspace buffer.
    template <bool sync = true>
    __aicore__ inline GlobalTensor<DstT> GetTensorC(uint8_t enAtomic = 0, bool enSequentialWrite = false)
    {
        static_assert(!kCubeOnly, "GetTensorC() returning a GlobalTensor follows a MIX kernel's Iterate<false>");
        (void)enAtomic;
        (void)enSequentialWrite;
        uint64_t elements = 0;
        void* p = engine_.GetTensorCWorkspace(&elements);
        GlobalTensor<DstT> global;
        global.SetGlobalBuffer(static_cast<DstT*>(p), elements);
        return global;
    }
    __aicore__ inline void AsyncGetTensorC(const LocalTensor<DstT>& c)
    {
        static_assert(!kCubeOnly && kCInUb, "AsyncGetTensorC needs C at VECIN/VECCALC/VECOUT (MIX kernel)");
        engine_.GetTensorCLocal(false, twin_detail::TwinData(c), uint64_t(c.GetSize()) * sizeof(DstT), 0, false,
                                false, "Matmul::AsyncGetTensorC");
    }
    __aicore__ inline void WaitGetTensorC()
    {
        static_assert(!kCubeOnly, "WaitGetTensorC follows a MIX kernel's AsyncGetTensorC");
        engine_.WaitGetTensorC();
    }
    __aicore__ inline void End()
    {
        tensorsSet_ = false;
        engine_.End();
    }

private:
    friend struct ascend_twin::internal::Access;
    Engine* TwinData() const { return const_cast<Engine*>(&engine_); }

    static auto MakeArg()
    {
        if constexpr (kCubeOnly) {
            return Types();
        } else {
            return ascend_twin::MatmulMixDesc{Types(), kCInUb,
                                              {BatchLayoutOf(A_TYPE::layout), BatchLayoutOf(C_TYPE::layout),
                                               kCfg.isBiasBatch, kCfg.batchMode == BatchMode::BATCH_LESS_THAN_L1}};
        }
    }
    static constexpr ascend_twin::MatmulBatchLayout BatchLayoutOf(LayoutMode l)
    {
        return l == LayoutMode::NONE     ? ascend_twin::MatmulBatchLayout::kNone
               : l == LayoutMode::BSNGD  ? ascend_twin::MatmulBatchLayout::kBsngd
               : l == LayoutMode::NORMAL ? ascend_twin::MatmulBatchLayout::kNormal
                                         : ascend_twin::MatmulBatchLayout::kOther;
    }
    // SetTensorA/SetTensorB docs (isTransposeA/isTransposeB): a transposed operand needs MatmulType<..., ISTRANS
    // = true> (the API's client asserts isTransposeA <= A_TYPE::isTrans).
    static void NoPartialOutput(const char* call)
    {
        if constexpr (kCfg.isPartialOutput) {
            ascend_twin::FailF(call, "IterateAll is not supported with isPartialOutput (the API asserts it)",
                               "IterateAll with MatmulConfig isPartialOutput");
        }
    }
    template <class TYPE>
    static void CheckTranspose(const char* call, bool flag)
    {
        if (flag && !TYPE::isTrans) {
            ascend_twin::FailF(call, "a transposed operand needs MatmulType<..., ISTRANS = true>",
                               "isTranspose = true with ISTRANS = false");
        }
    }

    // The engine's copy-in hook: one base tile through the user's CopyA1/CopyB1, into an L1 tile of the API's size
    // (A: Ceil(baseM, 16) x Ceil(baseK, C0); B: Ceil(baseK, 16 or 32) x Ceil(baseN, C0)) near the top of L1, filled
    // with 0xFF bytes first so that what the function leaves unwritten reads as NaN (int8_t: -1) and shows in the
    // result.
    static const uint8_t* CopyInByCallback(void* ctx, bool isB, int row, int col, int height, int width)
    {
        auto* self = static_cast<MatmulImpl*>(ctx);
        const TCubeTiling& t = *self->engine_.Tiling();
        constexpr uint32_t esA = sizeof(SrcAT), esB = sizeof(SrcBT);
        auto up = [](uint32_t v, uint32_t a) { return (v + a - 1) / a * a; };
        const uint32_t aBytes = up(t.baseM, 16) * up(t.baseK, 32 / esA) * esA;
        const uint32_t bBytes = up(t.baseK, esB == 1 ? 32 : 16) * up(t.baseN, 32 / esB) * esB;
        // At the top of the L1 a TPipe hands out (TOTAL_L1_SIZE), B's tile last and A's below it, away from the
        // kernel's own L1 buffers, which a pipe allocates from the bottom.
        const uint32_t bAddr = (static_cast<uint32_t>(TOTAL_L1_SIZE) - bBytes) / 512 * 512;
        const uint32_t aAddr = (bAddr - aBytes) / 512 * 512;
        LocalTensor<int8_t> tile = isB ? LocalTensor<int8_t>(TPosition::B1, bAddr, bBytes)
                                       : LocalTensor<int8_t>(TPosition::A1, aAddr, aBytes);
        int8_t* mem = twin_detail::TwinData(tile);
        std::memset(mem, 0xFF, isB ? bBytes : aBytes);
        if constexpr (kCopyB1) {
            if (isB) {
                MM_CB::CopyB1Ptr(tile, self->bGm_, row, col, height, width, self->userDefInfo_, self->selfDefineData_);
                return reinterpret_cast<const uint8_t*>(mem);
            }
        }
        if constexpr (kCopyA1) {
            MM_CB::CopyA1Ptr(tile, self->aGm_, row, col, height, width, self->userDefInfo_, self->selfDefineData_);
        }
        return reinterpret_cast<const uint8_t*>(mem);
    }

    Engine engine_;
    uint64_t userDefInfo_ = 0, selfDefineData_ = 0;  // SetUserDefInfo, SetSelfDefineData
    const __gm__ void* aGm_ = nullptr;               // SetTensorA/SetTensorB's tensors (the callbacks' gm)
    const __gm__ void* bGm_ = nullptr;
    bool tensorsSet_ = false;  // SetTensorA/SetTensorB called since the last computation
    TCubeTiling merged_;  // a constant tiling merged with the runtime one (kStaticTiling)
    bool walking_ = false;  // cube-only Iterate: a walk has started
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>,
          template <const auto& = MM_CFG, typename...> class MATMUL_POLICY = Impl::Detail::MatmulPolicy>
using Matmul = MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY>;

// REGIST_MATMUL_OBJ(tpipe, workspace, mm1, tiling1, mm2, tiling2, ...): each object with its tiling (an object
// given without one is initialised later with Init).
// - ASCENDC_CUBE_ONLY: Init of each object (the API's InitCurObj).
// - A MIX kernel: as the API's REGIST_CUBE_OBJ, it declares the AIV's client end in the caller's scope; on the
//   AIC it serves the objects until every AIV of the block has ended and then returns from the caller (the
//   kernel), on an AIV it registers the clients. workspace is the system workspace (GetSysWorkSpacePtr()).
namespace twin_detail {
// MatmulConfig isA2B2Shared is a global setting: every Matmul object of the kernel takes the same value (its docs).
template <class T, class = void>
struct A2B2Of {
    static constexpr int value = -1;  // not a Matmul object (a tiling pointer)
};
template <class T>
struct A2B2Of<T, std::void_t<decltype(std::decay_t<T>::kTwinA2B2Shared)>> {
    static constexpr int value = std::decay_t<T>::kTwinA2B2Shared ? 1 : 0;
};
template <class T, class = void>
struct ABShareOf {
    static constexpr int value = -1;
};
template <class T>
struct ABShareOf<T, std::void_t<decltype(std::decay_t<T>::kTwinABShare)>> {
    static constexpr int value = std::decay_t<T>::kTwinABShare ? 1 : 0;
};
constexpr bool SameValues(std::initializer_list<int> values)
{
    int first = -1;
    bool same = true;
    for (int v : values) {
        if (v < 0) continue;
        if (first < 0) first = v;
        same = same && v == first;
    }
    return same;
}
template <class... Args>
constexpr bool SameA2B2Shared()
{
    return SameValues({A2B2Of<Args>::value..., -1});
}
// A and B both IBSHARE: the same for every object REGIST_MATMUL_OBJ registers (the API's static_assert).
template <class... Args>
constexpr bool SameABShare()
{
    return SameValues({ABShareOf<Args>::value..., -1});
}
__aicore__ inline void InitMatmulObjs(TPipe*) {}
template <class MM>
__aicore__ inline void InitMatmulObjs(TPipe*, MM&)
{
}
template <class MM, class... Rest>
__aicore__ inline void InitMatmulObjs(TPipe* tpipe, MM& mm, const TCubeTiling* tiling, Rest&&... rest)
{
    mm.Init(tiling, tpipe);
    InitMatmulObjs(tpipe, rest...);
}
template <class... Args>
__aicore__ inline void InitCubeObjs(TPipe* tpipe, Args&&... args)
{
    static_assert(SameA2B2Shared<Args...>(),
                  "REGIST_MATMUL_OBJ: MatmulConfig isA2B2Shared is global, every Matmul object takes the same value");
    InitMatmulObjs(tpipe, static_cast<Args&&>(args)...);
}

struct MixObjs {
    ascend_twin::MatmulMix* objs[8] = {};
    const TCubeTiling* tilings[8] = {};
    uint32_t n = 0;
};
inline void CollectMix(MixObjs&) {}
template <class X, class... Rest>
inline void CollectMix(MixObjs& out, X&& x, Rest&&... rest)
{
    using T = std::decay_t<X>;
    if constexpr (std::is_pointer_v<T> || std::is_same_v<T, std::nullptr_t>) {  // the tiling of the last object
        if constexpr (std::is_pointer_v<T>) {
            if (out.n > 0) out.tilings[out.n - 1] = reinterpret_cast<const TCubeTiling*>(x);
        }
    } else if (out.n < 8) {
        out.objs[out.n++] = ascend_twin::internal::Access::Data(x);
    }
    CollectMix(out, static_cast<Rest&&>(rest)...);
}
template <class... Args>
__aicore__ inline bool RegisterMatmulObjs(ascend_twin::KfcClientScope& scope, TPipe* tpipe, const void* workspace,
                                          Args&&... args)
{
    static_assert(SameA2B2Shared<Args...>(),
                  "REGIST_MATMUL_OBJ: MatmulConfig isA2B2Shared is global, every Matmul object takes the same value");
    static_assert(SameABShare<Args...>(),
                  "REGIST_MATMUL_OBJ: if both aType ibshare and bType ibshare are set to true, the values must be the "
                  "same for all cube objects");
    (void)tpipe;
    MixObjs objs;
    CollectMix(objs, static_cast<Args&&>(args)...);
    return ascend_twin::RegisterMatmulMix(scope, workspace, objs.objs, objs.tilings, objs.n);
}
}  // namespace twin_detail

#ifdef ASCENDC_CUBE_ONLY
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) \
    ((void)(workspace), AscendC::twin_detail::InitCubeObjs(tpipe, __VA_ARGS__))
#else
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                                                               \
    ascend_twin::KfcClientScope ascend_twin_kfc_client_;                                                        \
    if (AscendC::twin_detail::RegisterMatmulObjs(ascend_twin_kfc_client_, tpipe,                                \
                                                 reinterpret_cast<const void*>(workspace), __VA_ARGS__))        \
    return
#endif
#define REGIST_MATMUL_OBJ_STATIC REGIST_MATMUL_OBJ

}  // namespace AscendC

namespace matmul = AscendC;
