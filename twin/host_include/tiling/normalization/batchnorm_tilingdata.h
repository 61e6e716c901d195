// BatchNorm's tiling-data class on the twin's host side: optiling::BatchNormTiling as CANN declares
// it (asc-devkit include/adv_api/normalization/batchnorm_tilingdata.h) with the twin's register/tilingdata_base.h:
// host code fills one with set_<field>, and SaveToBuffer gives the bytes of the kernel-side struct of that name
// (kernel_tiling/kernel_tiling.h; tests/cpp/test_twin_tilingdata.cpp checks each field's offset). Registered
// here as CANN's tiling library registers them (op type <Class>OpApi). TWIN_TILINGDATA_FIELDS_<Class>(F)
// lists the fields for the twin's own use (the optiling:: overloads of the host tiling functions copy
// between the two forms with optiling::twin_host::Load/Store).
#pragma once

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BatchNormTiling)
TILING_DATA_FIELD_DEF(uint32_t, originalBLength);
TILING_DATA_FIELD_DEF(uint32_t, meanVarSize);
TILING_DATA_FIELD_DEF(uint32_t, meanTmpTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, tmpBufSize);
TILING_DATA_FIELD_DEF(uint32_t, oneTmpSize);
TILING_DATA_FIELD_DEF(uint32_t, firstTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, secondTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, thirdTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, loopRound);
TILING_DATA_FIELD_DEF(uint32_t, inputTailSize);
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos);
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailPos);
TILING_DATA_FIELD_DEF(uint32_t, bshCurLength);
TILING_DATA_FIELD_DEF(uint32_t, shCurLength);
TILING_DATA_FIELD_DEF(float, firstDimValueBack);
TILING_DATA_FIELD_DEF(uint32_t, castHalfRepStride);
TILING_DATA_FIELD_DEF(uint32_t, shCurLengthBlockNum);
TILING_DATA_FIELD_DEF(uint32_t, castHalfOutRepStride);
END_TILING_DATA_DEF;
TWIN_REGISTER_LIBRARY_TILING_DATA_CLASS(BatchNormTilingOpApi, BatchNormTiling)

#define TWIN_TILINGDATA_FIELDS_BatchNormTiling(F) \
    F(originalBLength) \
    F(meanVarSize) \
    F(meanTmpTensorPos) \
    F(varianceTmpTensorPos) \
    F(tmpBufSize) \
    F(oneTmpSize) \
    F(firstTmpStartPos) \
    F(secondTmpStartPos) \
    F(thirdTmpStartPos) \
    F(loopRound) \
    F(inputTailSize) \
    F(inputTailPos) \
    F(meanVarTailSize) \
    F(meanVarTailPos) \
    F(bshCurLength) \
    F(shCurLength) \
    F(firstDimValueBack) \
    F(castHalfRepStride) \
    F(shCurLengthBlockNum) \
    F(castHalfOutRepStride)

TWIN_TILINGDATA_LOAD_STORE(BatchNormTiling)
}  // namespace optiling
