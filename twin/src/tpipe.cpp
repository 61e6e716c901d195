#include "twin/kernel_tpipe.h"
#include "twin/kernel_sys_var.h"

#include <algorithm>

namespace AscendC::twin_detail {

std::string QueueName(TPosition src, TPosition dst)
{
    auto name = [](TPosition p) -> const char* {
        switch (p) {
            case TPosition::VECIN: return "VECIN";
            case TPosition::VECOUT: return "VECOUT";
            case TPosition::VECCALC: return "VECCALC";
            case TPosition::A1: return "A1";
            case TPosition::A2: return "A2";
            case TPosition::B1: return "B1";
            case TPosition::B2: return "B2";
            case TPosition::CO1: return "CO1";
            case TPosition::CO2: return "CO2";
            default: return "other";
        }
    };
    return src == dst ? std::string(name(src)) : std::string(name(src)) + "->" + name(dst);
}

uint32_t UbAllocator::Allocate(const char* call, uint64_t bytes)
{
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    if (core.kernelType == KERNEL_TYPE_AIC_ONLY) {
        ascend_twin::Fail(call, "an AI Cube core has no Unified Buffer",
                          "a KERNEL_TYPE_AIC_ONLY kernel asked for " + std::to_string(bytes) +
                              " bytes of UB (vector work needs a vector or MIX kernel)");
    }
    const uint64_t capacity = ascend_ext::UbUsable(*core.platform);
    if (next_ + bytes > capacity) {
        ascend_twin::Fail(call, "UB allocations fit in the UB",
                          "asking for " + std::to_string(bytes) + " bytes with " + std::to_string(next_) +
                              " already allocated; " + core.platform->name + " gives a kernel " +
                              std::to_string(capacity) + " bytes of UB");
    }
    const uint32_t offset = static_cast<uint32_t>(next_);
    next_ += bytes;
    core.counters.ubBytesAllocated = std::max(core.counters.ubBytesAllocated, next_);
    return offset;
}

}  // namespace AscendC::twin_detail
