// ConfusionTranspose's tiling-data class on the twin's host side: optiling::ConfusionTransposeTiling as CANN declares
// it (asc-devkit include/adv_api/transpose/confusion_transpose_tilingdata.h) with the twin's register/tilingdata_base.h:
// host code fills one with set_<field>, and SaveToBuffer gives the bytes of the kernel-side struct of that name
// (kernel_tiling/kernel_tiling.h; tests/cpp/test_twin_tilingdata.cpp checks each field's offset). Registered
// here as CANN's tiling library registers them (op type <Class>OpApi). TWIN_TILINGDATA_FIELDS_<Class>(F)
// lists the fields for the twin's own use (the optiling:: overloads of the host tiling functions copy
// between the two forms with optiling::twin_host::Load/Store).
#pragma once

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConfusionTransposeTiling)
TILING_DATA_FIELD_DEF(uint32_t, param0);
TILING_DATA_FIELD_DEF(uint32_t, param1);
TILING_DATA_FIELD_DEF(uint32_t, param2);
TILING_DATA_FIELD_DEF(uint32_t, param3);
TILING_DATA_FIELD_DEF(uint32_t, param4);
TILING_DATA_FIELD_DEF(uint32_t, param5);
TILING_DATA_FIELD_DEF(uint32_t, param6);
TILING_DATA_FIELD_DEF(uint32_t, param7);
TILING_DATA_FIELD_DEF(uint32_t, param8);
TILING_DATA_FIELD_DEF(uint32_t, param9);
TILING_DATA_FIELD_DEF(uint32_t, param10);
TILING_DATA_FIELD_DEF(uint32_t, param11);
TILING_DATA_FIELD_DEF(uint32_t, param12);
TILING_DATA_FIELD_DEF(uint32_t, param13);
TILING_DATA_FIELD_DEF(uint32_t, param14);
TILING_DATA_FIELD_DEF(uint32_t, param15);
TILING_DATA_FIELD_DEF(uint32_t, param16);
TILING_DATA_FIELD_DEF(uint32_t, param17);
END_TILING_DATA_DEF;
TWIN_REGISTER_LIBRARY_TILING_DATA_CLASS(ConfusionTransposeTilingOpApi, ConfusionTransposeTiling)

#define TWIN_TILINGDATA_FIELDS_ConfusionTransposeTiling(F) \
    F(param0) \
    F(param1) \
    F(param2) \
    F(param3) \
    F(param4) \
    F(param5) \
    F(param6) \
    F(param7) \
    F(param8) \
    F(param9) \
    F(param10) \
    F(param11) \
    F(param12) \
    F(param13) \
    F(param14) \
    F(param15) \
    F(param16) \
    F(param17)

TWIN_TILINGDATA_LOAD_STORE(ConfusionTransposeTiling)
}  // namespace optiling
