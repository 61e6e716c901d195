// GetBroadCastMaxMinTmpSize for host tiling code on the twin, with the real name and signature
// (asc-devkit include/adv_api/pad/broadcast_tiling.h; host code reaches it as "tiling/pad/broadcast_tiling.h",
// "tiling/broadcast/broadcast_tiling.h" or "lib/pad/broadcast_tiling.h", all three here; CANN's
// "tiling/tiling_api.h", which includes it with every other tiling API, is not provided by the twin).
// Host code only; build it with -I twin/host_include -I twin/include (the packaged copy: -I twin_sdk/host_include
// -I twin_sdk/include).
//
// The sizes are A2's (impl/adv_api/tiling/pad/broadcast_tiling.cpp; the formula and what each part holds:
// twin/include/twin/broadcast_tmp_size.h, which the kernel side checks sharedTmpBuffer against). As there,
// inputs it refuses (dims other than 1 or 2, different dim counts, typeSize 0, shapes that do not broadcast,
// dstShape[1] not 32-byte aligned for axis 0) are reported on stderr and leave maxValue and minValue as they
// were; typeSize other than 1, 2, 4 and isReuseSource = true are warnings. Defined inline here (CANN ships it
// in its tiling library), so host code needs no twin library to link it.
#pragma once

#include <cstdint>
#include <cstdio>

#include "graph/tensor.h"
#include "tiling/platform/platform_ascendc.h"
#include "twin/broadcast_tmp_size.h"

namespace AscendC {

using TensorShape = ge::Shape;  // include/adv_api/utils/types.h

inline void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                      const AscendC::TensorShape& srcShape, const AscendC::TensorShape& dstShape,
                                      uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                      uint32_t& minValue)
{
    const char* fn = "[Broadcast][GetBroadCastMaxMinTmpSize]";
    if (ascendcPlatform.GetCurNpuArch() != NpuArch::DAV_2201) {
        std::fprintf(stderr, "%s the twin knows A2's (DAV_2201) sizes only\n", fn);
        return;
    }
    if (typeSize != 1 && typeSize != 2 && typeSize != 4) {
        std::fprintf(stderr, "%s The value of typeSize is %u, should be 1 or 2 or 4.\n", fn, typeSize);
    }
    if (isReuseSource) {
        std::fprintf(stderr, "%s warning: isReuseSource is true, may not be effective.\n", fn);
    }
    const size_t dimNum = dstShape.GetDimNum();
    if (srcShape.GetDimNum() != dimNum) {
        std::fprintf(stderr, "%s srcShape has %zu dims, dstShape %zu: they should be equal.\n", fn,
                     srcShape.GetDimNum(), dimNum);
        return;
    }
    if (dimNum != 1 && dimNum != 2) {
        std::fprintf(stderr, "%s Now only support dim = 1 or 2 (got %zu).\n", fn, dimNum);
        return;
    }
    int64_t src[2] = {srcShape.GetDim(0), dimNum == 2 ? srcShape.GetDim(1) : 1};
    int64_t dst[2] = {dstShape.GetDim(0), dimNum == 2 ? dstShape.GetDim(1) : 1};
    const ascend_twin::BroadcastTmpSize sz =
        ascend_twin::BroadcastTmpSizeA2(static_cast<uint32_t>(dimNum), src, dst, typeSize);
    if (sz.error != nullptr) {
        std::fprintf(stderr, "%s %s.\n", fn, sz.error);
        return;
    }
    maxValue = sz.maxValue;
    minValue = sz.minValue;
}

}  // namespace AscendC
