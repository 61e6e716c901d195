// ScaleShift tiling (y = x * a + b): the elements split over the vector cores in whole 32-byte blocks, at
// least kScaleShiftMinBytesPerCore each, and each core's share streamed through UB in tiles that fill the
// double-buffered input and output queues. One function for the host (ascend_ext.library.CppTiling) and the
// op package's TilingFunc (op_host/scale_shift.cpp): the signature of cpp_tiling.h.
#pragma once

#include <algorithm>

#include "../op_kernel/scale_shift_tiling_data.h"  // the struct the kernel reads (GET_TILING_DATA)
#include "cpp_tiling.h"

namespace ascend_ext {

inline constexpr uint64_t kScaleShiftMinBytesPerCore = 8192;  // below this a core costs more than it saves
inline constexpr uint64_t kScaleShiftBuffers = 2 * 2;         // input and output queues, double buffered

// args: the tensor x; the numbers a, b.
inline TilingDecision ScaleShiftTiling(const TilingArgs& args, const PlatformInfo& platform, ScaleShiftTilingData& t)
{
    if (args.numTensors != 1 || args.numAttrs != 2) return {0, 0, 0, "ScaleShift takes one tensor and two numbers"};
    const TilingTensor& x = args.tensors[0];
    const uint64_t elem = x.elemSize;
    if (elem == 0 || platform.ubAlign % elem != 0) return {0, 0, 0, "x has an element size the kernel cannot tile"};
    t.total = x.Numel();
    t.a = static_cast<float>(args.attrs[0].real);
    t.b = static_cast<float>(args.attrs[1].real);
    t.a64 = args.attrs[0].real;
    t.b64 = args.attrs[1].real;
    const uint64_t block = platform.ubAlign / elem;  // elements per 32-byte block
    const uint64_t maxTile = AlignDown(UbUsable(platform) / (kScaleShiftBuffers * elem), block);
    if (t.total == 0) {  // one core with nothing to do
        t.perCore = 0;
        t.tile = block;
        return {1, 0, 0, nullptr};
    }
    const uint64_t blocks = CeilDiv(t.total, block);
    const uint64_t wanted = CeilDiv(t.total * elem, kScaleShiftMinBytesPerCore);
    const uint64_t cores = std::max<uint64_t>(1, std::min<uint64_t>({wanted, platform.aivNum, blocks}));
    t.perCore = CeilDiv(blocks, cores) * block;
    t.tile = std::min(maxTile, t.perCore);
    return {static_cast<uint32_t>(CeilDiv(t.total, t.perCore)), 0, 0, nullptr};
}

}  // namespace ascend_ext
