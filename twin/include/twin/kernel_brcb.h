// Brcb (include/basic_api/kernel_operator_vec_brcb_intf.h, kernel_struct_brcb.h,
// dav_c220/kernel_operator_vec_brcb_impl.h, docs 数据填充/Brcb): each repeat takes 8 elements of src and
// fills one 32-byte block of dst with each: element i * 8 + j fills the block at
// (i * dstRepStride + j * dstBlkStride) * 32 bytes. A2 dtypes int16_t/uint16_t/int32_t/uint32_t/half/
// bfloat16_t/float; repeatTime 0..255. Rules from the docs: src and dst do not share memory; dstBlkStride
// 0 is undefined behaviour. The device resets the vector mask first (ResetMask), and so does the twin.
#pragma once

#include <cstdint>
#include <cstring>

#include "twin/hazard.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_vec_repeat.h"
#include "twin/runtime.h"

namespace AscendC {

struct BrcbRepeatParams {
    BrcbRepeatParams() {}
    BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn)
        : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn)
    {
    }
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

namespace twin_detail {

// The checks of Brcb: dstBlkStride, bounds, and src/dst sharing bytes; returns dst's block offsets (bytes).
void CheckBrcb(const void* dst, uint64_t dstBytes, const void* src, uint64_t srcBytes, uint32_t elementSize,
               uint8_t repeatTime, uint16_t dstBlkStride, uint16_t dstRepStride);

}  // namespace twin_detail

template <typename T>
__aicore__ inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t repeatTime,
                            const BrcbRepeatParams& repeatParams)
{
    static_assert(twin_detail::kOneOf<T, int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>,
                  "Brcb on A2 supports int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t and float");
    ResetMask();
    ascend_twin::CheckUbAligned("Brcb", "dst", twin_detail::TwinData(dst));
    ascend_twin::CheckUbAligned("Brcb", "src", twin_detail::TwinData(src));
    twin_detail::CheckBrcb(twin_detail::TwinData(dst), static_cast<uint64_t>(dst.GetSize()) * sizeof(T),
                           twin_detail::TwinData(src), static_cast<uint64_t>(src.GetSize()) * sizeof(T), sizeof(T),
                           repeatTime, repeatParams.dstBlkStride, repeatParams.dstRepStride);
    if (repeatTime == 0) return;
    constexpr uint32_t perBlock = 32 / sizeof(T);
    ascend_twin::Instr instr("Brcb", ascend_twin::Pipe::kV);
    const T* s = twin_detail::TwinData(src);
    instr.Read("src", s, static_cast<uint64_t>(repeatTime) * 8 * sizeof(T));
    uint8_t* d = reinterpret_cast<uint8_t*>(twin_detail::TwinData(dst));
    for (uint32_t i = 0; i < repeatTime; ++i) {
        for (uint32_t j = 0; j < 8; ++j) {
            T* block = reinterpret_cast<T*>(
                d + (static_cast<uint64_t>(i) * repeatParams.dstRepStride + static_cast<uint64_t>(j) * repeatParams.dstBlkStride) * 32);
            instr.Write("dst", block, 32);
            for (uint32_t e = 0; e < perBlock; ++e) block[e] = s[i * 8 + j];
        }
    }
    ascend_twin::CountVec(ascend_twin::VecOp::kBrcb, static_cast<uint64_t>(repeatTime) * 8 * perBlock, repeatTime);
}

}  // namespace AscendC
