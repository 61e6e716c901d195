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
    std::string deferredViolation;      // found in a destructor (cannot throw there); raised after the kernel returns
    std::string deferredCall;
    std::string deferredRule;

    void Clear()  // for the next launch; the vectors keep their capacity
    {
        gm = nullptr;
        writes.clear();
        reads.clear();
        atomicWrites.clear();
        deferredViolation.clear();
        deferredCall.clear();
        deferredRule.clear();
    }
};

}  // namespace ascend_twin
