// Normalize's and the [A, R] LayerNorm's compile-time rules on the twin (CMakeLists.txt compiles this file once per
// FAULT line, and once with FAULT=0, which must compile: T/U float/float, half/half, half/float, both forms of each,
// configs with aLength -1 and 4). A2's checks: the dtype pairs (normalize_common_impl.h IsDtypeValid, layernorm's
// CheckLayerNormRstd), config.isOnlyOutput false, config.aLength not 1.
// FAULT 1: Failed to check dtype in Normalize
// FAULT 2: Failed to check dtype in Normalize
// FAULT 3: isOnlyOutput must be set false for now
// FAULT 4: aLength in config must not be 1
// FAULT 5: current data type is not supported on current device! \(LayerNorm: U is float for float T, half or float for half T
// FAULT 6: current data type is not supported on current device! \(LayerNorm: T is half or float on A2
// FAULT 7: current data type is not supported on current device! \(LayerNorm: config.isOnlyOutput is false
#include "lib/normalization/layernorm.h"
#include "lib/normalization/normalize.h"

using namespace AscendC;

constexpr NormalizeConfig kFour = {ReducePattern::AR, 4, false, false, false};
constexpr NormalizeConfig kOnlyOutput = {ReducePattern::AR, -1, false, false, true};
constexpr NormalizeConfig kOne = {ReducePattern::AR, 1, false, false, false};
constexpr LayerNormConfig kLnOnlyOutput = {false, false, true, true};

void Use(LocalTensor<uint8_t>& tmp, const NormalizePara& np, const LayerNormPara& lp, const LayerNormSeparateTiling& t)
{
    LocalTensor<float> f;
    LocalTensor<half> h;
#if FAULT == 0
    Normalize<float, float>(f, f, f, f, f, f, f, tmp, 1e-5f, np);
    Normalize<half, half, false, kFour>(h, f, f, f, h, h, h, 1e-5f, np);
    Normalize<float, half, false, NLCFG_NOBETA>(h, f, f, f, h, f, f, tmp, 1e-5f, np);
    LayerNorm<float, float>(f, f, f, f, f, f, 1e-5f, lp, t);
    LayerNorm<half, half>(h, f, f, h, h, h, 1e-5f, tmp, lp, t);
    LayerNorm<float, half, false, LNCFG_NORM>(h, f, f, h, f, f, 1e-5f, lp, t);
#elif FAULT == 1
    Normalize<half, float>(f, f, f, f, f, h, h, tmp, 1e-5f, np);  // float T with half U
#elif FAULT == 2
    LocalTensor<bfloat16_t> b;
    Normalize<bfloat16_t, bfloat16_t>(b, f, f, f, b, b, b, 1e-5f, np);
#elif FAULT == 3
    Normalize<float, float, false, kOnlyOutput>(f, f, f, f, f, f, f, tmp, 1e-5f, np);
#elif FAULT == 4
    Normalize<float, float, false, kOne>(f, f, f, f, f, f, f, tmp, 1e-5f, np);
#elif FAULT == 5
    LayerNorm<half, float>(f, f, f, f, h, h, 1e-5f, lp, t);
#elif FAULT == 6
    LocalTensor<int32_t> i;
    LayerNorm<int32_t, int32_t>(i, f, f, i, i, i, 1e-5f, tmp, lp, t);
#elif FAULT == 7
    LayerNorm<float, float, false, kLnOnlyOutput>(f, f, f, f, f, f, 1e-5f, lp, t);
#endif
}
