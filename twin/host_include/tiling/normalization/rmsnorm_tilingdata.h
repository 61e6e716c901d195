// RmsNorm's tiling-data class on the twin's host side: optiling::RmsNormTiling as CANN declares
// it (asc-devkit include/adv_api/normalization/rmsnorm_tilingdata.h) with the twin's register/tilingdata_base.h:
// host code fills one with set_<field>, and SaveToBuffer gives the bytes of the kernel-side struct of that name
// (kernel_tiling/kernel_tiling.h; tests/cpp/test_twin_tilingdata.cpp checks each field's offset). Registered
// here as CANN's tiling library registers them (op type <Class>OpApi). TWIN_TILINGDATA_FIELDS_<Class>(F)
// lists the fields for the twin's own use (the optiling:: overloads of the host tiling functions copy
// between the two forms with optiling::twin_host::Load/Store).
#pragma once

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RmsNormTiling)
TILING_DATA_FIELD_DEF(uint32_t, bLength);
TILING_DATA_FIELD_DEF(uint32_t, sLength);
TILING_DATA_FIELD_DEF(uint32_t, hLength);
TILING_DATA_FIELD_DEF(uint32_t, originalHLength);
TILING_DATA_FIELD_DEF(float, reciprocalOfHLength);
TILING_DATA_FIELD_DEF(uint32_t, mainBshLength);
TILING_DATA_FIELD_DEF(uint32_t, mainBsLength);
TILING_DATA_FIELD_DEF(uint32_t, mainBsLengthAlign);
TILING_DATA_FIELD_DEF(uint32_t, loopRound);
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos);
TILING_DATA_FIELD_DEF(uint32_t, tailBshLength);
TILING_DATA_FIELD_DEF(uint32_t, tailBsLength);
END_TILING_DATA_DEF;
TWIN_REGISTER_LIBRARY_TILING_DATA_CLASS(RmsNormTilingOpApi, RmsNormTiling)

#define TWIN_TILINGDATA_FIELDS_RmsNormTiling(F) \
    F(bLength) \
    F(sLength) \
    F(hLength) \
    F(originalHLength) \
    F(reciprocalOfHLength) \
    F(mainBshLength) \
    F(mainBsLength) \
    F(mainBsLengthAlign) \
    F(loopRound) \
    F(inputTailPos) \
    F(tailBshLength) \
    F(tailBsLength)

TWIN_TILINGDATA_LOAD_STORE(RmsNormTiling)
}  // namespace optiling
