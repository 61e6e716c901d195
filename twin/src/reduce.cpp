// Out-of-line rules of the reduction, compare/select and data-fill headers: ranges, alignment, sizes.
#include <algorithm>
#include <chrono>
#include <string>

#include "kernel_operator.h"
#include "twin/violation.h"

namespace AscendC::twin_detail {

void CheckRepeatRange(const char* call, int64_t repeatTime, int64_t maxRepeat)
{
    if (repeatTime < 0 || repeatTime > maxRepeat) {
        ascend_twin::Fail(call, "repeatTime within its documented range",
                          "repeatTime " + std::to_string(repeatTime) + ", allowed 0.." + std::to_string(maxRepeat));
    }
}

void CheckStride(const char* call, const char* name, int64_t stride)
{
    if (stride < 0 || stride > 65535) {
        ascend_twin::Fail(call, "strides within [0, 65535]", std::string(name) + " " + std::to_string(stride));
    }
}

void CheckAddrAligned(const char* call, const char* operand, const void* addr, uint32_t bytes)
{
    const uint64_t off = ascend_twin::UbOffset(addr);
    if (off % bytes != 0) {
        ascend_twin::Fail(call, "operand start alignment as documented for the instruction",
                          std::string("operand '") + operand + "' starts at UB offset " + std::to_string(off) +
                              ", which is not a multiple of " + std::to_string(bytes) + " bytes");
    }
}

void CheckHolds(const char* call, const char* operand, uint64_t have, uint64_t need)
{
    if (need > have) {
        ascend_twin::Fail(call, "UB accesses stay inside the LocalTensor",
                          std::string("operand '") + operand + "' holds " + std::to_string(have) +
                              ", the call reaches " + std::to_string(need));
    }
}

void CheckWorkSize(const char* call, uint64_t haveElems, uint64_t needElems, uint32_t elemSize)
{
    if (haveElems < needElems) {
        ascend_twin::Fail(call, "sharedTmpBuffer holds the documented work space",
                          "sharedTmpBuffer holds " + std::to_string(haveElems) + " elements (" +
                              std::to_string(haveElems * elemSize) + " bytes), the call needs " +
                              std::to_string(needElems) + " (" + std::to_string(needElems * elemSize) + " bytes)");
    }
}

}  // namespace AscendC::twin_detail

namespace AscendC::twin_detail {

void CheckCmpMode(const char* call, CMPMODE mode, bool isInt32)
{
    const int m = static_cast<int>(mode);
    if (m < 0 || m > static_cast<int>(CMPMODE::NE)) {
        ascend_twin::Fail(call, "cmpMode is one of LT, GT, EQ, LE, GE, NE", "cmpMode " + std::to_string(m));
    }
    if (isInt32 && mode != CMPMODE::EQ) {
        ascend_twin::Fail(call, "int32_t compares only with CMPMODE::EQ on A2",
                          "cmpMode " + std::to_string(m) + " on int32_t");
    }
}

void CheckCountWholeRepeats(const char* call, uint64_t count, uint32_t elemSize)
{
    if (count * elemSize % 256 != 0) {
        ascend_twin::Fail(call, "count elements fill whole 256-byte repeats",
                          "count " + std::to_string(count) + " of " + std::to_string(elemSize) + "-byte elements is " +
                              std::to_string(count * elemSize) + " bytes (the device ignores the partial repeat)");
    }
}

void CheckSelMode(const char* call, SELMODE mode)
{
    const int m = static_cast<int>(mode);
    if (m < 0 || m > static_cast<int>(SELMODE::VSEL_TENSOR_TENSOR_MODE)) {
        ascend_twin::Fail(call, "selMode is VSEL_CMPMASK_SPR, VSEL_TENSOR_SCALAR_MODE or VSEL_TENSOR_TENSOR_MODE",
                          "selMode " + std::to_string(m));
    }
}

uint8_t* SelectScratch(const char* call)
{
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    const uint64_t tmpOffset = core.platform->ubSize - core.platform->ubApiReserved;  // TMP_UB_OFFSET
    if (core.platform->ubApiReserved < 32) return nullptr;
    // What is allocated now: the current TPipe's buffers (none after its Reset) and LocalMemAllocator's.
    TPipe* pipe = GetTPipePtr();
    const uint64_t inUse = std::max<uint64_t>(pipe == nullptr ? 0 : TwinUbEnd(*pipe), core.ubCarvedEnd);
    if (inUse > tmpOffset) {
        ascend_twin::Fail(call, "Select modes 1 and 2 need the top 8 KiB of UB free (scratch at TMP_UB_OFFSET)",
                          "the kernel has UB allocated up to offset " + std::to_string(inUse) +
                              "; Select writes 32 bytes of scratch at offset " + std::to_string(tmpOffset) +
                              " over them");
    }
    return core.ub + tmpOffset;
}

}  // namespace AscendC::twin_detail

namespace AscendC::twin_detail {

int64_t SystemCycle()
{
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::steady_clock::now().time_since_epoch())
                        .count();
    return static_cast<int64_t>(ns / 20);  // 50 MHz: one tick per 20 ns
}

}  // namespace AscendC::twin_detail
