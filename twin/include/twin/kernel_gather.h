// Gather and Gatherb, the basic API's gathers from UB (include/basic_api/kernel_operator_vec_gather_intf.h,
// GatherRepeatParams in kernel_struct_gather.h; A2: impl/basic_api/dav_c220/kernel_operator_vec_gather_impl.h;
// docs: Memory矢量计算/离散与聚合/Gather.md, Gatherb(ISASI).md).
//
// Gather: dst lane j of repeat r (under the mask: normal mode, or counter mode) takes the src element at byte
// srcBaseOffset + srcOffset[r * perRepeat + j] from src's start; a repeat writes 256 bytes of dst (128 16-bit or
// 64 32-bit elements, 8 blocks on A2), repeats dstRepStride blocks apart. The count form runs count / perRepeat
// full repeats (mask perRepeat, stride 8) and one tail repeat of count % perRepeat lanes at dst[offset],
// srcOffset[offset], as the A2 implementation does. Gatherb: block j of repeat r is the 32 bytes at byte
// offset[r * 8 + j] of src, written at dst block r * dstRepStride + j * dstBlkStride (dstBlkStride 0 acts as 1).
#pragma once

#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "twin/hazard.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_vec_repeat.h"
#include "twin/runtime.h"

namespace AscendC {

struct GatherRepeatParams {
    __aicore__ GatherRepeatParams() {}
    __aicore__ GatherRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t dstRepStrideIn)
        : dstBlkStride(dstBlkStrideIn), dstRepStride(dstRepStrideIn)
    {
    }
    // blockNumber and the src strides and modes are reserved (the docs: 已废弃, not processed).
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

namespace twin_detail {

template <typename T>
inline constexpr bool kGatherType = std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
                                    std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
                                    std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
                                    std::is_same_v<T, float>;

// The docs: "不支持源操作数与目的操作数使用同一块内存地址".
template <typename T>
void CheckGatherApart(const char* call, const LocalTensor<T>& dst, const LocalTensor<T>& src)
{
    const auto* d = reinterpret_cast<const uint8_t*>(TwinData(dst));
    const auto* s = reinterpret_cast<const uint8_t*>(TwinData(src));
    const uint64_t dn = static_cast<uint64_t>(dst.GetSize()) * sizeof(T), sn = static_cast<uint64_t>(src.GetSize()) * sizeof(T);
    if (d < s + sn && s < d + dn) {
        ascend_twin::Fail(call, "src and dst do not share memory (Gather/Gatherb docs, 约束说明)",
                          "dst and src overlap in UB");
    }
}

// The src element at byte `at` of src: inside src (the CPU model's SetModelGatherbSrc0Tensor(src, srcLength)
// bound; stricter than the docs' whole-UB bound), aligned to the element size (the docs: 位宽对齐).
template <typename T>
const T* GatherSource(const char* call, const char* what, const LocalTensor<T>& src, uint64_t at, uint32_t align)
{
    if (at % align != 0) {
        ascend_twin::FailF(call, "the gathered address is aligned (srcOffset to the element size, Gatherb's offset to 32 bytes)",
                           "%s: byte %llu of src is not a multiple of %u", what, static_cast<unsigned long long>(at),
                           align);
    }
    if (at + align > static_cast<uint64_t>(src.GetSize()) * sizeof(T)) {
        ascend_twin::FailF(call, "the gathered address lies inside src",
                           "%s: bytes [%llu, %llu) of a src of %llu bytes", what, static_cast<unsigned long long>(at),
                           static_cast<unsigned long long>(at + align),
                           static_cast<unsigned long long>(src.GetSize()) * sizeof(T));
    }
    return reinterpret_cast<const T*>(reinterpret_cast<const uint8_t*>(TwinData(src)) + at);
}

template <typename T>
void GatherRun(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
               uint32_t srcBaseOffset, const uint64_t* mask, bool isArray, uint8_t repeatTime, uint16_t dstRepStride)
{
    constexpr const char* call = "Gather";
    static_assert(kGatherType<T>,
                  "Gather on A2 supports int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and float");
    ascend_twin::CheckUbAligned(call, "dst", TwinData(dst));
    ascend_twin::CheckUbAligned(call, "src", TwinData(src));
    ascend_twin::CheckUbAligned(call, "srcOffset", TwinData(srcOffset));
    CheckGatherApart(call, dst, src);
    if (srcBaseOffset % sizeof(T) != 0 || srcBaseOffset >= static_cast<uint64_t>(src.GetSize()) * sizeof(T)) {
        ascend_twin::FailF(call, "srcBaseOffset is a multiple of sizeof(T) inside src (kernel_operator_vec_gather_intf_impl.h's checks)",
                           "srcBaseOffset %u, sizeof(T) %u, src holds %llu bytes", srcBaseOffset,
                           static_cast<unsigned>(sizeof(T)), static_cast<unsigned long long>(src.GetSize()) * sizeof(T));
    }
    const Lanes lanes = MaskLanes(call, sizeof(T), true, mask, isArray, repeatTime);
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    uint64_t active = 0;
    char what[64];
    for (uint32_t r = 0; r < lanes.repeats; ++r) {
        for (uint32_t j = 0; j < lanes.perRepeat; ++j) {
            if (!lanes.Active(r, j)) continue;
            const uint64_t k = static_cast<uint64_t>(r) * lanes.perRepeat + j;
            if (k >= srcOffset.GetSize()) {
                ascend_twin::FailF(call, "UB accesses stay inside the LocalTensor",
                                   "operand 'srcOffset': repeat %u, lane %u needs offset %llu of a tensor of %u", r, j,
                                   static_cast<unsigned long long>(k), srcOffset.GetSize());
            }
            const uint32_t* o = TwinData(srcOffset) + k;
            instr.Read("srcOffset", o, sizeof(uint32_t));
            std::snprintf(what, sizeof what, "srcOffset[%llu] = %u", static_cast<unsigned long long>(k), *o);
            const T* s = GatherSource(call, what, src, static_cast<uint64_t>(srcBaseOffset) + *o, sizeof(T));
            T* d = LaneAddr(call, "dst", dst, r, j, 1, dstRepStride);
            instr.Read("src", s, sizeof(T));
            instr.Write("dst", d, sizeof(T));
            *d = *s;
            ++active;
        }
    }
    ascend_twin::CountVec(ascend_twin::VecOp::kGather, active, lanes.repeats);
}

}  // namespace twin_detail

template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                              const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseOffset,
                              const uint64_t mask, const uint8_t repeatTime, const uint16_t dstRepStride)
{
    twin_detail::GatherRun(dst, src, srcOffset, srcBaseOffset, &mask, false, repeatTime, dstRepStride);
}

template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                              const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseOffset,
                              const uint64_t mask[], const uint8_t repeatTime, const uint16_t dstRepStride)
{
    twin_detail::GatherRun(dst, src, srcOffset, srcBaseOffset, mask, true, repeatTime, dstRepStride);
}

template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                              const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseOffset,
                              const uint32_t count)
{
    constexpr uint32_t perRepeat = sizeof(T) == 2 ? 128 : 64;
    const uint32_t tail = count % perRepeat;
    const uint32_t full = count / perRepeat;
    if (full > 255) {
        ascend_twin::FailF("Gather", "the count form runs count / (256 / sizeof(T)) repeats, at most 255 (repeatTime is a uint8_t)",
                           "count %u is %u repeats", count, full);
    }
    if (full > 0) {
        Gather(dst, src, srcOffset, srcBaseOffset, static_cast<uint64_t>(perRepeat), static_cast<uint8_t>(full),
               static_cast<uint16_t>(DEFAULT_REPEAT_STRIDE));
    }
    if (tail > 0) {
        const uint32_t at = count - tail;
        Gather(dst[at], src, srcOffset[at], srcBaseOffset, static_cast<uint64_t>(tail), 1,
               static_cast<uint16_t>(DEFAULT_REPEAT_STRIDE));
    }
}

template <typename T>
__aicore__ inline void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                               const LocalTensor<uint32_t>& offset, const uint8_t repeatTime,
                               const GatherRepeatParams& repeatParams)
{
    constexpr const char* call = "Gatherb";
    static_assert(std::is_same_v<T, uint16_t> || std::is_same_v<T, uint32_t>,
                  "Gatherb on A2 supports uint16_t and uint32_t");
    ascend_twin::CheckUbAligned(call, "dst", twin_detail::TwinData(dst));
    ascend_twin::CheckUbAligned(call, "src", twin_detail::TwinData(src));
    ascend_twin::CheckUbAligned(call, "offset", twin_detail::TwinData(offset));
    twin_detail::CheckGatherApart(call, dst, src);
    constexpr uint32_t perBlock = 32 / sizeof(T);
    const uint32_t blk = repeatParams.dstBlkStride == 0 ? 1 : repeatParams.dstBlkStride;
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    char what[64];
    for (uint32_t r = 0; r < repeatTime; ++r) {
        for (uint32_t j = 0; j < 8; ++j) {
            const uint64_t k = static_cast<uint64_t>(r) * 8 + j;
            if (k >= offset.GetSize()) {
                ascend_twin::FailF(call, "UB accesses stay inside the LocalTensor",
                                   "operand 'offset': repeat %u, block %u needs offset %llu of a tensor of %u", r, j,
                                   static_cast<unsigned long long>(k), offset.GetSize());
            }
            const uint32_t* o = twin_detail::TwinData(offset) + k;
            instr.Read("offset", o, sizeof(uint32_t));
            std::snprintf(what, sizeof what, "offset[%llu] = %u", static_cast<unsigned long long>(k), *o);
            const T* s = twin_detail::GatherSource(call, what, src, *o, 32);
            const uint64_t at = (static_cast<uint64_t>(r) * repeatParams.dstRepStride + j * blk) * perBlock;
            if (at + perBlock > dst.GetSize()) {
                ascend_twin::FailF(call, "UB accesses stay inside the LocalTensor",
                                   "operand 'dst': repeat %u, block %u is elements [%llu, %llu) of a tensor of %u", r,
                                   j, static_cast<unsigned long long>(at),
                                   static_cast<unsigned long long>(at + perBlock), dst.GetSize());
            }
            T* d = twin_detail::TwinData(dst) + at;
            instr.Read("src", s, 32);
            instr.Write("dst", d, 32);
            for (uint32_t e = 0; e < perBlock; ++e) d[e] = s[e];
        }
    }
    ascend_twin::CountVec(ascend_twin::VecOp::kGatherb, static_cast<uint64_t>(repeatTime) * 8 * perBlock, repeatTime);
}

}  // namespace AscendC
