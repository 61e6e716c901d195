// LogSoftMax's host tiling functions on the twin, with the real names and signatures (asc-devkit
// include/adv_api/activation/logsoftmax_tiling.h; host code reaches them as "tiling/activation/logsoftmax_tiling.h",
// "tiling/softmax/logsoftmax_tiling.h" or "lib/activation/logsoftmax_tiling.h"):
//   uint32_t GetLogSoftMaxMaxTmpSize / GetLogSoftMaxMinTmpSize(const TensorShape srcShape, dataTypeSize, isReuseSource)
//   void LogSoftMaxTilingFunc(const TensorShape srcShape, dataTypeSize, localWorkSpaceSize,
//                             AscendC::tiling::LogSoftMaxTiling&), and CANN's overload taking optiling::LogSoftMaxTiling
//                             (tiling/activation/logsoftmax_tilingdata.h): the same tiling, set field by field
// A2's sizes and tiling, those of SoftMax (blk + srcK + 64 floats a row; twin/include/twin/softmax_tiling_a2.h).
// A2's LogSoftMaxTilingFunc divides by the rows a part takes, which a workspace below one row makes 0 (a crash on
// the host); the twin reports it on stderr and gives splitM = 0 instead. The kernel side recomputes the tiling from
// sharedTmpBuffer on every call, as A2's does. Inline: nothing to link.
#pragma once

#include "tiling/activation/logsoftmax_tilingdata.h"
#include "tiling/activation/softmax_tiling.h"

namespace AscendC {

inline uint32_t GetLogSoftMaxMaxTmpSize(const AscendC::TensorShape srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource)
{
    uint32_t m = 0, k = 0;
    twin_host::SoftmaxReuseNote("GetLogSoftMaxMaxTmpSize", isReuseSource);
    if (!twin_host::SoftmaxShape("GetLogSoftMaxMaxTmpSize", srcShape, dataTypeSize, m, k)) return 0;
    return m * ascend_twin::SoftmaxHostRowA2(k, dataTypeSize) * 4;
}

inline uint32_t GetLogSoftMaxMinTmpSize(const AscendC::TensorShape srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource)
{
    uint32_t m = 0, k = 0;
    twin_host::SoftmaxReuseNote("GetLogSoftMaxMinTmpSize", isReuseSource);
    if (!twin_host::SoftmaxShape("GetLogSoftMaxMinTmpSize", srcShape, dataTypeSize, m, k)) return 0;
    return ascend_twin::SoftmaxHostRowA2(k, dataTypeSize) * 4;
}

inline void LogSoftMaxTilingFunc(const AscendC::TensorShape srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, AscendC::tiling::LogSoftMaxTiling& softmaxTiling)
{
    uint32_t m = 0, k = 0;
    twin_host::SoftmaxWorkspace("LogSoftMaxTilingFunc", localWorkSpaceSize);
    if (!twin_host::SoftmaxShape("LogSoftMaxTilingFunc", srcShape, dataTypeSize, m, k)) return;
    const uint32_t baseM =
        ascend_twin::SoftmaxHostBaseMA2(m, k, localWorkSpaceSize / 4, ascend_twin::SoftmaxHostRowA2(k, dataTypeSize));
    if (baseM == 0) {
        std::fprintf(stderr, "[LogSoftMaxTilingFunc] localWorkSpaceSize %u holds no row (%u bytes a row): A2 divides by "
                             "zero here.\n",
                     localWorkSpaceSize, ascend_twin::SoftmaxHostRowA2(k, dataTypeSize) * 4);
    }
    softmaxTiling = AscendC::tiling::LogSoftMaxTiling{};
    ascend_twin::SoftmaxFillTiling(softmaxTiling, m, k, ascend_twin::kSoftmaxBlk / dataTypeSize, baseM, m);
}

inline void LogSoftMaxTilingFunc(const AscendC::TensorShape srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, optiling::LogSoftMaxTiling& softmaxTiling)
{
    AscendC::tiling::LogSoftMaxTiling t;
    optiling::twin_host::Load(softmaxTiling, t);
    LogSoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t);
    optiling::twin_host::Store(t, softmaxTiling);
}

}  // namespace AscendC
