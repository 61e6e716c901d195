// LayerNormGradBeta's tiling-data class on the twin's host side: optiling::LayerNormGradBetaTiling as CANN declares
// it (asc-devkit include/adv_api/normalization/layernorm_grad_beta_tilingdata.h) with the twin's register/tilingdata_base.h:
// host code fills one with set_<field>, and SaveToBuffer gives the bytes of the kernel-side struct of that name
// (kernel_tiling/kernel_tiling.h; tests/cpp/test_twin_tilingdata.cpp checks each field's offset). Registered
// here as CANN's tiling library registers them (op type <Class>OpApi). TWIN_TILINGDATA_FIELDS_<Class>(F)
// lists the fields for the twin's own use (the optiling:: overloads of the host tiling functions copy
// between the two forms with optiling::twin_host::Load/Store).
#pragma once

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LayerNormGradBetaTiling)
TILING_DATA_FIELD_DEF(uint32_t, stackBufferSize);
TILING_DATA_FIELD_DEF(uint32_t, bLength);
TILING_DATA_FIELD_DEF(uint32_t, sLength);
TILING_DATA_FIELD_DEF(uint32_t, hLength);
TILING_DATA_FIELD_DEF(uint32_t, originalHLength);
TILING_DATA_FIELD_DEF(uint32_t, bshLength);
TILING_DATA_FIELD_DEF(uint32_t, bsLength);
TILING_DATA_FIELD_DEF(uint32_t, oneCalSize);
TILING_DATA_FIELD_DEF(uint32_t, numberOfTmpBuf);
TILING_DATA_FIELD_DEF(uint32_t, loopRound);
TILING_DATA_FIELD_DEF(uint32_t, inputTailSize);
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos);
TILING_DATA_FIELD_DEF(uint32_t, bsTailSize);
TILING_DATA_FIELD_DEF(uint32_t, bshCurLength);
TILING_DATA_FIELD_DEF(uint32_t, bsCurLength);
TILING_DATA_FIELD_DEF(uint32_t, gammaTempTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, betaTempTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, inputDyTmpTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, resForGammaTmpTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, reserved);
END_TILING_DATA_DEF;
TWIN_REGISTER_LIBRARY_TILING_DATA_CLASS(LayerNormGradBetaTilingOpApi, LayerNormGradBetaTiling)

#define TWIN_TILINGDATA_FIELDS_LayerNormGradBetaTiling(F) \
    F(stackBufferSize) \
    F(bLength) \
    F(sLength) \
    F(hLength) \
    F(originalHLength) \
    F(bshLength) \
    F(bsLength) \
    F(oneCalSize) \
    F(numberOfTmpBuf) \
    F(loopRound) \
    F(inputTailSize) \
    F(inputTailPos) \
    F(bsTailSize) \
    F(bshCurLength) \
    F(bsCurLength) \
    F(gammaTempTensorPos) \
    F(betaTempTensorPos) \
    F(inputDyTmpTensorPos) \
    F(resForGammaTmpTensorPos) \
    F(reserved)

TWIN_TILINGDATA_LOAD_STORE(LayerNormGradBetaTiling)
}  // namespace optiling
