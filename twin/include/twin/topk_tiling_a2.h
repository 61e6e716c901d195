// TopK's enums and structs and A2's tiling arithmetic, shared by the kernel side (twin/kernel_adv_topk.h, which
// checks a kernel's tiling against it) and the host side (tiling/sort/topk_tiling.h, TopKTilingFunc and
// GetTopKMaxMinTmpSize). Declared as asc-devkit declares them: TopKMode, TopKAlgo, TopKOrder and TopKConfig
// (include/adv_api/sort/topk_utils_constants.h), TopKInfo (topk_utils.h); defaultTopKConfig is dav-3510's only
// (impl/adv_api/detail/sort/topk/topk_common_utils.h), absent here as on A2. The arithmetic is dav-2201's branch of
// impl/adv_api/tiling/sort/topk_tiling_impl.cpp (SetTopkNormalVal, SetTopkNSmallVal, GetVreduceMask,
// GetTopKMaxMinTmpSize220), written from it field by field. No kernel or host dependencies: plain C++.
#pragma once

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"

namespace AscendC {

enum class TopKMode {
    TOPK_NORMAL,
    TOPK_NSMALL,
};
enum class TopKAlgo { RADIX_SELECT, MERGE_SORT };
enum class TopKOrder { UNSET, LARGEST, SMALLEST };
struct TopKConfig {
    TopKAlgo algo = TopKAlgo::MERGE_SORT;
    TopKOrder order = TopKOrder::UNSET;
    bool sorted = true;
};

struct TopKInfo {
    int32_t outter = 1;
    int32_t inner;  // n rounded up to a multiple of 32
    int32_t n;      // the row's actual length
};

namespace twin_topk {

// 2 bits "10" repeated k times (GenerateBinary10), "01" (GenerateBinary01), k ones (GenerateBinary1), 4 bits
// "0001" repeated (GenerateBinary0001): the GatherMask patterns of the small mode.
inline uint32_t Binary10(int32_t k)
{
    uint32_t m = 2;
    for (int32_t i = 1; i < k; ++i) m = (m << 2) | m;
    return m;
}
inline uint32_t Binary01(int32_t k)
{
    uint32_t m = 1;
    for (int32_t i = 1; i < k; ++i) m = (m << 2) | m;
    return m;
}
inline uint16_t Binary0001(int32_t k)
{
    uint16_t m = 1;
    for (int32_t i = 1; i < k; ++i) m = static_cast<uint16_t>((m << 4) | m);
    return m;
}

inline void VreduceMasks(int32_t k, uint32_t typeSize, tiling::TopkTiling& t)
{
    if (k < 17) t.vreduceIdxMask0 = Binary10(k);
    if (k >= 17 && k <= 32) {
        t.vreduceIdxMask0 = 2863311530u;  // 0b1010...10
        t.vreduceIdxMask1 = Binary10(k - 16);
    }
    if (typeSize == 4) {
        if (k < 17) t.vreduceValMask0 = Binary01(k);
        if (k >= 17 && k <= 32) {
            t.vreduceValMask0 = Binary01(16);
            t.vreduceValMask1 = Binary01(k - 16);
        }
        return;
    }
    // One mask of 16 bits per 4 sorted (8-byte) elements: every fourth half.
    const int32_t lo[8] = {0, 4, 8, 12, 16, 20, 24, 28};
    uint16_t* half[8] = {&t.vreducehalfValMask0, &t.vreducehalfValMask1, &t.vreducehalfValMask2,
                         &t.vreducehalfValMask3, &t.vreducehalfValMask4, &t.vreducehalfValMask5,
                         &t.vreducehalfValMask6, &t.vreducehalfValMask7};
    *half[0] = (k < 5) ? Binary0001(k) : static_cast<uint16_t>(4369);  // 0b0001000100010001
    for (int32_t i = 1; i < 8; ++i) {
        const int32_t from = lo[i] + 1;  // k >= 5, 9, ..., 29
        *half[i] = (k >= from) ? Binary0001((k >= from + 4) ? 4 : (k - lo[i])) : static_cast<uint16_t>(0);
    }
}

// The fields A2's TopKTilingFunc sets on dav-2201 (the others are left as they are).
inline void A2Tiling(int32_t inner, int32_t outter, int32_t k, uint32_t typeSize, bool isInitIndex, TopKMode mode,
                     bool isLargest, tiling::TopkTiling& t)
{
    t.allDataSize = inner * outter;
    const int32_t kAlignFour = ((k + 7) / 8) * 8;
    t.kAlignFourBytes = kAlignFour;
    if (mode == TopKMode::TOPK_NORMAL) {
        const int32_t kAlignTwo = ((k + 15) / 16) * 16;
        t.tmpLocalSize = 4 * inner;
        t.innerDataSize = inner * 2;
        t.copyUbToUbBlockCount = static_cast<uint32_t>(inner * 2 * 4 / 32);
        t.sortRepeat = static_cast<uint32_t>(inner / 32);
        t.mrgSortRepeat = inner / 4;
        t.kAlignTwoBytes = kAlignTwo;
        t.maskOffset = outter * kAlignFour;
        t.maskVreducev2FourBytes = 2 * k;
        t.maskVreducev2TwoBytes = 4 * k;
        t.mrgSortSrc1offset = 2;
        t.mrgSortSrc2offset = 4;
        t.mrgSortSrc3offset = 6;
        t.mrgSortTwoQueueSrc1Offset = 2;
        t.mrgFourQueueTailPara1 = inner * 2;
        t.mrgFourQueueTailPara2 = static_cast<int32_t>(sizeof(float) / typeSize);
        if (typeSize == 2) {
            t.tmpLocalSize = 8 * inner;
            t.maskOffset = outter * kAlignTwo;
            t.innerDataSize = inner * 4;
            t.mrgSortSrc1offset = 4;
            t.mrgSortSrc2offset = 8;
            t.mrgSortSrc3offset = 12;
            t.mrgSortTwoQueueSrc1Offset = 4;
        }
        if (!isInitIndex) {
            t.tmpLocalSize = 4 * inner + inner;
            t.srcIndexOffset = 4 * inner;
            if (typeSize == 2) {
                t.tmpLocalSize = 8 * inner + inner * 2;
                t.srcIndexOffset = 8 * inner;
            }
        }
        return;
    }
    const int32_t innerDataSize = inner * outter * static_cast<int32_t>(8 / typeSize);
    t.innerDataSize = innerDataSize;
    t.maskOffset = outter * k;
    const int32_t negative = isLargest ? 0 : inner * outter;
    const int32_t maskAt = innerDataSize + negative;
    t.topkMrgSrc1MaskSizeOffset = maskAt;
    t.tmpLocalSize = maskAt + static_cast<int32_t>(64 / typeSize);
    if (!isInitIndex) {
        const int32_t indexAt = maskAt + static_cast<int32_t>(64 / typeSize);
        t.tmpLocalSize = indexAt + inner * outter * static_cast<int32_t>(4 / typeSize);
        t.topkNSmallSrcIndexOffset = indexAt;
    }
    VreduceMasks(k, typeSize, t);
}

// GetTopKMaxMinTmpSize on dav-2201 (GetTopKMaxMinTmpSize220), in bytes; minimum and maximum are equal.
inline uint32_t A2TmpBytes(int32_t inner, int32_t outter, bool isInitIndex, TopKMode mode, bool isLargest)
{
    const uint32_t in = static_cast<uint32_t>(inner), all = static_cast<uint32_t>(inner * outter);
    if (mode == TopKMode::TOPK_NORMAL) return (isInitIndex ? 16u : 20u) * in;
    uint32_t bytes = all * 8 + 64;  // Sort32's 8-byte elements, the GatherMask patterns' block
    if (!isLargest) bytes += all * 4;  // the negated copy
    if (!isInitIndex) bytes += all * 4;  // the generated indices
    return bytes;
}

}  // namespace twin_topk
}  // namespace AscendC
