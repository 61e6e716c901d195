// The rule checks and the arithmetic of CumSum (twin/include/twin/kernel_adv_cumsum.h).
#include "twin/kernel_adv_cumsum.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "adv_common.h"

namespace AscendC::twin_detail {

uint64_t CheckCumSum(uint32_t typeSize, bool isLastAxis, bool outputLastRow, const CumSumInfo& info,
                     const MathOperand& dst, const MathOperand& lastRow, const MathOperand& src, const MathOperand& tmp,
                     bool framework)
{
    const char* call = "CumSum";
    if (outputLastRow) {
        CheckVecOperands(call, {{"dstTensor", &dst}, {"lastRowTensor", &lastRow}, {"srcTensor", &src},
                                {"sharedTmpBuffer", &tmp}}, framework ? &tmp : nullptr);
    } else {  // lastRowTensor is not touched
        CheckVecOperands(call, {{"dstTensor", &dst}, {"srcTensor", &src}, {"sharedTmpBuffer", &tmp}},
                         framework ? &tmp : nullptr);
    }
    if (info.outter == 0 || info.inner == 0) {
        ascend_twin::FailF(call, "cumSumInfo.outter and cumSumInfo.inner are larger than 0 (docs)",
                           "outter = %u, inner = %u", info.outter, info.inner);
    }
    if (static_cast<uint64_t>(info.inner) * typeSize % 32 != 0) {
        ascend_twin::FailF(call, "cumSumInfo.inner * sizeof(T) is a multiple of 32 bytes (docs)",
                           "inner = %u: %llu bytes", info.inner, U(static_cast<uint64_t>(info.inner) * typeSize));
    }
    const uint64_t bytes = static_cast<uint64_t>(info.outter) * info.inner * typeSize;
    if (bytes > src.bytes || bytes > dst.bytes) {
        ascend_twin::FailF(call, "cumSumInfo.outter * cumSumInfo.inner is at most what dstTensor and srcTensor hold (docs)",
                           "outter * inner = %llu, srcTensor holds %llu, dstTensor %llu",
                           U(static_cast<uint64_t>(info.outter) * info.inner), U(src.bytes / typeSize),
                           U(dst.bytes / typeSize));
    }
    if (outputLastRow && static_cast<uint64_t>(info.inner) * typeSize > lastRow.bytes) {
        ascend_twin::FailF(call, "with outputLastRow, cumSumInfo.inner is at most what lastRowTensor holds (docs)",
                           "inner = %u, lastRowTensor holds %llu", info.inner, U(lastRow.bytes / typeSize));
    }
    const ascend_twin::MathTmpSize need = ascend_twin::CumSumTmpSizeA2(typeSize, isLastAxis, info.outter, info.inner);
    if (need.minValue == 0) return 0;
    if (tmp.bytes < need.minValue) {
        ascend_twin::FailF(call,
                           framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 "
                                       "bytes) holds the API's minimum temporary size"
                                     : "sharedTmpBuffer holds at least GetXxxMaxMinTmpSize's minimum",
                           "%llu bytes, GetCumSumMaxMinTmpSize's minimum here (%s axis, %s) is %u", U(tmp.bytes),
                           isLastAxis ? "last" : "first", typeSize == 4 ? "float" : "half", need.minValue);
    }
    const uint64_t used = std::min<uint64_t>(tmp.bytes, need.maxValue);
    const char* which = Overlap(tmp.addr, used, src.addr, bytes) ? "srcTensor"
                        : Overlap(tmp.addr, used, dst.addr, bytes) ? "dstTensor"
                                                                   : nullptr;
    if (which != nullptr) {
        ascend_twin::FailF(call, "sharedTmpBuffer does not overlap src or dst",
                           "the %llu bytes of the temporary buffer CumSum writes (from UB %llu) share bytes with %s",
                           U(used), U(ascend_twin::UbOffset(tmp.addr)), which);
    }
    return used;
}

void EvalCumSum(uint32_t typeSize, bool isLastAxis, bool outputLastRow, const CumSumInfo& info, void* dst,
                void* lastRow, const void* src)
{
    const uint64_t rows = info.outter;
    const uint64_t cols = info.inner;
    std::vector<float> acc(rows * cols);
    const auto load = [&](uint64_t i) {
        return typeSize == 4 ? static_cast<const float*>(src)[i] : static_cast<float>(static_cast<const half*>(src)[i]);
    };
    for (uint64_t r = 0; r < rows; ++r) {
        for (uint64_t c = 0; c < cols; ++c) {
            const uint64_t i = r * cols + c;
            const bool first = isLastAxis ? c == 0 : r == 0;
            const uint64_t prev = isLastAxis ? i - 1 : i - cols;
            acc[i] = first ? load(i) : acc[prev] + load(i);  // one float Add per step
        }
    }
    for (uint64_t i = 0; i < rows * cols; ++i) {
        if (typeSize == 4) static_cast<float*>(dst)[i] = acc[i];
        else static_cast<half*>(dst)[i] = half(acc[i]);
    }
    if (outputLastRow) {
        const uint64_t from = (rows - 1) * cols;
        std::memmove(lastRow, static_cast<const uint8_t*>(dst) + from * typeSize, cols * typeSize);
    }
}

}  // namespace AscendC::twin_detail
