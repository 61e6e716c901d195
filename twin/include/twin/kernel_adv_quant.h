// The quantization API (高阶API/量化操作), A2 forms: AscendDequant. Kernels include it as
// "lib/quantization/ascend_dequant.h" (asc-devkit include/adv_api/quantization/ascend_dequant.h, DequantParams from
// ascend_dequant_utils.h, DeQuantMode from the basic API); A2's kernel_operator.h includes it. Checked against the
// header, A2's implementation (impl/adv_api/detail/quantization/dequant/ascend_dequant_common_impl.h) and the docs.
//
// AscendDequant<dstT, scaleT, mode = DEQUANT_WITH_SINGLE_ROW>: src int32_t [m, n] (n * 4 bytes 32-byte aligned),
// dst [m, n_dst] with n_dst = n rounded up to a 32-byte block of dstT; for each row the first calCount elements
// become dstT(float(src) * float(scale[i])) (scale a tensor of at least calCount elements, or a scalar); the row's
// elements calCount..n are left undefined ("不确定的值": the twin writes NaN bytes there; A2 writes the unscaled
// values) and n..n_dst untouched. With DEQUANT_WITH_SINGLE_ROW, {1, n, calCount} with calCount a multiple of a block
// of dstT and n a multiple of calCount is computed as {n / calCount, calCount, calCount}. The forms without
// DequantParams (deprecated by the docs) take {src size / scale size, scale size, scale size}, over calCount (or
// all) elements. A2 converts src to float (round to nearest), multiplies in float and casts (bfloat16_t: CAST_RINT,
// half: CAST_NONE); the twin does the same arithmetic, so the results are A2's to the bit. A uint64_t scale's low 32
// bits are the float (docs). Dtypes (static_assert, A2's table): tensor scale (dst, scale) = (half, uint64_t),
// (float, float), (float, bfloat16_t), (bfloat16_t, bfloat16_t), (bfloat16_t, float); scalar scale (bfloat16_t,
// bfloat16_t), (bfloat16_t, float), (float, bfloat16_t), (float, float). The call is one V instruction, counted as
// VecOp::kAscendDequant; the mask is left normal and full.
//
// Run-time rules (A2's checks and docs; the error names each): operands at VECIN/VECCALC/VECOUT, 32-byte aligned;
// n a multiple of 8; m * n <= src size; 0 < calCount <= n; m * n_dst <= dst size; calCount <= the scale tensor's
// size; without DequantParams, src size a multiple of the scale size (uint64_t: the scale size a multiple of 8) and
// 0 < calCount <= src size; the temporary buffer holds the scale (calCount rounded up to 8 floats) and one row of n
// floats (A2's assertion "stackBuffer size is not large enough"; GetAscendDequantMaxMinTmpSize's minimum is larger);
// dst does not overlap src (docs: 不支持源操作数与目的操作数地址重叠); the temporary buffer overlaps no operand.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/kernel_adv_math.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_tpipe.h"

namespace AscendC {

enum class DeQuantMode : uint8_t {
    DEQUANT_WITH_SINGLE_ROW = 0,  // {1, m * n, n} = {m, n, n}
    DEQUANT_WITH_MULTI_ROW,       // {1, m * n, n} != {m, n, n}
};

struct DequantParams {
    uint32_t m;         // rows
    uint32_t n;         // row length (32-byte aligned as int32_t)
    uint32_t calCount;  // the elements of a row that are dequantized
};

namespace twin_detail {

enum class QuantKind : uint8_t { kHalf, kFloat, kBf16, kU64, kInt32, kInt8 };

template <typename T>
constexpr QuantKind QuantKindOf()
{
    if constexpr (std::is_same_v<T, half>) return QuantKind::kHalf;
    else if constexpr (std::is_same_v<T, float>) return QuantKind::kFloat;
    else if constexpr (std::is_same_v<T, bfloat16_t>) return QuantKind::kBf16;
    else if constexpr (std::is_same_v<T, uint64_t>) return QuantKind::kU64;
    else if constexpr (std::is_same_v<T, int32_t>) return QuantKind::kInt32;
    else return QuantKind::kInt8;
}

struct DequantCall {
    QuantKind dst, scale;
    bool scaleIsTensor;
    float scalarScale;
    bool withParams;     // the DequantParams forms
    bool hasCalCount;    // the deprecated calCount forms
    uint32_t calCount;   // those forms' count
    bool singleRowMode;  // DEQUANT_WITH_SINGLE_ROW
    DequantParams params;
    bool framework;
    MathOperand dstT, srcT, scaleT, tmp;
};

void DequantRun(const DequantCall& call);

template <typename dstT, typename scaleT, bool isTensor>
constexpr bool kDequantTypes =
    isTensor ? ((std::is_same_v<scaleT, uint64_t> && std::is_same_v<dstT, half>) ||
                (std::is_same_v<scaleT, float> && std::is_same_v<dstT, float>) ||
                (std::is_same_v<scaleT, bfloat16_t> && std::is_same_v<dstT, float>) ||
                (std::is_same_v<scaleT, bfloat16_t> && std::is_same_v<dstT, bfloat16_t>) ||
                (std::is_same_v<scaleT, float> && std::is_same_v<dstT, bfloat16_t>))
             : ((std::is_same_v<scaleT, bfloat16_t> && std::is_same_v<dstT, bfloat16_t>) ||
                (std::is_same_v<scaleT, bfloat16_t> && std::is_same_v<dstT, float>) ||
                (std::is_same_v<scaleT, float> && std::is_same_v<dstT, float>) ||
                (std::is_same_v<scaleT, float> && std::is_same_v<dstT, bfloat16_t>));

template <typename T>
inline MathOperand QuantOperand(const LocalTensor<T>& t)
{
    return MathOperand{TwinData(t), static_cast<uint64_t>(t.GetSize()) * sizeof(T), TwinPosition(t)};
}

inline MathOperand QuantTmp(const LocalTensor<uint8_t>* shared, const char* call, bool& framework)
{
    framework = shared == nullptr;
    if (shared != nullptr) return QuantOperand(*shared);
    TPipe* pipe = GetTPipePtr();
    uint64_t bytes = 0;
    uint8_t* p = AdvFrameworkTmp(call, pipe, pipe == nullptr ? 0 : TwinUbEnd(*pipe), bytes);
    return MathOperand{p, bytes, TPosition::VECCALC};
}

template <typename dstT, typename scaleT, DeQuantMode mode>
inline void DequantTensorRun(const LocalTensor<dstT>& dst, const LocalTensor<int32_t>& src,
                             const LocalTensor<scaleT>& scale, const LocalTensor<uint8_t>* tmp, bool withParams,
                             const DequantParams& params, bool hasCalCount, uint32_t calCount)
{
    static_assert(kDequantTypes<dstT, scaleT, true>,
                  "current combination of deqScale dtype and dstTensor dtype is not supported, please check the "
                  "document");
    DequantCall c{QuantKindOf<dstT>(), QuantKindOf<scaleT>(), true, 0.0f, withParams, hasCalCount, calCount,
                  mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW, params, false, QuantOperand(dst), QuantOperand(src),
                  QuantOperand(scale), MathOperand{}};
    c.tmp = QuantTmp(tmp, "AscendDequant", c.framework);
    DequantRun(c);
}

template <typename dstT, typename scaleT, DeQuantMode mode>
inline void DequantScalarRun(const LocalTensor<dstT>& dst, const LocalTensor<int32_t>& src, const scaleT scale,
                             const LocalTensor<uint8_t>* tmp, const DequantParams& params)
{
    static_assert(kDequantTypes<dstT, scaleT, false>,
                  "current combination of deqScale dtype and dstTensor dtype is not supported, please check the "
                  "document");
    float s = 0.0f;
    if constexpr (std::is_same_v<scaleT, bfloat16_t>) s = ascend_twin::Bf16BitsToFloat(scale.bits);
    else s = scale;
    DequantCall c{QuantKindOf<dstT>(), QuantKindOf<scaleT>(), false, s, true, false, 0,
                  mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW, params, false, QuantOperand(dst), QuantOperand(src),
                  MathOperand{}, MathOperand{}};
    c.tmp = QuantTmp(tmp, "AscendDequant", c.framework);
    DequantRun(c);
}

}  // namespace twin_detail

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     DequantParams params)
{
    twin_detail::DequantTensorRun<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, &sharedTmpBuffer, true, params,
                                                      false, 0);
}

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, DequantParams params)
{
    twin_detail::DequantTensorRun<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, nullptr, true, params, false, 0);
}

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     const uint32_t calCount)
{
    twin_detail::DequantTensorRun<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, &sharedTmpBuffer, false, {},
                                                      true, calCount);
}

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const uint32_t calCount)
{
    twin_detail::DequantTensorRun<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, nullptr, false, {}, true,
                                                      calCount);
}

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer)
{
    twin_detail::DequantTensorRun<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, &sharedTmpBuffer, false, {},
                                                      false, 0);
}

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale)
{
    twin_detail::DequantTensorRun<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, nullptr, false, {}, false, 0);
}

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const scaleT deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     DequantParams params)
{
    twin_detail::DequantScalarRun<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, &sharedTmpBuffer, params);
}

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const scaleT deqScale, DequantParams params)
{
    twin_detail::DequantScalarRun<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, nullptr, params);
}

}  // namespace AscendC
