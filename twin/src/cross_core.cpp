// CrossCoreSetFlag / CrossCoreWaitFlag, the vector clocks of cross-core happens-before, and the report of a
// launch whose cores all wait. The flag semantics follow the CrossCoreSetFlag docs (关键特性说明): every core
// has a counter per flag id (0..15); mode 0 moves the counters of all cores of the caller's type once every
// one of them has set the flag, mode 1 those of a block's AIVs once both have, mode 2 the AIVs' counters when
// their AIC sets it and the AIC's once all its AIVs have; CrossCoreWaitFlag waits for a non-zero counter and
// takes one off.
#include "cross_core.h"

#include <algorithm>
#include <string>

#include "core_records.h"
#include "twin/hazard.h"
#include "twin/kernel_sys_var.h"
#include "twin/violation.h"

namespace ascend_twin {

LaunchSync::LaunchSync(uint32_t n) : cores(n) {}
LaunchSync::~LaunchSync() = default;

// ---- vector clocks ------------------------------------------------------------------------------------

namespace {
void Size(std::vector<uint32_t>& clock, uint32_t n)
{
    if (clock.size() != n) clock.assign(n, 0);
}
}  // namespace

void ReleaseClock(CoreContext& core, std::vector<uint32_t>& into)
{
    std::vector<uint32_t>& clock = core.records->clock;
    Size(clock, core.coreCount);
    clock[core.coreId] = ++core.rel;
    Size(into, core.coreCount);
    for (uint32_t i = 0; i < core.coreCount; ++i) into[i] = std::max(into[i], clock[i]);
}

void AcquireClock(CoreContext& core, const std::vector<uint32_t>& from)
{
    std::vector<uint32_t>& clock = core.records->clock;
    Size(clock, core.coreCount);
    for (uint32_t i = 0; i < core.coreCount && i < from.size(); ++i) clock[i] = std::max(clock[i], from[i]);
    ++core.acq;
    std::vector<uint32_t>& snaps = core.records->clockSnapshots;
    snaps.insert(snaps.end(), clock.begin(), clock.end());
}

void AcquireClockAs(CoreContext& core, const std::vector<uint32_t>& base, const std::vector<uint32_t>& from)
{
    std::vector<uint32_t>& clock = core.records->clock;
    Size(clock, core.coreCount);
    const uint32_t own = clock[core.coreId];
    for (uint32_t i = 0; i < core.coreCount; ++i) {
        clock[i] = std::max(i < base.size() ? base[i] : 0u, i < from.size() ? from[i] : 0u);
    }
    clock[core.coreId] = std::max(clock[core.coreId], own);  // the core's own releases stay counted
    ++core.acq;
    std::vector<uint32_t>& snaps = core.records->clockSnapshots;
    snaps.insert(snaps.end(), clock.begin(), clock.end());
}

bool HappensBefore(const CoreContext& a, uint32_t relX, const CoreContext& b, uint32_t acqY)
{
    if (acqY == 0) return false;
    const std::vector<uint32_t>& snaps = b.records->clockSnapshots;
    const uint64_t at = static_cast<uint64_t>(acqY - 1) * b.coreCount + a.coreId;
    return at < snaps.size() && snaps[at] > relX;
}

// ---- the launch's cross-core state ----------------------------------------------------------------------

void InitCrossCore(LaunchSync& sync, std::vector<CoreContext>& cores, bool mix, uint32_t ratio, int32_t kernelType)
{
    sync.cross = std::make_unique<CrossCore>();
    CrossCore& x = *sync.cross;
    x.cores = &cores;
    x.mix = mix;
    x.ratio = ratio;
    x.kernelType = kernelType;
    x.flags.assign(cores.size(), FlagCounters{});
    const size_t blocks = mix ? cores.size() / (1 + ratio) : cores.size();
    x.mailbox.assign(blocks, {});
    x.events.assign(cores.size() * kMaxMatmulObjects, {});
    x.clientOpen.assign(cores.size(), 0);
    x.clientQuit.assign(cores.size(), 0);
    x.matmulObjects.assign(cores.size(), 0);
}

namespace {

constexpr int32_t kAic = AscendC::AIC;

const char* TypeName(int32_t type)
{
    switch (type) {
        case KERNEL_TYPE_AIV_ONLY: return "KERNEL_TYPE_AIV_ONLY";
        case KERNEL_TYPE_AIC_ONLY: return "KERNEL_TYPE_AIC_ONLY";
        case KERNEL_TYPE_MIX_AIV_1_0: return "KERNEL_TYPE_MIX_AIV_1_0";
        case KERNEL_TYPE_MIX_AIC_1_0: return "KERNEL_TYPE_MIX_AIC_1_0";
        case KERNEL_TYPE_MIX_AIC_1_1: return "KERNEL_TYPE_MIX_AIC_1_1";
        case KERNEL_TYPE_MIX_AIC_1_2: return "KERNEL_TYPE_MIX_AIC_1_2";
        default: return "no kernel type";
    }
}

// The kernel type in force on the core: the one it declared, else the launch's (qualifier or inference).
int32_t EffectiveType(const CoreContext& c, const CrossCore& x) { return c.kernelType >= 0 ? c.kernelType : x.kernelType; }

void CheckMode(const char* call, uint32_t mode, const CoreContext& c, const CrossCore& x)
{
    if (mode != 0 && mode != 1 && mode != 2) {
        FailF(call, "modeId is 0, 1 or 2 on A2 (CrossCoreSetFlag docs: mode 4 is Ascend 950 only)", "modeId = %u",
              mode);
    }
    const int32_t type = EffectiveType(c, x);
    if (type == KERNEL_TYPE_AIV_ONLY || type == KERNEL_TYPE_AIC_ONLY) {
        FailF(call,
              "cross-core flags need a MIX kernel type (KERNEL_TYPE_AIC_ONLY/AIV_ONLY do not start the scheduler "
              "that synchronises cores: CrossCoreSetFlag docs, 约束说明)",
              "the kernel declared %s; a pure vector kernel declares KERNEL_TYPE_MIX_AIV_1_0 (__mix__(0, 1)), a pure "
              "cube kernel KERNEL_TYPE_MIX_AIC_1_0",
              TypeName(type));
    }
    if (mode != 0 && !x.mix) {
        FailF(call,
              "modes 1 and 2 synchronise the cores of one block: they need KERNEL_TYPE_MIX_AIC_1_1/1_2 (__mix__(1, 1) "
              "or __mix__(1, 2); CrossCoreSetFlag docs, table 3)",
              "mode %u in a launch with %s (one core per block)", mode, TypeName(type));
    }
    if (mode == 1 && c.coreType == kAic) {
        Fail(call, "mode 1 synchronises the AIVs of a block; an AIC does not take part (CrossCoreSetFlag docs)",
             "an AIC called it with modeId = 1");
    }
}

struct FlagWait {
    const CrossCore* x;
    uint32_t coreId;
    uint32_t id;
};

bool FlagReady(LaunchSync&, const void* arg)
{
    const auto* w = static_cast<const FlagWait*>(arg);
    return !w->x->flags[w->coreId].pending[w->id].empty();
}

// Adds one increment (with `clock`) to the counter `id` of core `target`; the caller is the setting core.
void Bump(CrossCore& x, uint32_t target, uint32_t id, const std::vector<uint32_t>& clock, const char* call)
{
    Fifo<std::vector<uint32_t>>& pending = x.flags[target].pending[id];
    if (pending.size() >= kCrossCoreFlagMax) {
        const std::string who = CoreLabel((*x.cores)[target]);
        FailF(call, "a flag's counter counts 0..15 (CrossCoreSetFlag docs: more sets than waits is an error)",
              "%s's counter of flag %u is at 15 and this CrossCoreSetFlag would raise it: the core sets it more "
              "often than the other waits for it",
              who.c_str(), id);
    }
    pending.push_back(clock);
}

}  // namespace

void CrossCoreSetFlagImpl(uint32_t mode, int32_t pipe, uint32_t flagId)
{
    constexpr const char* kCall = "CrossCoreSetFlag";
    CoreContext& c = CurrentCore();
    LaunchSync& sync = *c.sync;
    CrossCore& x = *sync.cross;
    CheckMode(kCall, mode, c, x);
    if (pipe == 0 || pipe == 6) {  // PIPE_S, PIPE_ALL
        FailF(kCall,
              "CrossCoreSetFlag's pipe is PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3 or PIPE_FIX (modes 0, 1 and "
              "2 do not take PIPE_S or PIPE_ALL: CrossCoreSetFlag docs)",
              "pipe = %s", pipe == 0 ? "PIPE_S" : "PIPE_ALL");
    }
    const Pipe p = pipe == 1 ? Pipe::kV : pipe == 2 ? Pipe::kM : pipe == 3 ? Pipe::kMte1 : pipe == 4 ? Pipe::kMte2
                 : pipe == 5 ? Pipe::kMte3 : Pipe::kFix;
    // The flag goes out once the pipe's earlier work is done: a copy to GM on another pipe that the flag's pipe
    // has not waited for may still be running when the other core reads.
    if (const char* copy = UnsettledGmWrite(p)) {
        FailF(kCall,
              "CrossCoreSetFlag<mode, pipe> publishes the work of its pipe: a copy to GM another core waits for is "
              "done on that pipe or ordered before it",
              "'%s' on pipe MTE3 wrote GM and CrossCoreSetFlag is on pipe %s, which has not waited for it: the other "
              "core may read the old bytes (set the flag on PIPE_MTE3, or order the copy before the flag's pipe)",
              copy, PipeName(p));
    }
    const uint32_t id = flagId & 0xF;  // "如果flagId的值超出该范围，则会取截取最低位4bit为准"
    std::unique_lock<std::mutex> lock(sync.mutex);
    FlagCounters& mine = x.flags[c.coreId];
    ++mine.sets[id];
    x.userFlagIds.push_back(static_cast<uint16_t>(id | (c.coreId << 4)));
    std::vector<uint32_t> clock;
    ReleaseClock(c, clock);
    const auto& all = *x.cores;
    if (mode == 2 && c.coreType == kAic) {  // the AIC sets: each AIV of its block
        for (uint32_t s = 0; s < x.ratio; ++s) Bump(x, x.AivOf(c.block, static_cast<int32_t>(s)), id, clock, kCall);
        sync.opened.notify_all();
        return;
    }
    // A group: the members and whose counters a complete round moves.
    std::vector<uint32_t> members;
    std::vector<uint32_t> targets;
    uint32_t self = 0;
    if (mode == 0) {
        for (uint32_t i = 0; i < all.size(); ++i) {
            if (all[i].coreType == c.coreType) members.push_back(i);
        }
        targets = members;
    } else {
        for (uint32_t s = 0; s < x.ratio; ++s) members.push_back(x.AivOf(c.block, static_cast<int32_t>(s)));
        if (mode == 1) {
            targets = members;
        } else {
            targets.push_back(x.AicOf(c.block));
        }
    }
    for (uint32_t k = 0; k < members.size(); ++k) {
        if (members[k] == c.coreId) self = k;
    }
    const uint64_t key = (static_cast<uint64_t>(mode) << 56) | (static_cast<uint64_t>(c.coreType) << 48) |
                         (static_cast<uint64_t>(mode == 0 ? 0 : c.block) << 8) | id;
    FlagGroup& g = x.groups[key];
    if (g.memberSets.empty()) g.memberSets.assign(members.size(), 0);
    const uint32_t round = g.memberSets[self]++;
    while (g.roundClocks.size() <= round - g.completed) g.roundClocks.emplace_back();
    std::vector<uint32_t>& joined = g.roundClocks[round - g.completed];
    Size(joined, c.coreCount);
    for (uint32_t i = 0; i < c.coreCount; ++i) joined[i] = std::max(joined[i], clock[i]);
    while (*std::min_element(g.memberSets.begin(), g.memberSets.end()) > g.completed) {
        for (uint32_t t : targets) Bump(x, t, id, g.roundClocks.front(), kCall);
        g.roundClocks.pop_front();
        ++g.completed;
    }
    sync.opened.notify_all();
}

void CrossCoreWaitFlagImpl(uint32_t mode, uint32_t flagId)
{
    constexpr const char* kCall = "CrossCoreWaitFlag";
    CoreContext& c = CurrentCore();
    LaunchSync& sync = *c.sync;
    CrossCore& x = *sync.cross;
    CheckMode(kCall, mode, c, x);
    const uint32_t id = flagId & 0xF;
    // On A2 the wait blocks every pipe until the counter is non-zero (modeId and pipe have no effect there).
    BarrierAll();
    std::unique_lock<std::mutex> lock(sync.mutex);
    const FlagWait wait{&x, c.coreId, id};
    char what[96];
    std::snprintf(what, sizeof what, "CrossCoreWaitFlag(%u), whose counter is 0", id);
    WaitUntil(lock, FlagReady, &wait, what);
    Fifo<std::vector<uint32_t>>& pending = x.flags[c.coreId].pending[id];
    AcquireClock(c, pending.front());
    pending.pop_front();
    ++x.flags[c.coreId].waits[id];
}

void NoteHardSyncAll()
{
    CoreContext& c = CurrentCore();
    std::lock_guard<std::mutex> lock(c.sync->mutex);
    c.sync->cross->hardSyncAll = true;
}

void CheckCrossCoreAtEnd(const char* kernel, LaunchSync& sync)
{
    CrossCore& x = *sync.cross;
    const auto& all = *x.cores;
    for (uint32_t i = 0; i < all.size(); ++i) {
        for (uint32_t id = 0; id < kCrossCoreFlagIds; ++id) {
            const size_t left = x.flags[i].pending[id].size();
            if (left != 0) {
                throw RuleViolation(
                    kernel, all[i].blockIdx, CoreLabel(all[i]), "CrossCoreSetFlag/CrossCoreWaitFlag",
                    "CrossCoreSetFlag and CrossCoreWaitFlag are used in pairs (CrossCoreSetFlag docs)",
                    CoreLabel(all[i]) + " returned with its counter of flag " + std::to_string(id) + " at " +
                        std::to_string(left) + ": it waited for the flag " + std::to_string(x.flags[i].waits[id]) +
                        " time(s), " + std::to_string(x.flags[i].waits[id] + left) +
                        " set(s) reached it (the counter stays set on the NPU)");
            }
        }
    }
    for (const auto& [key, g] : x.groups) {
        if (g.roundClocks.empty()) continue;
        const uint32_t id = static_cast<uint32_t>(key & 0xFF);
        const uint32_t mode = static_cast<uint32_t>(key >> 56);
        const auto most = *std::max_element(g.memberSets.begin(), g.memberSets.end());
        const auto least = *std::min_element(g.memberSets.begin(), g.memberSets.end());
        throw RuleViolation(kernel, 0, "CrossCoreSetFlag",
                            "every core of a flag's group sets it as often as the others (mode 0: all cores of the "
                            "type; modes 1 and 2: the AIVs of the block)",
                            "mode " + std::to_string(mode) + ", flag " + std::to_string(id) + ": one member set it " +
                                std::to_string(most) + " time(s), another " + std::to_string(least) +
                                ": the round the others started never completes (a core waiting for it hangs)");
    }
    // Flag ids the APIs use themselves (CrossCoreSetFlag docs, 约束说明): the Matmul objects [0, 2N - 1] (the
    // twin is stricter than "not recommended": a shared id lets a user wait consume the API's notification),
    // the hardware SyncAll 11-14.
    uint32_t objects = 0;
    for (uint32_t n : x.matmulObjects) objects = std::max(objects, n);
    for (uint16_t packed : x.userFlagIds) {
        const uint32_t id = packed & 0xF;
        const CoreContext& c = all[packed >> 4];
        if (id < 2 * objects) {
            throw RuleViolation(kernel, c.blockIdx, CoreLabel(c), "CrossCoreSetFlag",
                                "a kernel with N Matmul objects leaves flag ids [0, 2N - 1] to the Matmul API "
                                "(CrossCoreSetFlag docs, 约束说明; the twin refuses what the docs advise against)",
                                "flag " + std::to_string(id) + " with " + std::to_string(objects) +
                                    " Matmul object(s) registered");
        }
        if (x.hardSyncAll && id >= 11 && id <= 14) {
            throw RuleViolation(kernel, c.blockIdx, CoreLabel(c), "CrossCoreSetFlag",
                                "a kernel using the hardware SyncAll leaves flag ids 11-14 to it (CrossCoreSetFlag "
                                "docs, 约束说明; the twin refuses what the docs advise against)",
                                "flag " + std::to_string(id) + " in a kernel that calls SyncAll()");
        }
    }
}

std::string DescribeHang(LaunchSync& sync, const std::vector<CoreContext>& cores)
{
    std::string waiting;
    uint32_t n = 0;
    for (const Blocked& b : sync.blocked) {
        if (n++ == 8) {
            waiting += "; ...";
            break;
        }
        waiting += (waiting.empty() ? "" : "; ") + CoreLabel(cores[b.coreId]) + " at " + b.what;
    }
    // An AIV whose AIC serves Matmul objects but that returned without reaching REGIST_MATMUL_OBJ: its client
    // never ran, so it never sent the message that ends the AIC's service.
    const CrossCore& x = *sync.cross;
    std::string returned;
    uint32_t r = 0;
    for (const CoreContext& c : cores) {
        if (!c.returned) continue;
        if (r++ == 8) {
            returned += ", ...";
            break;
        }
        returned += (returned.empty() ? "" : ", ") + CoreLabel(c);
        const bool served = x.mix && c.coreType != AscendC::AIC && x.matmulObjects[x.AicOf(c.block)] != 0;
        if (served && !x.clientOpen[c.coreId]) {
            returned += " (without reaching REGIST_MATMUL_OBJ: its Matmul client never ran, so the AIC never hears that "
                        "it ended)";
        }
    }
    return std::to_string(sync.blocked.size()) + " core(s) wait with nothing left to release them (" + waiting +
           ")" + (returned.empty() ? "" : "; returned: " + returned) + ": on the NPU the kernel hangs";
}

}  // namespace ascend_twin
