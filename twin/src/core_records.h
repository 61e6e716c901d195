// What the launcher keeps of each core besides twin/runtime.h's CoreContext: the launch's GM regions,
// the core's GM ranges for the cross-core checks, and a violation found in a destructor.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "twin/runtime.h"

namespace ascend_twin {

// The core's scalar data cache (DataCacheCleanAndInvalid docs): GlobalTensor::GetValue/SetValue go through
// it, DataCopy and the other DMA transfers do not. Kept as byte ranges with the SyncAll epoch of each event.
struct ScalarCacheRange {
    uint64_t begin, end;
    uint32_t epoch;      // valid: the epoch of the DataCacheCleanAndInvalid; writes: of the SetValue
    uint32_t loadEpoch;  // valid: of the first GetValue since (kScalarCacheNever until then); writes: of the clean
};
inline constexpr uint32_t kScalarCacheNever = 0xffffffffu;

// A core's GM read record: the bytes [begin, end) (stride 0), or runs of runBytes bytes `stride` apart, the first at
// begin and the last ending at end (stride > runBytes): the rows of a strided DataCopy or of a cube operand's tile in
// one record instead of one a row. The runs are exact: the bytes between them were not read.
struct GmRead : GmWrite {
    uint64_t stride = 0;
    uint64_t runBytes = 0;

    // Calls f(b, e) for each run (or the one range) that overlaps [lo, hi), in address order.
    template <typename F>
    void ForEachRunIn(uint64_t lo, uint64_t hi, F&& f) const
    {
        if (lo >= end || hi <= begin) return;
        if (stride == 0) {
            f(begin, end);
            return;
        }
        const uint64_t count = (end - begin - runBytes) / stride + 1;
        uint64_t i = lo < begin + runBytes ? 0 : (lo - begin - runBytes) / stride + 1;
        const uint64_t last = std::min<uint64_t>(count, (hi - begin + stride - 1) / stride);
        for (; i < last; ++i) f(begin + i * stride, begin + i * stride + runBytes);
    }
};

struct ScalarCache {
    bool used = false;         // any scalar GM access or DataCacheCleanAndInvalid in this launch
    bool allValid = false;     // ENTIRE_DATA_CACHE since the launch began
    uint32_t allValidEpoch = 0;
    std::vector<ScalarCacheRange> valid;   // bytes invalidated since the launch began (loaded since: loadEpoch)
    std::vector<GmWrite> stale;            // valid bytes this core's DMA wrote after: the cache may hold the old ones
    std::vector<ScalarCacheRange> writes;  // SetValue bytes; loadEpoch = the epoch of their clean, or never
    std::vector<ScalarCacheRange> reads;   // GetValue bytes; epoch = of the read, loadEpoch = of the line's load

    void Clear()
    {
        used = allValid = false;
        allValidEpoch = 0;
        valid.clear();
        stale.clear();
        writes.clear();
        reads.clear();
    }
};

struct CoreRecords {
    const std::vector<GmRegion>* gm = nullptr;
    std::vector<GmWrite> writes;        // coalesced GM write ranges, for the cross-core overlap check
    // Per entry of `writes` (the same index): simd::WriteChecksum of the bytes written (the checksums of coalesced
    // writes add up), and how many of the range's bytes have no checksum yet (CheckGmDmaWrite records a DMA write
    // before it happens, GmDmaWritten adds its checksum after; a scalar store is never summed). Two cores' unordered
    // writes of the same bytes are allowed when both are summed and agree. Apart from `writes`, so that the read
    // records, of which a launch makes many, stay small.
    struct WriteSum {
        uint64_t sum = 0;
        uint64_t unsummed = 0;
    };
    std::vector<WriteSum> writeSums;
    std::vector<GmRead> reads;          // coalesced GM read ranges, for the cross-core read-after-write check
    std::vector<GmWrite> atomicWrites;  // GM ranges accumulated into atomically (cores may share them)
    // The slots of the workspace form of SyncAll this core's first call polls, with the epoch of that call
    // (begin == end: no such call), and whether the core wrote all of them before it (the docs' kernel-side
    // zeroing: every core zeroes the whole workspace) or none (the host zeroed it).
    GmWrite syncWorkspace{0, 0, 0};
    bool syncWorkspaceZeroed = false;
    std::string deferredViolation;      // found in a destructor (cannot throw there); raised after the kernel returns
    std::string deferredCall;
    std::string deferredRule;
    ScalarCache scalarCache;
    // Cross-core happens-before (twin/src/cross_core.cpp): the core's vector clock, and its value after each
    // acquire (flat, coreCount entries per acquire): an access tagged acq = k saw snapshot k - 1.
    std::vector<uint32_t> clock;
    std::vector<uint32_t> clockSnapshots;
    // GM flags (twin/src/gm_flags.cpp): the clock of the core's last DataSyncBarrier (what its later bypass
    // writes publish), and its current run of polls with no core publishing in between.
    std::vector<uint32_t> dsbClock;
    bool dsb = false;
    uint32_t pollRun = 0;
    uint64_t pollAlone = 0;  // polls since the core went on alone (0: not alone)
    uint64_t pollSeen = 0;
    uint64_t pollBegin = 0, pollEnd = 0;

    void Clear()  // for the next launch; the vectors keep their capacity
    {
        scalarCache.Clear();
        clock.clear();
        clockSnapshots.clear();
        dsbClock.clear();
        dsb = false;
        pollRun = 0;
        pollAlone = 0;
        pollSeen = 0;
        pollBegin = pollEnd = 0;
        gm = nullptr;
        writes.clear();
        writeSums.clear();
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
// DMA accesses of GM by the current core, for its scalar data cache (twin/src/scalar_cache.cpp).
void ScalarCacheOnDmaRead(const char* call, CoreContext& ctx, uint64_t begin, uint64_t end);
void ScalarCacheOnDmaWrite(CoreContext& ctx, uint64_t begin, uint64_t end);
// GetValue/SetValue of [begin, begin + bytes) after the bounds check and the records.
// ScalarCacheRead returns whether the read loads its line from GM (not served by the cache: a poll).
bool ScalarCacheRead(const char* call, CoreContext& ctx, uint64_t begin, uint64_t bytes);
void ScalarCacheWrite(CoreContext& ctx, uint64_t begin, uint64_t bytes);

// GM flags (twin/src/gm_flags.cpp). A scalar read of [begin, end) that may be polling: ReadGmByPassDCache
// (kBypass: also reads and returns the bytes, as the low bytes of the result), a GetValue loading its line
// fresh from GM (kFresh), or one its data cache serves (kCached). Waits while the core spins on GM no other
// core publishes to; kBypass and kFresh then acquire what other cores published over those bytes.
enum class GmPollKind : uint8_t { kBypass, kFresh, kCached };
// out: the bytes read (under the lock, after any acquire), if not null.
uint64_t GmPollRead(const char* call, CoreContext& ctx, uint64_t begin, uint64_t end, GmPollKind kind,
                   void* out = nullptr);
// A write other cores may poll for: WriteGmByPassDCache (stores *value; publishes the clock of the core's last
// DataSyncBarrier) or DataCacheCleanAndInvalid writing SetValue bytes back (value null; publishes everything the
// core did so far).
void GmPublish(CoreContext& ctx, uint64_t begin, uint64_t end, bool atBarrier, const uint64_t* value);
// A SetValue store not yet written back (see CrossCore::pendingStores); GmPublish of the write-back ends it, and
// so does the core's end (GmCoreDone).
void GmStorePending(CoreContext& ctx, uint64_t begin, uint64_t end);
void GmCoreDone(LaunchSync& sync, uint32_t coreId);

struct LaunchSpec;
// "bytes [a, b) of GM buffer 'name'" for a range of the launch's GM.
std::string WhereInGm(const LaunchSpec& spec, uint64_t begin, uint64_t end);
// After the launch: scalar reads made stale, and scalar writes not yet written back, by other cores' accesses.
void CheckScalarCachesAcrossCores(const LaunchSpec& spec, const std::vector<CoreContext>& cores, uint64_t generation);

}  // namespace ascend_twin
