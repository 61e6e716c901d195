// Pad and UnPad of the advanced API (高阶API/张量变换/Pad, UnPad), A2 forms: `template <typename T>`
// Pad(dst, src, padParams, sharedTmpBuffer, tiling), Pad(dst, src, padParams, tiling) (the framework's buffer: the
// UB after the TPipe's buffers), UnPad(dst, src, unPadParams, sharedTmpBuffer, tiling), UnPad(dst, src, unPadParams,
// tiling); PadParams {leftPad, rightPad, padValue} and UnPadParams {leftPad, rightPad} as
// impl/basic_api/utils/kernel_utils_struct_confusion_pad.h declares them. Kernels include it as "lib/pad/pad.h"
// (asc-devkit include/adv_api/pad/pad.h); A2's kernel_operator.h includes it. Checked against the header, A2's
// implementation (impl/adv_api/detail/pad/pad/pad_v220_impl.h, pad_base_impl.h), its CPU-debug checks
// (api_check/kernel_check/pad/pad/pad_check_common.h, unpad_check_common.h) and the docs.
//
// Pad of a height x width tensor (tiling.srcHeight, tiling.srcWidth, from PadTilingFunc):
// - width 32-byte aligned (scenario 2: columns srcOriWidth.. are redundant): A2's sequence, here as the twin's
//   basic API calls: DataCopy of the whole source, then Duplicate of padValue under a mask into columns
//   [srcOriWidth, srcOriWidth + rightPad) of each row's last block, 255 rows a repeat;
// - width not aligned (scenario 1): each row becomes leftPad padValues, the row, rightPad padValues (rows of
//   width + leftPad + rightPad elements). A2 runs it through the temporary buffer (Brcb, DataCopy, TransDataTo5HD
//   in place); the twin computes the rows (twin/src/adv_pad.cpp) as one V instruction that reads src, writes the
//   2 * tmpBuffer1BlockNum * 512 bytes of the buffer A2 uses (left as NaN bytes) and dst.
// UnPad of a height x width tensor (width 32-byte aligned): drops the last rightPad columns of each row, rows packed
// into dst (height x (width - rightPad)); A2's GatherMask (pattern 7, count mode, one repeat a row), as the twin's.
//
// T is int16_t, uint16_t, half, int32_t, uint32_t or float (static_assert, the docs' table). Rules (the error names
// each; A2's CPU-debug checks and the docs): operands at VECIN/VECCALC/VECOUT, 32-byte aligned; src holds
// height * width elements and that many are a whole number of 32-byte blocks (docs: 源操作数的数据量必须32B对齐);
// leftPad and rightPad under 32 bytes; aligned Pad: srcWidth != srcOriWidth, (srcWidth - srcOriWidth) * sizeof(T)
// under 32 bytes, leftPad 0, rightPad > 0 and
// srcOriWidth + rightPad <= srcWidth (docs: pad之后的总width不超过原width向最近32B对齐后的宽度); unaligned Pad:
// (width + leftPad + rightPad) a whole number of 32-byte blocks, tiling.tmpBuffer1BlockNum >= 1 (PadTilingFunc
// with at least GetPadMaxMinTmpSize's minimum) and the buffer holding the 2 * tmpBuffer1BlockNum * 512 bytes the
// tiling makes A2 use, overlapping neither operand; dst holds the result; UnPad: width 32-byte aligned, rightPad > 0.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "twin/kernel_adv_common.h"
#include "twin/kernel_data_copy.h"
#include "twin/kernel_gather_mask.h"
#include "twin/kernel_sync.h"
#include "twin/kernel_vec_repeat.h"

namespace AscendC {

struct PadParams {
    __aicore__ PadParams()
    {
        leftPad = 0;
        rightPad = 0;
        padValue = 0;
    }
    __aicore__ PadParams(const uint16_t leftPadIn, const uint16_t rightPadIn, const int32_t padValueIn)
    {
        leftPad = leftPadIn;
        rightPad = rightPadIn;
        padValue = padValueIn;
    }
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
    int32_t padValue = 0;
};

struct UnPadParams {
    __aicore__ UnPadParams()
    {
        leftPad = 0;
        rightPad = 0;
    }
    __aicore__ UnPadParams(const uint16_t leftPadIn, const uint16_t rightPadIn)
    {
        leftPad = leftPadIn;
        rightPad = rightPadIn;
    }
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
};

namespace twin_detail {

template <typename T>
inline constexpr bool kPadType = std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
                                 std::is_same_v<T, half> || std::is_same_v<T, int32_t> ||
                                 std::is_same_v<T, uint32_t> || std::is_same_v<T, float>;

// The rule checks (twin/src/adv_pad.cpp); they return whether the width is 32-byte aligned.
bool PadCheck(uint32_t typeSize, const MathOperand& dst, const MathOperand& src, const MathOperand& tmp,
              bool framework, const PadParams& params, const tiling::PadTiling& tiling);
void PadUnalignedRun(uint32_t typeSize, const MathOperand& dst, const MathOperand& src, const MathOperand& tmp,
                     bool framework, const PadParams& params, const void* padValue, const tiling::PadTiling& tiling);
void UnPadCheck(uint32_t typeSize, const MathOperand& dst, const MathOperand& src, const UnPadParams& params,
                const tiling::UnPadTiling& tiling);

template <typename T>
inline void PadForm(const LocalTensor<T>& dst, const LocalTensor<T>& src, PadParams& padParams,
                    const LocalTensor<uint8_t>& tmpBuffer, bool framework, tiling::PadTiling& tiling)
{
    static_assert(kPadType<T>, "Pad on A2 supports int16_t, uint16_t, half, int32_t, uint32_t and float");
    const MathOperand d = AdvOperand(dst), s = AdvOperand(src), t = AdvOperand(tmpBuffer);
    if (!PadCheck(sizeof(T), d, s, t, framework, padParams, tiling)) {
        const T value = static_cast<T>(padParams.padValue);  // A2: static_cast<T>(padValue)
        PadUnalignedRun(sizeof(T), d, s, t, framework, padParams, &value, tiling);
        return;
    }
    // A2's AlignedPad (pad_base_impl.h).
    const uint32_t elementsPerBlock = 32 / sizeof(T);
    DataCopy(dst, src, tiling.srcHeight * tiling.srcWidth);
    PipeBarrier<PIPE_V>();
    uint64_t mask[2];
    mask[0] = ((static_cast<uint64_t>(1) << padParams.rightPad) - 1)
              << (elementsPerBlock - (tiling.srcWidth - tiling.srcOriWidth));
    mask[1] = 0;
    for (uint32_t i = 0; i < tiling.heightFractal; i++) {
        Duplicate<T, true>(dst[i * tiling.mainLoopOffset + tiling.widthWithoutLastBlock],
                           static_cast<T>(padParams.padValue), mask, static_cast<uint8_t>(tiling.heightTiling), 1,
                           static_cast<uint8_t>(tiling.blocksPerRow));
    }
    if (tiling.heightFractalTail != 0) {
        Duplicate<T, true>(dst[tiling.tailBlockOffset], static_cast<T>(padParams.padValue), mask,
                           static_cast<uint8_t>(tiling.heightFractalTail), 1,
                           static_cast<uint8_t>(tiling.blocksPerRow));
    }
}

template <typename T>
inline void UnPadForm(const LocalTensor<T>& dst, const LocalTensor<T>& src, UnPadParams& unPadParams,
                      tiling::UnPadTiling& tiling)
{
    static_assert(kPadType<T>, "UnPad on A2 supports int16_t, uint16_t, half, int32_t, uint32_t and float");
    UnPadCheck(sizeof(T), AdvOperand(dst), AdvOperand(src), unPadParams, tiling);
    // A2's UnPadCompute (pad_v220_impl.h): no temporary buffer.
    GatherMaskParams params;
    params.repeatTimes = static_cast<uint16_t>(tiling.srcHeight);
    params.src0RepeatStride = static_cast<uint16_t>(tiling.srcWidth * sizeof(T) / 32);
    uint64_t rsvdCnt = 0;
    GatherMask(dst, src, static_cast<uint8_t>(7), true, tiling.srcWidth - unPadParams.rightPad, params, rsvdCnt);
    ResetMask();
}

}  // namespace twin_detail

template <typename T>
__aicore__ inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, PadTiling& tiling)
{
    twin_detail::PadForm<T>(dstTensor, srcTensor, padParams, sharedTmpBuffer, false, tiling);
}

template <typename T>
__aicore__ inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                           PadTiling& tiling)
{
    twin_detail::PadForm<T>(dstTensor, srcTensor, padParams, twin_detail::AdvFrameworkTmpTensor("Pad"), true, tiling);
}

template <typename T>
__aicore__ inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                             UnPadParams& unPadParams, LocalTensor<uint8_t>& sharedTmpBuffer, UnPadTiling& tiling)
{
    (void)sharedTmpBuffer;  // A2's UnPad uses none (GetUnPadMaxMinTmpSize: 0 on dav-2201)
    twin_detail::UnPadForm<T>(dstTensor, srcTensor, unPadParams, tiling);
}

template <typename T>
__aicore__ inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                             UnPadParams& unPadParams, UnPadTiling& tiling)
{
    twin_detail::UnPadForm<T>(dstTensor, srcTensor, unPadParams, tiling);
}

}  // namespace AscendC
