// LayerNormGrad's tiling-data class on the twin's host side: optiling::LayerNormGradTiling as CANN declares
// it (asc-devkit include/adv_api/normalization/layernorm_grad_tilingdata.h) with the twin's register/tilingdata_base.h:
// host code fills one with set_<field>, and SaveToBuffer gives the bytes of the kernel-side struct of that name
// (kernel_tiling/kernel_tiling.h; tests/cpp/test_twin_tilingdata.cpp checks each field's offset). Registered
// here as CANN's tiling library registers them (op type <Class>OpApi). TWIN_TILINGDATA_FIELDS_<Class>(F)
// lists the fields for the twin's own use (the optiling:: overloads of the host tiling functions copy
// between the two forms with optiling::twin_host::Load/Store).
#pragma once

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LayerNormGradTiling)
TILING_DATA_FIELD_DEF(uint32_t, stackBufferSize);
TILING_DATA_FIELD_DEF(uint32_t, bLength);
TILING_DATA_FIELD_DEF(uint32_t, sLength);
TILING_DATA_FIELD_DEF(uint32_t, hLength);
TILING_DATA_FIELD_DEF(uint32_t, originalHLength);
TILING_DATA_FIELD_DEF(uint32_t, oneCalSize);
TILING_DATA_FIELD_DEF(uint32_t, nohCalSize);
TILING_DATA_FIELD_DEF(uint32_t, loopNum);
TILING_DATA_FIELD_DEF(uint32_t, tailSize);
TILING_DATA_FIELD_DEF(uint32_t, nohTailSize);
TILING_DATA_FIELD_DEF(uint32_t, tmpTensorBSHPos);
TILING_DATA_FIELD_DEF(uint32_t, tmpTensorBSHSize);
TILING_DATA_FIELD_DEF(uint32_t, pdVarTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, pdVarTensorSize);
TILING_DATA_FIELD_DEF(uint32_t, pdMeanTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, pdMeanTensorSize);
TILING_DATA_FIELD_DEF(uint32_t, x1TensorPos);
TILING_DATA_FIELD_DEF(uint32_t, x1TensorSize);
TILING_DATA_FIELD_DEF(uint32_t, x2TensorPos);
TILING_DATA_FIELD_DEF(uint32_t, x2TensorSize);
TILING_DATA_FIELD_DEF(uint32_t, x3TensorPos);
TILING_DATA_FIELD_DEF(uint32_t, x3TensorSize);
TILING_DATA_FIELD_DEF(uint32_t, tmpTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, tmpTensorSize);
TILING_DATA_FIELD_DEF(uint32_t, tmpTensor1Pos);
TILING_DATA_FIELD_DEF(uint32_t, tmpTensor1Size);
TILING_DATA_FIELD_DEF(uint32_t, tmpTensor2Pos);
TILING_DATA_FIELD_DEF(uint32_t, tmpTensor2Size);
TILING_DATA_FIELD_DEF(uint32_t, lastDimValueBack);
TILING_DATA_FIELD_DEF(uint32_t, lastDimValueBackMulTwo);
END_TILING_DATA_DEF;
TWIN_REGISTER_LIBRARY_TILING_DATA_CLASS(LayerNormGradTilingOpApi, LayerNormGradTiling)

#define TWIN_TILINGDATA_FIELDS_LayerNormGradTiling(F) \
    F(stackBufferSize) \
    F(bLength) \
    F(sLength) \
    F(hLength) \
    F(originalHLength) \
    F(oneCalSize) \
    F(nohCalSize) \
    F(loopNum) \
    F(tailSize) \
    F(nohTailSize) \
    F(tmpTensorBSHPos) \
    F(tmpTensorBSHSize) \
    F(pdVarTensorPos) \
    F(pdVarTensorSize) \
    F(pdMeanTensorPos) \
    F(pdMeanTensorSize) \
    F(x1TensorPos) \
    F(x1TensorSize) \
    F(x2TensorPos) \
    F(x2TensorSize) \
    F(x3TensorPos) \
    F(x3TensorSize) \
    F(tmpTensorPos) \
    F(tmpTensorSize) \
    F(tmpTensor1Pos) \
    F(tmpTensor1Size) \
    F(tmpTensor2Pos) \
    F(tmpTensor2Size) \
    F(lastDimValueBack) \
    F(lastDimValueBackMulTwo)

TWIN_TILINGDATA_LOAD_STORE(LayerNormGradTiling)
}  // namespace optiling
