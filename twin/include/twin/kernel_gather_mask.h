// GatherMask (include/basic_api/kernel_operator_vec_gather_mask_intf.h, docs: 比较与选择/GatherMask) and
// Copy, the UB -> UB masked copy (kernel_operator_data_copy_intf.h, docs: UBToUB掩码式高维数据搬运(Copy)).
//
// GatherMask packs the src0 elements whose pattern bit is 1 into dst from its start and returns how many it
// kept (rsvdCnt). A repeat covers src0's 8 blocks at (r * src0RepeatStride + b * src0BlockStride) * 32
// bytes; in normal mode (reduceMode false) every one of repeatTimes repeats takes 256 bytes of src0, in
// counter mode (true) A2 takes `mask` elements per repeat (the docs' 配置方式一), continuing over further
// blocks at the same block stride when mask exceeds one repeat. The pattern is a built-in one (1..7: even,
// odd, every fourth from lane 0..3, all) or a tensor whose bits (lowest first) are consumed from
// src1Pattern + r * src1RepeatStride * 32 bytes. The call leaves the mask register in normal mode holding
// (0, mask), as A2 does (the docs: set counter mode again after it).
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/hazard.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_vec_repeat.h"
#include "twin/runtime.h"

namespace AscendC {

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
const GatherMaskMode defaultGahterMaskMode = GatherMaskMode::VERSION_V2;  // sic, the real header has both
const GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V2;

struct GatherMaskParams {
    __aicore__ GatherMaskParams() {}
    __aicore__ GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn,
                                const uint16_t src0RepeatStrideIn, const uint8_t src1RepeatStrideIn)
        : src0BlockStride(src0BlockStrideIn),
          repeatTimes(repeatTimesIn),
          src0RepeatStride(src0RepeatStrideIn),
          src1RepeatStride(src1RepeatStrideIn)
    {
    }
    uint8_t src0BlockStride = DEFAULT_BLK_STRIDE;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepeatStride = DEFAULT_REPEAT_STRIDE;
};

struct CopyRepeatParams {
    __aicore__ CopyRepeatParams() {}
    __aicore__ CopyRepeatParams(const uint16_t dstStrideIn, const uint16_t srcStrideIn, uint16_t dstRepeatSizeIn,
                                uint16_t srcRepeatSizeIn)
        : dstStride(dstStrideIn), srcStride(srcStrideIn), dstRepeatSize(dstRepeatSizeIn), srcRepeatSize(srcRepeatSizeIn)
    {
    }
    uint16_t dstStride = 0;  // DEFAULT_DATA_COPY_STRIDE
    uint16_t srcStride = 0;
    uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;
    uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
};

namespace twin_detail {

template <typename T>
inline constexpr bool kGatherMaskType =
    std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, half> ||
    std::is_same_v<T, bfloat16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
    std::is_same_v<T, float>;

// The core's rsvdCnt register (GetGatherMaskRemainCount).
inline uint64_t& GatherMaskRemain() { return ascend_twin::CurrentCore().gatherMaskRemain; }

// Runs GatherMask on elements of sizeof(T) bytes; pattern: the user tensor (nullptr: built-in `builtin`).
template <typename T, typename U>
uint64_t GatherMaskRun(const char* call, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                       const LocalTensor<U>* pattern, uint8_t builtin, bool reduceMode, uint32_t mask,
                       const GatherMaskParams& p)
{
    ascend_twin::CheckUbAligned(call, "dst", TwinData(dst));
    ascend_twin::CheckUbAligned(call, "src0", TwinData(src0));
    if (pattern != nullptr) {
        ascend_twin::CheckUbAligned(call, "src1Pattern", TwinData(*pattern));
    } else if (builtin < 1 || builtin > 7) {
        ascend_twin::FailF(call, "a built-in src1Pattern is 1..7", "src1Pattern %u", static_cast<unsigned>(builtin));
    }
    if (reduceMode && mask == 0) {
        ascend_twin::Fail(call, "in counter mode (reduceMode true) mask is 1..2^32-1", "mask 0");
    }
    constexpr uint32_t perBlock = 32 / sizeof(T);
    constexpr uint32_t perRepeat = 256 / sizeof(T);
    constexpr uint32_t patternBits = 8 * sizeof(U);
    const uint32_t lanes = reduceMode ? mask : perRepeat;
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    uint64_t kept = 0;
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        const uint64_t patternBase = static_cast<uint64_t>(r) * p.src1RepeatStride * (32 / sizeof(U));
        for (uint32_t j = 0; j < lanes; ++j) {
            bool take;
            if (pattern != nullptr) {
                const uint64_t word = patternBase + j / patternBits;
                if (word >= pattern->GetSize()) {
                    ascend_twin::FailF(call, "UB accesses stay inside the LocalTensor",
                                       "src1Pattern: repeat %u, lane %u needs pattern element %llu of a tensor of %u",
                                       r, j, static_cast<unsigned long long>(word), pattern->GetSize());
                }
                const U* w = TwinData(*pattern) + word;
                instr.Read("src1Pattern", w, sizeof(U));
                take = (static_cast<uint64_t>(*w) >> (j % patternBits)) & 1u;
            } else {
                switch (builtin) {
                    case 1: take = j % 2 == 0; break;
                    case 2: take = j % 2 == 1; break;
                    case 7: take = true; break;
                    default: take = j % 4 == static_cast<uint32_t>(builtin - 3); break;
                }
            }
            if (!take) continue;
            const uint64_t elem =
                (static_cast<uint64_t>(r) * p.src0RepeatStride + j / perBlock * p.src0BlockStride) * perBlock +
                j % perBlock;
            if (elem >= src0.GetSize()) {
                ascend_twin::FailF(call, "UB accesses stay inside the LocalTensor",
                                   "operand 'src0': repeat %u, lane %u is element %llu of a tensor of %u", r, j,
                                   static_cast<unsigned long long>(elem), src0.GetSize());
            }
            if (kept >= dst.GetSize()) {
                ascend_twin::FailF(call, "UB accesses stay inside the LocalTensor",
                                   "operand 'dst': element %llu kept, the tensor holds %u",
                                   static_cast<unsigned long long>(kept + 1), dst.GetSize());
            }
            const T* s = TwinData(src0) + elem;
            T* d = TwinData(dst) + kept;
            instr.Read("src0", s, sizeof(T));
            instr.Write("dst", d, sizeof(T));
            *d = *s;  // dst may be src0 (in place): each element is read before a later lane's write reaches it
            ++kept;
        }
    }
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    core.maskCounter = false;
    core.maskHigh = 0;
    core.maskLow = mask;
    GatherMaskRemain() = kept;
    const uint64_t repeats = reduceMode ? static_cast<uint64_t>(p.repeatTimes) * ((mask + perRepeat - 1) / perRepeat)
                                        : p.repeatTimes;
    ascend_twin::CountVec(ascend_twin::VecOp::kGatherMask, static_cast<uint64_t>(p.repeatTimes) * lanes, repeats);
    return kept;
}

}  // namespace twin_detail

// The user-pattern form: U is uint16_t for 16-bit T, uint32_t for 32-bit T (A2's dtype table).
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                  const LocalTensor<U>& src1Pattern, const bool reduceMode, const uint32_t mask,
                                  const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt)
{
    static_assert(twin_detail::kGatherMaskType<T>,
                  "GatherMask on A2 supports int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and float");
    static_assert(std::is_same_v<U, uint16_t> || std::is_same_v<U, uint32_t>,
                  "GatherMask's src1Pattern tensor is uint16_t or uint32_t");
    static_assert(sizeof(U) == sizeof(T),
                  "GatherMask on A2 takes a uint16_t pattern for 16-bit data and a uint32_t pattern for 32-bit data");
    rsvdCnt = twin_detail::GatherMaskRun("GatherMask", dst, src0, &src1Pattern, 0, reduceMode, mask, gatherMaskParams);
}

// The built-in pattern form (src1Pattern 1..7).
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                                  const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                                  uint64_t& rsvdCnt)
{
    static_assert(twin_detail::kGatherMaskType<T>,
                  "GatherMask on A2 supports int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and float");
    using P = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;
    rsvdCnt = twin_detail::GatherMaskRun<T, P>("GatherMask", dst, src0, nullptr, src1Pattern, reduceMode, mask,
                                                gatherMaskParams);
}

// The number of elements the last GatherMask kept.
__aicore__ inline int64_t GetGatherMaskRemainCount()
{
    return static_cast<int64_t>(twin_detail::GatherMaskRemain());
}

// ---- Copy: UB -> UB under the mask, with block and repeat strides in 32-byte blocks ----------------------

namespace twin_detail {
template <typename T>
inline constexpr bool kCopyType = std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
                                  std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
                                  std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
                                  std::is_same_v<T, float>;

template <typename T, bool isSetMask>
void CopyRepeat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t* mask, bool isArray,
                uint8_t repeatTime, const CopyRepeatParams& p)
{
    static_assert(kCopyType<T>, "Copy on A2 supports int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and float");
    if (p.dstRepeatSize > 4095 || p.srcRepeatSize > 4095) {
        ascend_twin::FailF("Copy", "Copy's dstRepeatSize and srcRepeatSize are 0..4095",
                           "dstRepeatSize %u, srcRepeatSize %u", static_cast<unsigned>(p.dstRepeatSize),
                           static_cast<unsigned>(p.srcRepeatSize));
    }
    const Lanes lanes = MaskLanes("Copy", sizeof(T), isSetMask, mask, isArray, repeatTime);
    ForLanes("Copy", ascend_twin::VecOp::kCopy, lanes, dst, p.dstStride, p.dstRepeatSize, &src, p.srcStride,
             p.srcRepeatSize, static_cast<const LocalTensor<T>*>(nullptr), 0, 0,
             [](const T* a, const T*) { return *a; });
}
}  // namespace twin_detail

template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                            const uint8_t repeatTime, const CopyRepeatParams& repeatParams)
{
    twin_detail::CopyRepeat<T, isSetMask>(dst, src, mask, true, repeatTime, repeatParams);
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask,
                            const uint8_t repeatTime, const CopyRepeatParams& repeatParams)
{
    twin_detail::CopyRepeat<T, isSetMask>(dst, src, &mask, false, repeatTime, repeatParams);
}

}  // namespace AscendC
