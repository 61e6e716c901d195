// DataCopy of slices between GM and UB (include/basic_api/kernel_operator_data_copy_intf.h, SliceInfo in
// kernel_struct_data_copy.h; A2: kernel_operator_data_copy_intf_impl.h with DataCopyGetPhyStartIndex and
// DataCopyGetOffsetList of kernel_operator_data_copy_base_impl.h, dav_c220 DataCopySliceGm2UBImpl/UB2GMImpl).
// Dimension 0 is cut into bursts of burstLen 32-byte blocks `stride` elements apart; each higher dimension picks
// every (stride + 1)-th row from startIndex to endIndex. Each picked row is one DataCopy (stride a whole number of
// blocks) or one DataCopyPad (otherwise: the GM stride in bytes), so those calls' rules apply as well.
// Rules (the docs' 约束说明): dimValue 1..8; burstLen 1 beyond dimension 0 and equal in src and dst;
// startIndex < endIndex <= shapeValue; endIndex - startIndex + 1 = (N - 1) * stride + N * burstLen * 32 /
// sizeof(T) in dimension 0 (rows of 1 beyond it). shapeValue 0 takes the tensors' ShapeInfo, which the twin does
// not keep: it asks for shapeValue.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/kernel_data_copy.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_utils.h"
#include "twin/runtime.h"

namespace AscendC {

struct SliceInfo {
    SliceInfo() {}
    SliceInfo(const uint32_t startIndexIn, const uint32_t endIndexIn, const uint32_t strideIn,
              const uint32_t burstLenIn, const uint32_t shapeValueIn = 0)
        : startIndex(startIndexIn), endIndex(endIndexIn), stride(strideIn), burstLen(burstLenIn),
          shapeValue(shapeValueIn)
    {
    }
    uint32_t startIndex = 0;
    uint32_t endIndex = 32 - 1;  // ONE_BLK_SIZE - 1
    uint32_t stride = 0;
    uint32_t burstLen = 32;  // ONE_BLK_SIZE
    uint32_t shapeValue = 0;
};

namespace twin_detail {

template <typename T>
inline constexpr bool kSliceType = std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> ||
                                   std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
                                   std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
                                   std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
                                   std::is_same_v<T, float>;

// The checks, the first element and the offsets of the rows (dimension 0 excluded) of one side.
void SliceLayout(const char* side, const SliceInfo info[], const SliceInfo other[], uint32_t dimValue,
                 uint32_t elementBytes, uint32_t& start, uint32_t* offsets, uint32_t& count);

}  // namespace twin_detail

namespace twin_detail {

// A2's loop over the rows: burst count and length from srcSliceInfo[0]; the GM side's stride decides between DataCopy
// (whole blocks) and DataCopyPad (bytes); the UB side's stride in whole blocks.
template <typename T, typename D, typename S>
void SliceCopy(const D& dst, const S& src, const SliceInfo dstSliceInfo[], const SliceInfo srcSliceInfo[],
               uint32_t dimValue)
{
    static_assert(kSliceType<T>, "DataCopy with SliceInfo on A2 supports int8_t, uint8_t, int16_t, uint16_t, half, "
                                 "bfloat16_t, int32_t, uint32_t and float");
    constexpr bool kToUb = std::is_same_v<D, LocalTensor<T>>;
    uint32_t srcStart, dstStart, srcCount, dstCount;
    thread_local uint32_t srcOffsets[MAX_SLICE_SIZE], dstOffsets[MAX_SLICE_SIZE];
    SliceLayout("srcSliceInfo", srcSliceInfo, dstSliceInfo, dimValue, sizeof(T), srcStart, srcOffsets, srcCount);
    SliceLayout("dstSliceInfo", dstSliceInfo, srcSliceInfo, dimValue, sizeof(T), dstStart, dstOffsets, dstCount);
    if (srcCount != dstCount) {
        ascend_twin::FailF("DataCopy with SliceInfo", "srcSliceInfo and dstSliceInfo select as many rows",
                           "src %u rows, dst %u (A2 takes the dst offsets of the src rows' count)", srcCount, dstCount);
    }
    const SliceInfo& s0 = srcSliceInfo[0];
    const uint32_t oneSlice = s0.burstLen * (32 / sizeof(T)) + s0.stride;
    const uint16_t count = static_cast<uint16_t>((s0.endIndex - s0.startIndex + 1 + s0.stride) / oneSlice);
    const uint32_t gmStride = (kToUb ? srcSliceInfo : dstSliceInfo)[0].stride * sizeof(T);
    const uint16_t ubStride = static_cast<uint16_t>((kToUb ? dstSliceInfo : srcSliceInfo)[0].stride * sizeof(T) / 32);
    for (uint32_t i = 0; i < srcCount; ++i) {
        const D d = dst[dstStart + dstOffsets[i]];
        const S s = src[srcStart + srcOffsets[i]];
        const uint16_t gmBlocks = static_cast<uint16_t>(gmStride / 32);
        if (gmStride % 32 == 0) {
            DataCopy(d, s, DataCopyParams(count, static_cast<uint16_t>(s0.burstLen), kToUb ? gmBlocks : ubStride,
                                          kToUb ? ubStride : gmBlocks));
        } else if constexpr (kToUb) {
            DataCopyPad(d, s, DataCopyExtParams(count, s0.burstLen * 32, gmStride, ubStride, 0),
                        DataCopyPadExtParams<T>(false, 0, 0, T{}));
        } else {
            DataCopyPad(d, s, DataCopyExtParams(count, s0.burstLen * 32, ubStride, gmStride, 0));
        }
    }
}

}  // namespace twin_detail

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
                                const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1)
{
    twin_detail::SliceCopy<T>(dst, src, dstSliceInfo, srcSliceInfo, dimValue);
}

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
                                const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1)
{
    twin_detail::SliceCopy<T>(dst, src, dstSliceInfo, srcSliceInfo, dimValue);
}

}  // namespace AscendC
