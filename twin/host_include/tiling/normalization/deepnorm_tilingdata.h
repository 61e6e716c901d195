// DeepNorm's tiling-data class on the twin's host side: optiling::DeepNormTiling as CANN declares
// it (asc-devkit include/adv_api/normalization/deepnorm_tilingdata.h) with the twin's register/tilingdata_base.h:
// host code fills one with set_<field>, and SaveToBuffer gives the bytes of the kernel-side struct of that name
// (kernel_tiling/kernel_tiling.h; tests/cpp/test_twin_tilingdata.cpp checks each field's offset). Registered
// here as CANN's tiling library registers them (op type <Class>OpApi). TWIN_TILINGDATA_FIELDS_<Class>(F)
// lists the fields for the twin's own use (the optiling:: overloads of the host tiling functions copy
// between the two forms with optiling::twin_host::Load/Store).
#pragma once

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DeepNormTiling)
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
TWIN_REGISTER_LIBRARY_TILING_DATA_CLASS(DeepNormTilingOpApi, DeepNormTiling)

#define TWIN_TILINGDATA_FIELDS_DeepNormTiling(F) \
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

TWIN_TILINGDATA_LOAD_STORE(DeepNormTiling)
}  // namespace optiling
