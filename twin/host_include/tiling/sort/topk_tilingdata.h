// TopK's tiling-data class on the twin's host side: optiling::TopkTiling as CANN declares
// it (asc-devkit include/adv_api/sort/topk_tilingdata.h) with the twin's register/tilingdata_base.h:
// host code fills one with set_<field>, and SaveToBuffer gives the bytes of the kernel-side struct of that name
// (kernel_tiling/kernel_tiling.h; tests/cpp/test_twin_tilingdata.cpp checks each field's offset). Registered
// here as CANN's tiling library registers them (op type <Class>OpApi). TWIN_TILINGDATA_FIELDS_<Class>(F)
// lists the fields for the twin's own use (the optiling:: overloads of the host tiling functions copy
// between the two forms with optiling::twin_host::Load/Store).
#pragma once

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TopkTiling)
TILING_DATA_FIELD_DEF(int32_t, tmpLocalSize);
TILING_DATA_FIELD_DEF(int32_t, allDataSize);
TILING_DATA_FIELD_DEF(int32_t, innerDataSize);
TILING_DATA_FIELD_DEF(uint32_t, sortRepeat);
TILING_DATA_FIELD_DEF(int32_t, mrgSortRepeat);
TILING_DATA_FIELD_DEF(int32_t, kAlignFourBytes);
TILING_DATA_FIELD_DEF(int32_t, kAlignTwoBytes);
TILING_DATA_FIELD_DEF(int32_t, maskOffset);
TILING_DATA_FIELD_DEF(int32_t, maskVreducev2FourBytes);
TILING_DATA_FIELD_DEF(int32_t, maskVreducev2TwoBytes);
TILING_DATA_FIELD_DEF(int32_t, mrgSortSrc1offset);
TILING_DATA_FIELD_DEF(int32_t, mrgSortSrc2offset);
TILING_DATA_FIELD_DEF(int32_t, mrgSortSrc3offset);
TILING_DATA_FIELD_DEF(int32_t, mrgSortTwoQueueSrc1Offset);
TILING_DATA_FIELD_DEF(int32_t, mrgFourQueueTailPara1);
TILING_DATA_FIELD_DEF(int32_t, mrgFourQueueTailPara2);
TILING_DATA_FIELD_DEF(int32_t, srcIndexOffset);
TILING_DATA_FIELD_DEF(uint32_t, copyUbToUbBlockCount);
TILING_DATA_FIELD_DEF(int32_t, topkMrgSrc1MaskSizeOffset);
TILING_DATA_FIELD_DEF(int32_t, topkNSmallSrcIndexOffset);
TILING_DATA_FIELD_DEF(uint32_t, vreduceValMask0);
TILING_DATA_FIELD_DEF(uint32_t, vreduceValMask1);
TILING_DATA_FIELD_DEF(uint32_t, vreduceIdxMask0);
TILING_DATA_FIELD_DEF(uint32_t, vreduceIdxMask1);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask0);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask1);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask2);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask3);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask4);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask5);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask6);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask7);
END_TILING_DATA_DEF;
TWIN_REGISTER_LIBRARY_TILING_DATA_CLASS(TopkTilingOpApi, TopkTiling)

#define TWIN_TILINGDATA_FIELDS_TopkTiling(F) \
    F(tmpLocalSize) \
    F(allDataSize) \
    F(innerDataSize) \
    F(sortRepeat) \
    F(mrgSortRepeat) \
    F(kAlignFourBytes) \
    F(kAlignTwoBytes) \
    F(maskOffset) \
    F(maskVreducev2FourBytes) \
    F(maskVreducev2TwoBytes) \
    F(mrgSortSrc1offset) \
    F(mrgSortSrc2offset) \
    F(mrgSortSrc3offset) \
    F(mrgSortTwoQueueSrc1Offset) \
    F(mrgFourQueueTailPara1) \
    F(mrgFourQueueTailPara2) \
    F(srcIndexOffset) \
    F(copyUbToUbBlockCount) \
    F(topkMrgSrc1MaskSizeOffset) \
    F(topkNSmallSrcIndexOffset) \
    F(vreduceValMask0) \
    F(vreduceValMask1) \
    F(vreduceIdxMask0) \
    F(vreduceIdxMask1) \
    F(vreducehalfValMask0) \
    F(vreducehalfValMask1) \
    F(vreducehalfValMask2) \
    F(vreducehalfValMask3) \
    F(vreducehalfValMask4) \
    F(vreducehalfValMask5) \
    F(vreducehalfValMask6) \
    F(vreducehalfValMask7)

TWIN_TILINGDATA_LOAD_STORE(TopkTiling)
}  // namespace optiling
