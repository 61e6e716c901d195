// What the launcher keeps of each core besides twin/runtime.h's CoreContext: the launch's GM regions,
// the core's GM ranges for the cross-core checks, and a violation found in a destructor.
#pragma once

#include <string>
#include <vector>

#include "twin/runtime.h"

namespace ascend_twin {

struct CoreRecords {
    const std::vector<GmRegion>* gm = nullptr;
    std::vector<GmWrite> writes;        // coalesced GM write ranges, for the cross-core overlap check
    std::vector<GmWrite> reads;         // coalesced GM read ranges, for the cross-core read-after-write check
    std::vector<GmWrite> atomicWrites;  // GM ranges accumulated into atomically (cores may share them)
    // The slots of the workspace form of SyncAll this core's first call polls, with the epoch of that call
    // (begin == end: no such call), and whether the core wrote all of them before it (the docs' kernel-side
    // zeroing: every core zeroes the whole workspace) or none (the host zeroed it).
    GmWrite syncWorkspace{0, 0, 0};
    bool syncWorkspaceZeroed = false;
    std::string deferredViolation;      // found in a destructor (cannot throw there); raised after the kernel returns
    std::string deferredCall;
    std::string deferredRule;

    void Clear()  // for the next launch; the vectors keep their capacity
    {
        gm = nullptr;
        writes.clear();
        reads.clear();
        atomicWrites.clear();
        syncWorkspace = GmWrite{0, 0, 0};
        syncWorkspaceZeroed = false;
        deferredViolation.clear();
        deferredCall.clear();
        deferredRule.clear();
    }
};

// The workspace form of SyncAll (twin/src/block_sync.cpp), for the checks at the end of a launch: either no
// core or every core zeroed the gmWorkspace before its first SyncAll (false: culprit and detail say which
// did and which did not); and whether a GM write is such zeroing, which every core may do over the same
// bytes (the SyncAll docs prescribe it), so the cross-core checks leave it out.
bool CheckSyncWorkspaceZeroing(const std::vector<CoreContext>& cores, int64_t& culprit, std::string& detail);
bool InSyncWorkspaceZeroing(const std::vector<CoreContext>& cores, const GmWrite& w);

}  // namespace ascend_twin
