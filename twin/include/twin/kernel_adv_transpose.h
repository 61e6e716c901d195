// The confusion Transpose of the advanced API (高阶API/张量变换/Transpose; asc-devkit
// include/adv_api/transpose/confusion_transpose.h), A2 forms: `template <typename T>`
//   Transpose(dst, src, sharedTmpBuffer, transposeType, tiling), Transpose(dst, src, transposeType, tiling) (the
//   framework's buffer: the UB after the TPipe's buffers);
// TransposeType as include/basic_api/kernel_struct_transpose.h declares it for A2 (TRANSPOSE_TYPE_NONE ..
// TRANSPOSE_NHWC2NCHW; the ND2ND_021/102/210 and ND2NZ_WITH_INTLV scenarios exist on dav-3510 only). Kernels include it
// as "lib/transpose/confusion_transpose.h"; A2's kernel_operator.h includes it.
//
// The twin runs scenarios 1 and 2 (TRANSPOSE_NZ2ND_0213, TRANSPOSE_NZ2NZ_0213: A2's confusion_transpose_base_0213.h)
// with the tiling GetTransposeTilingInfo gives for srcShape [B, A1, A2, A3]: src NZ [B, A1, A3/16, A2/16, 16, 16]
// (A2, A3 rounded up to 16) to dst ND [B, A2, A1, A3] (scenario 1) or NZ [B, A2, A3/16, A1 rows, 16] (scenario 2),
// computed (twin/src/adv_transpose.cpp) as one V instruction that reads src, writes the newPopSize elements of the
// buffer A2 uses (left as NaN bytes) and dst. The other scenarios A2 runs (3..7) are refused as not modelled on the
// twin (a twin gap, said in the error); those the docs call unsupported (TRANSPOSE_ND_UB_GM .. TRANSPOSE_NHWC2NCHW) and
// TRANSPOSE_TYPE_NONE are refused as A2 leaves them undone.
//
// T is int16_t, uint16_t, half, int32_t, uint32_t or float (static_assert, the docs' table for scenarios 1..7; A2's
// header admits int8_t, uint8_t and bfloat16_t too and refuses them in every A2 scenario only at run time, in its
// CPU-debug check CheckCompatibleTransposeTypeDataType: the twin is stricter, docs/twin.md). Rules
// (the error names each): operands at VECIN/VECCALC/VECOUT, 32-byte aligned; src and dst hold B * A1 * A2 * A3
// (aligned) elements (the tiling's batchOffset * B) and do not overlap; the tiling's newPopSize a positive multiple of
// 256 elements (GetTransposeTilingInfo given at least GetTransposeMaxMinTmpSize's minimum) and the buffer holding it,
// overlapping neither operand; the tiling's blockSize 32 / sizeof(T) (the tiling made for this T).
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "twin/kernel_adv_common.h"
#include "twin/kernel_transpose_type.h"
#include "twin/kernel_vec_more.h"

namespace AscendC {

namespace twin_detail {

void ConfusionTransposeRun(uint32_t typeSize, const MathOperand& dst, const MathOperand& src, const MathOperand& tmp,
                           bool framework, uint8_t transposeType, const tiling::ConfusionTransposeTiling& tiling);

template <typename T>
inline void ConfusionTransposeForm(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                   const LocalTensor<uint8_t>& tmp, bool framework, TransposeType transposeType,
                                   tiling::ConfusionTransposeTiling& tiling)
{
    static_assert(kOneOf<T, int16_t, uint16_t, half, int32_t, uint32_t, float>,
                  "Transpose (confusion transpose) on A2 supports int16_t, uint16_t, half, int32_t, uint32_t and float "
                  "(A2's header also admits int8_t/uint8_t/bfloat16_t, for dav-3510's scenarios; A2 refuses them "
                  "for its scenarios at run time: the twin at compile time, stricter)");
    ConfusionTransposeRun(sizeof(T), AdvOperand(dst), AdvOperand(src), AdvOperand(tmp), framework,
                          static_cast<uint8_t>(transposeType), tiling);
}

}  // namespace twin_detail

template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, TransposeType transposeType,
                                 ConfusionTransposeTiling& tiling)
{
    twin_detail::ConfusionTransposeForm<T>(dst, src, sharedTmpBuffer, false, transposeType, tiling);
}

template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, TransposeType transposeType,
                                 ConfusionTransposeTiling& tiling)
{
    twin_detail::ConfusionTransposeForm<T>(dst, src, twin_detail::AdvFrameworkTmpTensor("Transpose"), true,
                                           transposeType, tiling);
}

}  // namespace AscendC
