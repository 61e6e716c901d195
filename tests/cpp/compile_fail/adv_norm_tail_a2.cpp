// The compile-time dtype rules of DeepNorm, LayerNormGrad, LayerNormGradBeta and SoftmaxFlashV3 on the twin
// (CMakeLists.txt compiles this file once per FAULT line, and once with FAULT=0, which must compile: every allowed
// combination). A2's checks: DeepNorm, LayerNormGrad(Beta) "template parameter (T) is not half or float";
// SoftmaxFlashV3 "T : half, U : float".
// FAULT 1: DeepNorm on A2 supports half and float
// FAULT 2: LayerNormGrad on A2 supports half and float
// FAULT 3: LayerNormGradBeta on A2 supports half and float
// FAULT 4: SoftmaxFlashV3 on A2: T is half and U float \(A2's check\)
#include "lib/activation/softmaxflashv3.h"
#include "lib/normalization/deepnorm.h"
#include "lib/normalization/layernormgrad.h"
#include "lib/normalization/layernormgradbeta.h"

using namespace AscendC;

template <typename T>
void UseNorm(LocalTensor<T>& x, LocalTensor<uint8_t>& tmp, DeepNormTiling& dn, LayerNormGradTiling& lg,
             LayerNormGradBetaTiling& lgb)
{
    const T v = static_cast<T>(1);
    DeepNorm<T>(x, x, x, x, x, x, x, tmp, v, v, dn);
    LayerNormGrad<T>(x, x, x, x, x, x, x, tmp, v, lg);
    LayerNormGradBeta<T>(x, x, x, x, tmp, lgb);
}

void Use(LocalTensor<uint8_t>& tmp, DeepNormTiling& dn, LayerNormGradTiling& lg, LayerNormGradBetaTiling& lgb,
         const SoftMaxTiling& sm, const SoftMaxParams& p)
{
    LocalTensor<half> h;
    LocalTensor<float> f;
#if FAULT == 0
    UseNorm(h, tmp, dn, lg, lgb);
    UseNorm(f, tmp, dn, lg, lgb);
    SoftmaxFlashV3<half, float, true>(h, f, f, f, h, h, f, f, f, tmp, sm, p);
#elif FAULT == 1
    LocalTensor<int32_t> i;
    DeepNorm<int32_t>(i, i, i, i, i, i, i, tmp, 1, 1, dn);
#elif FAULT == 2
    LocalTensor<int32_t> i;
    LayerNormGrad<int32_t>(i, i, i, i, i, i, i, tmp, 1, lg);
#elif FAULT == 3
    LocalTensor<int32_t> i;
    LayerNormGradBeta<int32_t>(i, i, i, i, tmp, lgb);
#elif FAULT == 4
    SoftmaxFlashV3<float, float>(f, f, f, f, f, f, f, f, f, tmp, sm, p);
#endif
}
