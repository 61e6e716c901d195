// DataCopy with SliceInfo, GM -> UB -> GM, as the API docs' example: rows 0 and 2 of a [3, 87] float tensor, of each
// two bursts of 3 blocks `gap` elements apart from element 16, into [2, 48]. `fault` plants one broken rule (0: none).
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void slice_rows(GM_ADDR dstGm, GM_ADDR srcGm, GM_ADDR tiling)
{
    const uint32_t gap = reinterpret_cast<__gm__ uint32_t*>(tiling)[0];
    const uint32_t fault = reinterpret_cast<__gm__ uint32_t*>(tiling)[1];
    SliceInfo src[] = {{16, 16 + 48 + gap - 1, gap, 3, 87}, {0, 2, 1, 1, 3}};
    SliceInfo dst[] = {{0, 47, 0, 3, 48}, {0, 1, 0, 1, 2}};
    uint32_t dims = 2;
    if (fault == 1) src[1].burstLen = dst[1].burstLen = 2;  // burstLen beyond dimension 0
    if (fault == 2) src[0].shapeValue = 60;                  // endIndex past shapeValue
    if (fault == 3) src[0].endIndex -= 1;                    // not a whole number of slices
    if (fault == 4) dst[0].burstLen = 6;                     // src and dst burstLen differ
    if (fault == 5) src[1].shapeValue = 0;                   // the tensor's ShapeInfo
    if (fault == 6) dims = 9;                                // more than 8 dimensions
    if (fault == 7) dst[1] = {0, 2, 0, 1, 3};                // 3 dst rows for 2 src rows
    GlobalTensor<float> in, out;
    in.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(srcGm), 3 * 87);
    out.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(dstGm), 96);
    LocalTensor<float> ub(TPosition::VECIN, 0, 96);
    DataCopy(ub, in, dst, src, fault == 6 ? dims : 2);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(out, ub, dst, dst, 2);
}
