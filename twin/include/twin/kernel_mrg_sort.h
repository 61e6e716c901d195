// Sort32 and MrgSort, the basic API's sorting of (score, index) pairs (include/basic_api/
// kernel_operator_proposal_intf.h, MrgSort4Info and MrgSortSrcList in kernel_struct_proposal.h; docs:
// Memory矢量计算/排序组合（ISASI）/Sort32.md, MrgSort.md).
//
// A sorted element is 8 bytes: the score in the low bytes (float: 4; half: 2, then 2 reserved bytes the twin
// leaves as they are), the uint32_t index in the high 4. Sort32 sorts each repeat's 32 scores (src0 + 32 r) with
// their indices (src1 + 32 r) by descending score into dst + 64 r elements (256 bytes); equal scores keep their
// order (the docs: score[i] == score[j], i > j: j first). MrgSort merges up to 4 sorted lists (validBit 3, 7 or
// 15: the first 2, 3 or 4) of elementLengths[k] elements into dst by descending score, an equal score taken from
// the earlier list first; with ifExhaustedSuspension it stops when a list runs out. repeatTimes > 1 merges
// further groups of 4 lists, each group and its output following the previous one.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "twin/hazard.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_utils.h"
#include "twin/runtime.h"

namespace AscendC {

struct MrgSort4Info {
    __aicore__ MrgSort4Info() {}
    __aicore__ MrgSort4Info(const uint16_t elementLengthsIn[MRG_SORT_ELEMENT_LEN], const bool ifExhaustedSuspensionIn,
                            const uint16_t validBitIn, const uint16_t repeatTimesIn)
        : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn), repeatTimes(repeatTimesIn)
    {
        for (int32_t i = 0; i < MRG_SORT_ELEMENT_LEN; ++i) elementLengths[i] = elementLengthsIn[i];
    }
    uint16_t elementLengths[MRG_SORT_ELEMENT_LEN] = {0};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 0;
    uint8_t repeatTimes = 1;
};

template <typename T>
struct MrgSortSrcList {
    __aicore__ MrgSortSrcList() {}
    __aicore__ MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In, const LocalTensor<T>& src3In,
                              const LocalTensor<T>& src4In)
    {
        src1 = src1In[0];
        src2 = src2In[0];
        src3 = src3In[0];
        src4 = src4In[0];
    }
    LocalTensor<T> src1;
    LocalTensor<T> src2;
    LocalTensor<T> src3;
    LocalTensor<T> src4;
};

namespace twin_detail {

// The element at byte `at` of t: inside it.
template <typename T>
uint8_t* SortBytes(const char* call, const char* operand, const LocalTensor<T>& t, uint64_t at, uint64_t bytes)
{
    if (at + bytes > static_cast<uint64_t>(t.GetSize()) * sizeof(T)) {
        ascend_twin::FailF(call, "UB accesses stay inside the LocalTensor",
                           "operand '%s': bytes [%llu, %llu) of a tensor of %llu bytes", operand,
                           static_cast<unsigned long long>(at), static_cast<unsigned long long>(at + bytes),
                           static_cast<unsigned long long>(t.GetSize()) * sizeof(T));
    }
    return reinterpret_cast<uint8_t*>(TwinData(t)) + at;
}

template <typename T>
void CheckSortAligned(const char* call, const char* operand, const LocalTensor<T>& t, uint32_t align, const char* why)
{
    const uint64_t off = UbAddress(t);
    if (off % align != 0) {
        ascend_twin::FailF(call, why, "operand '%s' starts at UB byte %llu, not a multiple of %u", operand,
                           static_cast<unsigned long long>(off), align);
    }
}

template <typename T>
float SortScore(const uint8_t* e)
{
    T s;
    std::memcpy(&s, e, sizeof(T));
    return static_cast<float>(s);
}

}  // namespace twin_detail

template <typename T>
__aicore__ inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
                              const int32_t repeatTime)
{
    constexpr const char* call = "Sort32";
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Sort32 on A2 sorts half or float scores");
    if (repeatTime < 0 || repeatTime > 255) {
        ascend_twin::FailF(call, "repeatTime is 0..255 (Sort32 docs)", "repeatTime %d", repeatTime);
    }
    constexpr const char* why = "Sort32's repeats start src0 at 128 bytes (float) / 64 bytes (half), src1 at 128 bytes "
                                "and dst at 256 bytes (Sort32 docs, 约束说明)";
    twin_detail::CheckSortAligned(call, "src0", src0, 32 * sizeof(T), why);
    twin_detail::CheckSortAligned(call, "src1", src1, 128, why);
    twin_detail::CheckSortAligned(call, "dst", dst, 256, why);
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    struct Item {
        float score;
        uint32_t index;
        T raw;
    };
    for (int32_t r = 0; r < repeatTime; ++r) {
        Item items[32];
        const uint8_t* s0 = twin_detail::SortBytes(call, "src0", src0, 32ull * r * sizeof(T), 32 * sizeof(T));
        const uint8_t* s1 = twin_detail::SortBytes(call, "src1", src1, 128ull * r, 128);
        instr.Read("src0", s0, 32 * sizeof(T));
        instr.Read("src1", s1, 128);
        for (int j = 0; j < 32; ++j) {
            std::memcpy(&items[j].raw, s0 + j * sizeof(T), sizeof(T));
            std::memcpy(&items[j].index, s1 + 4 * j, 4);
            items[j].score = static_cast<float>(items[j].raw);
        }
        std::stable_sort(items, items + 32, [](const Item& a, const Item& b) { return a.score > b.score; });
        uint8_t* d = twin_detail::SortBytes(call, "dst", dst, 256ull * r, 256);
        instr.Write("dst", d, 256);
        for (int j = 0; j < 32; ++j) {
            std::memcpy(d + 8 * j, &items[j].raw, sizeof(T));
            std::memcpy(d + 8 * j + 4, &items[j].index, 4);
        }
    }
    ascend_twin::CountVec(ascend_twin::VecOp::kSort32, 32ull * static_cast<uint64_t>(repeatTime),
                          static_cast<uint64_t>(repeatTime));
}

template <typename T>
__aicore__ inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params)
{
    constexpr const char* call = "MrgSort";
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "MrgSort on A2 merges half or float scores");
    const uint16_t valid = params.validBit;
    if (valid != 3 && valid != 7 && valid != 15) {
        ascend_twin::FailF(call, "validBit is 3, 7 or 15 (MrgSort docs)", "validBit %u", static_cast<unsigned>(valid));
    }
    const uint32_t lists = valid == 3 ? 2 : valid == 7 ? 3 : 4;
    const LocalTensor<T>* in[4] = {&src.src1, &src.src2, &src.src3, &src.src4};
    const char* names[4] = {"src.src1", "src.src2", "src.src3", "src.src4"};
    uint64_t total = 0;
    for (uint32_t k = 0; k < 4; ++k) {
        if (params.elementLengths[k] > 4095) {
            ascend_twin::FailF(call, "elementLengths are 0..4095 (MrgSort docs)", "elementLengths[%u] = %u", k,
                               static_cast<unsigned>(params.elementLengths[k]));
        }
        if (k < lists) total += params.elementLengths[k];
    }
    ascend_twin::CheckUbAligned(call, "dst", twin_detail::TwinData(dst));
    for (uint32_t k = 0; k < lists; ++k) {
        twin_detail::CheckSortAligned(call, names[k], *in[k], 8, "MrgSort's source lists start at 8-byte UB addresses");
    }
    const uint32_t repeats = params.repeatTimes;
    if (repeats > 1) {
        const uint16_t len = params.elementLengths[0];
        bool contiguous = lists == 4 && !params.ifExhaustedSuspension;
        for (uint32_t k = 1; k < 4 && contiguous; ++k) {
            contiguous = params.elementLengths[k] == len &&
                         reinterpret_cast<const uint8_t*>(twin_detail::TwinData(*in[k])) ==
                             reinterpret_cast<const uint8_t*>(twin_detail::TwinData(src.src1)) + 8ull * len * k;
        }
        if (!contiguous) {
            ascend_twin::FailF(call,
                               "repeatTimes > 1 needs 4 lists of one length stored one after another, validBit 15 and "
                               "ifExhaustedSuspension false (MrgSort docs: else repeatTimes has no effect; stricter)",
                               "repeatTimes %u with validBit %u, ifExhaustedSuspension %d", repeats,
                               static_cast<unsigned>(valid), params.ifExhaustedSuspension ? 1 : 0);
        }
    }
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    const uint8_t* dstBegin = reinterpret_cast<const uint8_t*>(twin_detail::TwinData(dst));
    for (uint32_t r = 0; r < repeats; ++r) {
        const uint8_t* head[4] = {nullptr, nullptr, nullptr, nullptr};
        uint64_t left[4] = {0, 0, 0, 0};
        for (uint32_t k = 0; k < lists; ++k) {
            left[k] = params.elementLengths[k];
            const uint64_t at = 8ull * r * total;
            head[k] = twin_detail::SortBytes(call, names[k], *in[k], at, 8ull * left[k]);
            instr.Read(names[k], head[k], 8ull * left[k]);
            // The docs: no overlap of sources and destination.
            const uint8_t* d0 = dstBegin + 8ull * r * total;
            if (left[k] != 0 && head[k] < d0 + 8 * total && d0 < head[k] + 8 * left[k]) {
                ascend_twin::FailF(call, "the sources and dst do not overlap (MrgSort docs, 约束说明)",
                                   "%s overlaps dst in repeat %u", names[k], r);
            }
        }
        // The merge, run twice: first to count what it writes (dst is checked for that many bytes), then into dst
        // (the sources do not overlap it: checked above).
        const auto merge = [&](uint8_t* d) -> uint64_t {
            const uint8_t* at[4] = {head[0], head[1], head[2], head[3]};
            uint64_t rest[4] = {left[0], left[1], left[2], left[3]};
            uint64_t bytes = 0;
            for (;;) {
                int best = -1;
                bool exhausted = false;
                for (uint32_t k = 0; k < lists; ++k) {
                    if (rest[k] == 0) {
                        exhausted = exhausted || params.elementLengths[k] != 0;
                        continue;
                    }
                    if (best < 0 || twin_detail::SortScore<T>(at[k]) > twin_detail::SortScore<T>(at[best])) {
                        best = static_cast<int>(k);
                    }
                }
                if (best < 0 || (params.ifExhaustedSuspension && exhausted)) break;
                if (d != nullptr) std::memcpy(d + bytes, at[best], 8);
                bytes += 8;
                at[best] += 8;
                --rest[best];
            }
            return bytes;
        };
        const uint64_t bytes = merge(nullptr);
        uint8_t* d = twin_detail::SortBytes(call, "dst", dst, 8ull * r * total, bytes);
        instr.Write("dst", d, bytes);
        merge(d);
    }
    ascend_twin::CountVec(ascend_twin::VecOp::kMrgSort, total * repeats, repeats);
}

}  // namespace AscendC
