// The Matmul object's forms the twin takes and those it refuses at compile time, in a MIX kernel (no
// ASCENDC_CUBE_ONLY; CMakeLists.txt compiles this file once per FAULT line, and once with FAULT=0, which must
// compile: the configurations of the A2 samples, C at VECIN, the asynchronous and LocalTensor forms).
// FAULT 1: MatmulConfig isPartialOutput needs the MDL template \(CFG_MDL, GetMDLConfig\)
// FAULT 18: Matmul with isPartialOutput: no LocalTensor output on A2 \(GetTensorC\)
// FAULT 19: the twin does not model intraBlockPartSum
// FAULT 2: the twin does not model MixDualMaster \(enableMixDualMaster\) in a MIX kernel
// FAULT 3: the twin does not model the BasicBlock and SpecialBasicBlock Matmul templates
// FAULT 4: the twin does not model the Fixpipe ReLU \(enableRelu\) or decompression \(decompMode\)
// FAULT 5: the twin's Matmul reads A, B and bias from GM, and A from TSCM/L1 \(B at TSCM and UB inputs are not
// FAULT 26: Matmul with A at TPosition::TSCM: A_TYPE's format is CubeFormat::NZ
// FAULT 27: Matmul::SetTensorA\(GlobalTensor\) with A at TPosition::TSCM: the Matmul reads A from L1
// FAULT 28: Matmul with A at TPosition::TSCM: A is not IBShare
// FAULT 29: the twin's Matmul reads A, B and bias from GM, and A from TSCM/L1 \(B at TSCM and UB inputs are not
// FAULT 30: Matmul::SetTensorA\(LocalTensor\): the twin models A at TPosition::TSCM
// FAULT 31: the twin does not model IterateBatch with A at TPosition::TSCM
// FAULT 6: GetTensorC into a LocalTensor needs C at VECIN/VECCALC/VECOUT \(MIX kernel\)
// FAULT 7: A and B both IBShare on A2: the result comes from IterateAll into a GlobalTensor only
// FAULT 8: the twin does not model GetTensorC's doPad form
// FAULT 9: Matmul with int8_t or int4b_t A and B: the twin models it in cube-only objects \(ASCENDC_CUBE_ONLY\)
// FAULT 10: Matmul on A2: C is float, half or bfloat16_t
// FAULT 11: the twin's Matmul models ND layouts
// FAULT 20: the twin's Matmul models ND layouts
// FAULT 12: Matmul's MM_CFG is a MatmulConfig or a constant tiling \(MatmulApiStaticTiling, GetMatmulApiTiling\)
// FAULT 13: MatmulConfig isCO1Shared is not supported on A2 \(MatmulConfig docs\)
// FAULT 16: MatmulConfig isEnableChannelSplit: C is at GM, in NZ format and float
// FAULT 21: the twin's Matmul models ND layouts
// FAULT 22: the twin's Matmul reads A, B and bias from GM \(TSCM/L1 and UB inputs are not modelled\)
// FAULT 17: REGIST_MATMUL_OBJ: MatmulConfig isA2B2Shared is global, every Matmul object takes the same value
// FAULT 14: the twin models Matmul objects with enableInit and enableSetOrgShape \(the default\)
// FAULT 15: the twin's Matmul writes C to GM, to VECIN/VECCALC/VECOUT, or in a cube-only kernel to CO1
// FAULT 23: the twin models constant tilings \(MatmulApiStaticTiling\) in cube-only Matmul objects
// FAULT 24: NBuffer33MatmulPolicy: pure Cube mode only
// FAULT 25: Matmul with int8_t or int4b_t A and B: the twin models it in cube-only objects \(ASCENDC_CUBE_ONLY\)
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

using A = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using Bias = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using CGm = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using CUb = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;

constexpr MatmulConfig kReorder = GetMDLConfig(false, false, 0, false, false, false, false, true, true, false, false,
                                               true);
constexpr MatmulConfig kOrderN = GetNormalConfig(false, false, false, BatchMode::BATCH_LESS_THAN_L1, true,
                                                 IterateOrder::ORDER_N);
constexpr MatmulConfig kShape = GetMMConfig<MatmulConfigMode::CONFIG_MDL>(MatmulShapeParams{128, 128, 128, 64, 64, 64},
                                                                          MatmulBiasParams{false});
constexpr MatmulConfig Partial()
{
    MatmulConfig c = CFG_MDL;
    c.isPartialOutput = true;
    return c;
}
constexpr MatmulConfig PartialNorm()
{
    MatmulConfig c = CFG_NORM;
    c.isPartialOutput = true;
    return c;
}
constexpr MatmulConfig PartSum()
{
    MatmulConfig c = CFG_NORM;
    c.intraBlockPartSum = true;
    return c;
}
constexpr MatmulConfig Dual()
{
    MatmulConfig c = CFG_NORM;
    c.enableMixDualMaster = true;
    return c;
}
constexpr MatmulConfig Relu()
{
    MatmulConfig c = CFG_NORM;
    c.enableRelu = true;
    return c;
}
constexpr MatmulConfig Shared()
{
    MatmulConfig c = CFG_MDL;
    c.isCO1Shared = true;
    return c;
}
constexpr MatmulConfig A2B2()
{
    MatmulConfig c = CFG_NORM;
    c.isA2B2Shared = true;
    return c;
}
constexpr MatmulConfig ChannelSplit()
{
    MatmulConfig c = CFG_NORM;
    c.isEnableChannelSplit = true;
    return c;
}
constexpr MatmulConfig NoInit()
{
    MatmulConfig c = CFG_NORM;
    c.enableInit = false;
    return c;
}
// Stands in for a constant tiling (MatmulApiStaticTiling, which GetMatmulApiTiling returns): not a MatmulConfig.
struct ConstantTiling {
    int32_t baseM = 64;
};
constexpr ConstantTiling kConstantTiling{};
constexpr MatmulApiStaticTiling kMixConstant = GetMatmulApiTiling<A, A, CGm, Bias>(
    GetMMConfig<MatmulConfigMode::CONFIG_NORM>(MatmulShapeParams{0, 0, 0, 64, 64, 64}));
constexpr MatmulConfig kPartial = Partial();
constexpr MatmulConfig kPartialNorm = PartialNorm();
constexpr MatmulConfig kPartSum = PartSum();
constexpr MatmulConfig kDual = Dual();
constexpr MatmulConfig kRelu = Relu();
constexpr MatmulConfig kShared = Shared();
constexpr MatmulConfig kNoInit = NoInit();
constexpr MatmulConfig kA2B2 = A2B2();
constexpr MatmulConfig kChannelSplit = ChannelSplit();

void Instantiate(GlobalTensor<float>& c, LocalTensor<float>& ub)
{
#if FAULT == 0
    Matmul<A, A, CUb, Bias> norm;
    Matmul<A, A, CUb, Bias, CFG_MDL> mdl;
    Matmul<A, A, CGm, Bias, kReorder> reorder;
    Matmul<A, A, CGm, Bias, kOrderN> orderN;
    Matmul<A, A, CGm, Bias, kShape> shape;
    norm.template GetTensorC<false>(ub);
    norm.AsyncGetTensorC(ub);
    norm.WaitGetTensorC();
    GlobalTensor<float> next = mdl.template GetTensorC<false>();
    (void)next;
    norm.template IterateAll<true>(ub);
    reorder.template IterateAll<false>(c, 0, false, true);
    reorder.WaitIterateAll();
    LocalTensor<uint8_t> tmp;
    norm.SetLocalWorkspace(tmp);  // accepted and ignored, as A2's client does (unsupported on A2: its docs)
    Matmul<A, A, MatmulType<TPosition::GM, CubeFormat::ND_ALIGN, float>, Bias> aligned;  // C rows 32-byte aligned
    aligned.IterateAll(c);
    Matmul<MatmulType<TPosition::GM, CubeFormat::VECTOR, half>, A, CGm, Bias> gemv;  // A in VECTOR (GEMV)
    gemv.IterateAll(c);
    Matmul<A, A, MatmulType<TPosition::GM, CubeFormat::NZ, float>, Bias, kChannelSplit> split;  // NZ, 8-column
    split.IterateAll(c);
    Matmul<A, A, CUb> noBias;  // the bias's MatmulType (C's, VECIN) matters only to SetBias
    noBias.IterateAll(c);
    Matmul<MatmulType<TPosition::TSCM, CubeFormat::NZ, half>, A, CGm, Bias> tscmA;  // A in L1 (NZ), a TSCM tensor
    LocalTensor<half> l1A;
    tscmA.SetTensorA(l1A);
    tscmA.IterateAll(c);
    Matmul<A, A, CGm, Bias, kPartial> partial;  // isPartialOutput (MDL): Iterate, GetTensorC into GM
    while (partial.Iterate()) partial.GetTensorC(c, 0, true);
    Matmul<A, A, CGm, Bias, kA2B2> shared1, shared2;  // isA2B2Shared: the same value for every object
    TPipe pipe;
    TCubeTiling tiling;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), shared1, &tiling, shared2, &tiling);
#elif FAULT == 1
    Matmul<A, A, CGm, Bias, kPartialNorm> partial;
#elif FAULT == 18
    Matmul<A, A, CUb, Bias, kPartial> partial;
    partial.GetTensorC(ub);
#elif FAULT == 19
    Matmul<A, A, CGm, Bias, kPartSum> partSum;
#elif FAULT == 2
    Matmul<A, A, CGm, Bias, kDual> dual;
#elif FAULT == 3
    Matmul<A, A, CGm, Bias, MM_CFG_BB> basic;
#elif FAULT == 4
    Matmul<A, A, CGm, Bias, kRelu> relu;
#elif FAULT == 5
    Matmul<MatmulType<TPosition::VECOUT, CubeFormat::ND, half>, A, CGm, Bias> ubInput;
#elif FAULT == 6
    Matmul<A, A, CGm, Bias> gmC;
    gmC.GetTensorC(ub);
#elif FAULT == 7
    using Shared = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NONE, true>;
    Matmul<Shared, Shared, CUb, Bias> shared;
    shared.template Iterate<false>();
#elif FAULT == 8
    Matmul<A, A, CUb, Bias> padded;
    padded.template GetTensorC<true, true>(ub);
#elif FAULT == 9
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, int8_t>, MatmulType<TPosition::GM, CubeFormat::ND, int8_t>,
           MatmulType<TPosition::GM, CubeFormat::ND, int32_t>, MatmulType<TPosition::GM, CubeFormat::ND, int32_t>>
        int8Inputs;
#elif FAULT == 25
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, int4b_t>, MatmulType<TPosition::GM, CubeFormat::ND, int4b_t>,
           MatmulType<TPosition::GM, CubeFormat::ND, int32_t>, MatmulType<TPosition::GM, CubeFormat::ND, int32_t>>
        int4Inputs;
#elif FAULT == 10
    Matmul<A, A, MatmulType<TPosition::GM, CubeFormat::ND, int32_t>, Bias> int32C;
#elif FAULT == 11
    Matmul<MatmulType<TPosition::GM, CubeFormat::NZ, half>, A, CGm, Bias> nzA;
#elif FAULT == 12
    Matmul<A, A, CGm, Bias, kConstantTiling> constantTiling;
#elif FAULT == 13
    Matmul<A, A, CGm, Bias, kShared> shared;
#elif FAULT == 14
    Matmul<A, A, CGm, Bias, kNoInit> noInit;
#elif FAULT == 16
    Matmul<A, A, CGm, Bias, kChannelSplit> channelSplit;
#elif FAULT == 17
    Matmul<A, A, CGm, Bias, kA2B2> shared;
    Matmul<A, A, CGm, Bias> notShared;
    TPipe pipe;
    TCubeTiling tiling;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), shared, &tiling, notShared, &tiling);
#elif FAULT == 20
    Matmul<A, MatmulType<TPosition::GM, CubeFormat::VECTOR, half>, CGm, Bias> vectorB;  // VECTOR is for A only on A2
#elif FAULT == 22
    Matmul<A, A, CUb> ubBias;  // the bias's MatmulType defaults to C's (VECIN)
    GlobalTensor<float> bias;
    ubBias.SetBias(bias);
#elif FAULT == 21
    Matmul<A, A, MatmulType<TPosition::GM, CubeFormat::NZ, float>, Bias> nzWithoutSplit;
#elif FAULT == 15
    Matmul<A, A, MatmulType<TPosition::TSCM, CubeFormat::ND, float>, Bias> cInL1;
#elif FAULT == 26
    Matmul<MatmulType<TPosition::TSCM, CubeFormat::ND, half>, A, CGm, Bias> tscmNd;
#elif FAULT == 27
    Matmul<MatmulType<TPosition::TSCM, CubeFormat::NZ, half>, A, CGm, Bias> tscmFromGm;
    GlobalTensor<half> a;
    tscmFromGm.SetTensorA(a);
#elif FAULT == 28
    Matmul<MatmulType<TPosition::TSCM, CubeFormat::NZ, half, false, LayoutMode::NONE, true>, A, CGm, Bias,
           CFG_IBSHARE_NORM>
        tscmShared;
#elif FAULT == 29
    Matmul<A, MatmulType<TPosition::TSCM, CubeFormat::NZ, half>, CGm, Bias> tscmB;
#elif FAULT == 30
    Matmul<A, A, CGm, Bias> gmA;
    LocalTensor<half> l1A;
    gmA.SetTensorA(l1A);
#elif FAULT == 31
    Matmul<MatmulType<TPosition::TSCM, CubeFormat::NZ, half, false, LayoutMode::NORMAL>,
           MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>,
           MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>, Bias>
        tscmBatch;
    tscmBatch.IterateBatch(c, 2, 2, false);
#elif FAULT == 24
    Matmul<A, A, CGm, Bias, CFG_MDL, MatmulCallBackFunc<nullptr, nullptr, nullptr>, Impl::Detail::NBuffer33MatmulPolicy>
        nbuffer33InMix;
#elif FAULT == 23
    Matmul<A, A, CGm, Bias, kMixConstant> mixConstant;
#endif
}
