#include "twin/kernel_tpipe.h"
#include "twin/violation.h"
#include "twin/kernel_sys_var.h"

#include "twin/hazard.h"
#include "twin/kernel_local_alloc.h"

#include <cstdio>
#include <algorithm>
#include <cstring>

namespace AscendC::twin_detail {

const char* PositionName(TPosition p)
{
    switch (p) {
        case TPosition::GM: return "GM";
        case TPosition::VECIN: return "VECIN";
        case TPosition::VECOUT: return "VECOUT";
        case TPosition::VECCALC: return "VECCALC";
        case TPosition::A1: return "A1";
        case TPosition::A2: return "A2";
        case TPosition::B1: return "B1";
        case TPosition::B2: return "B2";
        case TPosition::C1: return "C1";
        case TPosition::C2: return "C2";
        case TPosition::CO1: return "CO1";
        case TPosition::CO2: return "CO2";
        case TPosition::SPM: return "SPM";
        case TPosition::TSCM: return "TSCM";
        case TPosition::C2PIPE2GM: return "C2PIPE2GM";
        case TPosition::C2PIPE2LOCAL: return "C2PIPE2LOCAL";
        default: return "other";
    }
}

QueueLabel QueueName(TPosition src, TPosition dst)
{
    QueueLabel label;
    if (src == dst) {
        std::snprintf(label.text, sizeof label.text, "%s", PositionName(src));
    } else {
        std::snprintf(label.text, sizeof label.text, "%s->%s", PositionName(src), PositionName(dst));
    }
    return label;
}

uint32_t UbAllocator::Allocate(const char* call, uint32_t num, uint32_t len, bool queue, TPosition pos)
{
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    if (core.kernelType == KERNEL_TYPE_AIC_ONLY) {
        ascend_twin::Fail(call, "an AI Cube core has no Unified Buffer",
                          "a KERNEL_TYPE_AIC_ONLY kernel asked for UB (vector work needs a vector or MIX kernel)");
    }
    if (len == 0) {
        ascend_twin::Fail(call, "InitBuffer gives each buffer more than 0 bytes", "len is 0");
    }
    if (buffers_ + num > kMaxPipeBuffers) {
        ascend_twin::Fail(call, "a kernel uses at most 64 buffers (TQue buffers and TBufs) per TPipe",
                          std::to_string(buffers_) + " buffers exist, " + std::to_string(num) + " more requested");
    }
    const uint32_t p = static_cast<uint32_t>(pos);
    if (queue && p < kPositions && queueBuffers_[p] + num > static_cast<uint32_t>(kMaxQueueBuffers)) {
        ascend_twin::Fail(call, "at most 8 TQue buffers per position on A2 (one event id each)",
                          std::to_string(queueBuffers_[p]) + " TQue buffers at " + PositionName(pos) + " exist, " +
                              std::to_string(num) + " more requested (on the NPU a later AllocTensor/FreeTensor "
                                                    "would fail to get an event; the twin stops at InitBuffer)");
    }
    const uint64_t bytes = static_cast<uint64_t>(num) * ((len + 31u) / 32u * 32u);
    // InitBuffer may hand out the whole UB (192 KiB on A2). The top 8 KiB (TMP_UB_OFFSET = 184 KiB) is
    // scratch for the instructions that need it (Select, AddDeqRelu); they check it is free.
    const uint64_t capacity = core.platform->ubSize;
    if (next_ + bytes > capacity) {
        ascend_twin::Fail(call, "UB allocations fit in the UB",
                          "asking for " + std::to_string(bytes) + " bytes with " + std::to_string(next_) +
                              " already allocated; " + core.platform->name + " has " + std::to_string(capacity) +
                              " bytes of UB");
    }
    buffers_ += num;
    if (queue && p < kPositions) queueBuffers_[p] += num;
    const uint32_t offset = static_cast<uint32_t>(next_);
    next_ += bytes;
    ascend_twin::ResetUbRange(offset, bytes);  // a fresh range: no accesses yet, nothing written
    // Poisoned with NaN bytes (for every float type): a kernel reading UB it never wrote sees it in its results.
    std::memset(core.ub + offset, 0xff, bytes);
    core.counters.ubBytesAllocated = std::max(core.counters.ubBytesAllocated, next_);
    return offset;
}

}  // namespace AscendC::twin_detail

namespace AscendC::twin_detail {

uint8_t* CarveUb(const char* call, uint32_t offset, uint64_t bytes)
{
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    if (offset + bytes > core.platform->ubSize) {
        ascend_twin::Fail(call, "UB allocations fit in the UB",
                          "asking for " + std::to_string(bytes) + " bytes at UB offset " + std::to_string(offset) +
                              "; " + core.platform->name + " has " + std::to_string(core.platform->ubSize) +
                              " bytes of UB");
    }
    ascend_twin::ResetUbRange(offset, bytes);
    std::memset(core.ub + offset, 0xff, bytes);
    if (offset + bytes > core.counters.ubBytesAllocated) core.counters.ubBytesAllocated = offset + bytes;
    return core.ub + offset;
}

}  // namespace AscendC::twin_detail

namespace ascend_twin {

void FailAssert(const char* expr, const char* file, int line)
{
    Fail("ascendc_assert", "kernel assertions hold",
         std::string("'") + expr + "' is false (" + file + ":" + std::to_string(line) + ")");
}

}  // namespace ascend_twin
