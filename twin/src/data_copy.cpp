#include "twin/kernel_data_copy.h"

namespace AscendC::twin_detail {

void CheckCopyLength(const char* call, uint64_t bytes)
{
    if (bytes % 32 != 0) {
        ascend_twin::Fail(call, "DataCopy moves whole 32-byte blocks",
                          std::to_string(bytes) + " bytes requested, not a multiple of 32 (the NPU would silently "
                                                  "drop the last " + std::to_string(bytes % 32) +
                              " bytes); copy unaligned lengths with DataCopyPad");
    }
}

void CheckUbRange(const char* call, const char* operand, uint64_t needBytes, uint64_t haveBytes)
{
    if (needBytes > haveBytes) {
        ascend_twin::Fail(call, "UB accesses stay inside the LocalTensor",
                          std::string("operand '") + operand + "' needs " + std::to_string(needBytes) +
                              " bytes but the tensor holds " + std::to_string(haveBytes));
    }
}

void CheckGmElementAligned(const char* call, const void* gm, uint32_t elementSize)
{
    if (reinterpret_cast<uintptr_t>(gm) % elementSize != 0) {
        ascend_twin::Fail(call, "GM addresses of DataCopy are aligned to the element size",
                          "address " + ascend_twin::Hex(reinterpret_cast<uintptr_t>(gm)) + " for " +
                              std::to_string(elementSize) + "-byte elements");
    }
}

void CountCopy() { ++ascend_twin::CurrentCore().counters.dataCopyCalls; }

}  // namespace AscendC::twin_detail
