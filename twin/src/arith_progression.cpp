// The rule checks of ArithProgression / Arange (twin/include/twin/kernel_arith_progression.h).
#include "twin/kernel_arith_progression.h"

namespace AscendC::twin_detail {

uint64_t CheckArithProgression(const char* call, const void* dst, uint64_t dstBytes, TPosition pos, uint32_t typeSize,
                               double diffValue, int32_t count, bool hasPipe)
{
    if (pos != TPosition::VECIN && pos != TPosition::VECCALC && pos != TPosition::VECOUT) {
        ascend_twin::FailF(call, "dstLocal is at VECIN, VECCALC or VECOUT", "dstLocal is at %s", PositionName(pos));
    }
    ascend_twin::CheckUbAligned(call, "dstLocal", dst);
    if (count <= 0) ascend_twin::FailF(call, "count > 0", "count = %d", count);
    if (!(diffValue >= 0.0)) ascend_twin::FailF(call, "diffValue >= 0", "diffValue = %g", diffValue);
    const uint64_t bytes = static_cast<uint64_t>(count) * typeSize;
    if (bytes > dstBytes) {
        ascend_twin::FailF(call, "dstLocal holds count elements (docs: dst的大小应大于等于count * sizeof(T))",
                           "count = %d, dstLocal holds %llu", count,
                           static_cast<unsigned long long>(dstBytes / typeSize));
    }
    const uint64_t block = 32;
    if (bytes > block && !hasPipe) {
        ascend_twin::FailF(call, "a TPipe exists (A2's implementation fetches its S->V event id from GetTPipePtr())",
                           "GetTPipePtr() is null and count = %d exceeds one 32-byte block", count);
    }
    return (bytes + block - 1) / block * block;  // the vector adds cover whole blocks
}

}  // namespace AscendC::twin_detail
