// Reductions in their mask/repeat forms (include/basic_api/kernel_operator_vec_reduce_intf.h,
// impl/basic_api/kernel_operator_vec_reduce_intf_impl.h, dav_c220/kernel_operator_vec_reduce_impl.h, docs
// 归约计算/ReduceMax, ReduceMin, ReduceSum, ReduceRepeat, ReduceDataBlock, ReducePairElem), with the A2 rules:
//  - WholeReduceSum/Max/Min (ReduceRepeat): one result per repeat; sums as a binary tree over the repeat's
//    lanes; max/min with the lane index of the first extreme, stored as the bits of T (ReduceOrder decides
//    the layout; ORDER_ONLY_INDEX stores a uint32_t).
//  - BlockReduceSum/Max/Min (ReduceDataBlock): one result per 32-byte block; a block with no active lane
//    is not written (A2).
//  - PairReduceSum (ReducePairElem): one result per pair of neighbours; a pair with no active lane is not
//    written (A2).
//  - ReduceMax/ReduceMin: count form and mask/repeat forms, with the documented sharedTmpBuffer size;
//    index = repeat * srcRepStride * (32 / sizeof(T)) + lane, the first extreme wins.
//  - ReduceSum mask/repeat forms: "mode 2" of the docs (A2): each repeat a binary tree, the repeats' sums
//    again reduced in binary trees of one repeat each until one value is left.
// Masked-off lanes are neither read nor counted; half is computed in float and rounded to half after
// every addition, as the tree's adders do.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "twin/hazard.h"
#include "twin/kernel_reduce.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_vec_repeat.h"
#include "twin/runtime.h"
#include "twin/simd_loops.h"

namespace AscendC {

enum class ReduceOrder : uint8_t {
    ORDER_VALUE_INDEX = 0,
    ORDER_INDEX_VALUE,
    ORDER_ONLY_VALUE,
    ORDER_ONLY_INDEX,
};

enum class ReduceType {
    NONE = -1,
    SUM = 0,
    MAX,
    MIN,
};

namespace twin_detail {

// Out of line (twin/src/reduce.cpp): the range and size rules, with their messages.
void CheckRepeatRange(const char* call, int64_t repeatTime, int64_t maxRepeat);
void CheckStride(const char* call, const char* name, int64_t stride);
void CheckAddrAligned(const char* call, const char* operand, const void* addr, uint32_t bytes);
void CheckHolds(const char* call, const char* operand, uint64_t have, uint64_t need);
void CheckWorkSize(const char* call, uint64_t haveElems, uint64_t needElems, uint32_t elemSize);

// The lanes of a reduction's mask argument; repeatTime may exceed 255 for ReduceMax/Min/Sum.
inline Lanes ReduceLanes(const char* call, uint32_t elemSize, bool isSetMask, const uint64_t* mask, bool isArray,
                         int32_t repeatTime)
{
    Lanes lanes = MaskLanes(call, elemSize, isSetMask, mask, isArray, 0);
    if (!lanes.counter) lanes.repeats = static_cast<uint32_t>(repeatTime);
    return lanes;
}

// repeatTime 0 makes a call a no-op in normal mode; in counter mode the repeat count comes from the
// element count and repeatTime is ignored (docs, SIMD计算说明/掩码: Counter mode).
inline bool RepeatTimeSkips(int32_t repeatTime)
{
    return repeatTime == 0 && !ascend_twin::CurrentCore().maskCounter;
}

inline bool MaskIsZero(const uint64_t* mask, bool isArray)
{
    return isArray ? (mask[0] == 0 && mask[1] == 0) : mask[0] == 0;
}

// Source lane j of repeat r, with a block stride and a repeat stride in 32-byte blocks.
template <typename T>
inline const T* SrcLane(const char* call, const LocalTensor<T>& src, uint32_t r, uint32_t j, uint32_t blk,
                        uint32_t rep)
{
    return LaneAddr(call, "src", src, r, j, blk, rep);
}

// Binary tree over `n` lanes (a power of two): neighbours, then pairs of pairs, ...; rounds to T each level.
template <typename T>
inline Compute<T> TreeSum(Compute<T>* lane, uint32_t n)
{
    for (uint32_t width = n; width > 1; width /= 2) {
        for (uint32_t i = 0; i < width / 2; ++i) {
            lane[i] = static_cast<Compute<T>>(static_cast<T>(lane[2 * i] + lane[2 * i + 1]));
        }
    }
    return lane[0];
}

template <typename T>
inline uint32_t IndexBits(uint32_t index)
{
    return sizeof(T) == 2 ? (index & 0xffffu) : index;
}

// Stores `index` as the bits of a T (the hardware's index layout).
template <typename T>
inline void StoreIndexAs(void* at, uint32_t index)
{
    if constexpr (sizeof(T) == 2) {
        const uint16_t v = static_cast<uint16_t>(index);
        std::memcpy(at, &v, 2);
    } else {
        std::memcpy(at, &index, 4);
    }
}

// One repeat's active lanes reduced: value, first extreme's lane, any lane active.
template <typename T>
struct RepeatExtreme {
    T value{};
    uint32_t lane = 0;
    bool any = false;
};

template <typename T, bool isMax>
inline RepeatExtreme<T> ExtremeOfRepeat(const char* call, ascend_twin::Instr& instr, const LocalTensor<T>& src,
                                        const Lanes& lanes, uint32_t r, uint32_t blk, uint32_t rep)
{
    RepeatExtreme<T> e;
    for (uint32_t j = 0; j < lanes.perRepeat; ++j) {
        if (!lanes.Active(r, j)) continue;
        const T* a = SrcLane(call, src, r, j, blk, rep);
        instr.Read("src", a, sizeof(T));
        const Compute<T> v = static_cast<Compute<T>>(*a);
        const Compute<T> best = static_cast<Compute<T>>(e.value);
        if (!e.any || (isMax ? v > best : v < best)) {
            e.value = *a;
            e.lane = j;
            e.any = true;
        }
    }
    return e;
}

// reads: where the repeat's reads are merged (AccessBatch); recorded as they stop merging, the rest by the caller.
template <typename T>
inline Compute<T> SumOfRepeat(const char* call, ascend_twin::Instr& instr, const LocalTensor<T>& src,
                              const Lanes& lanes, uint32_t r, uint32_t blk, uint32_t rep, bool* any,
                              AccessBatch& reads)
{
    if constexpr (std::is_same_v<T, float>) {  // a full float32 repeat of one contiguous 256 bytes: at once
        const bool full = lanes.counter ? (static_cast<uint64_t>(r) + 1) * 64 <= lanes.count : lanes.low == ~0ull;
        float sum = 0.0f;
        if (full && blk == 1 && lanes.perRepeat == 64) {
            const float* a = RunAddr(call, "src", src, r, 0, 64, 1, rep);  // the bounds check of the 8 blocks
            if (ascend_twin::simd::PairTreeSum64F32(a, &sum)) {
                if (!reads.Joins(a, 256)) reads.Read(instr, "src");
                reads.Add(a, 256);
                *any = true;
                return sum;
            }
        }
    }
    Compute<T> lane[256 / sizeof(T)];
    *any = false;
    for (uint32_t j = 0; j < lanes.perRepeat; ++j) lane[j] = Compute<T>(0);
    // The reads recorded per run of active lanes within a block (as the elementwise forms do).
    ForActiveRuns(lanes, r, 32 / sizeof(T), [&](uint32_t j, uint32_t e) {
        const T* a = RunAddr(call, "src", src, r, j, e, blk, rep);
        const uint64_t bytes = static_cast<uint64_t>(e - j) * sizeof(T);
        if (!reads.Joins(a, bytes)) reads.Read(instr, "src");
        reads.Add(a, bytes);
        for (uint32_t k = j; k < e; ++k) lane[k] = static_cast<Compute<T>>(a[k - j]);
        *any = true;
    });
    return TreeSum<T>(lane, lanes.perRepeat);
}

inline uint64_t LaneRepeats(const Lanes& lanes)
{
    return lanes.counter ? (lanes.count + lanes.perRepeat - 1) / lanes.perRepeat : lanes.repeats;
}

inline uint64_t ActiveLanes(const Lanes& lanes)
{
    uint64_t n = 0;
    for (uint32_t j = 0; j < lanes.perRepeat; ++j) n += lanes.Active(0, j) ? 1 : 0;
    return lanes.counter ? lanes.count : n * lanes.repeats;
}

// ---- WholeReduceSum / WholeReduceMax / WholeReduceMin ------------------------------------------------

template <typename T, bool isSetMask>
void WholeSum(const char* call, ascend_twin::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const uint64_t* mask, bool isArray, int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride,
              int32_t srcRepStride)
{
    CheckRepeatRange(call, repeatTime, 255);
    CheckStride(call, "dstRepStride", dstRepStride);
    CheckStride(call, "srcBlkStride", srcBlkStride);
    CheckStride(call, "srcRepStride", srcRepStride);
    ascend_twin::CheckUbAligned(call, "src", twin_detail::TwinData(src));
    CheckAddrAligned(call, "dst", twin_detail::TwinData(dst), sizeof(T));
    if (RepeatTimeSkips(repeatTime) || (isSetMask && MaskIsZero(mask, isArray))) return;
    const Lanes lanes = ReduceLanes(call, sizeof(T), isSetMask, mask, isArray, repeatTime);
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    const uint32_t repeats = static_cast<uint32_t>(LaneRepeats(lanes));
    AccessBatch reads, writes;
    for (uint32_t r = 0; r < repeats; ++r) {
        bool any = false;
        const Compute<T> s = SumOfRepeat(call, instr, src, lanes, r, srcBlkStride, srcRepStride, &any, reads);
        if (!any) continue;
        const uint64_t at = static_cast<uint64_t>(r) * dstRepStride;
        CheckHolds(call, "dst", dst.GetSize(), at + 1);
        T* d = twin_detail::TwinData(dst) + at;
        if (!writes.Joins(d, sizeof(T))) {
            reads.Read(instr, "src");
            writes.Write(instr, "dst");
        }
        writes.Add(d, sizeof(T));
        *d = static_cast<T>(s);
    }
    reads.Read(instr, "src");
    writes.Write(instr, "dst");
    ascend_twin::CountVec(op, ActiveLanes(lanes), repeats);
}

template <typename T, bool isSetMask, bool isMax>
void WholeExtreme(const char* call, ascend_twin::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                  const uint64_t* mask, bool isArray, int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride,
                  int32_t srcRepStride, ReduceOrder order)
{
    CheckRepeatRange(call, repeatTime, 255);
    CheckStride(call, "dstRepStride", dstRepStride);
    CheckStride(call, "srcBlkStride", srcBlkStride);
    CheckStride(call, "srcRepStride", srcRepStride);
    ascend_twin::CheckUbAligned(call, "src", twin_detail::TwinData(src));
    // ReduceRepeat docs, table 3: the unit of dstRepStride and dst's alignment follow the order.
    const uint32_t unit = order == ReduceOrder::ORDER_ONLY_VALUE   ? sizeof(T)
                          : order == ReduceOrder::ORDER_ONLY_INDEX ? 4u
                                                                   : 2u * sizeof(T);
    CheckAddrAligned(call, "dst", twin_detail::TwinData(dst), unit);
    if (RepeatTimeSkips(repeatTime) || (isSetMask && MaskIsZero(mask, isArray))) return;
    const Lanes lanes = ReduceLanes(call, sizeof(T), isSetMask, mask, isArray, repeatTime);
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    const uint32_t repeats = static_cast<uint32_t>(LaneRepeats(lanes));
    uint8_t* base = reinterpret_cast<uint8_t*>(twin_detail::TwinData(dst));
    const uint64_t dstBytes = static_cast<uint64_t>(dst.GetSize()) * sizeof(T);
    for (uint32_t r = 0; r < repeats; ++r) {
        const RepeatExtreme<T> e = ExtremeOfRepeat<T, isMax>(call, instr, src, lanes, r, srcBlkStride, srcRepStride);
        if (!e.any) continue;
        const uint64_t at = static_cast<uint64_t>(r) * dstRepStride * unit;
        CheckHolds(call, "dst (bytes)", dstBytes, at + unit);
        uint8_t* p = base + at;
        instr.Write("dst", p, unit);
        switch (order) {
            case ReduceOrder::ORDER_VALUE_INDEX:
                std::memcpy(p, &e.value, sizeof(T));
                StoreIndexAs<T>(p + sizeof(T), e.lane);
                break;
            case ReduceOrder::ORDER_INDEX_VALUE:
                StoreIndexAs<T>(p, e.lane);
                std::memcpy(p + sizeof(T), &e.value, sizeof(T));
                break;
            case ReduceOrder::ORDER_ONLY_VALUE: std::memcpy(p, &e.value, sizeof(T)); break;
            default: {
                const uint32_t idx = e.lane;
                std::memcpy(p, &idx, 4);
                break;
            }
        }
    }
    ascend_twin::CountVec(op, ActiveLanes(lanes), repeats);
}

// ---- BlockReduceSum/Max/Min and PairReduceSum ---------------------------------------------------------

enum class BlockOp { kSum, kMax, kMin };

template <typename T, bool isSetMask, BlockOp kind>
void BlockReduce(const char* call, ascend_twin::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                 const uint64_t* mask, bool isArray, int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride,
                 int32_t srcRepStride)
{
    CheckRepeatRange(call, repeatTime, 255);
    CheckStride(call, "dstRepStride", dstRepStride);
    CheckStride(call, "srcBlkStride", srcBlkStride);
    CheckStride(call, "srcRepStride", srcRepStride);
    ascend_twin::CheckUbAligned(call, "src", twin_detail::TwinData(src));
    CheckAddrAligned(call, "dst", twin_detail::TwinData(dst), 8 * sizeof(T));  // half: 16 bytes, float: 32 bytes
    if (RepeatTimeSkips(repeatTime) || (isSetMask && MaskIsZero(mask, isArray))) return;
    const Lanes lanes = ReduceLanes(call, sizeof(T), isSetMask, mask, isArray, repeatTime);
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    constexpr uint32_t perBlock = 32 / sizeof(T);
    const uint32_t repeats = static_cast<uint32_t>(LaneRepeats(lanes));
    for (uint32_t r = 0; r < repeats; ++r) {
        for (uint32_t b = 0; b < 8; ++b) {
            Compute<T> lane[perBlock];
            bool any = false;
            T best{};
            for (uint32_t k = 0; k < perBlock; ++k) {
                const uint32_t j = b * perBlock + k;
                lane[k] = Compute<T>(0);
                if (!lanes.Active(r, j)) continue;
                const T* a = SrcLane(call, src, r, j, srcBlkStride, srcRepStride);
                instr.Read("src", a, sizeof(T));
                lane[k] = static_cast<Compute<T>>(*a);
                const bool better = kind == BlockOp::kMax ? lane[k] > static_cast<Compute<T>>(best)
                                                          : lane[k] < static_cast<Compute<T>>(best);
                if (!any || better) best = *a;
                any = true;
            }
            if (!any) continue;  // A2: a block without active lanes leaves its dst element as it was
            const uint64_t at = static_cast<uint64_t>(r) * dstRepStride * 8 + b;
            CheckHolds(call, "dst", dst.GetSize(), at + 1);
            instr.Write("dst", twin_detail::TwinData(dst) + at, sizeof(T));
            twin_detail::TwinData(dst)[at] = kind == BlockOp::kSum ? static_cast<T>(TreeSum<T>(lane, perBlock)) : best;
        }
    }
    ascend_twin::CountVec(op, ActiveLanes(lanes), repeats);
}

template <typename T, bool isSetMask>
void PairSum(const char* call, const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t* mask,
             bool isArray, int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride)
{
    CheckRepeatRange(call, repeatTime, 255);
    CheckStride(call, "dstRepStride", dstRepStride);
    CheckStride(call, "srcBlkStride", srcBlkStride);
    CheckStride(call, "srcRepStride", srcRepStride);
    ascend_twin::CheckUbAligned(call, "src", twin_detail::TwinData(src));
    ascend_twin::CheckUbAligned(call, "dst", twin_detail::TwinData(dst));
    if (RepeatTimeSkips(repeatTime) || (isSetMask && MaskIsZero(mask, isArray))) return;
    const Lanes lanes = ReduceLanes(call, sizeof(T), isSetMask, mask, isArray, repeatTime);
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    const uint32_t pairs = lanes.perRepeat / 2;
    const uint32_t repeats = static_cast<uint32_t>(LaneRepeats(lanes));
    for (uint32_t r = 0; r < repeats; ++r) {
        for (uint32_t p = 0; p < pairs; ++p) {
            Compute<T> v[2] = {Compute<T>(0), Compute<T>(0)};
            bool any = false;
            for (uint32_t k = 0; k < 2; ++k) {
                if (!lanes.Active(r, 2 * p + k)) continue;
                const T* a = SrcLane(call, src, r, 2 * p + k, srcBlkStride, srcRepStride);
                instr.Read("src", a, sizeof(T));
                v[k] = static_cast<Compute<T>>(*a);
                any = true;
            }
            if (!any) continue;  // A2: a pair without active lanes is skipped
            const uint64_t at = static_cast<uint64_t>(r) * dstRepStride * pairs + p;
            CheckHolds(call, "dst", dst.GetSize(), at + 1);
            instr.Write("dst", twin_detail::TwinData(dst) + at, sizeof(T));
            twin_detail::TwinData(dst)[at] = static_cast<T>(v[0] + v[1]);
        }
    }
    ascend_twin::CountVec(ascend_twin::VecOp::kPairReduceSum, ActiveLanes(lanes), repeats);
}

// ---- ReduceMax / ReduceMin / ReduceSum with sharedTmpBuffer ---------------------------------------------

// The sharedTmpBuffer elements the ReduceMax/ReduceMin docs require ("关键特性说明"), for `firstRepeats`
// first-round repeats.
inline uint64_t MaxMinWorkElems(uint64_t firstRepeats, uint32_t elemSize, bool calIndex)
{
    const uint64_t perBlock = 32 / elemSize, perRepeat = 256 / elemSize;
    auto up = [](uint64_t a, uint64_t b) { return (a + b - 1) / b; };
    const uint64_t iter1 = firstRepeats * 2;
    const uint64_t a1 = up(iter1, perBlock) * perBlock;
    if (!calIndex) return a1;
    const uint64_t iter2 = up(iter1, perRepeat) * 2;
    const uint64_t a2 = up(iter2, perBlock) * perBlock;
    if (iter2 <= 2) return a1 + a2;
    const uint64_t iter3 = up(iter2, perRepeat) * 2;
    return a1 + a2 + up(iter3, perBlock) * perBlock;
}

// The work buffer's bytes the rounds write: round 1 = 2 elements per repeat at 0; with calIndex the later
// rounds follow at block-aligned offsets (without, they reuse round 1's space).
template <typename T>
inline void WriteMaxMinWork(ascend_twin::Instr& instr, const LocalTensor<T>& work, uint64_t firstRepeats,
                            bool calIndex)
{
    const uint64_t perBlock = 32 / sizeof(T), perRepeat = 256 / sizeof(T);
    auto up = [](uint64_t a, uint64_t b) { return (a + b - 1) / b; };
    uint64_t count = firstRepeats * 2, at = 0;
    instr.Write("sharedTmpBuffer", twin_detail::TwinData(work), count * sizeof(T));
    while (calIndex && count > 2) {
        at += up(count, perBlock) * perBlock;
        count = up(count, perRepeat) * 2;
        instr.Write("sharedTmpBuffer", twin_detail::TwinData(work) + at, count * sizeof(T));
    }
}

template <typename T, bool isMax>
void ReduceExtreme(const char* call, ascend_twin::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                   const LocalTensor<T>& work, const Lanes& lanes, uint64_t firstRepeats, uint32_t srcRepStride,
                   bool calIndex)
{
    ascend_twin::CheckUbAligned(call, "src", twin_detail::TwinData(src));
    ascend_twin::CheckUbAligned(call, "sharedTmpBuffer", twin_detail::TwinData(work));
    CheckAddrAligned(call, "dst", twin_detail::TwinData(dst), calIndex ? 2 * sizeof(T) : sizeof(T));
    CheckHolds(call, "dst", dst.GetSize(), calIndex ? 2 : 1);
    CheckWorkSize(call, work.GetSize(), MaxMinWorkElems(firstRepeats, sizeof(T), calIndex), sizeof(T));
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    const uint32_t repeats = static_cast<uint32_t>(LaneRepeats(lanes));
    RepeatExtreme<T> best;
    uint64_t bestIndex = 0;
    for (uint32_t r = 0; r < repeats; ++r) {
        const RepeatExtreme<T> e = ExtremeOfRepeat<T, isMax>(call, instr, src, lanes, r, 1, srcRepStride);
        if (!e.any) continue;
        const Compute<T> v = static_cast<Compute<T>>(e.value), b = static_cast<Compute<T>>(best.value);
        if (!best.any || (isMax ? v > b : v < b)) {
            best = e;
            bestIndex = static_cast<uint64_t>(r) * srcRepStride * (32 / sizeof(T)) + e.lane;
        }
    }
    WriteMaxMinWork(instr, work, firstRepeats, calIndex);
    instr.Write("dst", twin_detail::TwinData(dst), (calIndex ? 2 : 1) * sizeof(T));
    twin_detail::TwinData(dst)[0] = best.value;
    if (calIndex) StoreIndexAs<T>(twin_detail::TwinData(dst) + 1, static_cast<uint32_t>(bestIndex));
    ascend_twin::CountVec(op, ActiveLanes(lanes), repeats);
}

template <typename T, bool isMax>
void ReduceExtremeMask(const char* call, ascend_twin::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                       const LocalTensor<T>& work, const uint64_t* mask, bool isArray, int32_t repeatTime,
                       int32_t srcRepStride, bool calIndex)
{
    CheckRepeatRange(call, repeatTime, INT32_MAX);
    CheckStride(call, "srcRepStride", srcRepStride);
    if (repeatTime == 0 || MaskIsZero(mask, isArray)) return;
    const Lanes lanes = ReduceLanes(call, sizeof(T), true, mask, isArray, repeatTime);
    ReduceExtreme<T, isMax>(call, op, dst, src, work, lanes, static_cast<uint64_t>(repeatTime), srcRepStride, calIndex);
}

template <typename T, bool isMax>
void ReduceExtremeCount(const char* call, ascend_twin::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                        const LocalTensor<T>& work, int32_t count, bool calIndex)
{
    CheckCount(call, count);
    CheckOperand(call, "src", src, count);
    if (count == 0) return;
    Lanes lanes;
    lanes.perRepeat = 256 / sizeof(T);
    lanes.counter = true;
    lanes.count = static_cast<uint64_t>(count);
    const uint64_t body = static_cast<uint64_t>(count) / lanes.perRepeat;
    ReduceExtreme<T, isMax>(call, op, dst, src, work, lanes, body == 0 ? 1 : body, 8, calIndex);
}

// Mode 2: every repeat a binary tree; the repeats' sums (rounded to T) again in trees of one repeat each.
template <typename T>
void ReduceSumMask(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
                   const uint64_t* mask, bool isArray, int32_t repeatTime, int32_t srcRepStride)
{
    const char* call = "ReduceSum";
    CheckRepeatRange(call, repeatTime, INT32_MAX);
    CheckStride(call, "srcRepStride", srcRepStride);
    ascend_twin::CheckUbAligned(call, "src", twin_detail::TwinData(src));
    ascend_twin::CheckUbAligned(call, "sharedTmpBuffer", twin_detail::TwinData(work));
    CheckAddrAligned(call, "dst", twin_detail::TwinData(dst), sizeof(T));
    CheckHolds(call, "dst", dst.GetSize(), 1);
    if (repeatTime == 0 || MaskIsZero(mask, isArray)) return;
    constexpr uint32_t perBlock = 32 / sizeof(T), perRepeat = 256 / sizeof(T);
    const uint64_t need = (static_cast<uint64_t>(repeatTime) + perBlock - 1) / perBlock * perBlock;
    CheckWorkSize(call, work.GetSize(), need, sizeof(T));
    const Lanes lanes = ReduceLanes(call, sizeof(T), true, mask, isArray, repeatTime);
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    const uint32_t repeats = static_cast<uint32_t>(LaneRepeats(lanes));
    T* partial = twin_detail::TwinData(work);  // the device keeps the per-repeat sums in sharedTmpBuffer, too
    instr.Write("sharedTmpBuffer", partial, static_cast<uint64_t>(repeats) * sizeof(T));
    AccessBatch reads;
    for (uint32_t r = 0; r < repeats; ++r) {
        bool any = false;
        partial[r] = static_cast<T>(SumOfRepeat(call, instr, src, lanes, r, 1, srcRepStride, &any, reads));
    }
    reads.Read(instr, "src");
    uint64_t n = repeats;
    while (n > 1) {
        const uint64_t groups = (n + perRepeat - 1) / perRepeat;
        for (uint64_t g = 0; g < groups; ++g) {
            Compute<T> lane[perRepeat];
            for (uint32_t j = 0; j < perRepeat; ++j) {
                const uint64_t i = g * perRepeat + j;
                lane[j] = i < n ? static_cast<Compute<T>>(partial[i]) : Compute<T>(0);
            }
            partial[g] = static_cast<T>(TreeSum<T>(lane, perRepeat));
        }
        n = groups;
    }
    instr.Write("dst", twin_detail::TwinData(dst), sizeof(T));
    twin_detail::TwinData(dst)[0] = partial[0];
    ascend_twin::CountVec(ascend_twin::VecOp::kReduceSum, ActiveLanes(lanes), repeats);
}

}  // namespace twin_detail

#define ASCEND_TWIN_REDUCE_TYPES \
    twin_detail::kReduceType<T>, "the reductions on A2 support half and float (src and dst of one type)"

// WholeReduceSum / WholeReduceMax / WholeReduceMin (deprecated names of ReduceRepeat, still declared).
template <typename T, bool isSetMask = true>
__aicore__ inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                                      const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                      const int32_t srcRepStride)
{
    static_assert(ASCEND_TWIN_REDUCE_TYPES);
    twin_detail::WholeSum<T, isSetMask>("WholeReduceSum", ascend_twin::VecOp::kWholeReduceSum, dst, src, mask, true,
                                        repeatTime, dstRepStride, srcBlkStride, srcRepStride);
}

template <typename T, bool isSetMask = true>
__aicore__ inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,
                                      const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                      const int32_t srcRepStride)
{
    static_assert(ASCEND_TWIN_REDUCE_TYPES);
    const uint64_t bits[2] = {static_cast<uint64_t>(mask), 0};
    twin_detail::WholeSum<T, isSetMask>("WholeReduceSum", ascend_twin::VecOp::kWholeReduceSum, dst, src, bits, false,
                                        repeatTime, dstRepStride, srcBlkStride, srcRepStride);
}

// RepeatReduceSum (deprecated name of ReduceRepeat<SUM>, still declared for A2; impl/basic_api/
// kernel_operator_vec_reduce_intf_impl.h): WholeReduceSum's continuous-mask form with a dstBlkStride that A2 ignores.
template <typename T, bool isSetMask = true>
__aicore__ inline void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                       const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                                       const int32_t dstRepStride, const int32_t srcRepStride)
{
    static_assert(ASCEND_TWIN_REDUCE_TYPES);
    (void)dstBlkStride;
    const uint64_t bits[2] = {static_cast<uint64_t>(mask), 0};
    twin_detail::WholeSum<T, isSetMask>("RepeatReduceSum", ascend_twin::VecOp::kWholeReduceSum, dst, src, bits, false,
                                        repeatTime, dstRepStride, srcBlkStride, srcRepStride);
}

#define ASCEND_TWIN_WHOLE_EXTREME(NAME, OP, IS_MAX, MASK_T, IS_ARRAY, BITS)                                       \
    template <typename T, bool isSetMask = true>                                                                 \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, MASK_T mask,              \
                                const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride, \
                                const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)  \
    {                                                                                                            \
        static_assert(ASCEND_TWIN_REDUCE_TYPES);                                                                 \
        BITS;                                                                                                    \
        twin_detail::WholeExtreme<T, isSetMask, IS_MAX>(#NAME, ascend_twin::VecOp::OP, dst, src, bits, IS_ARRAY,  \
                                                        repeatTime, dstRepStride, srcBlkStride, srcRepStride,    \
                                                        order);                                                  \
    }

ASCEND_TWIN_WHOLE_EXTREME(WholeReduceMax, kWholeReduceMax, true, const uint64_t*, true, const uint64_t* bits = mask)
ASCEND_TWIN_WHOLE_EXTREME(WholeReduceMax, kWholeReduceMax, true, const int32_t, false,
                          const uint64_t bits[2] = {static_cast<uint64_t>(mask)})
ASCEND_TWIN_WHOLE_EXTREME(WholeReduceMin, kWholeReduceMin, false, const uint64_t*, true, const uint64_t* bits = mask)
ASCEND_TWIN_WHOLE_EXTREME(WholeReduceMin, kWholeReduceMin, false, const int32_t, false,
                          const uint64_t bits[2] = {static_cast<uint64_t>(mask)})
#undef ASCEND_TWIN_WHOLE_EXTREME

// BlockReduceSum / BlockReduceMax / BlockReduceMin (ReduceDataBlock) and PairReduceSum (ReducePairElem):
// note repeatTime comes before mask in these signatures.
#define ASCEND_TWIN_BLOCK_REDUCE(NAME, OP, KIND, MASK_T, IS_ARRAY, BITS)                                          \
    template <typename T, bool isSetMask = true>                                                                 \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,  \
                                MASK_T mask, const int32_t dstRepStride, const int32_t srcBlkStride,             \
                                const int32_t srcRepStride)                                                      \
    {                                                                                                            \
        static_assert(ASCEND_TWIN_REDUCE_TYPES);                                                                 \
        BITS;                                                                                                    \
        twin_detail::BlockReduce<T, isSetMask, twin_detail::BlockOp::KIND>(                                       \
            #NAME, ascend_twin::VecOp::OP, dst, src, bits, IS_ARRAY, repeatTime, dstRepStride, srcBlkStride,      \
            srcRepStride);                                                                                       \
    }

ASCEND_TWIN_BLOCK_REDUCE(BlockReduceSum, kBlockReduceSum, kSum, const int32_t, false,
                         const uint64_t bits[2] = {static_cast<uint64_t>(mask)})
ASCEND_TWIN_BLOCK_REDUCE(BlockReduceSum, kBlockReduceSum, kSum, const uint64_t*, true, const uint64_t* bits = mask)
ASCEND_TWIN_BLOCK_REDUCE(BlockReduceMax, kBlockReduceMax, kMax, const int32_t, false,
                         const uint64_t bits[2] = {static_cast<uint64_t>(mask)})
ASCEND_TWIN_BLOCK_REDUCE(BlockReduceMax, kBlockReduceMax, kMax, const uint64_t*, true, const uint64_t* bits = mask)
ASCEND_TWIN_BLOCK_REDUCE(BlockReduceMin, kBlockReduceMin, kMin, const int32_t, false,
                         const uint64_t bits[2] = {static_cast<uint64_t>(mask)})
ASCEND_TWIN_BLOCK_REDUCE(BlockReduceMin, kBlockReduceMin, kMin, const uint64_t*, true, const uint64_t* bits = mask)
#undef ASCEND_TWIN_BLOCK_REDUCE

template <typename T, bool isSetMask = true>
__aicore__ inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                     const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,
                                     const int32_t srcRepStride)
{
    static_assert(ASCEND_TWIN_REDUCE_TYPES);
    const uint64_t bits[2] = {static_cast<uint64_t>(mask), 0};
    twin_detail::PairSum<T, isSetMask>("PairReduceSum", dst, src, bits, false, repeatTime, dstRepStride, srcBlkStride,
                                       srcRepStride);
}

template <typename T, bool isSetMask = true>
__aicore__ inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                     const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,
                                     const int32_t srcRepStride)
{
    static_assert(ASCEND_TWIN_REDUCE_TYPES);
    twin_detail::PairSum<T, isSetMask>("PairReduceSum", dst, src, mask, true, repeatTime, dstRepStride, srcBlkStride,
                                       srcRepStride);
}

// The current names: ReduceRepeat / ReduceDataBlock / ReducePairElem<reduceType, T (dst), U (src)>; on A2
// dst and src have one type.
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                                    const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                    const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)
{
    static_assert(std::is_same_v<T, U>, "ReduceRepeat on A2 needs one dst and src type");
    static_assert(reduceType != ReduceType::NONE, "ReduceRepeat supports SUM, MAX and MIN");
    if constexpr (reduceType == ReduceType::SUM) {
        WholeReduceSum<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride);
    } else if constexpr (reduceType == ReduceType::MAX) {
        WholeReduceMax<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order);
    } else {
        WholeReduceMin<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order);
    }
}

template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                                    const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                    const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)
{
    static_assert(std::is_same_v<T, U>, "ReduceRepeat on A2 needs one dst and src type");
    static_assert(reduceType != ReduceType::NONE, "ReduceRepeat supports SUM, MAX and MIN");
    if constexpr (reduceType == ReduceType::SUM) {
        WholeReduceSum<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride);
    } else if constexpr (reduceType == ReduceType::MAX) {
        WholeReduceMax<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order);
    } else {
        WholeReduceMin<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order);
    }
}

#define ASCEND_TWIN_DATA_BLOCK(MASK_T)                                                                            \
    template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                              \
    __aicore__ inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, MASK_T mask,     \
                                           const int32_t repeatTime, const int32_t dstRepStride,                 \
                                           const int32_t srcBlkStride, const int32_t srcRepStride)               \
    {                                                                                                            \
        static_assert(std::is_same_v<T, U>, "ReduceDataBlock on A2 needs one dst and src type");                 \
        static_assert(reduceType != ReduceType::NONE, "ReduceDataBlock supports SUM, MAX and MIN");              \
        if constexpr (reduceType == ReduceType::SUM) {                                                           \
            BlockReduceSum<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride);   \
        } else if constexpr (reduceType == ReduceType::MAX) {                                                    \
            BlockReduceMax<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride);   \
        } else {                                                                                                 \
            BlockReduceMin<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride);   \
        }                                                                                                        \
    }                                                                                                            \
    template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                              \
    __aicore__ inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, MASK_T mask,      \
                                          const int32_t repeatTime, const int32_t dstRepStride,                  \
                                          const int32_t srcBlkStride, const int32_t srcRepStride)                \
    {                                                                                                            \
        static_assert(std::is_same_v<T, U>, "ReducePairElem on A2 needs one dst and src type");                  \
        static_assert(reduceType == ReduceType::SUM, "ReducePairElem supports SUM only");                        \
        PairReduceSum<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride);        \
    }

ASCEND_TWIN_DATA_BLOCK(const uint64_t*)
ASCEND_TWIN_DATA_BLOCK(const int32_t)
#undef ASCEND_TWIN_DATA_BLOCK

// ReduceMax / ReduceMin: count form and mask/repeat forms; dst = [value] or [value, index].
#define ASCEND_TWIN_REDUCE_EXTREME(NAME, OP, IS_MAX)                                                               \
    template <typename T>                                                                                        \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                            \
                                const LocalTensor<T>& sharedTmpBuffer, const int32_t mask, const int32_t repeatTime, \
                                const int32_t srcRepStride, bool calIndex = 0)                                   \
    {                                                                                                            \
        static_assert(ASCEND_TWIN_REDUCE_TYPES);                                                                 \
        const uint64_t bits[2] = {static_cast<uint64_t>(mask), 0};                                               \
        twin_detail::ReduceExtremeMask<T, IS_MAX>(#NAME, ascend_twin::VecOp::OP, dst, src, sharedTmpBuffer, bits, \
                                                  false, repeatTime, srcRepStride, calIndex);                    \
    }                                                                                                            \
    template <typename T>                                                                                        \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                            \
                                const LocalTensor<T>& sharedTmpBuffer, const uint64_t mask[],                    \
                                const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = 0)         \
    {                                                                                                            \
        static_assert(ASCEND_TWIN_REDUCE_TYPES);                                                                 \
        twin_detail::ReduceExtremeMask<T, IS_MAX>(#NAME, ascend_twin::VecOp::OP, dst, src, sharedTmpBuffer, mask, \
                                                  true, repeatTime, srcRepStride, calIndex);                     \
    }                                                                                                            \
    template <typename T>                                                                                        \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                            \
                                const LocalTensor<T>& sharedTmpBuffer, const int32_t count, bool calIndex = 0)   \
    {                                                                                                            \
        static_assert(ASCEND_TWIN_REDUCE_TYPES);                                                                 \
        twin_detail::ReduceExtremeCount<T, IS_MAX>(#NAME, ascend_twin::VecOp::OP, dst, src, sharedTmpBuffer,      \
                                                   count, calIndex);                                             \
    }

ASCEND_TWIN_REDUCE_EXTREME(ReduceMax, kReduceMax, true)
ASCEND_TWIN_REDUCE_EXTREME(ReduceMin, kReduceMin, false)
#undef ASCEND_TWIN_REDUCE_EXTREME

// ReduceSum mask/repeat forms (the count form is in kernel_reduce.h).
template <typename T>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const uint64_t mask[], const int32_t repeatTime,
                                 const int32_t srcRepStride)
{
    static_assert(ASCEND_TWIN_REDUCE_TYPES);
    twin_detail::ReduceSumMask(dst, src, sharedTmpBuffer, mask, true, repeatTime, srcRepStride);
}

template <typename T>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t mask, const int32_t repeatTime,
                                 const int32_t srcRepStride)
{
    static_assert(ASCEND_TWIN_REDUCE_TYPES);
    const uint64_t bits[2] = {static_cast<uint64_t>(mask), 0};
    twin_detail::ReduceSumMask(dst, src, sharedTmpBuffer, bits, false, repeatTime, srcRepStride);
}

#undef ASCEND_TWIN_REDUCE_TYPES

}  // namespace AscendC
