// The SoftMax family's tiling-data class on the twin's host side: optiling::SoftMaxTiling as CANN declares
// it (asc-devkit include/adv_api/activation/softmax_tilingdata.h) with the twin's register/tilingdata_base.h:
// host code fills one with set_<field>, and SaveToBuffer gives the bytes of the kernel-side struct of that name
// (kernel_tiling/kernel_tiling.h; tests/cpp/test_twin_tilingdata.cpp checks each field's offset). Registered
// here as CANN's tiling library registers them (op type <Class>OpApi). TWIN_TILINGDATA_FIELDS_<Class>(F)
// lists the fields for the twin's own use (the optiling:: overloads of the host tiling functions copy
// between the two forms with optiling::twin_host::Load/Store).
#pragma once

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SoftMaxTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcM);
TILING_DATA_FIELD_DEF(uint32_t, srcK);
TILING_DATA_FIELD_DEF(uint32_t, srcSize);
TILING_DATA_FIELD_DEF(uint32_t, outMaxM);
TILING_DATA_FIELD_DEF(uint32_t, outMaxK);
TILING_DATA_FIELD_DEF(uint32_t, outMaxSize);
TILING_DATA_FIELD_DEF(uint32_t, splitM);
TILING_DATA_FIELD_DEF(uint32_t, splitK);
TILING_DATA_FIELD_DEF(uint32_t, splitSize);
TILING_DATA_FIELD_DEF(uint32_t, reduceM);
TILING_DATA_FIELD_DEF(uint32_t, reduceK);
TILING_DATA_FIELD_DEF(uint32_t, reduceSize);
TILING_DATA_FIELD_DEF(uint32_t, rangeM);
TILING_DATA_FIELD_DEF(uint32_t, tailM);
TILING_DATA_FIELD_DEF(uint32_t, tailSplitSize);
TILING_DATA_FIELD_DEF(uint32_t, tailReduceSize);
END_TILING_DATA_DEF;
TWIN_REGISTER_LIBRARY_TILING_DATA_CLASS(SoftMaxTilingOpApi, SoftMaxTiling)

#define TWIN_TILINGDATA_FIELDS_SoftMaxTiling(F) \
    F(srcM) \
    F(srcK) \
    F(srcSize) \
    F(outMaxM) \
    F(outMaxK) \
    F(outMaxSize) \
    F(splitM) \
    F(splitK) \
    F(splitSize) \
    F(reduceM) \
    F(reduceK) \
    F(reduceSize) \
    F(rangeM) \
    F(tailM) \
    F(tailSplitSize) \
    F(tailReduceSize)

TWIN_TILINGDATA_LOAD_STORE(SoftMaxTiling)
}  // namespace optiling
