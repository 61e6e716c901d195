// Virtual cores that wait for each other: SyncAll across the cores of a launch, and the waits of a MIX
// kernel's cores for one another (CrossCoreWaitFlag, the Matmul API's messages: twin/src/cross_core.h).
//
// A launch runs blockDim cores on fewer threads. A core that calls SyncAll must wait until every core
// of the launch has reached it, so its thread has to go on running the cores nobody has started yet.
// Each core starts on its thread's own stack, as a plain call (no cost when a kernel never synchronises
// across cores). When a core waits in SyncAll, the thread suspends whatever stack the core runs on and
// continues on a fiber (ucontext, own 256 KiB stack, own UB and hazard records, kept per thread across
// launches): it starts the next core there, or resumes a suspended core whose barrier has opened. A
// cross-thread barrier (generation counter) opens when every participating core has arrived. A core
// that returns or fails while others wait makes the barrier impossible: the waiting cores are released
// with CoreAborted, which unwinds them (the launch reports the first real violation, or the hang).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ascend_twin {

struct CoreContext;
struct CrossCore;  // twin/src/cross_core.h

// Thrown out of a wait in a core whose wait can never end (another core failed, or every core waits).
struct CoreAborted {};

struct LaunchSync;
// Whether a waiting core can go on; evaluated with LaunchSync::mutex held.
using ReadyFn = bool (*)(LaunchSync& sync, const void* arg);

// A core that waits, for the report when every core waits or has returned (the NPU would hang).
struct Blocked {
    uint32_t coreId;
    ReadyFn ready;
    const void* arg;
    std::string what;  // "SyncAll" or the call and what it waits for
};

// The barrier and wait state of one launch. Everything here is guarded by `mutex`; a change that can let a
// waiting core go on notifies `opened`.
struct LaunchSync {
    explicit LaunchSync(uint32_t cores);
    ~LaunchSync();
    std::mutex mutex;
    std::condition_variable opened;
    const uint32_t cores;
    uint32_t arrived = 0;       // cores waiting at the open SyncAll
    uint32_t participants = 0;  // cores the open SyncAll waits for (usedCores, or every core)
    uint32_t finished = 0;      // cores that returned or failed
    uint64_t generation = 0;    // SyncAlls completed
    bool aborted = false;       // a wait can never end
    bool deadlock = false;      // aborted because every core that has not returned waits
    bool partial = false;       // some SyncAll synchronised fewer cores than the launch has
    std::vector<Blocked> blocked;                 // cores waiting now
    std::vector<std::vector<uint32_t>> joins;     // per SyncAll: the vector clocks of its participants, joined
    std::unique_ptr<CrossCore> cross;             // flags and Matmul messages (twin/src/cross_core.cpp)
};

// Blocks the current core until ready(sync, arg), with `lock` (on sync.mutex) held on entry and on return.
// Returns at once when ready already. While it waits, the thread runs other cores. When every core that has
// not returned waits and none can go on, the launch is aborted (CoreAborted here and in every waiting core;
// the launcher reports the hang from sync.blocked). `what` names the wait in that report.
void WaitUntil(std::unique_lock<std::mutex>& lock, ReadyFn ready, const void* arg, const char* what);

// Runs body(i) for every index next(i) hands out, on the calling thread, suspending cores that wait in
// SyncAll and running others meanwhile. Returns when every core this thread started has finished.
// body must not throw.
void RunCores(const std::function<bool(uint32_t&)>& next, const std::function<void(uint32_t)>& body);

// The UB of the core running on the calling thread's current stack (the thread's own, or the fiber's).
uint8_t* CurrentStackUb(uint64_t bytes);
// The cube memories (L1, L0A, L0B, L0C, BT) of the core running on the calling thread's current stack.
uint8_t* CurrentStackCube(uint64_t bytes);

// SyncAll of the current core: waits until `participants` cores (0: every core) have arrived. Throws
// CoreAborted when the barrier can never open. Returns after the barrier opened.
void ArriveAndWait(const char* call, uint32_t participants);

// Every core reports its end so that waiting cores are not left hanging.
void CoreFinished(LaunchSync& sync);

// The vector clocks of cross-core happens-before (twin/src/cross_core.cpp), with sync.mutex held: a release
// publishes everything the core did so far, an acquire makes it see what the joined clocks cover.
void ReleaseClock(CoreContext& core, std::vector<uint32_t>& into);  // joins the core's clock into `into`
void AcquireClock(CoreContext& core, const std::vector<uint32_t>& clock);
// The core's clock becomes base joined with `from` (its own entry kept): what it has acquired since `base` from
// sources other than `from` is no longer part of it. The Matmul server's per-client view (matmul_mix.cpp).
void AcquireClockAs(CoreContext& core, const std::vector<uint32_t>& base, const std::vector<uint32_t>& from);
// Whether access x of core a happens before access y of core b (rel/acq tags of twin/runtime.h's GmWrite).
bool HappensBefore(const CoreContext& a, uint32_t relX, const CoreContext& b, uint32_t acqY);

}  // namespace ascend_twin
