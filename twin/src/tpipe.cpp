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

uint32_t UbAllocator::Allocate(const char* call, uint32_t num, uint32_t len)
{
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    if (core.kernelType == KERNEL_TYPE_AIC_ONLY) {
        ascend_twin::Fail(call, "an AI Cube core has no Unified Buffer",
                          "a KERNEL_TYPE_AIC_ONLY kernel asked for UB (vector work needs a vector or MIX kernel)");
    }
    if (len == 0) {
        ascend_twin::Fail(call, "InitBuffer gives each buffer more than 0 bytes", "len is 0");
    }
    if (buffers_ + num > maxBuffers_) {
        if (limit_ == 0) {
            ascend_twin::Fail(call, "a kernel uses at most 64 buffers (TQue buffers and TBufs) per TPipe",
                              std::to_string(buffers_) + " buffers exist, " + std::to_string(num) + " more requested");
        }
        ascend_twin::Fail(call, "a TBufPool hands out at most bufIDSize buffers",
                          "the pool's bufIDSize is " + std::to_string(maxBuffers_) + "; " + std::to_string(buffers_) +
                              " buffers exist, " + std::to_string(num) + " more requested");
    }
    const uint64_t bytes = static_cast<uint64_t>(num) * ((len + 31u) / 32u * 32u);
    // InitBuffer may hand out the whole UB (192 KiB on A2). The top 8 KiB (TMP_UB_OFFSET = 184 KiB) is
    // scratch for the instructions that need it (Select, AddDeqRelu); they check it is free.
    if (limit_ != 0 && next_ + bytes > limit_) {
        ascend_twin::Fail(call, "a TBufPool's buffers fit in the pool",
                          "asking for " + std::to_string(bytes) + " bytes with " + std::to_string(next_ - base_) +
                              " of the pool's " + std::to_string(limit_ - base_) + " bytes handed out");
    }
    const uint64_t capacity = core.platform->ubSize;
    if (next_ + bytes > capacity) {
        ascend_twin::Fail(call, "UB allocations fit in the UB",
                          "asking for " + std::to_string(bytes) + " bytes with " + std::to_string(next_) +
                              " already allocated; " + core.platform->name + " has " + std::to_string(capacity) +
                              " bytes of UB");
    }
    buffers_ += num;
    const uint32_t offset = static_cast<uint32_t>(next_);
    next_ += bytes;
    ascend_twin::ResetUbRange(offset, bytes);  // a fresh range: no accesses yet, nothing written
    // Poisoned with NaN bytes (for every float type): a kernel reading UB it never wrote sees it in its results.
    std::memset(core.ub + offset, 0xff, bytes);
    core.counters.ubBytesAllocated = std::max(core.counters.ubBytesAllocated, next_);
    return offset;
}

uint32_t UbAllocator::AllocatePool(const char* call, uint32_t bytes)
{
    const uint64_t len = (static_cast<uint64_t>(bytes) + 31u) / 32u * 32u;
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    const uint64_t end = limit_ != 0 ? limit_ : core.platform->ubSize;
    if (next_ + len > end) {
        ascend_twin::Fail(call, limit_ != 0 ? "a TBufPool's sub-pools fit in the pool" : "UB allocations fit in the UB",
                          "a pool of " + std::to_string(len) + " bytes asked with " + std::to_string(next_ - base_) +
                              " of " + std::to_string(end - base_) + " bytes handed out");
    }
    const uint32_t offset = static_cast<uint32_t>(next_);
    next_ += len;
    core.counters.ubBytesAllocated = std::max(core.counters.ubBytesAllocated, next_);
    return offset;
}

namespace {
int CountBits(uint8_t bits) { return __builtin_popcount(bits); }
}  // namespace

int8_t EventPool::Alloc(const char* call, HardEvent evt, EventHolder holder)
{
    const uint32_t e = static_cast<uint32_t>(evt);
    for (int8_t id = 0; id < kMaxEventIds; ++id) {
        const uint8_t bit = static_cast<uint8_t>(1u << id);
        if ((used_[e] & bit) == 0) {
            used_[e] |= bit;
            if (holder != EventHolder::kKernel) queue_[e] |= bit;
            if (holder == EventHolder::kQueueFree) queueFree_[e] |= bit;
            return id;
        }
    }
    Exhausted(call, evt);
}

int8_t EventPool::First(const char* call, HardEvent evt) const
{
    const uint8_t used = used_[static_cast<uint32_t>(evt)];
    for (int8_t id = 0; id < kMaxEventIds; ++id) {
        if ((used & (1u << id)) == 0) return id;
    }
    Exhausted(call, evt);
}

void EventPool::Exhausted(const char* call, HardEvent evt) const
{
    const uint32_t e = static_cast<uint32_t>(evt);
    const int freed = CountBits(queueFree_[e]);
    const int queued = CountBits(static_cast<uint8_t>(queue_[e] & ~queueFree_[e]));
    const int kernel = CountBits(static_cast<uint8_t>(used_[e] & ~queue_[e]));
    ascend_twin::FailF(call, "at most 8 event ids per HardEvent are taken at a time on A2 (QUE_MAX_EVENT)",
                       "all 8 ids of HardEvent::%s are taken: %d by freed TQue buffers until their next AllocTensor, "
                       "%d by enqueued ones until DeQue, %d by AllocEventID. More TQue buffers at one position than "
                       "event ids take turns only with FreeAllEvent (TQue docs, TQue Buffer限制); release kernel ids "
                       "with ReleaseEventID",
                       Pipes(evt).name, freed, queued, kernel);
}

void EventPool::Release(HardEvent evt, int32_t id)
{
    const uint32_t e = static_cast<uint32_t>(evt);
    const uint8_t keep = static_cast<uint8_t>(~(1u << id));
    used_[e] &= keep;
    queue_[e] &= keep;
    queueFree_[e] &= keep;
}

void EventPool::WaitQueueFreeFlags()
{
    for (uint32_t e = 0; e < kHardEvents; ++e) {
        for (int32_t id = 0; queueFree_[e] != 0 && id < kMaxEventIds; ++id) {
            if (((queueFree_[e] >> id) & 1u) && ascend_twin::FlagIsSet(e, id)) {
                QueueWaitFlag("TPipe::Destroy", static_cast<HardEvent>(e), id);
            }
        }
    }
}

void EventPool::Clear()
{
    for (uint32_t e = 0; e < kHardEvents; ++e) used_[e] = queue_[e] = queueFree_[e] = 0;
}

void QueueSetFlag(const char* call, HardEvent evt, int32_t id)
{
    const EventPipes& p = Pipes(evt);
    if (!ascend_twin::TrySetFlag(p.name, p.src, id, static_cast<uint32_t>(evt))) {
        ascend_twin::FailF(call, "a queue's event id is not set by the kernel's own SetFlag",
                           "the queue took id %d of HardEvent::%s from the TPipe, which a kernel SetFlag<HardEvent::%s>"
                           "(%d) the TPipe did not reserve it for has set (a hand-picked id, or one from FetchEventID "
                           "not waited for at once): under TPipe, kernel ids come from AllocEventID, or from "
                           "FetchEventID for a SetFlag/WaitFlag pair with nothing between (SetFlag docs)",
                           static_cast<int>(id), p.name, p.name, static_cast<int>(id));
    }
}

void QueueWaitFlag(const char* call, HardEvent evt, int32_t id)
{
    const EventPipes& p = Pipes(evt);
    if (!ascend_twin::TryWaitFlag(p.dst, id, static_cast<uint32_t>(evt))) {
        ascend_twin::FailF(call, "a queue's flag is waited for by the queue only",
                           "the flag of HardEvent::%s id %d that the queue set is no longer set: a kernel WaitFlag "
                           "with an id it did not take from AllocEventID/FetchEventID consumed it (SetFlag docs)",
                           p.name, static_cast<int>(id));
    }
}

uint32_t PipeGeneration() { return ascend_twin::CurrentCore().pipeGeneration; }
uint32_t NextPipeGeneration() { return ++ascend_twin::CurrentCore().pipeGeneration; }

void CheckKernelEventId(const char* call, uint32_t eventIndex, int32_t eventID)
{
    TPipe* pipe = GetTPipePtr();
    if (pipe == nullptr) return;  // static tensor programming: the kernel manages its ids (SetFlag docs)
    const HardEvent evt = static_cast<HardEvent>(eventIndex);
    if (ascend_twin::internal::Access::Resources(*pipe).events.HeldByQueue(evt, eventID)) {
        ascend_twin::FailF(call, "under TPipe, SetFlag/WaitFlag ids come from AllocEventID or FetchEventID",
                           "id %d of HardEvent::%s is held by a TQue buffer of the TPipe (its EnQue/FreeTensor flag): "
                           "the two flags collide (SetFlag docs)",
                           static_cast<int>(eventID), Pipes(evt).name);
    }
}

}  // namespace AscendC::twin_detail

namespace AscendC::twin_detail {

uint8_t* StaticUbTensor(const char* call, TPosition pos, uint32_t addr, uint64_t bytes)
{
    const bool cube = CubeMemoryOf(pos) >= 0;
    if (!cube && pos != TPosition::VECIN && pos != TPosition::VECOUT && pos != TPosition::VECCALC) {
        ascend_twin::FailF(call, "a static tensor's position is a memory the core has",
                           "TPosition::%s: static LocalTensors live in UB (VECIN, VECOUT, VECCALC) or in the cube "
                           "core's L1 (A1, B1, C1), L0A (A2), L0B (B2), L0C (CO1), BT (C2) or Fixpipe Buffer "
                           "(C2PIPE2GM)",
                           PositionName(pos));
    }
    if (addr % 32 != 0) {
        ascend_twin::FailF(call, "a static tensor's address is 32-byte aligned", "addr %u", addr);
    }
    if (cube) return StaticCubeTensor(call, pos, addr, bytes);
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    if (addr + bytes > core.platform->ubSize) {
        ascend_twin::Fail(call, "a static tensor lies inside its memory",
                          std::to_string(bytes) + " bytes at UB address " + std::to_string(addr) + "; " +
                              core.platform->name + " has " + std::to_string(core.platform->ubSize) + " bytes of UB");
    }
    if (addr + bytes > core.counters.ubBytesAllocated) core.counters.ubBytesAllocated = addr + bytes;
    if (addr + bytes > core.ubCarvedEnd) core.ubCarvedEnd = addr + bytes;
    return core.ub + addr;
}

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
    if (offset + bytes > core.ubCarvedEnd) core.ubCarvedEnd = offset + bytes;
    return core.ub + offset;
}

}  // namespace AscendC::twin_detail

namespace AscendC {

void TPipe::Release(bool reset)
{
    res_.events.WaitQueueFreeFlags();  // never fails: it waits only flags that are set (also while unwinding)
    if (reset) {
        res_.events.Clear();
        res_.ub.Window(0, 0, twin_detail::kMaxPipeBuffers);
        for (uint64_t& next : res_.cubeNext) next = 0;
        res_.tscmUsed = 0;
    } else {
        ascend_twin::BarrierAll();
    }
}

}  // namespace AscendC

namespace ascend_twin {

void FailAssert(const char* expr, const char* file, int line)
{
    Fail("ascendc_assert", "kernel assertions hold",
         std::string("'") + expr + "' is false (" + file + ":" + std::to_string(line) + ")");
}

}  // namespace ascend_twin
