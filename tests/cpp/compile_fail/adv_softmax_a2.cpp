// The SoftMax family's compile-time dtype rules on the twin (CMakeLists.txt compiles this file once per FAULT line,
// and once with FAULT=0, which must compile: half and float, and half with float statistics where A2 has the form).
// FAULT 1: SoftMax on A2 supports half and float
// FAULT 2: SoftmaxFlashV2 on A2 supports half and float
// FAULT 3: LogSoftMax on A2 supports half and float
// FAULT 4: SoftmaxGrad on A2 supports half and float
// FAULT 5: AdjustSoftMaxRes on A2 supports half and float
// FAULT 6: SimpleSoftMax on A2 supports half and float
// FAULT 7: SoftmaxFlash on A2 supports half and float
#include "lib/activation/logsoftmax.h"
#include "lib/activation/simplesoftmax.h"
#include "lib/activation/softmaxflash.h"
#include "lib/activation/softmax.h"
#include "lib/activation/softmaxflashv2.h"
#include "lib/activation/softmaxgrad.h"

using namespace AscendC;

template <typename T>
void Use(LocalTensor<uint8_t>& tmp, const SoftMaxTiling& tiling, const LogSoftMaxTiling& logTiling)
{
    LocalTensor<T> y, x, s, m, e;
    const SoftMaxShapeInfo shape{8, 64, 8, 64};
#if FAULT == 0 || FAULT == 1
    SoftMax<T>(y, s, m, x, tmp, tiling, shape);
#endif
#if FAULT == 0 || FAULT == 2
    SoftmaxFlashV2<T, true>(y, s, m, x, e, s, m, tmp, tiling, shape);
#endif
#if FAULT == 0 || FAULT == 3
    LogSoftMax<T>(y, s, m, x, tmp, logTiling, shape);
#endif
#if FAULT == 0 || FAULT == 4
    SoftmaxGrad<T>(y, x, x, tmp, tiling, false, shape);
#endif
#if FAULT == 0 || FAULT == 5
    (void)AdjustSoftMaxRes<T, T>(y, m, 0u, T(0), shape);
#endif
#if FAULT == 0 || FAULT == 6
    SimpleSoftMax<T>(y, s, m, x, tmp, tiling, shape);
#endif
#if FAULT == 0 || FAULT == 7
    SoftmaxFlash<T>(y, s, m, x, e, s, m, tmp, tiling, false, shape);  // deprecated on A2, still compiled
#endif
}

void Instantiate(LocalTensor<uint8_t>& tmp, const SoftMaxTiling& tiling, const LogSoftMaxTiling& logTiling)
{
#if FAULT != 0
    Use<int32_t>(tmp, tiling, logTiling);
#else
    Use<float>(tmp, tiling, logTiling);
    Use<half>(tmp, tiling, logTiling);
    LocalTensor<half> y, x, e;
    LocalTensor<float> s, m;
    SoftMax<half>(y, s, m, x, tmp, tiling);
    SoftmaxFlashV2<half, true>(y, s, m, x, e, s, m, tmp, tiling);
#endif
}
