// AscendAntiQuant (高阶API/量化操作), A2's int8_t and int4b_t -> half forms with src not transposed: per channel
// with tensor offset and scale, and with scalar offset and scale or a scalar scale (int4b_t src: the same sequence,
// its Cast reading 2 blocks a repeat). Kernels include it as "lib/quantization/ascend_antiquant.h" (asc-devkit include/adv_api/quantization/
// ascend_antiquant.h; AntiQuantShapeInfo from ascend_antiquant_utils.h); A2's kernel_operator.h includes it. Checked
// against the header, A2's implementation (impl/adv_api/detail/quantization/antiquant/ascend_antiquant_impl.h:
// AscendAntiQuantImplCommon, AscendAntiQuantNoTranspose with AntiQuantCheckPerformanceMode of
// ascend_antiquant_c220_impl.h, which is always true for half), the API check (api_check/kernel_check/quantization/
// antiquant/antiquant_check_common.h) and the docs.
//
// AscendAntiQuant<int8_t, half, false>(dst, src, offset, scale[, sharedTmpBuffer], k[, shapeInfo]): src [K, N] with
// K = k and N = src.GetSize() / K, offset and scale [N]; dst[i][j] = (half(src[i][j]) + offset[j]) * scale[j], in
// half as A2: one Cast of all of src into dst (counter mode), then, in groups of at most 255 rows, per 128 columns an
// Add of offset and a Mul by scale over the rows (repeat stride N * 2 / 32 blocks, the offset/scale repeat stride 0),
// the columns past the last full 128 by the same in normal mode with the tail's mask. The temporary buffer is not
// used by this form on A2 (nor by the twin); without it the framework's buffer is not taken either.
//
// AscendAntiQuant<int8_t, half, false>(dst, src, offset, scale[, sharedTmpBuffer], k[, shapeInfo]) with half scalars,
// and (dst, src, scale, sharedTmpBuffer, k[, shapeInfo]): over all of src.GetSize() elements, counter mode, one Cast,
// an Adds of offset (not in the scale-only form) and a Muls by scale (A2's AntiQuantInnerLoop); k and shapeInfo are
// not read on this path.
//
// Not modelled (docs/twin.md): bfloat16_t dst, isTranspose true, and the tensor-scale form without
// offset: a kernel calling them fails to compile with a static_assert naming the twin's gap.
//
// Rules named "AscendAntiQuant" (A2's checks and docs; the error names each): operands at VECIN/VECCALC/VECOUT,
// 32-byte aligned; dst holding src.GetSize() and not overlapping src (all forms; docs: 不支持源操作数与目的操作数地址
// 重叠); with tensor offset and scale also k > 0 and src.GetSize() a multiple of k (src is [K, N]); N * sizeof(half) a
// multiple of 32 (docs: 参与计算的数据长度要求32B对齐) and at most 255 blocks (A2 puts N * 2 / 32 into an 8-bit repeat
// stride); offset and scale N elements, not overlapped by dst; shapeInfo.offsetHeight * offsetWidth <=
// offset.GetSize() and scaleHeight * scaleWidth <= scale.GetSize() (A2's check).
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/kernel_adv_common.h"
#include "twin/kernel_cast.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_utils.h"
#include "twin/kernel_vec_repeat.h"

namespace AscendC {

// include/adv_api/quantization/ascend_antiquant_utils.h
struct AntiQuantShapeInfo {
    uint32_t offsetHeight{0};
    uint32_t offsetWidth{0};
    uint32_t scaleHeight{0};
    uint32_t scaleWidth{0};
};

namespace twin_detail {

struct AntiQuantCall {
    uint32_t k;
    uint64_t srcElements;
    uint64_t srcBytes;  // int4b_t: two elements a byte
    AntiQuantShapeInfo shapeInfo;
    bool framework;
    bool scalar;  // scalar offset/scale: offset and scale are empty operands
    MathOperand dst, src, offset, scale, tmp;
};

void AntiQuantCheck(const AntiQuantCall& c);

constexpr uint32_t kAntiQuantMaxK = 255;      // ANTIQUANT_MAX_K: rows per repeat group
constexpr uint32_t kAntiQuantNSizeFp16 = 128;  // ANTIQUANT_SINGLE_N_SIZE_FP16: halves per repeat

// Rows [0, k) of dst (row stride n) += offset, *= scale (AscendAntiQuantNoTransposePerformance and its tail).
inline void AntiQuantRows(const LocalTensor<half>& dst, const LocalTensor<half>& offset, const LocalTensor<half>& scale,
                          uint32_t k, uint32_t n)
{
    BinaryRepeatParams p;
    p.src0RepStride = static_cast<uint8_t>(n * sizeof(half) / ONE_BLK_SIZE);
    p.src1RepStride = 0;
    p.dstRepStride = static_cast<uint8_t>(n * sizeof(half) / ONE_BLK_SIZE);
    SetMaskCount();
    SetVectorMask<half, MaskMode::COUNTER>(0, kAntiQuantNSizeFp16 * k);
    for (uint32_t i = 0; i < n / kAntiQuantNSizeFp16; i++) {
        const uint32_t at = kAntiQuantNSizeFp16 * i;
        Add<half, false>(dst[at], dst[at], offset[at], MASK_PLACEHOLDER, static_cast<uint8_t>(k), p);
        PipeBarrier<PIPE_V>();
        Mul<half, false>(dst[at], dst[at], scale[at], MASK_PLACEHOLDER, static_cast<uint8_t>(k), p);
        PipeBarrier<PIPE_V>();
    }
    SetMaskNorm();
    ResetMask();
    const uint32_t tail = n % kAntiQuantNSizeFp16;
    if (tail > 0) {
        const uint32_t at = n - tail;
        SetMaskNorm();
        SetVectorMask<half, MaskMode::NORMAL>(tail);
        Add<half, false>(dst[at], dst[at], offset[at], MASK_PLACEHOLDER, static_cast<uint8_t>(k), p);
        PipeBarrier<PIPE_V>();
        Mul<half, false>(dst[at], dst[at], scale[at], MASK_PLACEHOLDER, static_cast<uint8_t>(k), p);
        PipeBarrier<PIPE_V>();
        ResetMask();
    }
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
constexpr void AntiQuantTypes()
{
    static_assert(std::is_same_v<InputDataType, int8_t> || std::is_same_v<InputDataType, int4b_t>,
                  "first template parameter (InputDataType) is not int8_t or int4b_t (AscendAntiQuant on A2)");
    static_assert(std::is_same_v<OutputDataType, half> || std::is_same_v<OutputDataType, bfloat16_t>,
                  "second template parameter (OutputDataType) is not half or bfloat16_t (AscendAntiQuant on A2)");
    static_assert(std::is_same_v<OutputDataType, half> && !isTranspose,
                  "AscendAntiQuant: the twin models A2's int8_t/int4b_t -> half forms without transpose only "
                  "(bfloat16_t and isTranspose are not implemented in the twin; docs/twin.md)");
}

// src as the checks see it (LocalTensor<int4b_t> counts elements, two a byte).
template <typename InputDataType>
inline MathOperand AntiQuantSrc(const LocalTensor<InputDataType>& src)
{
    MathOperand op = AdvOperand(src);
    if constexpr (std::is_same_v<InputDataType, int4b_t>) op.bytes = src.GetSize() / 2;
    return op;
}

// One Cast of all of src to half in counter mode (PreCast; AntiQuantInnerLoop's): int8_t's repeat reads 4 blocks,
// int4b_t's 2 (HALF_ / ONE_FOURTH_DEFAULT_REPEAT_STRIDE).
template <typename InputDataType>
inline void AntiQuantCastAll(const LocalTensor<half>& dst, const LocalTensor<InputDataType>& src, uint8_t repeats)
{
    SetMaskCount();
    SetVectorMask<half, MaskMode::COUNTER>(0, src.GetSize());
    UnaryRepeatParams widen;
    widen.srcRepStride = std::is_same_v<InputDataType, int4b_t> ? 2 : HALF_DEFAULT_REPEAT_STRIDE;
    Cast<half, InputDataType, false>(dst, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, repeats, widen);
    PipeBarrier<PIPE_V>();
}

// The scalar forms (AscendAntiQuantNoTranspose with DstType offset and scale, AntiQuantInnerLoop): in counter mode
// over all of src, Cast to half, Adds offset (withOffset), Muls scale.
template <typename InputDataType, typename OutputDataType, bool isTranspose, bool withOffset>
inline void AntiQuantScalarRun(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                               const OutputDataType offset, const OutputDataType scale,
                               const LocalTensor<uint8_t>* shared, const uint32_t k,
                               const AntiQuantShapeInfo& shapeInfo)
{
    AntiQuantTypes<InputDataType, OutputDataType, isTranspose>();
    const MathOperand tmp = shared == nullptr ? MathOperand{} : AdvOperand(*shared);
    const MathOperand srcOp = AntiQuantSrc(src);
    AntiQuantCheck(AntiQuantCall{k, src.GetSize(), srcOp.bytes, shapeInfo, shared == nullptr, true, AdvOperand(dst),
                                 srcOp, MathOperand{}, MathOperand{}, tmp});
    AntiQuantCastAll(dst, src, 1);
    if constexpr (withOffset) {
        Adds<half, false>(dst, dst, offset, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
        PipeBarrier<PIPE_V>();
    }
    Muls<half, false>(dst, dst, scale, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
    PipeBarrier<PIPE_V>();
    SetMaskNorm();
    ResetMask();
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AntiQuantRun(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                         const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale,
                         const LocalTensor<uint8_t>* shared, const uint32_t k, const AntiQuantShapeInfo& shapeInfo)
{
    AntiQuantTypes<InputDataType, OutputDataType, isTranspose>();
    const MathOperand tmp = shared == nullptr ? MathOperand{} : AdvOperand(*shared);
    const MathOperand srcOp = AntiQuantSrc(src);
    AntiQuantCheck(AntiQuantCall{k, src.GetSize(), srcOp.bytes, shapeInfo, shared == nullptr, false,
                                 AdvOperand(dst), srcOp, AdvOperand(offset), AdvOperand(scale), tmp});
    const uint32_t total = src.GetSize();
    const uint32_t n = total / k;
    // PreCast: all of src into dst (A2 passes int8_t's repeat count, int4b_t's 1; counter mode ignores both)
    const uint32_t repeats = (total + ONE_REPEAT_BYTE_SIZE - 1) / ONE_REPEAT_BYTE_SIZE;
    AntiQuantCastAll(dst, src, std::is_same_v<InputDataType, int4b_t> ? 1 : static_cast<uint8_t>(repeats));
    for (uint32_t i = 0; i < k / kAntiQuantMaxK; i++) {
        AntiQuantRows(dst[i * kAntiQuantMaxK * n], offset, scale, kAntiQuantMaxK, n);
    }
    if (k % kAntiQuantMaxK > 0) {
        AntiQuantRows(dst[k / kAntiQuantMaxK * kAntiQuantMaxK * n], offset, scale, k % kAntiQuantMaxK, n);
    }
    SetMaskNorm();
    ResetMask();
}

}  // namespace twin_detail

template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const LocalTensor<OutputDataType>& offset,
                                       const LocalTensor<OutputDataType>& scale,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {})
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::AntiQuantRun<InputDataType, OutputDataType, isTranspose>(dst, src, offset, scale, &sharedTmpBuffer,
                                                                         k, shapeInfo);
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const LocalTensor<OutputDataType>& offset,
                                       const LocalTensor<OutputDataType>& scale, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {})
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::AntiQuantRun<InputDataType, OutputDataType, isTranspose>(dst, src, offset, scale, nullptr, k,
                                                                         shapeInfo);
}

// The tensor-scale form without offset (A2 reads the groups from scale's ShapeInfo): not modelled.
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const LocalTensor<OutputDataType>& scale,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {})
{
    static_assert(sizeof(InputDataType) == 0,
                  "AscendAntiQuant: the tensor-scale form without offset is not implemented in the twin (docs/twin.md)");
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const OutputDataType offset, const OutputDataType scale,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {})
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::AntiQuantScalarRun<InputDataType, OutputDataType, isTranspose, true>(dst, src, offset, scale,
                                                                                     &sharedTmpBuffer, k, shapeInfo);
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const OutputDataType scale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                       const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {})
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::AntiQuantScalarRun<InputDataType, OutputDataType, isTranspose, false>(dst, src, scale, scale,
                                                                                      &sharedTmpBuffer, k, shapeInfo);
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const OutputDataType offset, const OutputDataType scale, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {})
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::AntiQuantScalarRun<InputDataType, OutputDataType, isTranspose, true>(dst, src, offset, scale,
                                                                                     nullptr, k, shapeInfo);
}

}  // namespace AscendC
