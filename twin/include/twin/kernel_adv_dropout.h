// DropOut (高阶API/数据过滤), A2 forms. Kernels include it as "lib/filter/dropout.h" (asc-devkit
// include/adv_api/filter/dropout.h; DropOutShapeInfo from impl/basic_api/utils/kernel_utils_struct_norm_sort.h, the
// DROPOUT_MODE_* constants from kernel_utils_constants.h); A2's kernel_operator.h includes it. Checked against the
// header, A2's implementation (impl/adv_api/detail/filter/dropout/dropout_impl.h, dropout_c220_impl.h,
// dropout_membase_impl.h), its API check (api_check/kernel_check/filter/dropout/dropout_check_common.h) and the docs.
//
// DropOut<T, isInitBitMode = false, dropOutMode = 0>(dst, src, mask[, sharedTmpBuffer], keepProb, info): src and dst
// are [firstAxis, srcLastAxis] contiguous; mask is uint8_t. dropOutMode 0 infers the mode from info as A2 does:
// srcLastAxis < maskLastAxis -> 1 (bytes, rows padded), == -> 2 (bytes), == 8 * maskLastAxis -> 3 (bits), else 4
// (bits, rows padded). The twin runs A2's own instruction sequence with its basic API, so every instruction's rules,
// the hazard detector and the counters apply as on A2:
//   modes 1 and 4 first pack the mask's valid bytes in place (GatherMask over uint16_t, pattern 7, counter mode,
//     firstAxis repeats of srcLastAxis / 2 (bytes) or srcLastAxis / 16 (bits) elements, rows maskLastAxis / 32
//     blocks apart): the mask is modified, as the docs say;
//   bytes (1, 2): in chunks of the temporary buffer, Cast mask uint8_t -> half (-> float for float), Mul by src,
//     Muls by T(1 / keepProb): dst = src * mask * T(1 / keepProb), rounded to T after each step (a mask byte other
//     than 0/1 scales by its value, as on A2);
//   bits (3, 4): unless isInitBitMode, zero 256 bytes of the temporary buffer and SetCmpMask from them; Select (mode
//     1: bit 1 takes src, bit 0 the scalar in CMPMASK) in counter mode over firstAxis * srcLastAxis elements, bit k
//     of the mask (lowest bit of each byte first, as every Select/Compare) for element k; Muls by T(1 / keepProb).
//     With isInitBitMode the kernel must have loaded CMPMASK itself (the Select's rule names it otherwise). The
//     Muls reads the temporary buffer's former bytes (int16_t times 0: any value gives 0), so the twin's
//     initcheck does not ask for them to have been written.
//   The mask register is left normal and full.
//
// Rules named "DropOut" (A2's api check, the docs, and what A2's sequence needs to be meaningful; the error names
// each): T half/float (compile time); dropOutMode 0..4; operands at VECIN/VECCALC/VECOUT, 32-byte aligned; keepProb
// in (0, 1); firstAxis, srcLastAxis, maskLastAxis > 0; modes 1/4 maskLastAxis even; rows padded (1, 4): maskLastAxis a
// multiple of 32 (A2 steps rows by maskLastAxis / 32 blocks) and srcLastAxis even (1) or a multiple of 16 (4) (docs:
// the valid mask bytes an even number), the valid bytes inside a row; src and dst hold firstAxis * srcLastAxis
// elements, the mask the bytes the mode reads; the temporary buffer at least 32 elements of a chunk (byte modes:
// 64 bytes for half, 192 for float: A2's "Insufficient temporary space") or 256 bytes (bit modes without
// isInitBitMode); dst and src the same or disjoint; the mask does not overlap dst; the
// temporary buffer overlaps no operand.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/kernel_adv_common.h"
#include "twin/kernel_adv_math.h"
#include "twin/kernel_cast.h"
#include "twin/kernel_cmpsel.h"
#include "twin/kernel_gather_mask.h"
#include "twin/kernel_sync.h"
#include "twin/kernel_sys_var.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_tpipe.h"
#include "twin/kernel_utils.h"
#include "twin/kernel_vec.h"
#include "twin/kernel_vec_repeat.h"

namespace AscendC {

struct DropOutShapeInfo {
    __aicore__ DropOutShapeInfo() {};
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};

const uint32_t DROPOUT_MODE_BYTE_MISALIGN = 1;
const uint32_t DROPOUT_MODE_BYTE_ALIGN = 2;
const uint32_t DROPOUT_MODE_BIT_ALIGN = 3;
const uint32_t DROPOUT_MODE_BIT_MISALIGN = 4;
const uint32_t REDUCEV2_MODE_ONE = 1;
const uint32_t REDUCEV2_MODE_TWO = 2;
const uint32_t REDUCEV2_MODE_THREE = 3;
const uint32_t REDUCEV2_MODE_SEVEN = 7;

namespace twin_detail {

struct DropOutCall {
    uint32_t typeSize;
    uint32_t dropOutMode;  // the template argument
    bool isInitBitMode;
    bool framework;
    float keepProb;
    DropOutShapeInfo info;
    MathOperand dst, src, mask, tmp;
};

// The rules above; returns the mode A2 runs (1..4).
uint32_t DropOutCheck(const DropOutCall& c);

// One chunk of the byte modes (dropout_membase_impl.h DropOutByteModeCalc), count set in the mask register.
template <typename T>
inline void DropOutByteChunk(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& mask,
                             T divValue, const LocalTensor<half>& first, const LocalTensor<float>& second)
{
    UnaryRepeatParams unary;
    unary.srcRepStride = DEFAULT_REPEAT_STRIDE / sizeof(half);
    Cast<half, uint8_t, false>(first, mask, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, unary);
    PipeBarrier<PIPE_V>();
    const BinaryRepeatParams binary;
    if constexpr (std::is_same_v<T, half>) {
        Mul<half, false>(dst, first, src, MASK_PLACEHOLDER, 1, binary);
    } else {
        Cast<float, half, false>(second, first, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, unary);
        PipeBarrier<PIPE_V>();
        Mul<float, false>(dst, second, src, MASK_PLACEHOLDER, 1, binary);
    }
    PipeBarrier<PIPE_V>();
    unary.srcRepStride = DEFAULT_REPEAT_STRIDE;
    Muls<T, false>(dst, dst, divValue, MASK_PLACEHOLDER, 1, unary);
    PipeBarrier<PIPE_V>();
}

template <typename T>
inline void DropOutByteMode(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& mask,
                            const LocalTensor<uint8_t>& tmp, T divValue, uint32_t dataSize)
{
    LocalTensor<half> first = tmp.ReinterpretCast<half>();
    LocalTensor<float> second;
    uint32_t chunk = 0;
    if constexpr (std::is_same_v<T, half>) {
        chunk = first.GetSize() / ONE_BLK_SIZE * ONE_BLK_SIZE;
    } else {
        chunk = tmp.GetSize() / (sizeof(float) + sizeof(half)) / ONE_BLK_SIZE * ONE_BLK_SIZE;
        first.SetSize(chunk);
        second = tmp[chunk * sizeof(half)].template ReinterpretCast<float>();
        second.SetSize(chunk);
    }
    const uint32_t rounds = dataSize / chunk;
    const uint32_t tail = dataSize % chunk;
    SetMaskCount();
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, chunk);
    uint32_t offset = 0;
    for (uint32_t i = 0; i < rounds; ++i) {
        DropOutByteChunk<T>(dst[offset], src[offset], mask[offset], divValue, first, second);
        offset += chunk;
    }
    if (tail != 0) {
        SetVectorMask<uint8_t, MaskMode::COUNTER>(0, tail);
        DropOutByteChunk<T>(dst[offset], src[offset], mask[offset], divValue, first, second);
    }
    SetMaskNorm();
    ResetMask();
}

inline void DropOutBitModeInit(const LocalTensor<uint8_t>& tmp)
{
    ResetMask();
    LocalTensor<int16_t> zeros = tmp.ReinterpretCast<int16_t>();
    if (zeros.GetSize() >= 128) {  // A2 multiplies whatever the buffer holds by 0: its former bytes do not matter
        ascend_twin::Instr instr("DropOut", ascend_twin::Pipe::kV);
        instr.WriteUndefined(TwinData(zeros), 256);
    }
    UnaryRepeatParams unary;
    Muls<int16_t, false>(zeros, zeros, 0, MASK_PLACEHOLDER, 1, unary);
    PipeBarrier<PIPE_V>();
    SetCmpMask<int16_t>(zeros);
    PipeBarrier<PIPE_V>();
}

template <typename T>
inline void DropOutBitMode(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& mask,
                           T divValue, uint32_t dataSize)
{
    SetMaskCount();
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, dataSize);
    const BinaryRepeatParams binary;
    Select<T, uint8_t>(dst, mask, src, 1, binary);
    PipeBarrier<PIPE_V>();
    const UnaryRepeatParams unary;
    Muls<T, false>(dst, dst, divValue, MASK_PLACEHOLDER, 1, unary);
    PipeBarrier<PIPE_V>();
    SetMaskNorm();
    ResetMask();
}

// Packs each row's valid mask elements (uint16_t pairs of bytes) to the front of the mask, in place.
inline void DropOutPackMask(const LocalTensor<uint8_t>& mask, const DropOutShapeInfo& info, uint32_t perRow)
{
    GatherMaskParams params;
    params.repeatTimes = static_cast<uint16_t>(info.firstAxis);
    params.src0RepeatStride = static_cast<uint16_t>(info.maskLastAxis / ONE_BLK_SIZE);
    LocalTensor<uint16_t> words = mask.ReinterpretCast<uint16_t>();
    uint64_t kept = 0;
    GatherMask<uint16_t>(words, words, static_cast<uint8_t>(REDUCEV2_MODE_SEVEN), true, perRow, params, kept);
    PipeBarrier<PIPE_V>();
    SetMaskCount();
}

template <typename T, bool isInitBitMode, uint32_t dropOutMode>
inline void DropOutRun(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& mask,
                       const LocalTensor<uint8_t>* shared, float keepProb, const DropOutShapeInfo& info)
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "DropOut on A2 supports half and float");
    const bool framework = shared == nullptr;
    const LocalTensor<uint8_t> tmp = framework ? AdvFrameworkTmpTensor("DropOut") : *shared;
    const DropOutCall call{sizeof(T), dropOutMode, isInitBitMode, framework, keepProb, info,
                           AdvOperand(dst), AdvOperand(src), AdvOperand(mask), AdvOperand(tmp)};
    const uint32_t mode = DropOutCheck(call);
    float div = 1.0f;
    div = div / keepProb;
    const T divValue = static_cast<T>(div);
    const uint32_t dataSize = info.firstAxis * info.srcLastAxis;
    if (mode == DROPOUT_MODE_BYTE_MISALIGN) {
        DropOutPackMask(mask, info, info.srcLastAxis / sizeof(uint16_t));
        DropOutByteMode<T>(dst, src, mask, tmp, divValue, dataSize);
    } else if (mode == DROPOUT_MODE_BYTE_ALIGN) {
        DropOutByteMode<T>(dst, src, mask, tmp, divValue, dataSize);
    } else {
        if constexpr (!isInitBitMode) DropOutBitModeInit(tmp);
        if (mode == DROPOUT_MODE_BIT_MISALIGN) {
            DropOutPackMask(mask, info, info.srcLastAxis / ONE_BYTE_BIT_SIZE / sizeof(uint16_t));
        }
        DropOutBitMode<T>(dst, src, mask, divValue, dataSize);
    }
}

}  // namespace twin_detail

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
__aicore__ inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<uint8_t>& maskLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                               const float keepProb, const DropOutShapeInfo& info)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::DropOutRun<T, isInitBitMode, dropOutMode>(dstLocal, srcLocal, maskLocal, &sharedTmpBuffer, keepProb,
                                                           info);
}

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
__aicore__ inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<uint8_t>& maskLocal, const float keepProb,
                               const DropOutShapeInfo& info)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::DropOutRun<T, isInitBitMode, dropOutMode>(dstLocal, srcLocal, maskLocal, nullptr, keepProb, info);
}

}  // namespace AscendC
