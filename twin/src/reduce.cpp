// Out-of-line rules of the reduction, compare/select and data-fill headers: ranges, alignment, sizes.
#include <string>

#include "kernel_operator.h"

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
