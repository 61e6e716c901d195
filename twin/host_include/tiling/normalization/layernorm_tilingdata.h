// LayerNorm's tiling-data classes on the twin's host side: optiling::LayerNormTiling, optiling::LayerNormSeparateTiling as CANN declares
// them (asc-devkit include/adv_api/normalization/layernorm_tilingdata.h) with the twin's register/tilingdata_base.h:
// host code fills one with set_<field>, and SaveToBuffer gives the bytes of the kernel-side struct of that name
// (kernel_tiling/kernel_tiling.h; tests/cpp/test_twin_tilingdata.cpp checks each field's offset). Registered
// here as CANN's tiling library registers them (op type <Class>OpApi). TWIN_TILINGDATA_FIELDS_<Class>(F)
// lists the fields for the twin's own use (the optiling:: overloads of the host tiling functions copy
// between the two forms with optiling::twin_host::Load/Store).
#pragma once

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LayerNormTiling)
TILING_DATA_FIELD_DEF(uint32_t, bLength);
TILING_DATA_FIELD_DEF(uint32_t, sLength);
TILING_DATA_FIELD_DEF(uint32_t, hLength);
TILING_DATA_FIELD_DEF(uint32_t, originalHLength);
TILING_DATA_FIELD_DEF(uint32_t, inputXSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarSize);
TILING_DATA_FIELD_DEF(uint32_t, numberOfTmpBuf);
TILING_DATA_FIELD_DEF(uint32_t, meanTmpTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, meanTmpTensorSize);
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorSize);
TILING_DATA_FIELD_DEF(uint32_t, tmpBufSize);
TILING_DATA_FIELD_DEF(uint32_t, oneTmpSize);
TILING_DATA_FIELD_DEF(uint32_t, firstTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, secondTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, thirdTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, loopRound);
TILING_DATA_FIELD_DEF(uint32_t, inputRoundSize);
TILING_DATA_FIELD_DEF(uint32_t, inputTailSize);
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos);
TILING_DATA_FIELD_DEF(uint32_t, meanVarRoundSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailPos);
TILING_DATA_FIELD_DEF(uint32_t, bshCurLength);
TILING_DATA_FIELD_DEF(uint32_t, bsCurLength);
TILING_DATA_FIELD_DEF(float, lastDimValueBack);
END_TILING_DATA_DEF;
TWIN_REGISTER_LIBRARY_TILING_DATA_CLASS(LayerNormTilingOpApi, LayerNormTiling)

#define TWIN_TILINGDATA_FIELDS_LayerNormTiling(F) \
    F(bLength) \
    F(sLength) \
    F(hLength) \
    F(originalHLength) \
    F(inputXSize) \
    F(meanVarSize) \
    F(numberOfTmpBuf) \
    F(meanTmpTensorPos) \
    F(meanTmpTensorSize) \
    F(varianceTmpTensorPos) \
    F(varianceTmpTensorSize) \
    F(tmpBufSize) \
    F(oneTmpSize) \
    F(firstTmpStartPos) \
    F(secondTmpStartPos) \
    F(thirdTmpStartPos) \
    F(loopRound) \
    F(inputRoundSize) \
    F(inputTailSize) \
    F(inputTailPos) \
    F(meanVarRoundSize) \
    F(meanVarTailSize) \
    F(meanVarTailPos) \
    F(bshCurLength) \
    F(bsCurLength) \
    F(lastDimValueBack)

BEGIN_TILING_DATA_DEF(LayerNormSeparateTiling)
TILING_DATA_FIELD_DEF(uint32_t, aLength);
TILING_DATA_FIELD_DEF(uint32_t, rLength);
TILING_DATA_FIELD_DEF(uint32_t, halfAddRepeatTimes);
TILING_DATA_FIELD_DEF(uint32_t, rHeadLength);
TILING_DATA_FIELD_DEF(float, k2Rec);
TILING_DATA_FIELD_DEF(float, k2RRec);
TILING_DATA_FIELD_DEF(uint32_t, inputXSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarSize);
TILING_DATA_FIELD_DEF(uint32_t, numberOfTmpBuf);
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorSize);
TILING_DATA_FIELD_DEF(uint32_t, tmpBufSize);
TILING_DATA_FIELD_DEF(uint32_t, oneTmpSize);
TILING_DATA_FIELD_DEF(uint32_t, firstTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, secondTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, thirdTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, loopRound);
TILING_DATA_FIELD_DEF(uint32_t, inputRoundSize);
TILING_DATA_FIELD_DEF(uint32_t, inputTailSize);
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos);
TILING_DATA_FIELD_DEF(uint32_t, meanVarRoundSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailPos);
TILING_DATA_FIELD_DEF(uint32_t, arCurLength);
TILING_DATA_FIELD_DEF(uint32_t, aCurLength);
TILING_DATA_FIELD_DEF(float, rValueBack);
END_TILING_DATA_DEF;
TWIN_REGISTER_LIBRARY_TILING_DATA_CLASS(LayerNormSeparateTilingOpApi, LayerNormSeparateTiling)

#define TWIN_TILINGDATA_FIELDS_LayerNormSeparateTiling(F) \
    F(aLength) \
    F(rLength) \
    F(halfAddRepeatTimes) \
    F(rHeadLength) \
    F(k2Rec) \
    F(k2RRec) \
    F(inputXSize) \
    F(meanVarSize) \
    F(numberOfTmpBuf) \
    F(varianceTmpTensorPos) \
    F(varianceTmpTensorSize) \
    F(tmpBufSize) \
    F(oneTmpSize) \
    F(firstTmpStartPos) \
    F(secondTmpStartPos) \
    F(thirdTmpStartPos) \
    F(loopRound) \
    F(inputRoundSize) \
    F(inputTailSize) \
    F(inputTailPos) \
    F(meanVarRoundSize) \
    F(meanVarTailSize) \
    F(meanVarTailPos) \
    F(arCurLength) \
    F(aCurLength) \
    F(rValueBack)

TWIN_TILINGDATA_LOAD_STORE(LayerNormTiling)
TWIN_TILINGDATA_LOAD_STORE(LayerNormSeparateTiling)
}  // namespace optiling
