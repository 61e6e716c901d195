// Runs a kernel on blockDim virtual cores, then applies the checks that need every core's record.
#include "twin/launch.h"
#include "twin/violation.h"

#include "core_records.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>

#include "twin/hazard.h"
#include "core_sched.h"
#include "worker_pool.h"

namespace ascend_twin {

namespace {

constexpr uint32_t kMaxKernelArgs = 12;

// Statistics are kept per calling thread: a launch made on another thread never shows up here.
thread_local bool tHasLast = false;
thread_local LaunchStats tLast;
thread_local std::vector<std::vector<LaunchStats>> tRecordings;  // innermost last

using A = uint8_t*;

struct LaunchScratch {
    std::vector<GmRegion> gm;
    std::vector<A> args;
    std::vector<void*> values;
    std::vector<CoreContext> cores;
    std::vector<CoreRecords> records;
    std::vector<std::exception_ptr> errors;
    bool busy = false;
};
thread_local LaunchScratch tScratch;

void CallEntry(KernelEntry entry, const std::vector<A>& a)
{
    switch (a.size()) {
        case 1: return reinterpret_cast<void (*)(A)>(entry)(a[0]);
        case 2: return reinterpret_cast<void (*)(A, A)>(entry)(a[0], a[1]);
        case 3: return reinterpret_cast<void (*)(A, A, A)>(entry)(a[0], a[1], a[2]);
        case 4: return reinterpret_cast<void (*)(A, A, A, A)>(entry)(a[0], a[1], a[2], a[3]);
        case 5: return reinterpret_cast<void (*)(A, A, A, A, A)>(entry)(a[0], a[1], a[2], a[3], a[4]);
        case 6: return reinterpret_cast<void (*)(A, A, A, A, A, A)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5]);
        case 7:
            return reinterpret_cast<void (*)(A, A, A, A, A, A, A)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
        case 8:
            return reinterpret_cast<void (*)(A, A, A, A, A, A, A, A)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5],
                                                                             a[6], a[7]);
        case 9:
            return reinterpret_cast<void (*)(A, A, A, A, A, A, A, A, A)>(entry)(a[0], a[1], a[2], a[3], a[4],
                                                                                a[5], a[6], a[7], a[8]);
        case 10:
            return reinterpret_cast<void (*)(A, A, A, A, A, A, A, A, A, A)>(entry)(a[0], a[1], a[2], a[3], a[4],
                                                                                   a[5], a[6], a[7], a[8], a[9]);
        case 11:
            return reinterpret_cast<void (*)(A, A, A, A, A, A, A, A, A, A, A)>(entry)(
                a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10]);
        case 12:
            return reinterpret_cast<void (*)(A, A, A, A, A, A, A, A, A, A, A, A)>(entry)(
                a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]);
        default: throw std::invalid_argument("ascend_ext twin: kernels take 1 to 12 GM arguments");
    }
}

void RunCore(const LaunchSpec& spec, const std::vector<GmRegion>& gm, const std::vector<A>& args,
             const std::vector<void*>& values, uint8_t* ub, LaunchSync& sync, CoreContext& ctx)
{
    ctx.sync = &sync;
    ctx.kernel = spec.kernel;
    ctx.blockNum = spec.blockDim;
    ctx.tilingKey = spec.tilingKey;
    ctx.platform = spec.platform;
    ctx.records->gm = &gm;
    ctx.ub = ub;
    SetCurrentCore(&ctx);
    struct Reset {
        ~Reset() { SetCurrentCore(nullptr); }
    } reset;
    BeginCore();
    if (spec.invoke != nullptr) {
        spec.invoke(spec.entry, values.data());
    } else {
        CallEntry(spec.entry, args);
    }
    if (!ctx.records->deferredViolation.empty()) {
        const CoreRecords& r = *ctx.records;
        throw RuleViolation(ctx.kernel, ctx.blockIdx, r.deferredCall, r.deferredRule, r.deferredViolation);
    }
    EndCore();
}


// A GM range one core accessed, with the SyncAll epoch it was accessed in. A core that did not take part
// in every SyncAll of the launch (usedCores < blockDim) is ordered with nobody: `anyEpoch`.
struct Span {
    uint64_t begin, end;
    int64_t core;
    uint32_t epoch;
    bool anyEpoch;
    bool atomic;
};

bool SameEpoch(const Span& a, const Span& b) { return a.epoch == b.epoch || a.anyEpoch || b.anyEpoch; }

bool AnyEpoch(const CoreContext& c, uint64_t generation) { return c.epoch != generation; }

// No two cores write the same GM bytes between the same two SyncAlls, unless both accumulate atomically.
// Writes separated by a SyncAll are ordered: the later one wins on the NPU too, so they are legal.
void CheckCoreWritesDisjoint(const LaunchSpec& spec, const std::vector<CoreContext>& cores, uint64_t generation)
{
    std::vector<Span> spans;
    // Most launches zero no SyncAll workspace: then no write needs the per-core lookup.
    const bool zeroing = std::any_of(cores.begin(), cores.end(), [](const CoreContext& c) {
        return c.records->syncWorkspace.begin != c.records->syncWorkspace.end;
    });
    for (const CoreContext& c : cores) {
        const bool any = AnyEpoch(c, generation);
        for (const GmWrite& w : c.records->writes) {
            if (!zeroing || !InSyncWorkspaceZeroing(cores, w)) {
                spans.push_back({w.begin, w.end, c.blockIdx, w.epoch, any, false});
            }
        }
        for (const GmWrite& w : c.records->atomicWrites) spans.push_back({w.begin, w.end, c.blockIdx, w.epoch, any, true});
    }
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
    std::vector<Span> active;  // spans reaching past the current begin
    for (const Span& s : spans) {
        size_t kept = 0;
        for (const Span& r : active) {
            if (r.end > s.begin) active[kept++] = r;
        }
        active.resize(kept);
        for (const Span& r : active) {
            if (s.core != r.core && !(s.atomic && r.atomic) && SameEpoch(s, r)) {
                const uint64_t overlapEnd = std::min(s.end, r.end);
                const bool mixed = s.atomic != r.atomic;
                throw RuleViolation(
                    spec.kernel, s.core, "DataCopy/DataCopyPad to GM", "no two cores write the same GM bytes",
                    "core " + std::to_string(s.core) + " and core " + std::to_string(r.core) + " both wrote " +
                        WhereInGm(spec, std::max(s.begin, r.begin), overlapEnd) +
                        (s.epoch == r.epoch ? " between the same two SyncAlls" : " (one of them not synchronised by every SyncAll)") +
                        (mixed ? " (one of them accumulating atomically, the other overwriting)"
                               : " (accumulate with SetAtomicAdd<T> if that is meant, or order the writes with "
                                 "SyncAll; the twin is stricter than the NPU here, where the last write wins: results "
                                 "would depend on core timing)"));
            }
        }
        active.push_back(s);
    }
}

// A core reading GM another core writes in the same launch sees the old or the new bytes, depending on
// timing, unless a SyncAll orders the two (cores run concurrently on the NPU): a read of bytes another
// core wrote before a SyncAll both passed is legal, a read of bytes written between the same two
// SyncAlls (or after the read's SyncAll, for a read before it) is not.
void CheckNoCrossCoreReadAfterWrite(const LaunchSpec& spec, const std::vector<CoreContext>& cores,
                                    uint64_t generation)
{
    std::vector<Span> spans;
    // Most launches zero no SyncAll workspace: then no write needs the per-core lookup.
    const bool zeroing = std::any_of(cores.begin(), cores.end(), [](const CoreContext& c) {
        return c.records->syncWorkspace.begin != c.records->syncWorkspace.end;
    });
    for (const CoreContext& c : cores) {
        const bool any = AnyEpoch(c, generation);
        for (const GmWrite& w : c.records->writes) {
            if (!zeroing || !InSyncWorkspaceZeroing(cores, w)) {
                spans.push_back({w.begin, w.end, c.blockIdx, w.epoch, any, false});
            }
        }
        for (const GmWrite& w : c.records->atomicWrites) spans.push_back({w.begin, w.end, c.blockIdx, w.epoch, any, true});
    }
    if (spans.empty()) return;
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
    std::vector<uint64_t> reach(spans.size());  // the furthest end among spans[0..k]
    for (size_t k = 0; k < spans.size(); ++k) reach[k] = std::max(spans[k].end, k > 0 ? reach[k - 1] : 0);
    const uint64_t written0 = spans.front().begin, written1 = reach.back();  // every write lies in between
    for (const CoreContext& c : cores) {
        const bool any = AnyEpoch(c, generation);
        for (const GmWrite& r : c.records->reads) {
            if (r.end <= written0 || r.begin >= written1) continue;  // outside every write (inputs, as a rule)
            const Span read{r.begin, r.end, c.blockIdx, r.epoch, any, false};
            size_t k = static_cast<size_t>(std::upper_bound(spans.begin(), spans.end(), r.end - 1,
                                                            [](uint64_t v, const Span& s) { return v < s.begin; }) -
                                           spans.begin());
            for (; k > 0 && reach[k - 1] > r.begin; --k) {
                const Span& w = spans[k - 1];
                if (w.core == c.blockIdx || w.end <= r.begin || !SameEpoch(read, w)) continue;
                const uint64_t from = std::max(r.begin, w.begin);
                const uint64_t to = std::min(r.end, w.end);
                throw RuleViolation(spec.kernel, c.blockIdx, "DataCopy/GetValue from GM",
                                    "a core reads GM another core writes in the same launch only after SyncAll",
                                    "core " + std::to_string(c.blockIdx) + " read " + WhereInGm(spec, from, to) +
                                        ", which core " + std::to_string(w.core) +
                                        " wrote in this launch with no SyncAll between the write and the read: the "
                                        "read sees the old or the new bytes depending on timing");
            }
        }
    }
}

}  // namespace

std::string WhereInGm(const LaunchSpec& spec, uint64_t begin, uint64_t end)
{
    for (const GmArg& a : spec.args) {
        const auto base = reinterpret_cast<uintptr_t>(a.data);
        if (!a.byValue && a.bytes > 0 && begin >= base && begin < base + a.bytes) {
            return "bytes [" + std::to_string(begin - base) + ", " + std::to_string(end - base) + ") of GM buffer '" +
                   a.name + "'";
        }
    }
    return "bytes " + Hex(begin) + ".." + Hex(end);
}

const LaunchStats& Launch(const LaunchSpec& spec)
{
    if (spec.blockDim == 0) throw std::invalid_argument("ascend_ext twin: blockDim must be at least 1");
    if (spec.args.size() > kMaxKernelArgs) throw std::invalid_argument("ascend_ext twin: too many kernel args");
    // The calling thread's scratch, reused: once warm, a launch allocates nothing here. A launch never
    // starts another on its own thread (kernels do not launch kernels), but a local one keeps it safe.
    LaunchScratch local;
    LaunchScratch& scratch = tScratch.busy ? local : tScratch;
    scratch.busy = true;
    struct Release {
        LaunchScratch& s;
        ~Release() { s.busy = false; }
    } release{scratch};
    std::vector<GmRegion>& gm = scratch.gm;
    std::vector<A>& args = scratch.args;
    std::vector<void*>& values = scratch.values;  // for spec.invoke: where each parameter's value is
    gm.clear();
    args.assign(spec.args.size(), nullptr);
    values.assign(spec.args.size(), nullptr);
    for (size_t i = 0; i < spec.args.size(); ++i) {
        const GmArg& a = spec.args[i];
        if (a.byValue) {
            if (spec.invoke == nullptr) throw std::invalid_argument("ascend_ext twin: by-value arguments need an invoker");
            values[i] = a.data;
            continue;
        }
        gm.push_back({a.name, static_cast<uint8_t*>(a.data), a.bytes, a.elemSize});
        args[i] = static_cast<A>(a.data);
        values[i] = &args[i];
    }

    std::vector<CoreContext>& cores = scratch.cores;
    std::vector<CoreRecords>& records = scratch.records;
    std::vector<std::exception_ptr>& errors = scratch.errors;
    cores.assign(spec.blockDim, CoreContext{});
    records.resize(spec.blockDim);
    for (uint32_t i = 0; i < spec.blockDim; ++i) {
        records[i].Clear();
        cores[i].records = &records[i];
    }
    errors.assign(spec.blockDim, nullptr);
    const uint64_t ubBytes = spec.platform->ubSize;
    LaunchSync sync(spec.blockDim);
    WorkerPool::Instance().Run(spec.blockDim, ThreadCount(), [&](uint32_t i) {
        cores[i].blockIdx = i;
        try {
            RunCore(spec, gm, args, values, CurrentStackUb(ubBytes), sync, cores[i]);
            cores[i].returned = true;
        } catch (const CoreAborted&) {
            cores[i].abortedInSync = true;
        } catch (...) {
            errors[i] = std::current_exception();
        }
        CoreFinished(sync);
    });
    for (const std::exception_ptr& e : errors) {
        if (e) std::rethrow_exception(e);
    }
    if (sync.aborted) {  // cores returned while others waited at a SyncAll
        int64_t back = -1;
        std::string waiting;
        uint32_t waitingCount = 0;
        for (uint32_t i = 0; i < spec.blockDim; ++i) {
            if (cores[i].returned && back < 0) back = i;
            if (cores[i].abortedInSync && waitingCount++ < 8) waiting += (waiting.empty() ? "" : ", ") + std::to_string(i);
        }
        if (waitingCount > 8) waiting += ", ...";
        const CoreContext& c = cores[static_cast<size_t>(back < 0 ? 0 : back)];
        throw RuleViolation(spec.kernel, c.blockIdx, "SyncAll", "every core reaches every SyncAll",
                            "core " + std::to_string(c.blockIdx) + " returned after " + std::to_string(c.epoch) +
                                " SyncAll(s) while " + std::to_string(waitingCount) + " core(s) (" + waiting +
                                ") wait at SyncAll number " + std::to_string(sync.generation + 1) +
                                ": on the NPU they would wait forever (the kernel hangs)");
    }
    int64_t culprit = 0;
    std::string detail;
    if (!CheckSyncWorkspaceZeroing(cores, culprit, detail)) {
        throw RuleViolation(spec.kernel, culprit, "SyncAll(gmWorkspace, ubWorkspace, usedCores)",
                            "either the host zeroes SyncAll's gmWorkspace or every core zeroes all of it "
                            "(SyncAll docs)",
                            detail);
    }
    if (spec.blockDim > 1) {  // one core has nobody to race with
        CheckCoreWritesDisjoint(spec, cores, sync.generation);
        CheckNoCrossCoreReadAfterWrite(spec, cores, sync.generation);
        CheckScalarCachesAcrossCores(spec, cores, sync.generation);
    }

    LaunchStats& stats = tLast;  // filled in place: its strings and vector keep their capacity
    stats.kernel = spec.kernel;
    stats.platform = spec.platform->name;
    stats.blockDim = spec.blockDim;
    stats.cores.clear();
    for (const CoreContext& c : cores) stats.cores.push_back(c.counters);
    tHasLast = true;
    for (std::vector<LaunchStats>& recording : tRecordings) recording.push_back(stats);
    return stats;
}

const LaunchStats* LastLaunch() { return tHasLast ? &tLast : nullptr; }

void StartRecording() { tRecordings.emplace_back(); }

std::vector<LaunchStats> StopRecording()
{
    if (tRecordings.empty()) throw std::logic_error("ascend_twin::StopRecording without StartRecording");
    std::vector<LaunchStats> launches = std::move(tRecordings.back());
    tRecordings.pop_back();
    return launches;
}

namespace {
std::vector<KernelVariant>& Registry()
{
    static std::vector<KernelVariant> registry;
    return registry;
}
}  // namespace

int RegisterKernel(const KernelVariant& variant)
{
    Registry().push_back(variant);
    return static_cast<int>(Registry().size());
}

KernelEntry FindKernel(const char* op, DType dtype)
{
    for (const KernelVariant& v : Registry()) {
        if (std::strcmp(v.op, op) == 0 && v.dtype == dtype) return v.entry;
    }
    return nullptr;
}

}  // namespace ascend_twin
