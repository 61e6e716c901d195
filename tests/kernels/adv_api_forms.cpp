// Every advanced-API form the twin implements, called as a kernel would (compile only: the operands alias, so a
// launch would break the overlap rules). tests/test_twin_adv_api_forms.py compiles it against the twin and, where
// the ascchk checkers are built, against the real Ascend C headers (g++ C++17, CPU-debug configuration), so a
// signature the twin got wrong fails one of the two.
#include "kernel_operator.h"
#include "lib/math/floor.h"
#include "lib/math/log.h"
#include "lib/math/power.h"
#include "lib/activation/sigmoid.h"
#include "lib/activation/silu.h"
#include "lib/activation/swish.h"
#include "lib/activation/gelu.h"
#include "lib/activation/swiglu.h"
#include "lib/reduce/sum.h"
#include "lib/index/arithprogression.h"
#include "lib/activation/softmax.h"
#include "lib/activation/simplesoftmax.h"
#include "lib/activation/softmaxflash.h"
#include "lib/activation/softmaxflashv2.h"
#include "lib/activation/softmaxflashv3.h"
#include "lib/activation/logsoftmax.h"
#include "lib/activation/softmaxgrad.h"
#include "lib/reduce/reduce.h"
#include "lib/quantization/ascend_dequant.h"
#include "lib/filter/dropout.h"
#include "lib/normalization/rmsnorm.h"
#include "lib/normalization/layernorm.h"
#include "lib/normalization/normalize.h"
#include "lib/quantization/ascend_antiquant.h"
#include "lib/normalization/welfordfinalize.h"
#include "lib/normalization/deepnorm.h"
#include "lib/normalization/layernormgrad.h"
#include "lib/normalization/layernormgradbeta.h"
#include "lib/quantization/ascend_quant.h"
#include "lib/math/xor.h"
#include "lib/math/exp.h"
#include "lib/math/clamp.h"
#include "lib/math/fmod.h"
#include "lib/math/axpy.h"
#include "lib/math/cumsum.h"
#include "lib/activation/geglu.h"
#include "lib/pad/pad.h"
#include "lib/select/selectwithbytesmask.h"
#include "lib/transpose/confusion_transpose.h"
using namespace AscendC;

constexpr CumSumConfig kCumSumFirst = {false, false, false};

template <typename T>
__aicore__ inline void Use(LocalTensor<T>& y, LocalTensor<T>& x, LocalTensor<T>& z, LocalTensor<uint8_t>& t)
{
    Acos(y, x, t, 8); Acos(y, x, 8); Acos(y, x, t); Acos(y, x);
    Acosh(y, x, t, 8); Asin(y, x, 8); Asinh(y, x); Atan(y, x, t); Atanh(y, x, t, 8);
    Ceil(y, x, t, 8); Ceil(y, x, 8); Floor(y, x, t, 8); Floor(y, x, 8); Round(y, x, t, 8); Round(y, x, 8);
    Cos(y, x, t, 8); Cosh(y, x, 8); Erf(y, x, t); Erfc(y, x); Frac(y, x, t, 8);
    Log(y, x, 8); Log(y, x); Log10(y, x, 8); Log10(y, x); Log2(y, x, t, 8); Log2(y, x, 8); Log2(y, x, t); Log2(y, x);
    Sign(y, x, t, 8); Sin<T, false>(y, x, t, 8); Sinh(y, x, 8); Tan(y, x, t); Tanh(y, x); Trunc(y, x, t, 8);
    Sigmoid(y, x, t, 8); Sigmoid(y, x, 8); Sigmoid(y, x, t); Sigmoid(y, x);
    Silu(y, x, 8); Swish(y, x, 8, static_cast<T>(1.5f));
    Gelu(y, x, t, 8); Gelu<T, true, false>(y, x, 8); FasterGelu(y, x, t, 8); FasterGeluV2<T, false, true>(y, x, 8);
    SwiGLU<T>(y, x, z, 1.0f); SwiGLU<T>(y, x, z, 1.0f, t); SwiGLU<T>(y, x, z, 1.0f, 8); SwiGLU<T>(y, x, z, 1.0f, t, 8);
    Power(y, x, z, t, 8); Power(y, x, z, 8); Power(y, x, z, t); Power(y, x, z);
    const T two = static_cast<T>(2.0f);
    Power(y, x, two, t, 8); Power(y, x, two, 8); Power(y, x, two, t); Power(y, x, two);
    Power(y, two, z, t, 8); Power(y, two, z, 8); Power(y, two, z, t); Power(y, two, z);
    SumParams params{1, 16, 16};
    Sum(y, x, t, params); Sum<T, -1, false, false>(y, x, params);
    ArithProgression(y, static_cast<T>(1.0f), static_cast<T>(2.0f), 8);
    Arange(y, static_cast<T>(1.0f), static_cast<T>(2.0f), 8);
    Exp<T, 10, false>(y, x, t, 8); Exp<T, 15>(y, x, 8); Exp<T, 0, false>(y, x, t, 8);
    ClampMin<T, false>(y, x, t, two, 8); ClampMin(y, x, two, 8); ClampMax(y, x, t, two, 8); ClampMax<T>(y, x, two, 8);
    Fmod(y, x, z, t, 8); Fmod(y, x, z, 8); Fmod(y, x, z, t); Fmod<T, false>(y, x, z);
    GeGLU<T, false>(y, x, z, t, 8); GeGLU(y, x, z, 8); GeGLU(y, x, z, t); GeGLU(y, x, z);
    Axpy(y, x, two, t, 8);
    CumSum(y, z, x, t, CumSumInfo{1, 16}); CumSum<T, kCumSumFirst>(y, z, x, CumSumInfo{1, 16});
}

constexpr SoftmaxConfig kNoBrc = {false, 0, 0, SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};
constexpr SoftmaxConfig kConstShape = {true, 16, 64};

// The SoftMax family: T1 src/dst, T2 the statistics (T1 = T2, or half with float statistics).
template <typename T1, typename T2>
__aicore__ inline void UseSoftmax(LocalTensor<T1>& y, LocalTensor<T1>& x, LocalTensor<T2>& s, LocalTensor<T2>& m,
                                  LocalTensor<T1>& e, LocalTensor<uint8_t>& t)
{
    SoftMaxTiling tiling;
    const SoftMaxShapeInfo shape{16, 64, 16, 60};
    SoftMax<T1>(y, s, m, x, tiling, shape); SoftMax<T1>(y, s, m, x, t, tiling, shape);
    SoftMax<T1, false, false, false, kConstShape>(y, s, m, x, t, tiling, shape); SoftMax<T1>(y, s, m, x, tiling);
    SimpleSoftMax<T1>(y, s, m, x, tiling, shape); SimpleSoftMax<T1>(y, s, m, x, t, tiling, shape);
    SoftmaxFlash<T1>(y, s, m, x, e, s, m, tiling, true, shape); SoftmaxFlash<T1>(y, s, m, x, e, s, m, t, tiling);
    SoftmaxFlashV2<T1>(y, s, m, x, e, s, m, tiling, shape); SoftmaxFlashV2<T1, true>(y, s, m, x, e, s, m, t, tiling, shape);
    SoftmaxFlashV2<T1, true, true, false, false, kNoBrc>(y, s, m, x, e, s, m, t, tiling, shape);
    tiling = SoftMaxFlashV2TilingFunc(shape, sizeof(T1), sizeof(T2), t.GetSize(), true, false, false, true);
    if constexpr (std::is_same_v<T1, T2>) {
        SoftMax<T1>(y, x, tiling, shape); SoftMax<T1>(y, x, t, tiling, shape);
        SoftmaxFlashV2<T1, true, false, false, false, kNoBrc>(y, m, s, m, x, e, s, m, tiling, shape);
        SoftmaxFlashV2<T1, true, false, false, false, kNoBrc>(y, m, s, m, x, e, s, m, t, tiling, shape);
        LogSoftMaxTiling logTiling;
        LogSoftMax<T1>(y, s, m, x, t, logTiling, shape);
        SoftmaxGrad<T1>(y, x, x, tiling, false, shape); SoftmaxGrad<T1>(y, x, x, t, tiling, true, shape);
        SoftmaxGradFront<T1>(y, x, x, tiling, shape); SoftmaxGradFront<T1, true>(y, x, x, t, tiling, shape);
        const bool adjusted = AdjustSoftMaxRes<T1, T2>(y, m, 0xFF800000u, static_cast<T1>(0.0f), shape);
        (void)AdjustSoftMaxRes<T1, T2, false, 1>(y, m, 0xFF800000u, static_cast<T1>(adjusted ? 1.0f : 0.0f), shape);
    }
}

// The reductions over a pattern (AR and RA; the dtypes A2 takes for each).
template <typename T>
__aicore__ inline void UseReduce(LocalTensor<T>& y, LocalTensor<T>& x, LocalTensor<uint8_t>& t)
{
    const uint32_t shape[] = {4, 16};
    if constexpr (std::is_same_v<T, float>) {
        ReduceSum<T, Pattern::Reduce::AR>(y, x, t, shape, true); ReduceSum<T, Pattern::Reduce::RA, true>(y, x, shape, true);
        ReduceProd<T, Pattern::Reduce::AR>(y, x, t, shape, true); ReduceProd<T, Pattern::Reduce::RA>(y, x, shape, true);
    }
    if constexpr (!std::is_same_v<T, uint8_t>) {
        ReduceMax<T, Pattern::Reduce::AR>(y, x, t, shape, true); ReduceMax<T, Pattern::Reduce::RA>(y, x, shape, true);
        ReduceMin<T, Pattern::Reduce::RA, true>(y, x, t, shape, true); ReduceMin<T, Pattern::Reduce::AR>(y, x, shape, true);
        ReduceMean<T, Pattern::Reduce::AR>(y, x, t, shape, true); ReduceMean<T, Pattern::Reduce::RA>(y, x, shape, true);
    }
    if constexpr (!std::is_same_v<T, half>) {
        ReduceAny<T, Pattern::Reduce::AR>(y, x, t, shape, true); ReduceAny<T, Pattern::Reduce::RA>(y, x, shape, true);
        ReduceAll<T, Pattern::Reduce::RA>(y, x, t, shape, true); ReduceAll<T, Pattern::Reduce::AR, true>(y, x, shape, true);
    }
}

// AscendDequant: the A2 dtype combinations, tensor and scalar scales, with and without DequantParams.
template <typename dstT, typename scaleT>
__aicore__ inline void UseDequant(LocalTensor<dstT>& y, LocalTensor<int32_t>& x, LocalTensor<scaleT>& s,
                                  LocalTensor<uint8_t>& t)
{
    DequantParams params{4, 8, 8};
    AscendDequant(y, x, s, t, params); AscendDequant<dstT, scaleT>(y, x, s, params);
    AscendDequant<dstT, scaleT, DeQuantMode::DEQUANT_WITH_MULTI_ROW>(y, x, s, t, {1, 32, 8});
    AscendDequant(y, x, s, t, 16u); AscendDequant(y, x, s, 16u); AscendDequant(y, x, s, t); AscendDequant(y, x, s);
}

template <typename T>
__aicore__ inline void UseXor(LocalTensor<T>& y, LocalTensor<T>& x, LocalTensor<T>& z, LocalTensor<uint8_t>& t)
{
    Xor(y, x, z, t, 8); Xor(y, x, z, t); Xor(y, x, z, 8); Xor(y, x, z); Xor<T, false>(y, x, z, t, 8);
}

// DropOut: half and float, with and without sharedTmpBuffer, isInitBitMode and every dropOutMode.
template <typename T>
__aicore__ inline void UseDropOut(LocalTensor<T>& y, LocalTensor<T>& x, LocalTensor<uint8_t>& m, LocalTensor<uint8_t>& t)
{
    DropOutShapeInfo info;
    info.firstAxis = 2;
    info.srcLastAxis = 32;
    info.maskLastAxis = 32;
    DropOut(y, x, m, t, 0.5f, info); DropOut(y, x, m, 0.5f, info);
    DropOut<T, true>(y, x, m, t, 0.5f, info); DropOut<T, false, DROPOUT_MODE_BYTE_MISALIGN>(y, x, m, t, 0.5f, info);
    DropOut<T, false, DROPOUT_MODE_BYTE_ALIGN>(y, x, m, 0.5f, info); DropOut<T, true, DROPOUT_MODE_BIT_ALIGN>(y, x, m, t, 0.5f, info);
    DropOut<T, false, DROPOUT_MODE_BIT_MISALIGN>(y, x, m, t, 0.5f, info);
}

// LayerNorm ([B, S, H] form): half and float, with and without sharedTmpBuffer, isReuseSource for float.
template <typename T>
__aicore__ inline void UseLayerNorm(LocalTensor<T>& y, LocalTensor<T>& x, LocalTensor<T>& g, LocalTensor<uint8_t>& t,
                                    LayerNormTiling& tiling)
{
    const T eps = static_cast<T>(1e-5f);
    LayerNorm(y, g, g, x, g, g, t, eps, tiling); LayerNorm<T, false>(y, g, g, x, g, g, eps, tiling);
    if constexpr (sizeof(T) == 4) { LayerNorm<T, true>(y, g, g, x, g, g, t, eps, tiling); LayerNorm<T, true>(y, g, g, x, g, g, eps, tiling); }
}

// LayerNorm's [A, R] form and Normalize: T/U float/float, half/half, half/float, with and without sharedTmpBuffer,
// the configs; AscendAntiQuant's int8_t -> half forms (tensor offset and scale, scalars).
constexpr LayerNormConfig kLnNoBeta = {true, false, false, true};
constexpr NormalizeConfig kNormA4 = {ReducePattern::AR, 4, false, true, false};
template <typename T, typename U>
__aicore__ inline void UseNormalize(LocalTensor<T>& y, LocalTensor<T>& x, LocalTensor<U>& g, LocalTensor<float>& m,
                                    LocalTensor<uint8_t>& t, LayerNormSeparateTiling& tiling)
{
    const LayerNormPara lp = {4, 32, 32};
    const NormalizePara np = {4, 32, 32};
    LayerNorm<U, T>(y, m, m, x, g, g, 1e-5f, lp, tiling); LayerNorm<U, T, false, kLnNoBeta>(y, m, m, x, g, g, 1e-5f, t, lp, tiling);
    Normalize<U, T>(y, m, m, m, x, g, g, t, 1e-5f, np); Normalize<U, T, false, kNormA4>(y, m, m, m, x, g, g, 1e-5f, np);
    Normalize<U, T, false, NLCFG_NOOPT>(y, m, m, m, x, g, g, t, 1e-5f, np);
}
__aicore__ inline void UseAntiQuant(LocalTensor<half>& y, LocalTensor<int8_t>& x, LocalTensor<uint8_t>& t)
{
    AscendAntiQuant<int8_t, half, false>(y, x, y, y, t, 8); AscendAntiQuant<int8_t, half, false>(y, x, y, y, 8);
    AscendAntiQuant<int8_t, half, false>(y, x, y, y, t, 8, {1, 128, 1, 128});
    AscendAntiQuant<int8_t, half, false>(y, x, half(1.0f), half(0.5f), t, 8);
    AscendAntiQuant<int8_t, half, false>(y, x, half(0.5f), t, 8); AscendAntiQuant<int8_t, half, false>(y, x, half(1.0f), half(0.5f), 8);
    LocalTensor<int4b_t> x4 = x.ReinterpretCast<int4b_t>();
    AscendAntiQuant<int4b_t, half, false>(y, x4, y, y, t, 8); AscendAntiQuant<int4b_t, half, false>(y, x4, half(1.0f), half(0.5f), t, 8);
}

// WelfordUpdate: half and float inputX, float statistics, with and without sharedTmpBuffer, isReuseSource, isInplace.
constexpr WelfordUpdateConfig kWelfordInplace = {true};
template <typename T>
__aicore__ inline void UseWelfordUpdate(LocalTensor<float>& m, LocalTensor<T>& x, LocalTensor<uint8_t>& t)
{
    const WelfordUpdateParam para = {1, 64, 60, 0.5f};
    WelfordUpdate<T, float>(m, m, m, m, x, t, para); WelfordUpdate<T, float>(m, m, m, m, x, para);
    WelfordUpdate<T, float, false, kWelfordInplace>(m, m, m, m, x, t, para);
    if constexpr (sizeof(T) == 4) WelfordUpdate<T, float, true, WFUPDATE_DEFAULT_CFG>(m, m, m, m, x, t, para);
}

// WelfordFinalize: the four A2 forms (counts or not, sharedTmpBuffer or not).
__aicore__ inline void UseWelfordFinalize(LocalTensor<float>& m, LocalTensor<int32_t>& counts, LocalTensor<uint8_t>& t)
{
    WelfordFinalizePara para = {1, 64, 1, 64, 0, 0, 1.0f / 64, 1.0f / 64};
    WelfordFinalize(m, m, m, m, t, para); WelfordFinalize<false>(m, m, m, m, counts, t, para);
    WelfordFinalize(m, m, m, m, para); WelfordFinalize(m, m, m, m, counts, para);
}

// DeepNorm: half and float, with and without sharedTmpBuffer, isBasicBlock, isReuseSrc for float.
template <typename T>
__aicore__ inline void UseDeepNorm(LocalTensor<T>& y, LocalTensor<T>& x, LocalTensor<T>& g, LocalTensor<uint8_t>& t,
                                   DeepNormTiling& tiling)
{
    const T a = static_cast<T>(0.5f), eps = static_cast<T>(1e-5f);
    DeepNorm(y, g, g, x, x, g, g, t, a, eps, tiling); DeepNorm<T, false, true>(y, g, g, x, x, g, g, a, eps, tiling);
    if constexpr (sizeof(T) == 4) DeepNorm<T, true, false>(y, g, g, x, x, g, g, t, a, eps, tiling);
}

// LayerNormGrad (with and without sharedTmpBuffer, the shapeInfo default and given, isReuseSource for float) and
// LayerNormGradBeta (with and without sharedTmpBuffer): half and float.
template <typename T>
__aicore__ inline void UseLayerNormGrad(LocalTensor<T>& y, LocalTensor<T>& x, LocalTensor<uint8_t>& t,
                                        LayerNormGradTiling& tiling, LayerNormGradBetaTiling& betaTiling)
{
    const T eps = static_cast<T>(1e-5f);
    LayerNormGrad(y, y, x, x, x, x, x, t, eps, tiling); LayerNormGrad<T, false>(y, y, x, x, x, x, x, eps, tiling);
    LayerNormGrad(y, y, x, x, x, x, x, t, eps, tiling, LayerNormGradShapeInfo{DataFormat::ND});
    if constexpr (sizeof(T) == 4) LayerNormGrad<T, true>(y, y, x, x, x, x, x, t, eps, tiling);
    LayerNormGradBeta(y, y, x, x, t, betaTiling); LayerNormGradBeta<T, false>(y, y, x, x, betaTiling);
}

// RmsNorm: half and float, with and without sharedTmpBuffer and isBasicBlock.
template <typename T>
__aicore__ inline void UseRmsNorm(LocalTensor<T>& y, LocalTensor<T>& x, LocalTensor<T>& g, LocalTensor<uint8_t>& t,
                                  const RmsNormTiling& tiling)
{
    const T eps = static_cast<T>(1e-5f);
    RmsNorm(y, x, g, t, eps, tiling); RmsNorm(y, x, g, eps, tiling); RmsNorm<T, true>(y, x, g, t, eps, tiling);
    RmsNorm<T, true>(y, x, g, eps, tiling);
    RepeatReduceSum(y, x, 1, 64, 1, 1, 1, 8); RepeatReduceSum<T, false>(y, x, 1, 64, 1, 1, 1, 8);  // the basic API it uses
}

// AscendQuant: the twelve A2 forms and a config fixing the counts.
constexpr AscendQuantConfig kQuantCfg = {256, 0, 0, 512};
template <typename T>
__aicore__ inline void UseAscendQuant(LocalTensor<int8_t>& y, LocalTensor<T>& x, LocalTensor<T>& s, LocalTensor<T>& o,
                                      LocalTensor<uint8_t>& t)
{
    const T off = static_cast<T>(1.0f);
    AscendQuant(y, x, t, 0.5f, 1.0f, 256); AscendQuant(y, x, 0.5f, 1.0f, 256); AscendQuant(y, x, t, 0.5f, 1.0f);
    AscendQuant(y, x, 0.5f, 1.0f); AscendQuant(y, x, t, s, off, 32, 256); AscendQuant(y, x, s, off, 32, 256);
    AscendQuant(y, x, t, s, off); AscendQuant(y, x, s, off); AscendQuant(y, x, t, s, o, 32, 32, 256);
    AscendQuant(y, x, s, o, 32, 32, 256); AscendQuant(y, x, t, s, o); AscendQuant(y, x, s, o);
    AscendQuant<T, false, kQuantCfg>(y, x, t, 0.5f, 1.0f, 256);
}

template <typename T>
__aicore__ inline void UsePad(LocalTensor<T>& y, LocalTensor<T>& x, LocalTensor<uint8_t>& t, PadTiling& pt,
                              UnPadTiling& ut)
{
    PadParams p{0, 1, 321};
    UnPadParams u{0, 1};
    Pad(y, x, p, t, pt); Pad(y, x, p, pt); Pad<T>(y, x, p, t, pt);
    UnPad(y, x, u, t, ut); UnPad(y, x, u, ut); UnPad<T>(y, x, u, ut);
}

template <typename T, typename U>
__aicore__ inline void UseSelectBytesMask(LocalTensor<T>& y, LocalTensor<T>& x, LocalTensor<U>& m,
                                          LocalTensor<uint8_t>& t)
{
    SelectWithBytesMaskShapeInfo info;
    info.firstAxis = 2;
    info.srcLastAxis = 32;
    info.maskLastAxis = 32;
    Select(y, x, static_cast<T>(1), m, t, info);
    Select(y, static_cast<T>(1), x, m, t, info);
    Select<T, U, false>(y, x, static_cast<T>(2), m, t, info);
}

template <typename T>
__aicore__ inline void UseConfusionTranspose(LocalTensor<T>& y, LocalTensor<T>& x, LocalTensor<uint8_t>& t,
                                             ConfusionTransposeTiling& tl)
{
    Transpose(y, x, t, TransposeType::TRANSPOSE_NZ2ND_0213, tl);
    Transpose(y, x, TransposeType::TRANSPOSE_NZ2NZ_0213, tl);
    Transpose<T>(y, x, t, TransposeType::TRANSPOSE_NZ2ND_0213, tl);
}

template <typename T>
__aicore__ inline void UseProposalSort(LocalTensor<T>& dst, LocalTensor<T>& src, LocalTensor<T>& tmp,
                                       LocalTensor<uint32_t>& idx)
{
    LocalTensor<T> concat;
    Concat(concat, src, tmp, 1);
    Sort<T, true>(dst, concat, idx, tmp, 1);
    Sort<T, false>(dst, concat, idx, tmp, 1);
    Extract(src, idx, dst, 1);
    (void)(GetSortLen<T>(32) + GetSortOffset<T>(1));
}

extern "C" __global__ __aicore__ void adv_api_forms(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4096);
    LocalTensor<float> f = b.Get<float>();
    LocalTensor<float> f2 = b.Get<float>();
    LocalTensor<float> f3 = b.Get<float>();
    LocalTensor<half> h = b.Get<half>();
    LocalTensor<half> h2 = b.Get<half>();
    LocalTensor<half> h3 = b.Get<half>();
    LocalTensor<uint8_t> t = b.Get<uint8_t>();
    Use(f, f2, f3, t);
    Use(h, h2, h3, t);
    UseSoftmax(f, f2, f3, f2, f3, t);
    UseSoftmax(h, h2, h3, h2, h3, t);
    UseSoftmax(h, h2, f2, f3, h3, t);
    UseReduce(f, f2, t);
    UseReduce(h, h2, t);
    LocalTensor<uint8_t> u = b.Get<uint8_t>();
    UseReduce(u, t, t);
    LocalTensor<int32_t> q = b.Get<int32_t>();
    LocalTensor<bfloat16_t> bf = b.Get<bfloat16_t>();
    LocalTensor<uint64_t> u64 = b.Get<uint64_t>();
    UseDequant(h, q, u64, t);
    UseDropOut(h, h2, u, t);
    UseDropOut(f, f2, u, t);
    RmsNormTiling rmsTiling;
    UseRmsNorm(h, h2, h2, t, rmsTiling);
    UseRmsNorm(f, f2, f2, t, rmsTiling);
    LayerNormTiling lnTiling;
    UseLayerNorm(h, h2, h2, t, lnTiling);
    UseLayerNorm(f, f2, f2, t, lnTiling);
    LayerNormSeparateTiling lnsTiling;
    UseNormalize(f, f2, f3, f, t, lnsTiling);
    UseNormalize(h, h2, h3, f, t, lnsTiling);
    UseNormalize(h, h2, f3, f, t, lnsTiling);
    LocalTensor<int8_t> s8 = b.Get<int8_t>();
    UseAntiQuant(h, s8, t);
    UseWelfordUpdate(f, h, t);
    UseWelfordUpdate(f, f2, t);
    LocalTensor<int32_t> counts = b.Get<int32_t>();
    UseWelfordFinalize(f, counts, t);
    DeepNormTiling dnTiling;
    UseDeepNorm(h, h2, h2, t, dnTiling);
    UseDeepNorm(f, f2, f2, t, dnTiling);
    {  // SoftmaxFlashV3: half/float, with and without update and sharedTmpBuffer
        SoftMaxTiling smt;
        const SoftMaxParams smp{8, 512, 8, 512, 2, 8, 0.9375f};
        SoftmaxFlashV3<half, float>(h, f, f, f, h2, h3, f2, f2, f2, t, smt, smp);
        SoftmaxFlashV3<half, float, true>(h, f, f, f, h2, h3, f2, f2, f2, smt, smp);
    }
    LayerNormGradTiling lngTiling;
    LayerNormGradBetaTiling lngbTiling;
    UseLayerNormGrad(h, h2, t, lngTiling, lngbTiling);
    UseLayerNormGrad(f, f2, t, lngTiling, lngbTiling);
    LocalTensor<int8_t> i8 = b.Get<int8_t>();
    UseAscendQuant(i8, h, h2, h2, t);
    UseAscendQuant(i8, f, f2, f2, t);
    UseDequant(f, q, f2, t);
    UseDequant(f, q, bf, t);
    UseDequant(bf, q, bf, t);
    UseDequant(bf, q, f2, t);
    AscendDequant(f, q, 0.5f, t, DequantParams{4, 8, 8});
    AscendDequant<bfloat16_t, float>(bf, q, 0.5f, DequantParams{4, 8, 8});
    AscendDequant<float, bfloat16_t>(f, q, bf.GetValue(0), t, DequantParams{4, 8, 8});
    LocalTensor<int32_t> i = b.Get<int32_t>();
    LocalTensor<int32_t> i2 = b.Get<int32_t>();
    Power(i, i2, i2, t, 8);
    Power(i, i2, 3, 8);
    LocalTensor<float> af = b.Get<float>();
    LocalTensor<half> ah = b.Get<half>();
    Axpy(af, ah, static_cast<half>(2.0f), t, 8);  // the mix pair: half source into a float dst
    ArithProgression<int16_t>(b.Get<int16_t>(), 1, 2, 8);
    LocalTensor<int16_t> s16 = b.Get<int16_t>();
    LocalTensor<int16_t> s16b = b.Get<int16_t>();
    LocalTensor<uint16_t> u16 = b.Get<uint16_t>();
    LocalTensor<uint16_t> u16b = b.Get<uint16_t>();
    UseXor(s16, s16b, s16b, t);
    UseXor(u16, u16b, u16b, t);
    PadTiling padTiling;
    UnPadTiling unPadTiling;
    UsePad(f, f2, t, padTiling, unPadTiling);
    UsePad(h, h2, t, padTiling, unPadTiling);
    UseSelectBytesMask(f, f2, u, t);
    UseSelectBytesMask(h, h2, u, t);
    ConfusionTransposeTiling transposeTiling;
    UseConfusionTranspose(f, f2, t, transposeTiling);
    UseConfusionTranspose(h, h2, t, transposeTiling);
    LocalTensor<uint32_t> sortIndex = b.Get<uint32_t>();
    UseProposalSort(f, f2, f3, sortIndex);
    UseProposalSort(h, h2, h3, sortIndex);
    (void)x;
}
