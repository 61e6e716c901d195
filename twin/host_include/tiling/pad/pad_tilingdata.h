// Pad's and UnPad's tiling-data classes on the twin's host side: optiling::UnPadTiling, optiling::PadTiling as
// CANN declares them (asc-devkit include/adv_api/pad/pad_tilingdata.h) with the twin's register/tilingdata_base.h:
// host code fills one with set_<field>, and SaveToBuffer gives the bytes of the kernel-side struct of that name
// (kernel_tiling/kernel_tiling.h; tests/cpp/test_twin_tilingdata.cpp checks each field's offset). Registered
// here as CANN's tiling library registers them (op type <Class>OpApi). TWIN_TILINGDATA_FIELDS_<Class>(F)
// lists the fields for the twin's own use (the optiling:: overloads of the host tiling functions copy
// between the two forms with optiling::twin_host::Load/Store).
#pragma once

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(UnPadTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcHeight);
TILING_DATA_FIELD_DEF(uint32_t, srcWidth);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1BlockNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1RowNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer2Offset);
TILING_DATA_FIELD_DEF(uint32_t, widthTiling);
TILING_DATA_FIELD_DEF(uint32_t, widthFractal);
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTail);
END_TILING_DATA_DEF;
TWIN_REGISTER_LIBRARY_TILING_DATA_CLASS(UnPadTilingOpApi, UnPadTiling)

#define TWIN_TILINGDATA_FIELDS_UnPadTiling(F) \
    F(srcHeight) \
    F(srcWidth) \
    F(tmpBuffer1BlockNum) \
    F(tmpBuffer1RowNum) \
    F(tmpBuffer2Offset) \
    F(widthTiling) \
    F(widthFractal) \
    F(widthFractalTail)

BEGIN_TILING_DATA_DEF(PadTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcHeight);
TILING_DATA_FIELD_DEF(uint32_t, srcWidth);
TILING_DATA_FIELD_DEF(uint32_t, srcOriWidth);
TILING_DATA_FIELD_DEF(uint32_t, widthWithoutLastBlock);
TILING_DATA_FIELD_DEF(uint32_t, blocksPerRow);
TILING_DATA_FIELD_DEF(uint32_t, heightTiling);
TILING_DATA_FIELD_DEF(uint32_t, heightFractal);
TILING_DATA_FIELD_DEF(uint32_t, heightFractalTail);
TILING_DATA_FIELD_DEF(uint32_t, mainLoopOffset);
TILING_DATA_FIELD_DEF(uint32_t, tailBlockOffset);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1BlockNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1RowNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer2Offset);
TILING_DATA_FIELD_DEF(uint32_t, widthTiling);
TILING_DATA_FIELD_DEF(uint32_t, widthFractal);
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTail);
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTailAlingned);
TILING_DATA_FIELD_DEF(uint32_t, brcbTiling);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractal);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTail);
TILING_DATA_FIELD_DEF(uint32_t, maxRepeatTimes);
TILING_DATA_FIELD_DEF(uint32_t, brcbTilingRepeatTimes);
TILING_DATA_FIELD_DEF(uint32_t, brcbTilingRepeatTimesTail);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTailRepeatTimes);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTailRepeatTimesTail);
TILING_DATA_FIELD_DEF(uint32_t, reserved);
END_TILING_DATA_DEF;
TWIN_REGISTER_LIBRARY_TILING_DATA_CLASS(PadTilingOpApi, PadTiling)

#define TWIN_TILINGDATA_FIELDS_PadTiling(F) \
    F(srcHeight) \
    F(srcWidth) \
    F(srcOriWidth) \
    F(widthWithoutLastBlock) \
    F(blocksPerRow) \
    F(heightTiling) \
    F(heightFractal) \
    F(heightFractalTail) \
    F(mainLoopOffset) \
    F(tailBlockOffset) \
    F(tmpBuffer1BlockNum) \
    F(tmpBuffer1RowNum) \
    F(tmpBuffer2Offset) \
    F(widthTiling) \
    F(widthFractal) \
    F(widthFractalTail) \
    F(widthFractalTailAlingned) \
    F(brcbTiling) \
    F(brcbFractal) \
    F(brcbFractalTail) \
    F(maxRepeatTimes) \
    F(brcbTilingRepeatTimes) \
    F(brcbTilingRepeatTimesTail) \
    F(brcbFractalTailRepeatTimes) \
    F(brcbFractalTailRepeatTimesTail) \
    F(reserved)

TWIN_TILINGDATA_LOAD_STORE(UnPadTiling)
TWIN_TILINGDATA_LOAD_STORE(PadTiling)
}  // namespace optiling
