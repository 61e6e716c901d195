// The mask/repeat forms ("high-dimensional split", Level 0) of the vector families, and the mask
// register: SetMaskCount/SetMaskNorm/SetVectorMask/ResetMask (include/basic_api/kernel_common.h,
// docs: SIMD计算说明/掩码). One repeat covers 256 bytes: 8 blocks of 32 bytes. Lane j of repeat r is
// element j % (32 / sizeof(T)) of block j / (32 / sizeof(T)), at (r * repStride + block * blkStride) * 32
// bytes from the operand's start. Normal mode: the mask (continuous: the first `mask` lanes; bitwise:
// mask[0] lanes 0..63, mask[1] lanes 64..127) selects the lanes of every one of repeatTime repeats;
// masked-off lanes are neither read nor written. Counter mode: the mask's low 64 bits are the number of
// elements; repeatTime is ignored. With isSetMask = false the mask comes from SetVectorMask. The count
// forms set counter mode themselves and leave normal mode with a full mask behind.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cmath>

#include "twin/hazard.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_vec_more.h"
#include "twin/runtime.h"

namespace AscendC {

enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };

constexpr int32_t DEFAULT_BLK_NUM = 8;
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr uint8_t DEFAULT_REPEAT_STRIDE = 8;
constexpr uint64_t MASK_PLACEHOLDER = 0;

struct BinaryRepeatParams {
    BinaryRepeatParams() {}
    BinaryRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t src0BlkStrideIn, const uint8_t src1BlkStrideIn,
                       const uint8_t dstRepStrideIn, const uint8_t src0RepStrideIn, const uint8_t src1RepStrideIn)
        : dstBlkStride(dstBlkStrideIn),
          src0BlkStride(src0BlkStrideIn),
          src1BlkStride(src1BlkStrideIn),
          dstRepStride(dstRepStrideIn),
          src0RepStride(src0RepStrideIn),
          src1RepStride(src1RepStrideIn)
    {
    }
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

struct UnaryRepeatParams {
    UnaryRepeatParams() {}
    UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn, const uint8_t dstRepStrideIn,
                      const uint8_t srcRepStrideIn)
        : dstBlkStride(dstBlkStrideIn), srcBlkStride(srcBlkStrideIn), dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn)
    {
    }
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t srcRepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
    bool halfBlock = false;
};

__aicore__ inline void SetMaskCount() { ascend_twin::CurrentCore().maskCounter = true; }
__aicore__ inline void SetMaskNorm() { ascend_twin::CurrentCore().maskCounter = false; }
__aicore__ inline void ResetMask()
{
    ascend_twin::CurrentCore().maskHigh = ~0ull;
    ascend_twin::CurrentCore().maskLow = ~0ull;
}

template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ static inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow)
{
    ascend_twin::CurrentCore().maskHigh = mode == MaskMode::COUNTER ? 0 : maskHigh;
    ascend_twin::CurrentCore().maskLow = maskLow;
}

template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ static inline void SetVectorMask(int32_t len)
{
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    if (mode == MaskMode::COUNTER) {
        core.maskHigh = 0;
        core.maskLow = static_cast<uint64_t>(len);
    } else {
        core.maskLow = len >= 64 ? ~0ull : (len <= 0 ? 0 : (1ull << len) - 1);
        core.maskHigh = len >= 128 ? ~0ull : (len <= 64 ? 0 : (1ull << (len - 64)) - 1);
    }
}

namespace twin_detail {

// Axpy's A2 (dst, src) pairs.
template <typename T, typename U>
inline constexpr bool kAxpyPair =
    (std::is_same_v<T, half> && std::is_same_v<U, half>) || (std::is_same_v<T, float> && std::is_same_v<U, float>) ||
    (std::is_same_v<T, float> && std::is_same_v<U, half>)
#if defined(ASCEND_TWIN_ALLOW_FP64)
    || (std::is_same_v<T, double> && std::is_same_v<U, double>)
#endif
    ;

// Which lanes of which repeats a mask-form call processes.
struct Lanes {
    uint32_t perRepeat = 0;
    uint32_t repeats = 0;
    bool counter = false;
    uint64_t count = 0;  // counter mode
    uint64_t low = 0, high = 0;  // normal mode
    bool Active(uint32_t r, uint32_t j) const
    {
        if (counter) return static_cast<uint64_t>(r) * perRepeat + j < count;
        return j < 64 ? (low >> j) & 1u : (high >> (j - 64)) & 1u;
    }
};

// mask: the call's mask argument (array: mask[0..1]; continuous: mask[0] with isArray false). With
// isSetMask it is also left in the mask register, as the device does.
Lanes MaskLanes(const char* call, uint32_t elementSize, bool isSetMask, const uint64_t* mask, bool isArray,
                uint8_t repeatTime);

template <typename T>
T* LaneAddr(const char* call, const char* operand, const LocalTensor<T>& t, uint32_t r, uint32_t j,
            uint32_t blkStride, uint32_t repStride)
{
    constexpr uint32_t perBlock = 32 / sizeof(T);
    const uint64_t elem = (static_cast<uint64_t>(r) * repStride + j / perBlock * blkStride) * perBlock + j % perBlock;
    if (elem >= t.GetSize()) {
        ascend_twin::FailF(call, "UB accesses stay inside the LocalTensor",
                           "operand '%s': repeat %u, lane %u is element %llu of a tensor of %u", operand, r, j,
                           static_cast<unsigned long long>(elem), t.GetSize());
    }
    return twin_detail::TwinData(t) + elem;
}

// The address of lane j of a run [j, e) of lanes in one block; the run's bounds are checked, and a run that
// leaves the tensor fails at its first lane outside, as a lane-by-lane walk would.
template <typename T>
inline T* RunAddr(const char* call, const char* operand, const LocalTensor<T>& t, uint32_t r, uint32_t j, uint32_t e,
                  uint32_t blkStride, uint32_t repStride)
{
    constexpr uint32_t perBlock = 32 / sizeof(T);
    const uint64_t first = (static_cast<uint64_t>(r) * repStride + j / perBlock * blkStride) * perBlock + j % perBlock;
    if (first + (e - j) > t.GetSize()) {
        for (uint32_t k = j; k < e; ++k) LaneAddr(call, operand, t, r, k, blkStride, repStride);
    }
    return twin_detail::TwinData(t) + first;
}

// One operand's accesses within one instruction, merged while each continues the last (or lies inside what is
// merged: a block read again through a block stride of 0), and recorded as one range when the next does not
// or at the end. An instruction records its merged reads before its merged writes; the bytes recorded are
// exactly the ones accessed.
struct AccessBatch {
    const uint8_t* lo = nullptr;
    const uint8_t* hi = nullptr;
    bool Joins(const void* p, uint64_t n) const
    {
        const uint8_t* b = static_cast<const uint8_t*>(p);
        return lo == nullptr || b == hi || (b >= lo && b + n <= hi);
    }
    void Add(const void* p, uint64_t n)
    {
        const uint8_t* b = static_cast<const uint8_t*>(p);
        if (lo == nullptr) {
            lo = b;
            hi = b + n;
        } else if (b == hi) {
            hi = b + n;
        }
    }
    void Read(ascend_twin::Instr& instr, const char* operand)
    {
        if (lo != nullptr) instr.Read(operand, lo, static_cast<uint64_t>(hi - lo));
        lo = hi = nullptr;
    }
    void Write(ascend_twin::Instr& instr, const char* operand)
    {
        if (lo != nullptr) instr.Write(operand, lo, static_cast<uint64_t>(hi - lo));
        lo = hi = nullptr;
    }
};

// The active lanes [j0, j0 + n) of repeat r as bits (bit i: lane j0 + i); n <= 32 divides 64.
inline uint32_t BlockLaneBits(const Lanes& lanes, uint32_t r, uint32_t j0, uint32_t n)
{
    const uint32_t all = n == 32 ? ~0u : (1u << n) - 1;
    if (lanes.counter) {
        const uint64_t first = static_cast<uint64_t>(r) * lanes.perRepeat + j0;
        if (first >= lanes.count) return 0;
        const uint64_t left = lanes.count - first;
        return left >= n ? all : (1u << left) - 1;
    }
    if (j0 >= 128) {  // beyond the two mask words: lane by lane
        uint32_t bits = 0;
        for (uint32_t i = 0; i < n; ++i) bits |= lanes.Active(r, j0 + i) ? 1u << i : 0u;
        return bits;
    }
    const uint64_t word = j0 < 64 ? lanes.low : lanes.high;
    return static_cast<uint32_t>(word >> (j0 % 64)) & all;
}

// n when the active lanes of repeat r are exactly [0, n) (a continuous mask, counter mode), else UINT32_MAX.
inline uint32_t PrefixLanes(const Lanes& lanes, uint32_t r)
{
    if (lanes.counter) {
        const uint64_t first = static_cast<uint64_t>(r) * lanes.perRepeat;
        if (first >= lanes.count) return 0;
        const uint64_t left = lanes.count - first;
        return static_cast<uint32_t>(left < lanes.perRepeat ? left : lanes.perRepeat);
    }
    if (lanes.perRepeat > 128) return UINT32_MAX;
    const uint32_t nLow = lanes.low == ~0ull ? 64u : static_cast<uint32_t>(__builtin_ctzll(~lanes.low));
    if (nLow < 64) {
        const uint64_t prefix = nLow == 0 ? 0 : (~0ull >> (64 - nLow));
        return lanes.low == prefix && lanes.high == 0 ? nLow : UINT32_MAX;
    }
    const uint32_t nHigh = lanes.high == ~0ull ? 64u : static_cast<uint32_t>(__builtin_ctzll(~lanes.high));
    const uint64_t prefix = nHigh == 0 ? 0 : (~0ull >> (64 - nHigh));
    return lanes.high == prefix ? 64 + nHigh : UINT32_MAX;
}

// Calls run(j, e) for each maximal run [j, e) of active lanes of repeat r that lies inside one 32-byte block
// of perBlock lanes, in lane order. A run's lanes are contiguous in UB for every operand (strides apply
// between blocks), so its accesses are recorded as one range per operand instead of one per lane.
template <typename Run>
inline void ForActiveRuns(const Lanes& lanes, uint32_t r, uint32_t perBlock, Run run)
{
    for (uint32_t j0 = 0; j0 < lanes.perRepeat; j0 += perBlock) {
        const uint32_t n = j0 + perBlock < lanes.perRepeat ? perBlock : lanes.perRepeat - j0;
        uint32_t bits = BlockLaneBits(lanes, r, j0, n);
        while (bits != 0) {
            const uint32_t j = static_cast<uint32_t>(__builtin_ctz(bits));
            const uint32_t rest = ~(bits >> j);  // the run ends at the first inactive lane after j
            const uint32_t len = rest == 0 ? 32 - j : static_cast<uint32_t>(__builtin_ctz(rest));
            run(j0 + j, j0 + j + len);
            bits = j + len >= 32 ? 0 : bits & ~((1u << (j + len)) - 1);
        }
    }
}

// Runs f(dst lane, src lanes...) over the active lanes; srcs are (tensor, blkStride, repStride) triples.
// Accesses are recorded per run of active lanes within a block (ForActiveRuns), in lane order: the bytes
// recorded are exactly the active lanes'.
template <typename T, typename F>
void ForLanes(const char* call, ascend_twin::VecOp op, const Lanes& lanes, const LocalTensor<T>& dst,
              uint32_t dstBlk, uint32_t dstRep, const LocalTensor<T>* src0, uint32_t blk0, uint32_t rep0,
              const LocalTensor<T>* src1, uint32_t blk1, uint32_t rep1, F f)
{
    ascend_twin::CheckUbAligned(call, "dst", twin_detail::TwinData(dst));
    if (src0) ascend_twin::CheckUbAligned(call, "src0", twin_detail::TwinData(*src0));
    if (src1) ascend_twin::CheckUbAligned(call, "src1", twin_detail::TwinData(*src1));
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    constexpr uint32_t perBlock = 32 / sizeof(T);
    uint64_t active = 0;
    AccessBatch ra, rb, wd;
    const auto flush = [&] {
        ra.Read(instr, "src0");
        rb.Read(instr, "src1");
        wd.Write(instr, "dst");
    };
    // A repeat whose active lanes are [0, n) with every operand's blocks contiguous (block stride 1) or one block
    // read again (block stride 0, a source) runs as one loop, with one access range per operand; others run by
    // blocks (ForActiveRuns). Both record the same bytes and compute the lanes in the same order.
    const bool wholeRepeats = dstBlk == 1 && (src0 == nullptr || blk0 <= 1) && (src1 == nullptr || blk1 <= 1);
    const auto inside = [&](const LocalTensor<T>* t, uint32_t r, uint32_t blk, uint32_t rep, uint32_t n) {
        const uint32_t lanesRead = blk == 0 && n > perBlock ? perBlock : n;
        return static_cast<uint64_t>(r) * rep * perBlock + lanesRead <= t->GetSize();
    };
    for (uint32_t r = 0; r < lanes.repeats; ++r) {
        const uint32_t n = wholeRepeats ? PrefixLanes(lanes, r) : UINT32_MAX;
        if (n != UINT32_MAX && inside(&dst, r, dstBlk, dstRep, n) && (!src0 || inside(src0, r, blk0, rep0, n)) &&
            (!src1 || inside(src1, r, blk1, rep1, n))) {
            if (n == 0) continue;
            const T* a = src0 ? twin_detail::TwinData(*src0) + static_cast<uint64_t>(r) * rep0 * perBlock : nullptr;
            const T* b = src1 ? twin_detail::TwinData(*src1) + static_cast<uint64_t>(r) * rep1 * perBlock : nullptr;
            T* d = twin_detail::TwinData(dst) + static_cast<uint64_t>(r) * dstRep * perBlock;
            const uint64_t bytes = static_cast<uint64_t>(n) * sizeof(T);
            const uint64_t aBytes = blk0 == 0 && n > perBlock ? 32 : bytes;
            const uint64_t bBytes = blk1 == 0 && n > perBlock ? 32 : bytes;
            if ((a && !ra.Joins(a, aBytes)) || (b && !rb.Joins(b, bBytes)) || !wd.Joins(d, bytes)) flush();
            if (a) ra.Add(a, aBytes);
            if (b) rb.Add(b, bBytes);
            wd.Add(d, bytes);
            if (a != nullptr && b != nullptr) {
                if (blk0 == 1 && blk1 == 1) {
                    for (uint32_t k = 0; k < n; ++k) d[k] = f(a + k, b + k);
                } else if (blk0 == 1) {  // src1's one block read again: block by block (a loop without k % 8)
                    for (uint32_t k0 = 0; k0 < n; k0 += perBlock) {
                        const uint32_t m = n - k0 < perBlock ? n - k0 : perBlock;
                        for (uint32_t k = 0; k < m; ++k) d[k0 + k] = f(a + k0 + k, b + k);
                    }
                } else {
                    for (uint32_t k = 0; k < n; ++k) d[k] = f(a + (blk0 ? k : k % perBlock), b + (blk1 ? k : k % perBlock));
                }
            } else if (a != nullptr) {
                for (uint32_t k = 0; k < n; ++k) d[k] = f(a + (blk0 ? k : k % perBlock), static_cast<const T*>(nullptr));
            } else {
                for (uint32_t k = 0; k < n; ++k) d[k] = f(static_cast<const T*>(nullptr), static_cast<const T*>(nullptr));
            }
            active += n;
            continue;
        }
        ForActiveRuns(lanes, r, perBlock, [&](uint32_t j, uint32_t e) {
            const uint32_t n = e - j;
            const uint64_t bytes = static_cast<uint64_t>(n) * sizeof(T);
            const T* a = src0 ? RunAddr(call, "src0", *src0, r, j, e, blk0, rep0) : nullptr;
            const T* b = src1 ? RunAddr(call, "src1", *src1, r, j, e, blk1, rep1) : nullptr;
            T* d = RunAddr(call, "dst", dst, r, j, e, dstBlk, dstRep);
            if ((a && !ra.Joins(a, bytes)) || (b && !rb.Joins(b, bytes)) || !wd.Joins(d, bytes)) flush();
            if (a) ra.Add(a, bytes);
            if (b) rb.Add(b, bytes);
            wd.Add(d, bytes);
            if (a != nullptr && b != nullptr) {
                for (uint32_t k = 0; k < n; ++k) d[k] = f(a + k, b + k);
            } else if (a != nullptr) {
                for (uint32_t k = 0; k < n; ++k) d[k] = f(a + k, static_cast<const T*>(nullptr));
            } else {
                for (uint32_t k = 0; k < n; ++k) d[k] = f(static_cast<const T*>(nullptr), static_cast<const T*>(nullptr));
            }
            active += n;
        });
    }
    flush();
    const uint64_t repeats =
        lanes.counter ? (lanes.count + lanes.perRepeat - 1) / lanes.perRepeat : static_cast<uint64_t>(lanes.repeats);
    ascend_twin::CountVec(op, active, repeats);
}

}  // namespace twin_detail

namespace twin_detail {

template <typename T, bool isSetMask, typename F>
void BinaryRepeat(const char* call, ascend_twin::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                  const LocalTensor<T>& src1, const uint64_t* mask, bool isArray, uint8_t repeatTime,
                  const BinaryRepeatParams& p, F f)
{
    const Lanes lanes = MaskLanes(call, sizeof(T), isSetMask, mask, isArray, repeatTime);
    ForLanes(call, op, lanes, dst, p.dstBlkStride, p.dstRepStride, &src0, p.src0BlkStride, p.src0RepStride, &src1,
             p.src1BlkStride, p.src1RepStride, [&](const T* a, const T* b) {
                 return static_cast<T>(f(static_cast<Compute<T>>(*a), static_cast<Compute<T>>(*b)));
             });
}

template <typename T, bool isSetMask, typename F>
void UnaryRepeat(const char* call, ascend_twin::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                 const uint64_t* mask, bool isArray, uint8_t repeatTime, const UnaryRepeatParams& p, F f)
{
    const Lanes lanes = MaskLanes(call, sizeof(T), isSetMask, mask, isArray, repeatTime);
    ForLanes(call, op, lanes, dst, p.dstBlkStride, p.dstRepStride, &src, p.srcBlkStride, p.srcRepStride,
             static_cast<const LocalTensor<T>*>(nullptr), 0, 0,
             [&](const T* a, const T*) { return static_cast<T>(f(static_cast<Compute<T>>(*a))); });
}

}  // namespace twin_detail

#define ASCEND_TWIN_ARITH twin_detail::kVecArithType<T>, "int16_t, half, int32_t and float"
#define ASCEND_TWIN_FLOAT twin_detail::kHalfFloat<T>, "half and float"
#define ASCEND_TWIN_BITS (twin_detail::kOneOf<T, int16_t, uint16_t>), "int16_t and uint16_t"

// Binary: dst = EXPR(a, b) over the lanes.
#define ASCEND_TWIN_BINARY_REPEAT(NAME, OP, TYPES, EXPR)                                                          \
    template <typename T, bool isSetMask = true>                                                                \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) \
    {                                                                                                           \
        static_assert(TYPES);                                                                                   \
        twin_detail::BinaryRepeat<T, isSetMask>(#NAME, ascend_twin::VecOp::OP, dst, src0, src1, mask, true,      \
                                                repeatTime, repeatParams, [](auto a, auto b) { return EXPR; });  \
    }                                                                                                           \
    template <typename T, bool isSetMask = true>                                                                \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) \
    {                                                                                                           \
        static_assert(TYPES);                                                                                   \
        const uint64_t bits[2] = {mask, 0};                                                                     \
        twin_detail::BinaryRepeat<T, isSetMask>(#NAME, ascend_twin::VecOp::OP, dst, src0, src1, bits, false,     \
                                                repeatTime, repeatParams, [](auto a, auto b) { return EXPR; });  \
    }

ASCEND_TWIN_BINARY_REPEAT(Add, kAdd, ASCEND_TWIN_ARITH, a + b)
ASCEND_TWIN_BINARY_REPEAT(Sub, kSub, ASCEND_TWIN_ARITH, a - b)
ASCEND_TWIN_BINARY_REPEAT(Mul, kMul, ASCEND_TWIN_ARITH, a * b)
ASCEND_TWIN_BINARY_REPEAT(Max, kMax, ASCEND_TWIN_ARITH, a > b ? a : b)
ASCEND_TWIN_BINARY_REPEAT(Min, kMin, ASCEND_TWIN_ARITH, a < b ? a : b)
ASCEND_TWIN_BINARY_REPEAT(Div, kDiv, ASCEND_TWIN_FLOAT, a / b)
ASCEND_TWIN_BINARY_REPEAT(And, kAnd, ASCEND_TWIN_BITS, a & b)
ASCEND_TWIN_BINARY_REPEAT(Or, kOr, ASCEND_TWIN_BITS, a | b)
#undef ASCEND_TWIN_BINARY_REPEAT

// Unary: dst = EXPR(a).
#define ASCEND_TWIN_UNARY_REPEAT(NAME, OP, TYPES, EXPR)                                                           \
    template <typename T, bool isSetMask = true>                                                                \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask[],          \
                                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams)                \
    {                                                                                                           \
        static_assert(TYPES);                                                                                   \
        twin_detail::UnaryRepeat<T, isSetMask>(#NAME, ascend_twin::VecOp::OP, dst, src, mask, true, repeatTime,   \
                                               repeatParams, [](auto a) { return EXPR; });                      \
    }                                                                                                           \
    template <typename T, bool isSetMask = true>                                                                \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,            \
                                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams)                \
    {                                                                                                           \
        static_assert(TYPES);                                                                                   \
        const uint64_t bits[2] = {mask, 0};                                                                     \
        twin_detail::UnaryRepeat<T, isSetMask>(#NAME, ascend_twin::VecOp::OP, dst, src, bits, false, repeatTime,  \
                                               repeatParams, [](auto a) { return EXPR; });                      \
    }

ASCEND_TWIN_UNARY_REPEAT(Exp, kExp, ASCEND_TWIN_FLOAT, std::exp(a))
ASCEND_TWIN_UNARY_REPEAT(Ln, kLn, ASCEND_TWIN_FLOAT, std::log(a))
ASCEND_TWIN_UNARY_REPEAT(Abs, kAbs, ASCEND_TWIN_FLOAT, std::fabs(a))
ASCEND_TWIN_UNARY_REPEAT(Reciprocal, kReciprocal, ASCEND_TWIN_FLOAT, 1 / a)
ASCEND_TWIN_UNARY_REPEAT(Sqrt, kSqrt, ASCEND_TWIN_FLOAT, std::sqrt(a))
ASCEND_TWIN_UNARY_REPEAT(Rsqrt, kRsqrt, ASCEND_TWIN_FLOAT, 1 / std::sqrt(a))
ASCEND_TWIN_UNARY_REPEAT(Relu, kRelu, (twin_detail::kHalfFloat<T> || std::is_same_v<T, int32_t>),
                         a > 0 ? a : decltype(a)(0))
ASCEND_TWIN_UNARY_REPEAT(Not, kNot, ASCEND_TWIN_BITS, ~a)
#undef ASCEND_TWIN_UNARY_REPEAT

// Binary with a scalar: dst = EXPR(a, s).
#define ASCEND_TWIN_SCALAR_REPEAT(NAME, OP, TYPES, EXPR)                                                          \
    template <typename T, bool isSetMask = true>                                                                \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,     \
                                uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) \
    {                                                                                                           \
        static_assert(TYPES);                                                                                   \
        const auto s = static_cast<twin_detail::Compute<T>>(scalarValue);                                      \
        twin_detail::UnaryRepeat<T, isSetMask>(#NAME, ascend_twin::VecOp::OP, dst, src, mask, true, repeatTime,   \
                                               repeatParams, [s](auto a) { return EXPR; });                     \
    }                                                                                                           \
    template <typename T, bool isSetMask = true>                                                                \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,     \
                                uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) \
    {                                                                                                           \
        static_assert(TYPES);                                                                                   \
        const uint64_t bits[2] = {mask, 0};                                                                     \
        const auto s = static_cast<twin_detail::Compute<T>>(scalarValue);                                      \
        twin_detail::UnaryRepeat<T, isSetMask>(#NAME, ascend_twin::VecOp::OP, dst, src, bits, false, repeatTime,  \
                                               repeatParams, [s](auto a) { return EXPR; });                     \
    }

ASCEND_TWIN_SCALAR_REPEAT(Adds, kAdds, ASCEND_TWIN_ARITH, a + s)
ASCEND_TWIN_SCALAR_REPEAT(Muls, kMuls, ASCEND_TWIN_ARITH, a * s)
ASCEND_TWIN_SCALAR_REPEAT(Maxs, kMaxs, ASCEND_TWIN_ARITH, a > s ? a : s)
ASCEND_TWIN_SCALAR_REPEAT(Mins, kMins, ASCEND_TWIN_ARITH, a < s ? a : s)
ASCEND_TWIN_SCALAR_REPEAT(LeakyRelu, kLeakyRelu, ASCEND_TWIN_FLOAT, a >= 0 ? a : a * s)
#undef ASCEND_TWIN_SCALAR_REPEAT

// Axpy's mask/repeat forms: dst = src * scalar + dst over the lanes; a repeat has 256 bytes of the wider
// type (dst: half/half 128 lanes, float/float and float/half 64). half -> float must not overlap (docs).
namespace twin_detail {

template <typename T, typename U, bool isSetMask>
void AxpyRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, U scalarValue, const uint64_t* mask,
                bool isArray, uint8_t repeatTime, const UnaryRepeatParams& p)
{
    const Lanes lanes = MaskLanes("Axpy", sizeof(T), isSetMask, mask, isArray, repeatTime);
    ascend_twin::CheckUbAligned("Axpy", "dst", twin_detail::TwinData(dst));
    ascend_twin::CheckUbAligned("Axpy", "src", twin_detail::TwinData(src));
    ascend_twin::Instr instr("Axpy", ascend_twin::Pipe::kV);
    using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
    const C s = static_cast<C>(scalarValue);
    const uint8_t *dLo = nullptr, *dHi = nullptr, *sLo = nullptr, *sHi = nullptr;  // spans touched
    uint64_t active = 0;
    for (uint32_t r = 0; r < lanes.repeats; ++r) {
        for (uint32_t j = 0; j < lanes.perRepeat; ++j) {
            if (!lanes.Active(r, j)) continue;
            const U* a = LaneAddr("Axpy", "src", src, r, j, p.srcBlkStride, p.srcRepStride);
            T* d = LaneAddr("Axpy", "dst", dst, r, j, p.dstBlkStride, p.dstRepStride);
            const uint8_t* ab = reinterpret_cast<const uint8_t*>(a);
            const uint8_t* db = reinterpret_cast<const uint8_t*>(d);
            if (!sLo || ab < sLo) sLo = ab;
            if (!sHi || ab + sizeof(U) > sHi) sHi = ab + sizeof(U);
            if (!dLo || db < dLo) dLo = db;
            if (!dHi || db + sizeof(T) > dHi) dHi = db + sizeof(T);
            instr.Read("src", a, sizeof(U));
            instr.Read("dst", d, sizeof(T));
            instr.Write("dst", d, sizeof(T));
            *d = static_cast<T>(static_cast<C>(*a) * s + static_cast<C>(*d));
            ++active;
        }
    }
    if constexpr (!std::is_same_v<T, U>) {
        if (active && dLo < sHi && sLo < dHi) FailAxpyOverlap();
    }
    const uint64_t repeats =
        lanes.counter ? (lanes.count + lanes.perRepeat - 1) / lanes.perRepeat : static_cast<uint64_t>(lanes.repeats);
    ascend_twin::CountVec(ascend_twin::VecOp::kAxpy, active, repeats);
}
}  // namespace twin_detail

#define ASCEND_TWIN_AXPY_TYPES                                                                                   \
    (twin_detail::kAxpyPair<T, U>), "Axpy on A2 supports dst/src half/half, float/float and float/half"
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, uint64_t mask,
                            const uint8_t repeatTime, const UnaryRepeatParams& repeatParams)
{
    static_assert(ASCEND_TWIN_AXPY_TYPES);
    const uint64_t bits[2] = {mask, 0};
    twin_detail::AxpyRepeat<T, U, isSetMask>(dst, src, scalarValue, bits, false, repeatTime, repeatParams);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue,
                            uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams)
{
    static_assert(ASCEND_TWIN_AXPY_TYPES);
    twin_detail::AxpyRepeat<T, U, isSetMask>(dst, src, scalarValue, mask, true, repeatTime, repeatParams);
}
#undef ASCEND_TWIN_AXPY_TYPES

// Duplicate's mask/repeat forms: dst lanes = scalarValue (dtypes as the count form).
#define ASCEND_TWIN_DUP_TYPES                                                                                    \
    (twin_detail::kOneOf<T, half, bfloat16_t, int16_t, uint16_t, int32_t, uint32_t, float> ||                     \
     twin_detail::kHalfFloat<T>),                                                                                 \
        "Duplicate on A2 supports half, bfloat16_t, int16_t, uint16_t, int32_t, uint32_t and float"
template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask,
                                 const uint8_t repeatTime, const uint16_t dstBlockStride, const uint8_t dstRepeatStride)
{
    static_assert(ASCEND_TWIN_DUP_TYPES);
    const uint64_t bits[2] = {mask, 0};
    const twin_detail::Lanes lanes = twin_detail::MaskLanes("Duplicate", sizeof(T), isSetMask, bits, false, repeatTime);
    const T v = scalarValue;
    twin_detail::ForLanes("Duplicate", ascend_twin::VecOp::kDuplicate, lanes, dst, dstBlockStride, dstRepeatStride,
                          static_cast<const LocalTensor<T>*>(nullptr), 0, 0, static_cast<const LocalTensor<T>*>(nullptr),
                          0, 0, [v](const T*, const T*) { return v; });
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask[],
                                 const uint8_t repeatTime, const uint16_t dstBlockStride, const uint8_t dstRepeatStride)
{
    static_assert(ASCEND_TWIN_DUP_TYPES);
    const twin_detail::Lanes lanes = twin_detail::MaskLanes("Duplicate", sizeof(T), isSetMask, mask, true, repeatTime);
    const T v = scalarValue;
    twin_detail::ForLanes("Duplicate", ascend_twin::VecOp::kDuplicate, lanes, dst, dstBlockStride, dstRepeatStride,
                          static_cast<const LocalTensor<T>*>(nullptr), 0, 0, static_cast<const LocalTensor<T>*>(nullptr),
                          0, 0, [v](const T*, const T*) { return v; });
}
#undef ASCEND_TWIN_DUP_TYPES

#undef ASCEND_TWIN_ARITH
#undef ASCEND_TWIN_FLOAT
#undef ASCEND_TWIN_BITS

}  // namespace AscendC
