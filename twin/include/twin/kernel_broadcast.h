// Broadcast, the high-level API of 张量变换 (tensor transformation): dst takes dstShape, src is repeated
// along the axis where srcShape has 1. Checked against asc-devkit include/adv_api/pad/broadcast.h (the
// interface; kernels include it as "lib/pad/broadcast.h", and kernel_operator.h includes it on A2), the A2
// implementation impl/adv_api/detail/pad/broadcast/broadcast_common_impl.h + broadcast_v220_impl.h, its
// API check impl/adv_api/detail/api_check/kernel_check/pad/broadcast/broadcast_check_common.h, and the docs
// 高阶API/张量变换/Broadcast.md and GetBroadCastMaxMinTmpSize.md.
//
// A2 forms: Broadcast<T, dim, axis, isReuseSource = false>(dstLocal, srcLocal, dstShape, srcShape
// [, sharedTmpBuffer]); BroadCast is the same pair under the name the A2 implementation header defines
// (the interface forwards to it). The dynamic-shape form (BroadcastTiling*) and GetBroadcastTilingInfo are
// Ascend 950 only: on A2 the real header compiles them to nothing, the twin stops a kernel that calls them.
//
// The twin computes the result itself (every b8/b16/b32 value is copied exactly; the device's b8 path
// through half is exact too) and records it as one V-pipe instruction that reads src, writes the part of
// the temporary buffer the A2 implementation uses (left as NaN bytes: its contents are undefined after the
// call) and writes dst. Counted as VecOp::kBroadcast: dstSize element-ops, ceil(dst bytes / 256) repeats
// (the device issues Brcb/Copy/GatherMask, Or, or Duplicate, plus Casts for b8: the cost model sees one).
// Like the device, it leaves the vector mask in normal mode with every lane on.
//
// Rules (each error names it): dst/src/sharedTmpBuffer at VECIN/VECCALC/VECOUT and 32-byte aligned; the
// shapes broadcast (srcShape[i] is dstShape[i] or 1, srcShape has no 0) along the axis the template names; dim 2,
// axis 0: srcShape[1] * sizeof(T) a multiple of 32 bytes (docs); src and dst hold their shapes and do not
// overlap (docs); sharedTmpBuffer holds GetBroadCastMaxMinTmpSize's minimum and does not overlap src or dst
// (the implementation writes it between reading src and writing dst); the framework form needs a TPipe and
// takes the UB after its buffers up to the last 128 bytes (A2's PopStackBuffer: TOTAL_UB_SIZE minus the
// KfcMsg slot), which must hold the minimum. The A2 dtypes (int8_t, uint8_t, half, float), dim 1..2 and
// axis 0..1 are checked at compile time; the real header checks them in its CPU-debug API check.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "twin/broadcast_tmp_size.h"
#include "twin/hazard.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_tpipe.h"
#include "twin/kernel_vec_repeat.h"
#include "twin/runtime.h"

namespace AscendC {

// The dynamic-shape form's tiling (include/adv_api/pad/broadcast_utils.h); used on Ascend 950 only.
struct BroadcastTiling {
    uint32_t oriRank;
    uint32_t rank;
    uint32_t dstSize;
    uint32_t srcSize;
    uint32_t loopNum = 0;
    uint32_t oriSrcShape[9];
    uint32_t oriDstShape[9];
    uint32_t dstShape[9];
    uint32_t dstStride[9];
    uint32_t srcStride[10];
};

namespace twin_detail {

struct BroadcastOperand {
    const void* addr;
    uint64_t bytes;  // what the tensor holds
    TPosition pos;
};

// Checks Broadcast's rules (framework: the temporary buffer is the UB after the TPipe's buffers) and returns
// the bytes of the temporary buffer the A2 implementation writes.
uint64_t CheckBroadcast(int32_t dim, int32_t axis, uint32_t typeSize, const uint32_t* dstShape,
                        const uint32_t* srcShape, const BroadcastOperand& dst, const BroadcastOperand& src,
                        const BroadcastOperand& tmp, bool framework);

// The framework form's temporary buffer: [end of the TPipe's buffers, UB size - 128).
uint8_t* BroadcastFrameworkTmp(const void* tpipe, uint64_t pipeEnd, uint64_t& bytes);

[[noreturn]] void FailBroadcastA5Only(const char* call);

// A2's API check refuses a T other than uint8_t, int8_t, half and float when the call runs (bisheng compiles the
// call: a kernel dispatching on a run-time dtype instantiates Broadcast for types it never broadcasts).
[[noreturn]] void FailBroadcastType(uint32_t typeSize);

template <typename T, int32_t dim, int32_t axis>
inline void BroadcastRun(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t* dstShape,
                         const uint32_t* srcShape, uint8_t* tmp, uint64_t tmpBytes, TPosition tmpPos, bool framework)
{
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                  "Broadcast on A2 takes b8, b16 and b32 types (its T must be int8_t, uint8_t, half or float)");
    if constexpr (!(std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, half> ||
                    std::is_same_v<T, float>)) {
        FailBroadcastType(sizeof(T));
    }
    static_assert(dim == 1 || dim == 2, "Broadcast supports dim 1 and 2 on A2");
    static_assert(axis == 0 || axis == 1, "Broadcast supports axis 0 and 1 on A2");
    const BroadcastOperand dst{twin_detail::TwinData(dstLocal), static_cast<uint64_t>(dstLocal.GetSize()) * sizeof(T),
                               twin_detail::TwinPosition(dstLocal)};
    const BroadcastOperand src{twin_detail::TwinData(srcLocal), static_cast<uint64_t>(srcLocal.GetSize()) * sizeof(T),
                               twin_detail::TwinPosition(srcLocal)};
    const BroadcastOperand tmpOp{tmp, tmpBytes, tmpPos};
    const uint64_t tmpUsed = CheckBroadcast(dim, axis, sizeof(T), dstShape, srcShape, dst, src, tmpOp, framework);

    const uint64_t rows = dim == 2 ? dstShape[0] : 1;
    const uint64_t cols = dstShape[dim - 1];
    const uint64_t srcRows = dim == 2 ? srcShape[0] : 1;
    const uint64_t srcCols = srcShape[dim - 1];
    const uint64_t dstSize = rows * cols;
    const uint64_t srcSize = srcRows * srcCols;

    ascend_twin::Instr instr("Broadcast", ascend_twin::Pipe::kV);
    instr.Read("srcLocal", twin_detail::TwinData(srcLocal), srcSize * sizeof(T));
    if (tmpUsed != 0) instr.Write("sharedTmpBuffer", tmp, tmpUsed);
    if (dstSize != 0) instr.Write("dstLocal", twin_detail::TwinData(dstLocal), dstSize * sizeof(T));

    const T* s = twin_detail::TwinData(srcLocal);
    T* d = twin_detail::TwinData(dstLocal);
    for (uint64_t r = 0; r < rows; ++r) {
        const T* srcRow = s + (srcRows == 1 ? 0 : r) * srcCols;
        T* dstRow = d + r * cols;
        if (srcCols == cols) {
            std::memcpy(dstRow, srcRow, cols * sizeof(T));
        } else {
            for (uint64_t c = 0; c < cols; ++c) dstRow[c] = srcRow[0];
        }
    }
    if (tmpUsed != 0) std::memset(tmp, 0xff, tmpUsed);
    SetMaskNorm();
    ResetMask();
    ascend_twin::CountVec(ascend_twin::VecOp::kBroadcast, dstSize, ascend_twin::CountFormRepeats(dstSize, sizeof(T)));
}

}  // namespace twin_detail

// The temporary buffer passed in: sharedTmpBuffer (size from GetBroadCastMaxMinTmpSize).
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                                 LocalTensor<uint8_t>& sharedTmpBuffer)
{
    // isReuseSource is reserved (docs); the A2 check only warns when it is true.
    twin_detail::BroadcastRun<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape,
                                            twin_detail::TwinData(sharedTmpBuffer), sharedTmpBuffer.GetSize(),
                                            twin_detail::TwinPosition(sharedTmpBuffer), false);
}

// The framework's temporary buffer: the UB after the TPipe's buffers (the kernel leaves room for it).
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim])
{
    TPipe* pipe = GetTPipePtr();
    uint64_t bytes = 0;
    uint8_t* tmp = twin_detail::BroadcastFrameworkTmp(pipe, pipe == nullptr ? 0 : twin_detail::TwinUbEnd(*pipe), bytes);
    twin_detail::BroadcastRun<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, tmp, bytes, TPosition::VECCALC,
                                            true);
}

// The same two forms under the name the A2 implementation header declares them.
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                                 LocalTensor<uint8_t>& sharedTmpBuffer)
{
    Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, sharedTmpBuffer);
}

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim])
{
    Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape);
}

// Ascend 950 only (on A2 the real header's bodies are empty): the twin stops the kernel.
template <typename T, int constRank = -1, uint32_t* constDstShape = nullptr, uint32_t* constSrcShape = nullptr>
__aicore__ inline void GetBroadcastTilingInfo(uint32_t, const uint32_t*, const uint32_t*, bool, BroadcastTiling&)
{
    twin_detail::FailBroadcastA5Only("GetBroadcastTilingInfo");
}

template <typename T, int constRank = -1, uint32_t* constDstShape = nullptr, uint32_t* constSrcShape = nullptr,
          bool constSrcInnerPad = false>
__aicore__ inline void Broadcast(const LocalTensor<T>&, const LocalTensor<T>&, const uint32_t*, const uint32_t*,
                                 BroadcastTiling*)
{
    twin_detail::FailBroadcastA5Only("Broadcast(BroadcastTiling*)");
}

}  // namespace AscendC
