// Virtual cores that wait for each other: SyncAll across the cores of a launch.
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
#include <mutex>
#include <vector>

namespace ascend_twin {

struct CoreContext;

// Thrown out of SyncAll in a core whose barrier can never open (another core failed or returned).
struct CoreAborted {};

// The barrier state of one launch.
struct LaunchSync {
    explicit LaunchSync(uint32_t cores) : cores(cores) {}
    std::mutex mutex;
    std::condition_variable opened;
    const uint32_t cores;
    uint32_t arrived = 0;       // cores waiting at the open SyncAll
    uint32_t participants = 0;  // cores the open SyncAll waits for (usedCores, or every core)
    uint32_t finished = 0;      // cores that returned or failed
    uint64_t generation = 0;    // SyncAlls completed
    bool aborted = false;       // a SyncAll can never complete
    bool partial = false;       // some SyncAll synchronised fewer cores than the launch has
};

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

}  // namespace ascend_twin
