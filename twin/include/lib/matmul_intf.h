// The Matmul high-level API on the twin: MatmulType, Matmul (MatmulImpl), REGIST_MATMUL_OBJ, with the
// official names, template parameters and argument orders. The work happens in ascend_twin::CubeMatmul
// (twin/include/twin/kernel_cube.h): a cube core with L1/L0A/L0B/L0C, walking the TCubeTiling.
//
// Deliberately stricter than the hardware/toolchain, each stated in the error it raises:
// - only pure Cube mode is modelled: define ASCENDC_CUBE_ONLY before this header and declare
//   KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY) (MIX mode's AIV client / AIC server split is not);
// - A, B and C in GM, ND format (the positions and formats our kernels use); other MatmulTypes do not
//   compile;
// - input/output/bias type combinations outside the A2 support table do not compile;
// - IterateAll with enAtomic (atomic accumulation into GM) is refused.
//
// One deliberate extension, off unless the kernel is built as the twin's float64 variant
// (ASCEND_TWIN_ALLOW_FP64, which only cmake/builtin_ops.py defines, for gradient checks on the CPU):
// A, B, C and bias all double, accumulated in double. The A2 cube unit has no float64; without that macro
// a double Matmul does not compile here either, and the NPU build never gets a float64 variant.
#pragma once

#include <type_traits>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "twin/kernel_cube.h"

enum class CubeFormat {
    ND = 0,
    NZ,
    ZN,
    ZZ,
    NN,
    ND_ALIGN,
    SCALAR,
    VECTOR,
    ROW_MAJOR = ND,
    COLUMN_MAJOR = 8,
};

enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

#ifndef ASCC_STRUCT_ITERATEORDER
#define ASCC_STRUCT_ITERATEORDER
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
#endif

// The leading, template-selecting fields of MatmulConfig (global namespace, as in the API). The twin runs
// every configuration with the NORM walk; a kernel that sets further fields does not compile against it.
struct MatmulConfig {
    bool doNorm;
    bool doBasicBlock;
    bool doMultiDataLoad;
    uint32_t basicM;
    uint32_t basicN;
    uint32_t basicK;
    bool intrinsicsCheck;
    bool isNBatch;
    bool enVecND2NZ;
};
constexpr MatmulConfig CFG_NORM{true, false, false, 0, 0, 0, false, false, false};
constexpr MatmulConfig CFG_MDL{false, false, true, 0, 0, 0, false, false, false};

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
struct MatmulCallBackFunc {};

namespace Impl::Detail {
template <const auto& MM_CFG, typename... Args>
struct MatmulPolicy {};
}  // namespace Impl::Detail

namespace twin_detail {
template <typename T>
constexpr ascend_twin::CubeType CubeTypeOf()
{
    if constexpr (std::is_same_v<T, float>) return ascend_twin::CubeType::kFloat32;
    else if constexpr (std::is_same_v<T, half>) return ascend_twin::CubeType::kFloat16;
    else if constexpr (std::is_same_v<T, double>) return ascend_twin::CubeType::kFloat64;
    else return ascend_twin::CubeType::kBFloat16;
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
}  // namespace twin_detail

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

    // The A2 (910B) Matmul type table for floating inputs: A and B of one type (float, half or
    // bfloat16_t); C float, half or bfloat16_t; bias float, or half for half/bfloat16_t inputs.
    static constexpr bool kFp64 = std::is_same_v<SrcAT, double>;
    static_assert(!kFp64 || twin_detail::kAllowFp64,
                  "Matmul on A2: the cube unit has no double; the twin admits it only in its float64 build "
                  "(ASCEND_TWIN_ALLOW_FP64, for gradient checks on the CPU)");
    static_assert(!kFp64 || (std::is_same_v<SrcBT, double> && std::is_same_v<DstT, double> &&
                             std::is_same_v<BiasT, double>),
                  "the twin's float64 Matmul takes double A, B, C and bias");
    static_assert(kFp64 || (twin_detail::kCubeInput<SrcAT> && std::is_same_v<SrcAT, SrcBT>),
                  "Matmul on A2: A and B are both float, half or bfloat16_t (int8/int4 are not modelled by the twin)");
    static_assert(kFp64 || twin_detail::kCubeInput<DstT>, "Matmul on A2: C is float, half or bfloat16_t");
    static_assert(kFp64 || std::is_same_v<BiasT, float> ||
                      (std::is_same_v<BiasT, half> && !std::is_same_v<SrcAT, float>),
                  "Matmul on A2: bias is float, or half with half/bfloat16_t inputs");
    static_assert(A_TYPE::pos == TPosition::GM && B_TYPE::pos == TPosition::GM && C_TYPE::pos == TPosition::GM &&
                      BIAS_TYPE::pos == TPosition::GM,
                  "the twin's Matmul reads A, B, bias from GM and writes C to GM");
    static_assert(A_TYPE::format == CubeFormat::ND && B_TYPE::format == CubeFormat::ND &&
                      C_TYPE::format == CubeFormat::ND,
                  "the twin's Matmul models ND layouts");

public:
    __aicore__ inline MatmulImpl()
        : cube_({twin_detail::CubeTypeOf<SrcAT>(), twin_detail::CubeTypeOf<SrcBT>(), twin_detail::CubeTypeOf<DstT>(),
                 twin_detail::CubeTypeOf<BiasT>(), A_TYPE::isTrans, B_TYPE::isTrans, twin_detail::kCubeOnly})
    {
    }
    __aicore__ inline void Init(const TCubeTiling* __restrict cubeTiling, TPipe* tpipe = nullptr)
    {
        (void)tpipe;
        cube_.Init(cubeTiling);
    }
    __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgK) { cube_.SetOrgShape(orgM, orgN, orgK, orgK, 0); }
    __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0)
    {
        cube_.SetOrgShape(orgM, orgN, orgKa, orgKb, orgKc);
    }
    __aicore__ inline void SetSingleShape(int singleM, int singleN, int singleK)
    {
        cube_.SetSingleShape(singleM, singleN, singleK);
    }
    __aicore__ inline void SetTail(int tailM = -1, int tailN = -1, int tailK = -1)
    {
        cube_.SetTail(tailM, tailN, tailK);
    }
    __aicore__ inline void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false)
    {
        cube_.SetTensorA(twin_detail::TwinData(gm), isTransposeA);
    }
    __aicore__ inline void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false)
    {
        cube_.SetTensorB(twin_detail::TwinData(gm), isTransposeB);
    }
    __aicore__ inline void SetBias(const GlobalTensor<BiasT>& biasGlobal)
    {
        cube_.SetBias(twin_detail::TwinData(biasGlobal));
    }
    __aicore__ inline void DisableBias() { cube_.DisableBias(); }
    __aicore__ inline void ClearBias() { cube_.DisableBias(); }
    template <bool sync = true>
    __aicore__ inline void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                                      bool enSequentialWrite = false, bool waitIterateAll = false,
                                      bool fakeMsg = false)
    {
        static_assert(sync, "the twin runs IterateAll synchronously (IterateAll<false> is not modelled)");
        (void)enSequentialWrite;
        (void)waitIterateAll;
        (void)fakeMsg;
        cube_.IterateAll(twin_detail::TwinData(gm), enAtomic);
    }
    __aicore__ inline void End() { cube_.End(); }

private:
    ascend_twin::CubeMatmul cube_;
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>,
          template <const auto& = MM_CFG, typename...> class MATMUL_POLICY = Impl::Detail::MatmulPolicy>
using Matmul = MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY>;

// REGIST_MATMUL_OBJ(tpipe, workspace, mm1, tiling1, mm2, tiling2, ...): Init of each object with its
// tiling; an object given without tiling is initialised later with Init.
namespace twin_detail {
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
}  // namespace twin_detail

#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) \
    ((void)(workspace), AscendC::twin_detail::InitMatmulObjs(tpipe, __VA_ARGS__))
#define REGIST_MATMUL_OBJ_STATIC REGIST_MATMUL_OBJ

}  // namespace AscendC

namespace matmul = AscendC;
