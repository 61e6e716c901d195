// LocalMemAllocator: UB, L1 and L0 tensors carved front to back without TPipe (include/basic_api/kernel_tensor.h),
// plus the small kernel utilities that come with such kernels: InitSocState, ascendc_assert and ASSERT.
#pragma once

#include <cstdint>

#include "twin/kernel_tensor.h"
#include "twin/runtime.h"

namespace AscendC {

enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

namespace twin_detail {
// Hands out [offset, offset + bytes) of UB as a fresh range (poisoned, no recorded accesses); fails past
// the UB's end.
uint8_t* CarveUb(const char* call, uint32_t offset, uint64_t bytes);
}  // namespace twin_detail

// The physical memory of a logical position on A2 (GetPhyType, impl/basic_api/kernel_event.h, dav-2201) and
// the position a LocalMemAllocator hands out when the call names none (GetDefaultPosition).
constexpr Hardware GetPhyType(TPosition pos)
{
    switch (pos) {
        case TPosition::GM: return Hardware::GM;
        case TPosition::VECIN: case TPosition::VECOUT: case TPosition::VECCALC: return Hardware::UB;
        case TPosition::A1: case TPosition::B1: case TPosition::C1: return Hardware::L1;
        case TPosition::A2: return Hardware::L0A;
        case TPosition::B2: return Hardware::L0B;
        case TPosition::CO1: return Hardware::L0C;
        case TPosition::C2: return Hardware::BIAS;
        case TPosition::C2PIPE2GM: return Hardware::FIXBUF;
        default: return Hardware::MAX;
    }
}
constexpr TPosition GetDefaultPosition(Hardware hard)
{
    switch (hard) {
        case Hardware::UB: return TPosition::VECCALC;
        case Hardware::L1: return TPosition::A1;
        case Hardware::L0A: return TPosition::A2;
        case Hardware::L0B: return TPosition::B2;
        case Hardware::L0C: return TPosition::CO1;
        case Hardware::BIAS: return TPosition::C2;
        case Hardware::FIXBUF: return TPosition::C2PIPE2GM;
        default: return TPosition::MAX;
    }
}

// Tensors carved front to back from address 0 of one memory. Like the device, it does not round tensor sizes
// up: a UB tile whose size is not a multiple of 32 bytes leaves the next tensor unaligned, and the first vector
// instruction or DataCopy on it fails the alignment rule. UB tiles come back poisoned with no recorded accesses;
// tiles of the cube core's L1/L0A/L0B/L0C/BT are static tensors at head_ (LocalTensor(pos, addr, tileSize):
// 32-byte aligned, inside the memory, on a core that has it); FIXBUF tiles are Fixpipe Buffer tensors
// (C2PIPE2GM, its 2048 bytes of quantisation words; their users ask for 128-byte alignment).
template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
public:
    static_assert(hard != Hardware::GM && hard != Hardware::MAX, "illegal hardware position GM or MAX");

    __aicore__ inline LocalMemAllocator() {}
    __aicore__ inline uint32_t GetCurAddr() const { return head_; }

    template <TPosition pos, class DataType, uint32_t tileSize>
    __aicore__ inline LocalTensor<DataType> Alloc()
    {
        static_assert(GetPhyType(pos) == hard, "logic pos and hardware pos not matched.");
        return Carve<DataType>(pos, tileSize);
    }
    template <TPosition pos, class DataType>
    __aicore__ inline LocalTensor<DataType> Alloc(uint32_t tileSize)
    {
        static_assert(GetPhyType(pos) == hard, "logic pos and hardware pos not matched.");
        return Carve<DataType>(pos, tileSize);
    }
    template <class DataType, uint32_t tileSize>
    __aicore__ inline LocalTensor<DataType> Alloc()
    {
        return Carve<DataType>(GetDefaultPosition(hard), tileSize);
    }
    template <class DataType>
    __aicore__ inline LocalTensor<DataType> Alloc(uint32_t tileSize)
    {
        return Carve<DataType>(GetDefaultPosition(hard), tileSize);
    }

private:
    template <class DataType>
    LocalTensor<DataType> Carve(TPosition pos, uint32_t tileSize)
    {
        const uint64_t bytes = static_cast<uint64_t>(tileSize) * sizeof(DataType);
        LocalTensor<DataType> t;
        uint8_t* mem = hard == Hardware::UB ? twin_detail::CarveUb("LocalMemAllocator::Alloc", head_, bytes)
                                            : twin_detail::StaticUbTensor("LocalMemAllocator::Alloc", pos, head_, bytes);
        twin_detail::TwinBind(t, reinterpret_cast<DataType*>(mem), tileSize, pos, {});
        head_ += static_cast<uint32_t>(bytes);
        return t;
    }

    uint32_t head_ = 0;
};

// Resets the core's SoC state (masks, atomics) at kernel start; the twin keeps none across kernels.
__aicore__ inline void InitSocState() {}

}  // namespace AscendC

namespace ascend_twin {
[[noreturn]] void FailAssert(const char* expr, const char* file, int line);
}

// A failed kernel assertion stops the kernel (a trap on the NPU): a rule violation naming the expression.
// assert (utils/debug/asc_assert.h, which kernel_operator.h includes through the dump-tensor interface)
// replaces the C library's macro in kernel code: assert(expr) or assert(expr, fmt, args...), the message
// printed on failure (the twin reports the expression). Both are empty with NDEBUG or ASCENDC_DUMP=0, as on
// the device.
#include <cassert>
#undef assert
#undef ascendc_assert
#if !(defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0) && !defined(NDEBUG)
#define ascendc_assert(...) ASCEND_TWIN_ASSERT_FIRST(__VA_ARGS__, "")
#define ASCEND_TWIN_ASSERT_FIRST(expr, ...) \
    (static_cast<bool>(expr) ? void(0) : ascend_twin::FailAssert(#expr, __FILE__, __LINE__))
#else
#define ascendc_assert(...)
#endif
#define assert(...) ascendc_assert(__VA_ARGS__)

// ASSERT (impl/basic_api/kernel_macros.h): checked like assert() in the CPU debug build, reported the same
// way as ascendc_assert. The device build defines it empty, so its expression is never compiled there: names
// in it resolve in AscendC as well (a sample's ASSERT(GetBlockNum() != 0) outside the namespace compiles on
// the device and here).
#ifndef ASSERT
#define ASSERT(x)                                                                                            \
    ([&]() -> bool {                                                                                         \
        using namespace AscendC;                                                                             \
        return static_cast<bool>(x);                                                                         \
    }()                                                                                                      \
         ? void(0)                                                                                           \
         : ascend_twin::FailAssert(#x, __FILE__, __LINE__))
#endif

// ASCENDC_ASSERT(cond, behavior) and KERNEL_LOG(level, format, ...) (impl/basic_api/kernel_log.h): the device
// build defines both empty, so neither the condition nor the behavior (typically a KERNEL_LOG(KERNEL_ERROR,
// ...)) is compiled there; the CPU debug build checks the condition, runs the behavior and aborts. The twin
// checks the condition as ASSERT does (names resolving in AscendC too) and, as the device build, drops the
// behavior and the log: KERNEL_LOG's level (KERNEL_ERROR, ...) is a token the device build never sees.
#ifndef ASCENDC_ASSERT
#define ASCENDC_ASSERT(cond, behavior) ASSERT(cond)
#endif
#ifndef KERNEL_LOG
#define KERNEL_LOG(level, format, ...) ((void)0)
#endif
