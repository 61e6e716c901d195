// Cores handing data to each other through GM words they poll: ReadGmByPassDCache/WriteGmByPassDCache
// (include/basic_api/kernel_operator_scalar_intf.h; on A2 ld_dev/st_dev, impl/basic_api/kernel_scalar.h),
// DataSyncBarrier<MemDsbT> (kernel_operator_block_sync_intf.h), and GetValue polls after
// DataCacheCleanAndInvalid (its docs, 典型场景).
//
// - A publication: WriteGmByPassDCache publishes the writer's clock as of its last DataSyncBarrier (the
//   DataSyncBarrier docs: the barrier makes the GM writes before it visible before the flag written after
//   it; without one the flag orders nothing); DataCacheCleanAndInvalid writing SetValue bytes back publishes
//   everything the core did before it. A poll of published bytes acquires that clock (once per publication):
//   the cross-core GM checks then order the writer's earlier accesses before the poller's later ones.
// - Spinning: the cores of a launch run on a few threads, many of them one after another on one thread
//   (twin/src/core_sched.h), so a core polling a word that a core not started yet will write would spin
//   forever. A core that reads the same GM bytes (ReadGmByPassDCache, GetValue) kPollSpin times in a row with
//   no core publishing in between is taken as spinning: it waits (the thread runs other cores) until some
//   core publishes, or until every other core has returned or waits too. Then it goes on alone; polling the
//   same bytes kPollHang more times stops the launch with the hang, naming the kernel, the core and the GM
//   bytes. A GetValue served by the data cache (no DataCacheCleanAndInvalid before it) whose wait another
//   core's write to those bytes ends is refused: on the NPU the cached line never shows that write.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>

#include "core_records.h"
#include "cross_core.h"
#include "twin/violation.h"

namespace ascend_twin {

namespace {

// Polls of the same bytes in a row, with no publication in between, after which a core counts as spinning
// and waits for a publication (or for every other core to have returned or to wait too).
constexpr uint32_t kPollSpin = 1000;
// Polls of the same bytes in a row while no other core could publish anything: the core spins forever (a loop
// re-reading one unchanging word this often for another purpose is not expected: stricter, docs/twin.md).
constexpr uint64_t kPollHang = 1000000;

struct PublishWait {
    const CrossCore* x;
    uint64_t seen;
};

// A publication since the wait began, or no other core left that could publish one (each has returned or
// waits itself): then the poller goes on alone and, if it keeps spinning, is reported.
bool PublishedOrAlone(LaunchSync& sync, const void* arg)
{
    const auto* w = static_cast<const PublishWait*>(arg);
    return w->x->publishes != w->seen || sync.finished + sync.blocked.size() >= sync.cores;
}

bool Overlap(uint64_t b1, uint64_t e1, uint64_t b2, uint64_t e2) { return b1 < e2 && b2 < e1; }

constexpr uint64_t kLine = 64;  // the data cache's line (CACHE_LINE_SIZE on dav-2201)

struct PendingWait {
    const CrossCore* x;
    uint32_t reader;
    uint64_t begin, end;
};

// No other core holds stores to [begin, end) not yet written back, or no other core is left that could write
// them back (each has returned or waits).
bool NoPendingStore(LaunchSync& sync, const void* arg)
{
    const auto* w = static_cast<const PendingWait*>(arg);
    if (sync.finished + sync.blocked.size() >= sync.cores) return true;
    for (uint64_t line = w->begin / kLine * kLine; line < w->end; line += kLine) {
        const auto range = w->x->pendingStores.equal_range(line);
        for (auto it = range.first; it != range.second; ++it) {
            const CrossCore::PendingStore& p = it->second;
            if (p.writer != w->reader && Overlap(w->begin, w->end, p.begin, p.end)) return false;
        }
    }
    return true;
}

// Ends the pending stores of `writer` that overlap [begin, end).
void ErasePending(CrossCore& x, uint32_t writer, uint64_t begin, uint64_t end)
{
    for (uint64_t line = begin / kLine * kLine; line < end; line += kLine) {
        const auto range = x.pendingStores.equal_range(line);
        for (auto it = range.first; it != range.second;) {
            const bool mine = it->second.writer == writer && Overlap(begin, end, it->second.begin, it->second.end);
            it = mine ? x.pendingStores.erase(it) : std::next(it);
        }
    }
}

// "bytes [a, b) of GM buffer 'name'" from the launch's regions (the core's view of them).
std::string Where(const CoreContext& ctx, uint64_t begin, uint64_t end)
{
    for (const GmRegion& r : *ctx.records->gm) {
        const auto base = reinterpret_cast<uintptr_t>(r.begin);
        if (begin >= base && end <= base + r.bytes) {
            return "bytes [" + std::to_string(begin - base) + ", " + std::to_string(end - base) + ") of GM buffer '" +
                   r.name + "'";
        }
    }
    return "GM bytes";
}

}  // namespace

uint64_t GmPollRead(const char* call, CoreContext& ctx, uint64_t begin, uint64_t end, GmPollKind kind, void* out)
{
    LaunchSync& sync = *ctx.sync;
    CrossCore& x = *sync.cross;
    CoreRecords& rec = *ctx.records;
    std::unique_lock<std::mutex> lock(sync.mutex);
    if (x.publishes == rec.pollSeen && begin == rec.pollBegin && end == rec.pollEnd) {
        ++rec.pollRun;
    } else {
        rec.pollRun = 1;
        rec.pollAlone = 0;
        rec.pollSeen = x.publishes;
        rec.pollBegin = begin;
        rec.pollEnd = end;
    }
    if (rec.pollAlone != 0 && ++rec.pollAlone > kPollHang) {
        lock.unlock();
        FailF(call, "a core polling GM is released by another core's write (else the NPU spins forever)",
              "the core read %s %llu times in a row and no other core is left to write it (each has returned or "
              "waits)", Where(ctx, begin, end).c_str(), static_cast<unsigned long long>(kPollHang));
    }
    if (rec.pollAlone == 0 && rec.pollRun >= kPollSpin) {
        const PublishWait wait{&x, x.publishes};
        char what[320];
        std::snprintf(what, sizeof what, "%s polling %s (%u reads in a row, no core writing it)", call,
                      Where(ctx, begin, end).c_str(), rec.pollRun);
        WaitUntil(lock, PublishedOrAlone, &wait, what);
        if (x.publishes == wait.seen) {
            rec.pollAlone = 1;  // nobody else can run: go on alone, reported if it keeps spinning
        } else {
            bool ours = false;
            for (const CrossCore::GmPublished& p : x.published) {
                ours = ours || (p.writer != ctx.coreId && Overlap(begin, end, p.begin, p.end));
            }
            if (kind == GmPollKind::kCached && ours) {
                lock.unlock();
                FailF(call,
                      "a GetValue polling GM another core writes loads the line fresh each time: "
                      "DataCacheCleanAndInvalid before each GetValue (DataCacheCleanAndInvalid docs, 典型场景)",
                      "the core polls %s through its data cache, which keeps the line it loaded: it never sees the "
                      "value another core wrote, and spins forever on the NPU", Where(ctx, begin, end).c_str());
            }
            rec.pollRun = 0;
            rec.pollSeen = x.publishes;
        }
    }
    if (kind != GmPollKind::kCached && !x.pendingStores.empty()) {
        // Another core's SetValue of these bytes is still in its data cache: GM shows it only after the write-back.
        const PendingWait wait{&x, ctx.coreId, begin, end};
        if (!NoPendingStore(sync, &wait)) {
            char what[320];
            std::snprintf(what, sizeof what, "%s reading %s, which another core stored with SetValue and has not "
                          "written back (DataCacheCleanAndInvalid)", call, Where(ctx, begin, end).c_str());
            WaitUntil(lock, NoPendingStore, &wait, what);
        }
    }
    if (kind != GmPollKind::kCached) {
        for (CrossCore::GmPublished& p : x.published) {
            if (p.writer == ctx.coreId || !Overlap(begin, end, p.begin, p.end) || p.acquiredBy[ctx.coreId]) continue;
            p.acquiredBy[ctx.coreId] = 1;
            if (!p.clock.empty()) AcquireClock(ctx, p.clock);
        }
    }
    uint64_t value = 0;
    if (kind == GmPollKind::kBypass) std::memcpy(&value, reinterpret_cast<const void*>(begin), end - begin);
    if (out != nullptr) std::memcpy(out, reinterpret_cast<const void*>(begin), end - begin);
    return value;
}

void GmPublish(CoreContext& ctx, uint64_t begin, uint64_t end, bool atBarrier, const uint64_t* value)
{
    LaunchSync& sync = *ctx.sync;
    CrossCore& x = *sync.cross;
    CoreRecords& rec = *ctx.records;
    std::lock_guard<std::mutex> lock(sync.mutex);
    if (value != nullptr) std::memcpy(reinterpret_cast<void*>(begin), value, end - begin);
    CrossCore::GmPublished* p = nullptr;
    for (CrossCore::GmPublished& q : x.published) {
        if (q.begin == begin && q.end == end) p = &q;
    }
    if (p == nullptr) {
        x.published.push_back({begin, end, ctx.coreId, {}, {}});
        p = &x.published.back();
    }
    if (value == nullptr) ErasePending(x, ctx.coreId, begin, end);  // SetValue bytes written back
    p->writer = ctx.coreId;
    p->acquiredBy.assign(ctx.coreCount, 0);
    p->clock.clear();
    if (!atBarrier) {
        ReleaseClock(ctx, p->clock);
    } else if (rec.dsb) {
        p->clock = rec.dsbClock;
    }
    ++x.publishes;
    sync.opened.notify_all();
}

void GmStorePending(CoreContext& ctx, uint64_t begin, uint64_t end)
{
    if (ctx.sync == nullptr || ctx.sync->cross == nullptr || ctx.coreCount < 2) return;
    CrossCore& x = *ctx.sync->cross;
    std::lock_guard<std::mutex> lock(ctx.sync->mutex);
    for (uint64_t line = begin / kLine * kLine; line < end; line += kLine) {
        const auto range = x.pendingStores.equal_range(line);
        bool known = false;
        for (auto it = range.first; it != range.second && !known; ++it) {
            const CrossCore::PendingStore& p = it->second;
            if (p.writer == ctx.coreId && p.begin <= begin && end <= p.end) known = true;  // stored there before
        }
        if (!known) x.pendingStores.emplace(line, CrossCore::PendingStore{begin, end, ctx.coreId});
    }
}

void GmCoreDone(LaunchSync& sync, uint32_t coreId)
{
    if (sync.cross == nullptr) return;
    std::lock_guard<std::mutex> lock(sync.mutex);
    std::unordered_multimap<uint64_t, CrossCore::PendingStore>& pending = sync.cross->pendingStores;
    if (pending.empty()) return;
    for (auto it = pending.begin(); it != pending.end();) {
        it = it->second.writer == coreId ? pending.erase(it) : std::next(it);
    }
    sync.opened.notify_all();
}

void DataSyncBarrierOnCore(uint8_t mode)
{
    // MemDsbT: ALL (GM and UB accesses), DDR (GM), UB, SEQ (DataSyncBarrier docs). Only ALL and DDR wait for the
    // GM accesses before it: what a later bypass write publishes is the core's clock as of here.
    if (mode != 0 && mode != 1) return;
    CoreContext& ctx = CurrentCore();
    if (ctx.sync == nullptr) return;
    CoreRecords& rec = *ctx.records;
    std::lock_guard<std::mutex> lock(ctx.sync->mutex);
    rec.dsbClock.clear();
    ReleaseClock(ctx, rec.dsbClock);
    rec.dsb = true;
}

}  // namespace ascend_twin
