// Row sums for the DispersionCorrection kernels (op_kernel/dispersion_correction.cpp and
// op_kernel/dispersion_correction_backward.cpp), included as a sibling: the CANN op package and the source
// checks compile the kernels in this directory; the twin's generated variants have op_kernel on their
// include path.
//
// Why not one count-form ReduceSum over a row: A2 runs it as repeat reductions (ReduceRepeat, 7 cycles per
// 256-byte repeat), while a binary Add takes about one cycle per repeat. A row longer than two repeats is
// therefore first folded in halves by Adds into a work row, then summed by one ReduceSum of at most one
// repeat:
//   h = the smallest multiple of a 32-byte block >= m / 2 (so row + h stays 32-byte aligned; m - h <= h);
//   work[0, m - h) = a[0, m - h) + a[h, m), work[m - h, h) = a[m - h, h); then m = h, until m <= one repeat.
// The first fold reads the source row; the later ones fold the work row in place. The elements the first
// fold leaves (a[m - h, h), fewer than two blocks) are copied first (fewer than three blocks), from the
// block boundary below m - h, and the Add then overwrites the part of that copy it covers.
// Every step folds all rows of the tile before the barrier, so a tile pays one barrier per level.
// Numerics: a pairwise sum (the folds) of per-repeat tree sums: at least as accurate as the count form,
// which adds its repeats' sums one after the other.
#pragma once

#include "kernel_operator.h"
#include "dispersion_correction_tiling_data.h"

namespace dispersion_reduce {

using namespace AscendC;

// The first fold point of a row of m elements of C: the smallest multiple of a 32-byte block >= m / 2.
template <typename C>
__aicore__ inline uint32_t FoldPoint(uint32_t m)
{
    constexpr uint32_t kBlock = ONE_BLK_SIZE / sizeof(C);
    return ((m + 1) / 2 + kBlock - 1) / kBlock * kBlock;
}

// dst[i] = sum of the first len elements of row i of src, for rows i < rows at a pitch of `pitch`
// elements (a multiple of a 32-byte block). work: a tile of the same layout; its first len elements of
// every row are overwritten; it may be src itself (the rows are then summed in place and lost) or must
// not overlap it. tmp: ReduceSum's shared buffer. The caller orders the instructions before (src
// written) and after (dst read, work rewritten) as for a ReduceSum.
template <typename C>
__aicore__ inline void RowSums(const LocalTensor<C>& dst, const LocalTensor<C>& src, const LocalTensor<C>& work,
                               const LocalTensor<C>& tmp, uint32_t rows, uint32_t pitch, uint32_t len,
                               bool inPlace)
{
    constexpr uint32_t kBlock = ONE_BLK_SIZE / sizeof(C);
    constexpr uint32_t kRepeat = 256 / sizeof(C);
    // Up to two repeats the folds would cost as much as ReduceSum's second repeat saves.
    if (len <= 2 * kRepeat) {
        for (uint32_t i = 0; i < rows; ++i) ReduceSum(dst[i], src[i * pitch], tmp, static_cast<int32_t>(len));
        return;
    }
    uint32_t m = len;
    uint32_t h = FoldPoint<C>(m);
    const uint32_t keep = (m - h) / kBlock * kBlock;  // block boundary at or below m - h
    if (!inPlace && keep < h) {
        for (uint32_t i = 0; i < rows; ++i) {
            Adds(work[i * pitch + keep], src[i * pitch + keep], static_cast<C>(0), static_cast<int32_t>(h - keep));
        }
        PipeBarrier<PIPE_V>();
    }
    for (uint32_t i = 0; i < rows; ++i) {
        Add(work[i * pitch], src[i * pitch], src[i * pitch + h], static_cast<int32_t>(m - h));
    }
    m = h;
    while (m > kRepeat) {
        PipeBarrier<PIPE_V>();
        h = FoldPoint<C>(m);
        for (uint32_t i = 0; i < rows; ++i) {
            Add(work[i * pitch], work[i * pitch], work[i * pitch + h], static_cast<int32_t>(m - h));
        }
        m = h;
    }
    PipeBarrier<PIPE_V>();
    for (uint32_t i = 0; i < rows; ++i) ReduceSum(dst[i], work[i * pitch], tmp, static_cast<int32_t>(m));
}

// Short rows (DispersionShortRows, dispersion_correction_tiling_data.h): a group of at most kDispersionShortGroup
// rows of a packed tile, each row one repeat of `mask` lanes at a pitch of `pitchBlocks` 32-byte blocks, so that
// every step over the group is one repeat-form instruction.
struct ShortRowGroup {
    uint32_t first;       // the group's first row in the tile (its offset in the per-row statistics)
    uint32_t at;          // the element offset of that row in the tile
    int32_t count;        // rows in the group (the count of instructions over the statistics)
    uint8_t repeats;      // the same, as a repeat count
    uint8_t spreadRepeats;  // Brcb repeats: 8 rows each
    int32_t mask;         // elements per row
    uint8_t pitchBlocks;
    BinaryRepeatParams perRow;   // src1: the row's block of a Spread, read with a block stride of 0
    BinaryRepeatParams rowwise;  // every operand a whole row
    UnaryRepeatParams unary;
};

// The group of the tile's `rows` rows (of `len` elements at a pitch of `pitch` elements of C) that starts at row g0
// (a multiple of kDispersionShortGroup): for (g0 = 0; g0 < rows; g0 += kDispersionShortGroup).
template <typename C>
__aicore__ inline ShortRowGroup MakeShortRowGroup(uint32_t g0, uint32_t rows, uint32_t len, uint32_t pitch)
{
    constexpr uint32_t kBlock = ONE_BLK_SIZE / sizeof(C);
    const uint8_t pb = static_cast<uint8_t>(pitch / kBlock);
    const uint32_t gr = rows - g0 < kDispersionShortGroup ? rows - g0 : kDispersionShortGroup;
    return ShortRowGroup{g0,
                         g0 * pitch,
                         static_cast<int32_t>(gr),
                         static_cast<uint8_t>(gr),
                         static_cast<uint8_t>((gr + 7) / 8),
                         static_cast<int32_t>(len),
                         pb,
                         BinaryRepeatParams(1, 1, 0, pb, pb, 1),
                         BinaryRepeatParams(1, 1, 1, pb, pb, pb),
                         UnaryRepeatParams(1, 1, pb, pb)};
}

// dst[i] = the sum of the group's row i of `tile` (one WholeReduceSum, a row per repeat).
template <typename C>
__aicore__ inline void SumShortRows(const LocalTensor<C>& dst, const LocalTensor<C>& tile, const ShortRowGroup& g)
{
    WholeReduceSum<C>(dst, tile[g.at], g.mask, g.count, 1, 1, g.pitchBlocks);
}

// bc's block i = the group's value i, 8 times (Brcb): read with g.perRow, each row sees its own value.
template <typename C>
__aicore__ inline void Spread(const LocalTensor<C>& bc, const LocalTensor<C>& values, const ShortRowGroup& g)
{
    Brcb(bc, values, g.spreadRepeats, BrcbRepeatParams(1, 8));
}

}  // namespace dispersion_reduce
