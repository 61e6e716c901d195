// SyncAll, IBSet/IBWait and InitGlobalMemory on the twin (twin/include/twin/kernel_block_sync.h).
#include "twin/kernel_block_sync.h"
#include "twin/simd_loops.h"
#include "twin/violation.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core_records.h"
#include "core_sched.h"
#include "twin/hazard.h"
#include "twin/kernel_sys_var.h"
#include "cross_core.h"

namespace ascend_twin {

namespace {

constexpr uint64_t kSlotBytes = 32;  // one DEFAULT_BLK_NUM (8) int32 slot per core

// The documented bound of every SyncAll form: the cores must all be resident at once.
void CheckResident(const char* call)
{
    const CoreContext& c = CurrentCore();
    const bool vectorBlocks = c.kernelType < 0 || c.kernelType == KERNEL_TYPE_AIV_ONLY ||
                              c.kernelType == KERNEL_TYPE_MIX_AIV_1_0;
    const uint64_t cores = vectorBlocks ? c.platform->aivNum : c.platform->aicNum;
    if (static_cast<uint64_t>(c.blockNum) > cores) {
        Fail(call, "a kernel that uses SyncAll launches at most as many blocks as the NPU has cores",
             "blockDim " + std::to_string(c.blockNum) + " on " + c.platform->name + ", which runs " +
                 std::to_string(cores) + " at once: the blocks of a second round would never reach the SyncAll the "
                                         "first round waits at (the kernel hangs)");
    }
}

// Kernel-side zeroing of the workspace form's gmWorkspace: the docs allow it only as every core zeroing
// all of it before its first SyncAll (a core zeroing only its own slot leaves the others' stale counts from
// an earlier launch, which can satisfy the count before those cores arrive). Records which the core did;
// cores that differ are caught when the launch ends (CheckSyncWorkspaceZeroing).
void CheckKernelZeroing(const char* call, const int32_t* gm, uint32_t total, uint64_t workspaceBytes)
{
    CoreContext& c = CurrentCore();
    const uint64_t begin = reinterpret_cast<uintptr_t>(gm);
    const uint64_t end = begin + static_cast<uint64_t>(total) * kSlotBytes;  // the slots SyncAll polls
    std::vector<std::pair<uint64_t, uint64_t>> parts;
    for (const GmWrite& w : c.records->writes) {
        if (w.epoch == c.epoch && w.end > begin && w.begin < end) {
            parts.emplace_back(std::max(w.begin, begin), std::min(w.end, end));
        }
    }
    std::sort(parts.begin(), parts.end());
    uint64_t covered = 0, reach = begin;
    for (const auto& [from, to] : parts) {
        if (to > reach) {
            covered += to - std::max(from, reach);
            reach = to;
        }
    }
    if (covered != 0 && covered != end - begin) {
        std::string where;
        reach = begin;
        for (const auto& [from, to] : parts) {
            if (to <= reach) continue;
            where += (where.empty() ? "" : ", ") + std::string("[") + std::to_string(std::max(from, reach) - begin) +
                     ", " + std::to_string(to - begin) + ")";
            reach = to;
        }
        Fail(call, "a core that zeroes SyncAll's gmWorkspace zeroes all of it (every core: SyncAll docs)",
             "core " + std::to_string(c.blockIdx) + " wrote bytes " + where + " of the " + std::to_string(end - begin) +
                 " bytes of slots SyncAll polls before its first SyncAll: the slots it left may hold counts from an "
                 "earlier launch, which can let a core pass SyncAll before the others arrive");
    }
    c.records->syncWorkspace = GmWrite{begin, begin + workspaceBytes, c.epoch};
    c.records->syncWorkspaceZeroed = covered != 0;
}

}  // namespace

bool CheckSyncWorkspaceZeroing(const std::vector<CoreContext>& cores, int64_t& culprit, std::string& detail)
{
    const CoreContext* zeroed = nullptr;
    const CoreContext* skipped = nullptr;
    for (const CoreContext& c : cores) {
        const CoreRecords& r = *c.records;
        if (r.syncWorkspace.begin == r.syncWorkspace.end) continue;  // no workspace-form SyncAll
        if (r.syncWorkspaceZeroed && zeroed == nullptr) zeroed = &c;
        if (!r.syncWorkspaceZeroed && skipped == nullptr) skipped = &c;
    }
    if (zeroed == nullptr || skipped == nullptr) return true;
    culprit = skipped->blockIdx;
    detail = "core " + std::to_string(zeroed->blockIdx) + " zeroed the workspace before its first SyncAll and core " +
             std::to_string(skipped->blockIdx) + " did not: a core that arrives before another core's zeroing may "
             "count a stale slot (the twin is stricter than the NPU here when the host zeroed the workspace as well)";
    return false;
}

bool InSyncWorkspaceZeroing(const std::vector<CoreContext>& cores, const GmWrite& w)
{
    for (const CoreContext& c : cores) {
        const GmWrite& ws = c.records->syncWorkspace;
        if (ws.begin != ws.end && w.epoch == ws.epoch && w.begin >= ws.begin && w.end <= ws.end) return true;
    }
    return false;
}

void SyncAllCores(const char* call, uint32_t participants)
{
    BarrierAll();  // both forms start with PipeBarrier<PIPE_ALL> (dav_c220 kernel_operator_sync_impl.h)
    ArriveAndWait(call, participants);
    ++CurrentCore().epoch;
}

void HardSyncAll(bool isAIVOnly)
{
    const char* call = isAIVOnly ? "SyncAll<true>()" : "SyncAll<false>()";
    CoreContext& c = CurrentCore();
    const int32_t type = c.kernelType >= 0 ? c.kernelType : c.sync->cross->kernelType;
    if (type == KERNEL_TYPE_AIV_ONLY || type == KERNEL_TYPE_AIC_ONLY) {
        Fail(call, "the hardware SyncAll runs in a MIX kernel (KERNEL_TYPE_MIX_AIV_1_0 for a vector-only one)",
             "the kernel declared KERNEL_TYPE_" + std::string(type == KERNEL_TYPE_AIV_ONLY ? "AIV" : "AIC") +
                 "_ONLY: without the MIX type the hardware does not start the scheduler that synchronises cores "
                 "(CrossCoreSetFlag docs), so the cores would wait forever");
    }
    if (!isAIVOnly && !c.mix) {
        Fail(call, "a vector-only kernel calls SyncAll with isAIVOnly = true",
             "SyncAll<false>() waits for cube cores a vector-only kernel does not have (the SyncAll docs: the "
             "program hangs)");
    }
    if (isAIVOnly && c.mix && c.coreType == AscendC::AIC) {
        Fail(call, "SyncAll<true>() synchronises the AIV cores; in a MIX kernel the AIC takes part in SyncAll<false>()",
             "an AIC called SyncAll<true>() (the twin does not model the AIC-only form of the hardware sync)");
    }
    CheckResident(call);
    NoteHardSyncAll();
    // In a MIX kernel SyncAll<true>() meets the AIVs only (dav_c220 SyncAllImpl: the AIV-only flag), SyncAll<false>()
    // every AIC and AIV.
    SyncAllCores(call, isAIVOnly && c.mix ? c.coreCount - static_cast<uint32_t>(c.blockNum) : 0);
}

void TaskSyncOnce(bool setNext)
{
    const char* call = setNext ? "SetNextTaskStart" : "WaitPreTaskEnd";
    uint8_t& calls = CurrentCore().taskSyncCalls[setNext ? 1 : 0];
    if (calls != 0) {
        FailF(call, "called at most once on each core (the API docs: every core exactly once)",
              "a second call on this core (the twin is stricter than A2, where the call has no effect: in a "
              "SuperKernel the extra %s leaves the cores' sync counts unmatched and the task hangs)",
              setNext ? "set" : "wait");
    }
    calls = 1;
}

void SoftSyncAll(const char* call, int32_t* gm, uint64_t gmElements, uint64_t ubOffset, uint32_t ubElements,
                 int32_t ubPosition, int32_t usedCores)
{
    CoreContext& c = CurrentCore();
    if (c.mix) {
        if (c.coreType == AscendC::AIC) return;  // dav_c220 SoftSyncAllImpl: the AICs do not take part
        Fail(call, "the twin models the workspace form of SyncAll in kernels of one core per block",
             "a MIX kernel with AIC and AIV cores called it (use the hardware SyncAll<true>() between the AIVs)");
    }
    CheckResident(call);
    const uint64_t need = static_cast<uint64_t>(c.blockNum) * kSlotBytes;
    if (usedCores < 0 || usedCores > c.blockNum) {
        Fail(call, "SyncAll's usedCores is 0 (every core) or at most GetBlockNum()",
             "usedCores " + std::to_string(usedCores) + " with blockDim " + std::to_string(c.blockNum));
    }
    const uint32_t total = usedCores == 0 ? static_cast<uint32_t>(c.blockNum) : static_cast<uint32_t>(usedCores);
    if (c.blockIdx >= static_cast<int64_t>(total)) {
        Fail(call, "only the first usedCores cores call SyncAll(gmWorkspace, ubWorkspace, usedCores)",
             "core " + std::to_string(c.blockIdx) + " called it with usedCores " + std::to_string(usedCores) +
                 ": its slot is not among those the others poll, so they would not wait for it");
    }
    if (gmElements != 0 && gmElements * sizeof(int32_t) < need) {
        Fail(call, "SyncAll's gmWorkspace holds at least GetBlockNum() * 32 bytes",
             "gmWorkspace holds " + std::to_string(gmElements * sizeof(int32_t)) + " bytes, " + std::to_string(need) +
                 " needed for " + std::to_string(c.blockNum) + " cores");
    }
    CheckGmInBounds(call, "SyncAll's gmWorkspace holds at least GetBlockNum() * 32 bytes", "workspace", gm, need);
    const int32_t vecin = static_cast<int32_t>(AscendC::TPosition::VECIN);
    const int32_t veccalc = static_cast<int32_t>(AscendC::TPosition::VECCALC);
    const int32_t vecout = static_cast<int32_t>(AscendC::TPosition::VECOUT);
    if (ubPosition != vecin && ubPosition != veccalc && ubPosition != vecout) {
        Fail(call, "SyncAll's ubWorkspace is a VECIN, VECCALC or VECOUT tensor", "the tensor is at another position");
    }
    if (static_cast<uint64_t>(ubElements) * sizeof(int32_t) < need) {
        Fail(call, "SyncAll's ubWorkspace holds at least GetBlockNum() * 32 bytes",
             "ubWorkspace holds " + std::to_string(ubElements * sizeof(int32_t)) + " bytes, " + std::to_string(need) +
                 " needed for " + std::to_string(c.blockNum) + " cores");
    }
    uint8_t* ub = c.ub + ubOffset;
    CheckUbAligned(call, "ubWorkspace", ub);
    if (c.softSyncs == 0) CheckKernelZeroing(call, gm, total, std::max<uint64_t>(need, gmElements * sizeof(int32_t)));
    // The core's slot counts its SyncAll calls: it must start at 0 (zeroed on the host, or by the kernel).
    int32_t* slot = gm + c.blockIdx * static_cast<int64_t>(kSlotBytes / sizeof(int32_t));
    const int32_t count = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (count != static_cast<int32_t>(c.softSyncs)) {
        Fail(call, "SyncAll's gmWorkspace is zeroed before the first SyncAll",
             "core " + std::to_string(c.blockIdx) + "'s slot (gmWorkspace bytes [" +
                 std::to_string(c.blockIdx * kSlotBytes) + ", " + std::to_string((c.blockIdx + 1) * kSlotBytes) +
                 ")) holds " + std::to_string(count) + " before its SyncAll number " + std::to_string(c.softSyncs + 1) +
                 ", expected " + std::to_string(c.softSyncs) +
                 " (the slot counts the core's SyncAll calls; the others would stop waiting too early or never)");
    }
    BarrierAll();
    __atomic_store_n(slot, count + 1, __ATOMIC_RELEASE);
    ++c.softSyncs;
    // One read and one write of the core's slot, then (once: the twin does not model the polling) a read
    // of every slot; the slots are SyncAll's own traffic, not data the cross-core checks look at.
    c.counters.gmBytesRead += kSlotBytes + total * kSlotBytes;
    c.counters.gmBytesWritten += kSlotBytes;
    c.counters.dataCopyCalls += 3;
    c.counters.mte2Calls += 2;
    c.counters.mte2Bursts += 2;
    c.counters.mte3Calls += 1;
    c.counters.mte3Bursts += 1;
    SyncAllCores(call, total);
    // A core at its first SyncAll writes 1 into its slot on every round of polling (dav_c220 ClcSyncCount),
    // so a later core's zeroing of the whole workspace does not undo it.
    if (count == 0) __atomic_store_n(slot, 1, __ATOMIC_RELEASE);
    {
        Instr copy(call, Pipe::kMte2);
        copy.Write("ubWorkspace", ub, total * kSlotBytes);
    }
    for (uint32_t i = 0; i < total; ++i) {
        const int32_t v = __atomic_load_n(gm + i * (kSlotBytes / sizeof(int32_t)), __ATOMIC_ACQUIRE);
        std::memcpy(ub + i * kSlotBytes, &v, sizeof v);
    }
    PipeAcquire(Pipe::kS, PipeNow(Pipe::kMte2));  // MTE2_S: the scalar pipe counts the slots
    Instr(call, Pipe::kS).Read("ubWorkspace", ub, total * kSlotBytes);
}

namespace {

struct SlotWait {
    const int32_t* slot;
    int32_t want;
};

bool SlotHolds(LaunchSync&, const void* arg)
{
    const auto* w = static_cast<const SlotWait*>(arg);
    return __atomic_load_n(w->slot, __ATOMIC_ACQUIRE) == w->want;
}

}  // namespace

void InterBlockSync(bool set, bool isAIVOnly, int32_t* gm, uint64_t gmElements, uint64_t ubOffset, uint32_t ubElements,
                    int32_t ubPosition, int32_t blockIdx, int32_t eventID)
{
    const char* call = set ? (isAIVOnly ? "IBSet<true>" : "IBSet<false>") : (isAIVOnly ? "IBWait<true>" : "IBWait<false>");
    CoreContext& c = CurrentCore();
    if (c.coreType == AscendC::AIC) return;  // A2 (dav_c220): "if ASCEND_IS_AIC { return; }" in both
    CheckResident(call);
    // The docs' core count: GetBlockNum() in AIV-only mode, GetBlockNum() * 2 in MIX mode (isAIVOnly = false).
    const int64_t coreNum = isAIVOnly ? c.blockNum : c.blockNum * 2;
    const std::string mode = isAIVOnly ? "GetBlockNum() = " + std::to_string(c.blockNum)
                                       : "GetBlockNum() * 2 = " + std::to_string(coreNum) + " (isAIVOnly = false)";
    if (blockIdx < 0 || blockIdx >= coreNum) {
        Fail(call, "IBSet/IBWait's blockIdx is in [0, core count - 1] (IBSet docs)",
             "blockIdx " + std::to_string(blockIdx) + " with a core count of " + mode);
    }
    if (eventID < 0) {
        Fail(call, "IBSet/IBWait's eventID selects a row of gmWorkspace: it is 0 or more",
             "eventID " + std::to_string(eventID) + " addresses a slot before gmWorkspace");
    }
    const uint64_t slotIndex = static_cast<uint64_t>(coreNum) * 8 * static_cast<uint64_t>(eventID) +
                               static_cast<uint64_t>(blockIdx) * 8;
    const uint64_t need = slotIndex * sizeof(int32_t) + kSlotBytes;
    const char* sizeRule = "IBSet/IBWait's gmWorkspace holds at least core count * 32 * eventID_max + blockIdx_max * "
                           "32 + 32 bytes (IBSet docs)";
    if (gmElements != 0 && gmElements * sizeof(int32_t) < need) {
        Fail(call, sizeRule,
             "gmWorkspace holds " + std::to_string(gmElements * sizeof(int32_t)) + " bytes; blockIdx " +
                 std::to_string(blockIdx) + ", eventID " + std::to_string(eventID) + " with a core count of " + mode +
                 " use bytes [" + std::to_string(need - kSlotBytes) + ", " + std::to_string(need) + ")");
    }
    int32_t* slot = gm + slotIndex;
    CheckGmInBounds(call, sizeRule, "workspace", slot, kSlotBytes);
    const int32_t vecin = static_cast<int32_t>(AscendC::TPosition::VECIN);
    const int32_t veccalc = static_cast<int32_t>(AscendC::TPosition::VECCALC);
    const int32_t vecout = static_cast<int32_t>(AscendC::TPosition::VECOUT);
    if (ubPosition != vecin && ubPosition != veccalc && ubPosition != vecout) {
        Fail(call, "IBSet/IBWait's ubWorkspace is a VECIN, VECCALC or VECOUT tensor", "the tensor is at another position");
    }
    if (static_cast<uint64_t>(ubElements) * sizeof(int32_t) < kSlotBytes) {
        Fail(call, "IBSet/IBWait's ubWorkspace holds at least 32 bytes (IBSet docs)",
             "ubWorkspace holds " + std::to_string(ubElements * sizeof(int32_t)) + " bytes");
    }
    uint8_t* ub = c.ub + ubOffset;
    CheckUbAligned(call, "ubWorkspace", ub);
    BarrierAll();  // pipe_barrier(PIPE_ALL) before the polling
    LaunchSync& sync = *c.sync;
    CrossCore& x = *sync.cross;
    const uint64_t key = reinterpret_cast<uintptr_t>(slot);
    const int32_t want = set ? 0 : 1;
    {
        std::unique_lock<std::mutex> lock(sync.mutex);
        // The slot is 0 or 1 between the calls of a launch; a first use finding anything else read a workspace
        // nobody zeroed (IBSet docs: gmWorkspace is initialised to 0), whose stale 1 would let an IBWait pass early.
        const int32_t now = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
        if (x.ibClocks.find(key) == x.ibClocks.end() && now != 0) {
            lock.unlock();
            Fail(call, "IBSet/IBWait's gmWorkspace is zeroed before the launch (IBSet docs)",
                 "the slot of blockIdx " + std::to_string(blockIdx) + ", eventID " + std::to_string(eventID) +
                     " (gmWorkspace bytes [" + std::to_string(need - kSlotBytes) + ", " + std::to_string(need) +
                     ")) holds " + std::to_string(now) + " at its first use in the launch" +
                     (now == 1 ? ": an IBWait would pass before the IBSet it waits for" : ""));
        }
        std::vector<uint32_t>& clock = x.ibClocks[key];
        const SlotWait wait{slot, want};
        char what[128];
        std::snprintf(what, sizeof what, "%s(blockIdx %d, eventID %d), whose slot never holds %d", call, blockIdx,
                      eventID, want);
        WaitUntil(lock, SlotHolds, &wait, what);
        if (!clock.empty()) AcquireClock(c, clock);  // the value read was written by another core's IBSet/IBWait
        ReleaseClock(c, clock);
        __atomic_store_n(slot, 1 - want, __ATOMIC_RELEASE);
        sync.opened.notify_all();
    }
    // UB: the slot copied in (MTE2), read and set by the scalar unit, copied out (MTE3); GM: the slot's own
    // traffic, which the cross-core checks do not look at (the twin counts one round of polling).
    {
        Instr copy(call, Pipe::kMte2);
        copy.Write("ubWorkspace", ub, kSlotBytes);
    }
    std::memcpy(ub, slot, kSlotBytes);
    PipeAcquire(Pipe::kS, PipeNow(Pipe::kMte2));
    {
        Instr scalar(call, Pipe::kS);
        scalar.Read("ubWorkspace", ub, sizeof(int32_t));
        scalar.Write("ubWorkspace", ub, sizeof(int32_t));
    }
    PipeAcquire(Pipe::kMte3, PipeNow(Pipe::kS));
    Instr(call, Pipe::kMte3).Read("ubWorkspace", ub, kSlotBytes);
    c.counters.gmBytesRead += kSlotBytes;
    c.counters.gmBytesWritten += kSlotBytes;
    c.counters.dataCopyCalls += 2;
    c.counters.mte2Calls += 1;
    c.counters.mte2Bursts += 1;
    c.counters.mte3Calls += 1;
    c.counters.mte3Bursts += 1;
    BarrierAll();  // pipe_barrier(PIPE_ALL) after
}

namespace {

struct DetermineWait {
    const int32_t* gm;
    uint32_t blocks, index;
    int32_t round;
    uint64_t key;
};

// Core 0 has zeroed the slots, and slots 0..index-1 hold the round, the others 0 (dav_c220 CheckUBWorkspace).
bool DetermineTurn(LaunchSync& sync, const void* arg)
{
    const auto* w = static_cast<const DetermineWait*>(arg);
    if (sync.cross->ibClocks.find(w->key) == sync.cross->ibClocks.end()) return false;
    for (uint32_t j = 0; j < w->blocks; ++j) {
        const int32_t v = __atomic_load_n(w->gm + j * 8, __ATOMIC_ACQUIRE);
        if (v != (j < w->index ? w->round : 0)) return false;
    }
    return true;
}

}  // namespace

void DetermineCompute(int32_t kind, int32_t* gm, uint64_t gmElements, uint64_t ubOffset, uint32_t ubElements,
                      int32_t ubPosition)
{
    static const char* const kNames[] = {"InitDetermineComputeWorkspace", "WaitPreBlock", "NotifyNextBlock"};
    const char* call = kNames[kind];
    CoreContext& c = CurrentCore();
    if (c.coreType == AscendC::AIC) return;  // dav_c220: "if ASCEND_IS_AIV" around each
    if (c.mix) {
        Fail(call, "the twin models the blockIdx-ordered computation in kernels of one vector core per block",
             "a MIX kernel called it (its AIVs' GetBlockIdx would run past the GetBlockNum() slots)");
    }
    const uint32_t blocks = static_cast<uint32_t>(c.blockNum), index = static_cast<uint32_t>(c.blockIdx);
    if (blocks > c.platform->aivNum) {
        FailF(call, "a kernel ordering its cores with WaitPreBlock/NotifyNextBlock launches at most as many blocks as "
                    "the NPU runs at once (docs: otherwise the kernel hangs)",
              "blockDim %u on %s, which runs %u at once", blocks, c.platform->name,
              static_cast<unsigned>(c.platform->aivNum));
    }
    const uint64_t slots = static_cast<uint64_t>(blocks) * kSlotBytes;
    const char* gmRule = "gmWorkspace holds at least GetBlockNum() * 32 bytes (docs)";
    if (gmElements != 0 && gmElements * sizeof(int32_t) < slots) {
        FailF(call, gmRule, "gmWorkspace holds %llu bytes, %u blocks need %llu",
              static_cast<unsigned long long>(gmElements * sizeof(int32_t)), blocks,
              static_cast<unsigned long long>(slots));
    }
    CheckGmInBounds(call, gmRule, "workspace", gm, slots);
    const int32_t vecin = static_cast<int32_t>(AscendC::TPosition::VECIN);
    const int32_t veccalc = static_cast<int32_t>(AscendC::TPosition::VECCALC);
    const int32_t vecout = static_cast<int32_t>(AscendC::TPosition::VECOUT);
    if (ubPosition != vecin && ubPosition != veccalc && ubPosition != vecout) {
        Fail(call, "ubWorkspace is a VECIN, VECCALC or VECOUT tensor", "the tensor is at another position");
    }
    if (static_cast<uint64_t>(ubElements) * sizeof(int32_t) < slots + kSlotBytes) {
        FailF(call, "ubWorkspace holds at least GetBlockNum() * 32 + 32 bytes (docs)",
              "ubWorkspace holds %llu bytes, %u blocks need %llu",
              static_cast<unsigned long long>(ubElements) * sizeof(int32_t), blocks,
              static_cast<unsigned long long>(slots + kSlotBytes));
    }
    uint8_t* ub = c.ub + ubOffset;
    CheckUbAligned(call, "ubWorkspace", ub);
    int32_t* counter = reinterpret_cast<int32_t*>(ub + slots);  // the round, after the slots' copy
    if (kind != 0 && !c.determineInit) {
        Fail(call, "WaitPreBlock/NotifyNextBlock follow InitDetermineComputeWorkspace on the core (docs)",
             "this core has not called InitDetermineComputeWorkspace");
    }
    BarrierAll();  // PipeBarrier<PIPE_ALL> before and after each
    LaunchSync& sync = *c.sync;
    CrossCore& x = *sync.cross;
    const uint64_t key = reinterpret_cast<uintptr_t>(gm) + 1;  // odd: no IBSet slot address
    const int32_t round = kind == 0 ? 1 : *counter;
    {
        std::unique_lock<std::mutex> lock(sync.mutex);
        if (kind == 0) {
            if (index == 0) {
                for (uint64_t j = 0; j < slots / sizeof(int32_t); ++j) __atomic_store_n(gm + j, 0, __ATOMIC_RELEASE);
                ReleaseClock(c, x.ibClocks[key]);
                sync.opened.notify_all();
            }
        } else if (kind == 1) {
            const DetermineWait wait{gm, blocks, index, round, key};
            char what[128];
            std::snprintf(what, sizeof what, "WaitPreBlock (block %u, round %d): the blocks before it never notify",
                          index, round);
            WaitUntil(lock, DetermineTurn, &wait, what);
            AcquireClock(c, x.ibClocks[key]);
        } else {
            if (index + 1 == blocks) {
                for (uint64_t j = 0; j < slots / sizeof(int32_t); ++j) __atomic_store_n(gm + j, 0, __ATOMIC_RELEASE);
            } else {
                for (uint32_t j = 0; j < 8; ++j) __atomic_store_n(gm + index * 8 + j, round, __ATOMIC_RELEASE);
            }
            ReleaseClock(c, x.ibClocks[key]);
            sync.opened.notify_all();
        }
    }
    // UB: the slots copied in (WaitPreBlock, MTE2) or written by Duplicate (V) and the round by the scalar unit.
    {
        Instr fill(call, kind == 1 ? Pipe::kMte2 : Pipe::kV);
        fill.Write("ubWorkspace", ub, slots);
    }
    std::memcpy(ub, gm, slots);
    if (kind != 1) {
        Instr scalar(call, Pipe::kS);
        scalar.Write("ubWorkspace", counter, sizeof(int32_t));
        *counter = kind == 0 ? 1 : round + 1;
    }
    c.determineInit = true;
    (kind == 1 ? c.counters.gmBytesRead : c.counters.gmBytesWritten) += kind == 2 && index + 1 != blocks ? kSlotBytes
                                                                                                        : slots;
    BarrierAll();
}

void InitGm(const char* call, void* gm, uint64_t gmElements, uint64_t size, const void* value, uint32_t elementBytes,
            VecOp duplicate)
{
    CoreContext& c = CurrentCore();
    if (c.counters.ubBytesAllocated != 0) {
        Fail(call, "InitGlobalMemory/Fill is called before the kernel's first InitBuffer",
             "the UB it uses as scratch is already handed out by TPipe::InitBuffer (InitGlobalMemory docs)");
    }
    if (gmElements != 0 && size > gmElements) {
        Fail(call, "InitGlobalMemory/Fill stays inside its GlobalTensor",
             std::to_string(size) + " elements asked, the GlobalTensor holds " + std::to_string(gmElements));
    }
    const uint64_t bytes = size * elementBytes;
    // DataCopyPad writes: they may run on into the padding of a buffer that ends its allocation (not written).
    const uint64_t inside = CheckGmDmaWrite(call, gm, bytes);
    if (bytes == 0) return;
    // Duplicate fills at most 255 repeats of 256 bytes of scratch at UB offset 0; DataCopyPad copies it out
    // in rounds of that size, then PipeBarrier<PIPE_MTE3> (init_global_memory_v220_impl.h).
    const uint64_t burst = 255 * 256 / elementBytes * elementBytes;
    const uint64_t scratch = std::min<uint64_t>(burst, c.platform->ubSize / elementBytes * elementBytes);
    const uint64_t rounds = (bytes + scratch - 1) / scratch;
    ResetUbRange(0, scratch);
    {
        Instr dup(call, Pipe::kV);
        dup.Write("scratch", c.ub, scratch);
        for (uint64_t off = 0; off < scratch; off += elementBytes) std::memcpy(c.ub + off, value, elementBytes);
        CountVec(duplicate, scratch / elementBytes, CountFormRepeats(scratch / elementBytes, elementBytes));
    }
    PipeAcquire(Pipe::kMte3, PipeNow(Pipe::kV));  // V_MTE3 flag inside the implementation
    uint64_t sum = 0;  // the written bytes' checksum (GmDmaWritten), summed as they are copied
    for (uint64_t done = 0; done < bytes; done += scratch) {
        const uint64_t n = std::min(scratch, bytes - done);
        Instr copy(call, Pipe::kMte3);
        copy.Read("scratch", c.ub, n);
        const uint64_t w = done >= inside ? 0 : std::min(n, inside - done);
        copy.GmWrite(static_cast<uint8_t*>(gm) + done, w);
        sum += simd::CopyToGmSummed(static_cast<uint8_t*>(gm) + done, c.ub, w);
    }
    GmDmaWritten(gm, inside, sum);
    c.counters.dataCopyCalls += rounds;
    c.counters.mte3Calls += rounds;
    c.counters.mte3Bursts += rounds;
    Barrier(Pipe::kMte3);
}

// ---- GroupBarrier and InitOutput ------------------------------------------------------------------------------

namespace {

constexpr uint64_t kBarrierLine = 512;          // CACHE_LINE_LEN: one line of groupWorkspace per member
constexpr uint64_t kBarrierWaitOffset = 64;     // BARRIER_SIZE: the wait counters follow the arrive counters
constexpr uint64_t kBarrierMaxAiv = 50;         // BARRIER_MAX_AIV: message blocks at the end of UB
constexpr uint64_t kBarrierMaxRounds = 1048575;  // the docs' bound on Arrive/Wait in a loop
constexpr uint64_t kKfcMsgBytes = 128;          // PopStackBuffer's end on dav-2201: TOTAL_UB_SIZE - sizeof(KfcMsg) (128 bytes)

uint64_t BarrierUbStart(const CoreContext& c) { return c.platform->ubSize - kSlotBytes * kBarrierMaxAiv; }

// The GroupBarrier's message blocks [UB_START_ADDR, UB end) must not be handed out to buffers: they hold the 1s
// its Arrive/Wait add to the counters.
void CheckBarrierUbFree(const char* call, const CoreContext& c)
{
    AscendC::TPipe* pipe = GetTPipePtr();
    const uint64_t inUse = std::max<uint64_t>(pipe == nullptr ? 0 : AscendC::twin_detail::TwinUbEnd(*pipe),
                                              c.ubCarvedEnd);
    if (inUse > BarrierUbStart(c)) {
        FailF(call, "GroupBarrier keeps its messages in the last 50 * 32 bytes of UB (UB_START_ADDR): no buffer there",
              "the kernel has UB allocated up to offset %llu, past UB_START_ADDR = %llu",
              static_cast<unsigned long long>(inUse), static_cast<unsigned long long>(BarrierUbStart(c)));
    }
}

struct CounterWait {
    const int32_t* head;
    int32_t want;
    bool atLeast;  // Wait: head >= want; Arrive of a later round: head == want
};

bool CounterReached(LaunchSync&, const void* arg)
{
    const auto* w = static_cast<const CounterWait*>(arg);
    const int32_t v = __atomic_load_n(w->head, __ATOMIC_ACQUIRE);
    return w->atLeast ? v >= w->want : v == w->want;
}

}  // namespace

void GroupBarrierInit(uint8_t* workspace, uint32_t arriveSize, uint32_t waitSize)
{
    const char* call = "GroupBarrier";
    CoreContext& c = CurrentCore();
    if (c.coreType == AscendC::AIC) return;  // if ASCEND_IS_AIV
    if (arriveSize == 0 || waitSize == 0) {
        FailF(call, "GroupBarrier's arriveSizeIn and waitSizeIn are larger than 0", "arriveSizeIn %u, waitSizeIn %u",
              arriveSize, waitSize);
    }
    if (arriveSize > c.blockNum || waitSize > c.blockNum) {
        FailF(call, "GroupBarrier's arriveSizeIn and waitSizeIn are at most GetBlockNum()",
              "arriveSizeIn %u, waitSizeIn %u with GetBlockNum() = %lld", arriveSize, waitSize,
              static_cast<long long>(c.blockNum));
    }
    const uint64_t lines = std::max(arriveSize, waitSize);
    const char* sizeRule = "GroupBarrier's groupWorkspace holds GetWorkspaceLen() = max(arriveSize, waitSize) * 512 bytes";
    CheckGmInBounds(call, sizeRule, "workspace", workspace, lines * kBarrierLine);
    // 512-byte alignment: the NPU's GM allocations are 512-byte aligned, so the offset inside the launch buffer
    // is what the kernel controls.
    for (const GmRegion& r : *c.records->gm) {
        if (workspace >= r.begin && workspace < r.begin + r.bytes && (workspace - r.begin) % kBarrierLine != 0) {
            FailF(call, "GroupBarrier's groupWorkspace is 512-byte aligned (GroupBarrier docs)",
                  "it starts %llu bytes into the launch buffer '%s'",
                  static_cast<unsigned long long>(workspace - r.begin), r.name);
        }
    }
    CheckBarrierUbFree(call, c);
    // The message blocks: the first int32 of each 32-byte block of [UB_START_ADDR, UB end) set to 1 (scalar).
    uint8_t* ub = c.ub + BarrierUbStart(c);
    {
        Instr scalar(call, Pipe::kS);
        for (uint64_t i = 0; i < kBarrierMaxAiv; ++i) scalar.Write("message block", ub + i * kSlotBytes, sizeof(int32_t));
    }
    for (uint64_t i = 0; i < kBarrierMaxAiv; ++i) {
        const int32_t one = 1;
        std::memcpy(ub + i * kSlotBytes, &one, sizeof one);
    }
}

void GroupBarrierStep(bool arrive, uint8_t* workspace, uint32_t arriveSize, uint32_t waitSize, uint32_t index,
                      uint32_t& counter, bool& hasArrive)
{
    const char* call = arrive ? "GroupBarrier::Arrive" : "GroupBarrier::Wait";
    CoreContext& c = CurrentCore();
    if (c.coreType == AscendC::AIC) return;
    const uint32_t members = arrive ? arriveSize : waitSize;
    if (index >= members) {
        FailF(call, arrive ? "Arrive's arriveIndex is in [0, arriveSize - 1]" : "Wait's waitIndex is in [0, waitSize - 1]",
              "index %u with %s %u", index, arrive ? "arriveSize" : "waitSize", members);
    }
    if (counter > kBarrierMaxRounds) {
        FailF(call, "GroupBarrier runs at most 1,048,575 rounds (Arrive/Wait docs)", "round %u", counter);
    }
    CheckBarrierUbFree(call, c);
    const uint64_t lines = std::max(arriveSize, waitSize);
    auto* arriveHeads = reinterpret_cast<int32_t*>(workspace);
    auto* waitHeads = reinterpret_cast<int32_t*>(workspace + kBarrierWaitOffset);
    const uint64_t lineInts = kBarrierLine / sizeof(int32_t);
    LaunchSync& sync = *c.sync;
    CrossCore& x = *sync.cross;
    const uint64_t arriveKey = reinterpret_cast<uintptr_t>(arriveHeads);
    const uint64_t waitKey = reinterpret_cast<uintptr_t>(waitHeads);
    uint8_t* ub = c.ub + BarrierUbStart(c);
    {
        std::unique_lock<std::mutex> lock(sync.mutex);
        if (x.ibClocks.find(arriveKey) == x.ibClocks.end()) {
            // The first Arrive/Wait of the launch on this workspace: every counter must be 0 (the user zeroes it).
            for (uint64_t i = 0; i < lines; ++i) {
                const int32_t a = __atomic_load_n(arriveHeads + i * lineInts, __ATOMIC_ACQUIRE);
                const int32_t w = __atomic_load_n(waitHeads + i * lineInts, __ATOMIC_ACQUIRE);
                if (a != 0 || w != 0) {
                    lock.unlock();
                    FailF(call, "GroupBarrier's groupWorkspace is zeroed before its first use (GroupBarrier docs)",
                          "line %llu holds arrive count %d and wait count %d at the barrier's first Arrive/Wait",
                          static_cast<unsigned long long>(i), a, w);
                }
            }
            x.ibClocks[arriveKey];
            x.ibClocks[waitKey];
        }
        char what[160];
        if (arrive && counter > 1) {  // the previous round's waits must all be done
            const CounterWait w{waitHeads + index * lineInts, static_cast<int32_t>((counter - 1) * waitSize), false};
            std::snprintf(what, sizeof what, "GroupBarrier::Arrive(%u) of round %u, waiting for round %u's %u Waits",
                          index, counter, counter - 1, waitSize);
            WaitUntil(lock, CounterReached, &w, what);
            AcquireClock(c, x.ibClocks[waitKey]);
        } else if (!arrive) {
            const uint32_t round = hasArrive ? counter - 1 : counter;
            const CounterWait w{arriveHeads + index * lineInts, static_cast<int32_t>(round * arriveSize), true};
            std::snprintf(what, sizeof what, "GroupBarrier::Wait(%u) of round %u, waiting for %u Arrives", index,
                          round, arriveSize);
            WaitUntil(lock, CounterReached, &w, what);
            AcquireClock(c, x.ibClocks[arriveKey]);
        }
    }
    // __WriteCurrentValue: S_MTE3, then an atomic-add copy of `lines` message blocks, one into each line.
    // The copy moves whole 32-byte blocks, of which the constructor set only the first int32 (the count); the
    // other seven words add whatever UB holds to words of the line nobody reads. The twin reads and adds the
    // counts alone.
    PipeAcquire(Pipe::kMte3, PipeNow(Pipe::kS));
    {
        Instr copy(call, Pipe::kMte3);
        for (uint64_t i = 0; i < lines; ++i) copy.Read("message block at UB_START_ADDR", ub + i * kSlotBytes, sizeof(int32_t));
    }
    int32_t* heads = arrive ? arriveHeads : waitHeads;
    CheckGmInBounds(call, "GroupBarrier's groupWorkspace holds GetWorkspaceLen() = max(arriveSize, waitSize) * 512 bytes",
                    "workspace", heads, (lines - 1) * kBarrierLine + kSlotBytes);
    {
        std::unique_lock<std::mutex> lock(sync.mutex);
        for (uint64_t i = 0; i < lines; ++i) {
            int32_t add;
            std::memcpy(&add, ub + i * kSlotBytes, sizeof add);
            __atomic_fetch_add(heads + i * lineInts, add, __ATOMIC_ACQ_REL);
        }
        ReleaseClock(c, x.ibClocks[arrive ? arriveKey : waitKey]);
        sync.opened.notify_all();
    }
    c.counters.gmBytesRead += kSlotBytes;
    c.counters.gmBytesWritten += lines * kSlotBytes;
    c.counters.dataCopyCalls += 1;
    c.counters.mte3Calls += 1;
    c.counters.mte3Bursts += lines;
    if (arrive) {
        ++counter;
        hasArrive = true;
    } else {
        if (!hasArrive) ++counter;
        hasArrive = false;
    }
}

void InitOutputImpl(void* gm, uint64_t gmElements, uint32_t size, const void* value, uint32_t elementBytes,
                    uint64_t pipeEnd, bool hasPipe)
{
    const char* call = "InitOutput";
    CoreContext& c = CurrentCore();
    if (c.coreType == AscendC::AIC) return;  // if ASCEND_IS_AIC { return; }
    const char* stackRule = "InitOutput duplicates value in the UB after the TPipe's buffers (PopStackBuffer)";
    if (!hasPipe) Fail(call, stackRule, "there is no TPipe (GetTPipePtr() is null)");
    const uint64_t end = c.platform->ubSize - kKfcMsgBytes;
    if (pipeEnd >= end) {
        FailF(call, stackRule, "the TPipe's buffers end at UB %llu, nothing is left before %llu",
              static_cast<unsigned long long>(pipeEnd), static_cast<unsigned long long>(end));
    }
    if (gmElements != 0 && size > gmElements) {
        FailF(call, "InitOutput stays inside its GlobalTensor", "%u elements asked, the GlobalTensor holds %llu", size,
              static_cast<unsigned long long>(gmElements));
    }
    const uint64_t bytes = static_cast<uint64_t>(size) * elementBytes;
    const uint64_t inside = CheckGmDmaWrite(call, gm, bytes);  // as InitGlobalMemory's
    if (bytes == 0) return;
    // popSize = min(the stack buffer, 255 * 32 bytes) elements, duplicated once; DataCopyPad rounds, then the tail.
    const uint64_t pop = std::min<uint64_t>((end - pipeEnd) / elementBytes, 255 * 32 / elementBytes) * elementBytes;
    uint8_t* scratch = c.ub + pipeEnd;
    ResetUbRange(pipeEnd, pop);
    {
        Instr dup(call, Pipe::kV);
        dup.Write("stack buffer", scratch, pop);
        for (uint64_t off = 0; off < pop; off += elementBytes) std::memcpy(scratch + off, value, elementBytes);
        CountVec(VecOp::kDuplicate, pop / elementBytes, CountFormRepeats(pop / elementBytes, elementBytes));
    }
    PipeAcquire(Pipe::kMte3, PipeNow(Pipe::kV));  // its V_MTE3 flag
    uint64_t rounds = 0;
    uint64_t sum = 0;  // the written bytes' checksum (GmDmaWritten), summed as they are copied
    for (uint64_t done = 0; done < bytes; done += pop, ++rounds) {
        const uint64_t n = std::min(pop, bytes - done);
        Instr copy(call, Pipe::kMte3);
        copy.Read("stack buffer", scratch, n);
        const uint64_t w = done >= inside ? 0 : std::min(n, inside - done);
        copy.GmWrite(static_cast<uint8_t*>(gm) + done, w);
        sum += simd::CopyToGmSummed(static_cast<uint8_t*>(gm) + done, scratch, w);
    }
    GmDmaWritten(gm, inside, sum);
    c.counters.dataCopyCalls += rounds;
    c.counters.mte3Calls += rounds;
    c.counters.mte3Bursts += rounds;
}

}  // namespace ascend_twin
