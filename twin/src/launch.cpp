// Runs a kernel on blockDim virtual cores, then applies the checks that need every core's record.
#include "twin/launch.h"
#include "twin/violation.h"
#include "twin/c_api.h"

#include "core_records.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <utility>

#include <map>
#include <mutex>
#include <utility>

#include "twin/hazard.h"
#include "twin/simd_loops.h"
#include "twin/kernel_sys_var.h"
#include "core_sched.h"
#include "cross_core.h"
#include "worker_pool.h"

namespace ascend_twin {

namespace {

constexpr uint32_t kMaxKernelArgs = ASCEND_TWIN_MAX_PARAMS;

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

template <size_t I>
using ArgOf = A;  // one GM address per parameter

template <size_t... I>
void CallWith(KernelEntry entry, const std::vector<A>& a, std::index_sequence<I...>)
{
    reinterpret_cast<void (*)(ArgOf<I>...)>(entry)(a[I]...);
}

template <size_t... N>
constexpr auto MakeCallTable(std::index_sequence<N...>)
{
    using Call = void (*)(KernelEntry, const std::vector<A>&);
    return std::array<Call, sizeof...(N)>{
        {+[](KernelEntry e, const std::vector<A>& a) { CallWith(e, a, std::make_index_sequence<N + 1>{}); }...}};
}

// Entries without an invoker take GM addresses only: 1 to kMaxKernelArgs of them (ASCEND_TWIN_MAX_PARAMS,
// the size of the entry description compile_kernels exports).
void CallEntry(KernelEntry entry, const std::vector<A>& a)
{
    static constexpr auto kCalls = MakeCallTable(std::make_index_sequence<kMaxKernelArgs>{});
    if (a.empty() || a.size() > kMaxKernelArgs) {
        throw std::invalid_argument("ascend_ext twin: kernels take 1 to " + std::to_string(kMaxKernelArgs) +
                                    " arguments, got " + std::to_string(a.size()));
    }
    kCalls[a.size() - 1](entry, a);
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
        throw RuleViolation(ctx.kernel, ctx.blockIdx, CoreLabel(ctx), r.deferredCall, r.deferredRule,
                            r.deferredViolation);
    }
    EndCore();
}

// How a launch lays out its cores: one per block, or (a MIX type with cube and vector cores) per block one
// AIC and `ratio` AIVs.
struct Layout {
    int32_t kernelType = -1;  // the type known before the cores run (qualifier, or an earlier launch's)
    bool mix = false;
    uint32_t ratio = 1;
};

bool IsCubeVectorMix(int32_t type) { return type == KERNEL_TYPE_MIX_AIC_1_1 || type == KERNEL_TYPE_MIX_AIC_1_2; }

Layout LayoutOf(int32_t type)
{
    Layout l;
    l.kernelType = type;
    l.mix = IsCubeVectorMix(type);
    l.ratio = type == KERNEL_TYPE_MIX_AIC_1_1 ? 1 : type == KERNEL_TYPE_MIX_AIC_1_2 ? 2 : 1;
    return l;
}

// The types kernels revealed while running (KERNEL_TASK_TYPE_DEFAULT, the Matmul client's inference), by
// entry and tiling key: the device build knows them before the launch, the twin after the first one.
std::mutex gTypesMutex;
std::map<std::pair<const void*, uint64_t>, int32_t> gTypes;

int32_t KnownType(const LaunchSpec& spec)
{
    if (spec.kernelType >= 0) return spec.kernelType;
    std::lock_guard<std::mutex> lock(gTypesMutex);
    const auto it = gTypes.find({spec.entry, spec.tilingKey});
    return it == gTypes.end() ? -1 : it->second;
}

void RememberType(const LaunchSpec& spec, int32_t type)
{
    std::lock_guard<std::mutex> lock(gTypesMutex);
    gTypes[{spec.entry, spec.tilingKey}] = type;
}

// The core contexts of a launch with `layout`: per block its AIC, then its AIVs.
void SetUpCores(const LaunchSpec& spec, const Layout& layout, std::vector<CoreContext>& cores)
{
    const uint32_t perBlock = layout.mix ? 1 + layout.ratio : 1;
    const uint32_t n = spec.blockDim * perBlock;
    for (uint32_t i = 0; i < n; ++i) {
        CoreContext& c = cores[i];
        c.kernelType = layout.kernelType;  // a qualifier's, or the type an earlier launch revealed
        c.coreId = i;
        c.coreCount = n;
        c.mix = layout.mix;
        c.block = i / perBlock;
        const uint32_t slot = i % perBlock;
        if (layout.mix) {
            c.coreType = slot == 0 ? AscendC::AIC : AscendC::AIV;
            c.subBlockIdx = slot == 0 ? 0 : static_cast<int32_t>(slot - 1);
            c.subBlockNum = slot == 0 ? 1 : static_cast<int32_t>(layout.ratio);
            c.blockIdx = slot == 0 ? c.block : c.block * layout.ratio + c.subBlockIdx;
        } else {
            const bool cube = layout.kernelType == KERNEL_TYPE_AIC_ONLY || layout.kernelType == KERNEL_TYPE_MIX_AIC_1_0;
            c.coreType = cube ? AscendC::AIC : AscendC::AIV;
            c.blockIdx = c.block;
        }
    }
}


// A GM range one core accessed, with its cross-core release/acquire tags (twin/runtime.h's GmWrite).
struct Span {
    uint64_t begin, end;
    uint32_t core;  // index into the launch's cores
    uint32_t rel, acq;
    bool atomic;
    uint8_t kind = kGmPlain;  // GmWrite::kind
    bool summed = false;      // a plain DMA write, every byte summed (CoreRecords::WriteSum::unsummed 0)
    uint64_t sum = 0;         // its CoreRecords::WriteSum::sum
};

// Whether one of the two accesses happens before the other (SyncAll, cross-core flags, Matmul messages).
bool Ordered(const std::vector<CoreContext>& cores, const Span& a, const Span& b)
{
    return HappensBefore(cores[a.core], a.rel, cores[b.core], b.acq) ||
           HappensBefore(cores[b.core], b.rel, cores[a.core], a.acq);
}

void CollectWrites(const std::vector<CoreContext>& cores, std::vector<Span>& spans)
{
    // Most launches zero no SyncAll workspace: then no write needs the per-core lookup.
    const bool zeroing = std::any_of(cores.begin(), cores.end(), [](const CoreContext& c) {
        return c.records->syncWorkspace.begin != c.records->syncWorkspace.end;
    });
    thread_local std::vector<size_t> bounds;  // where each core's spans start, then the end
    bounds.clear();
    for (const CoreContext& c : cores) {
        bounds.push_back(spans.size());
        for (size_t k = 0; k < c.records->writes.size(); ++k) {
            const GmWrite& w = c.records->writes[k];
            if (!zeroing || !InSyncWorkspaceZeroing(cores, w)) {
                const CoreRecords::WriteSum& s = c.records->writeSums[k];
                spans.push_back({w.begin, w.end, c.coreId, w.rel, w.acq, false, w.kind,
                                 w.kind == kGmPlain && s.unsummed == 0, s.sum});
            }
        }
        for (const GmWrite& w : c.records->atomicWrites) spans.push_back({w.begin, w.end, c.coreId, w.rel, w.acq, true});
    }
    bounds.push_back(spans.size());
    // A core's writes are mostly in address order already (its rows of C, its tiles, one after another): each core's
    // sorted where they are not, then the cores' merged pairwise, O(n log cores) instead of a sort of all of them.
    const auto byBegin = [](const Span& a, const Span& b) { return a.begin < b.begin; };
    const size_t segments = bounds.size() - 1;
    for (size_t i = 0; i < segments; ++i) {
        const auto first = spans.begin() + bounds[i], last = spans.begin() + bounds[i + 1];
        if (!std::is_sorted(first, last, byBegin)) std::sort(first, last, byBegin);
    }
    thread_local std::vector<Span> merged;
    for (size_t width = 1; width < segments; width *= 2) {
        merged.resize(spans.size());
        for (size_t i = 0; i < segments; i += 2 * width) {
            const size_t mid = std::min(i + width, segments), end = std::min(i + 2 * width, segments);
            std::merge(spans.begin() + bounds[i], spans.begin() + bounds[mid], spans.begin() + bounds[mid],
                       spans.begin() + bounds[end], merged.begin() + bounds[i], byBegin);
        }
        spans.swap(merged);
    }
}

// Whether the plain DMA writes s and r wrote the same bytes where they overlap: the same range with the same
// checksum, or each range's checksum that of what GM holds after the launch (then both wrote it). A range some
// other write overwrote later passes only by the first test. (Checksums of different bytes agree with a
// probability of about 2^-60: simd::WriteChecksum.)
bool SameBytes(const Span& s, const Span& r)
{
    if (!s.summed || !r.summed) return false;
    if (s.begin == r.begin && s.end == r.end) return s.sum == r.sum;
    auto final = [](const Span& w) {
        return simd::WriteChecksum(reinterpret_cast<const void*>(static_cast<uintptr_t>(w.begin)), w.end - w.begin) ==
               w.sum;
    };
    return final(s) && final(r);
}

// No two cores write the same GM bytes unless a SyncAll (or a cross-core flag, or a Matmul message) orders the
// writes, both accumulate atomically, or both are DMA writes of the same values (their order does not change
// what GM holds: counted in gmUnorderedEqualBytes). Ordered writes are legal: the later one wins on the NPU too.
// spans: every core's writes sorted by address (CollectWrites), shared with CheckNoCrossCoreReadAfterWrite.
void CheckCoreWritesDisjoint(const LaunchSpec& spec, std::vector<CoreContext>& cores, const std::vector<Span>& spans)
{
    std::vector<Span> active;  // spans reaching past the current begin
    for (const Span& s : spans) {
        size_t kept = 0;
        for (const Span& r : active) {
            if (r.end > s.begin) active[kept++] = r;
        }
        active.resize(kept);
        for (const Span& r : active) {
            // Two scalar stores (SetValue written back, WriteGmByPassDCache) of the same bytes are flag words several
            // cores write in turn (a token passed on, a counter); their order is the flag protocol's, checked through
            // the polls that wait for them (a poll no core's write ends is a hang), not refused here.
            if (s.kind == kGmScalarStore && r.kind == kGmScalarStore) continue;
            if (s.core != r.core && !(s.atomic && r.atomic) && !Ordered(cores, s, r)) {
                const uint64_t overlapEnd = std::min(s.end, r.end);
                if (!s.atomic && !r.atomic && SameBytes(s, r)) {
                    cores[s.core].counters.gmUnorderedEqualBytes += overlapEnd - std::max(s.begin, r.begin);
                    continue;
                }
                const bool mixed = s.atomic != r.atomic;
                const CoreContext& cs = cores[s.core];
                throw RuleViolation(
                    spec.kernel, cs.blockIdx, CoreLabel(cs), "DataCopy/DataCopyPad to GM",
                    "no two cores write the same GM bytes unordered, unless both write the same values",
                    CoreLabel(cs) + " and " + CoreLabel(cores[r.core]) + " both wrote " +
                        WhereInGm(spec, std::max(s.begin, r.begin), overlapEnd) +
                        " with no SyncAll (or cross-core flag or Matmul message) ordering the two" +
                        (mixed ? " (one of them accumulating atomically, the other overwriting)"
                               : ", and not the same values there (or not both by DMA, or over a range written again "
                                 "later, where the twin cannot compare them): the last write wins, so what GM holds "
                                 "depends on core timing (accumulate with SetAtomicAdd<T> if that is meant, or order "
                                 "the writes with SyncAll)"));
            }
        }
        active.push_back(s);
    }
}

// How many of the address-sorted spans begin before `end`: the candidates for overlapping [.., end), walked back
// from there while their reach (the furthest end among spans[0..k]) passes the range's begin.
size_t SpansStartingBefore(const std::vector<Span>& spans, uint64_t end)
{
    return static_cast<size_t>(std::upper_bound(spans.begin(), spans.end(), end - 1,
                                                [](uint64_t v, const Span& s) { return v < s.begin; }) -
                               spans.begin());
}

// Whether the read `read` of [from, to), racing the write w, sees the same bytes whichever way the race goes: every
// write of those bytes is a DMA write of w's range with w's checksum (the same bytes; by any core), and one of them
// by another core happens before the read, so the read finds those bytes there already (an AIC serving two AIVs
// that writes the same C into one workspace for each). spans/reach: as CheckNoCrossCoreReadAfterWrite's.
bool ReadSeesEqualRewrites(const std::vector<CoreContext>& cores, const Span& read, const Span& w, uint64_t from,
                           uint64_t to, const std::vector<Span>& spans, const std::vector<uint64_t>& reach)
{
    if (!w.summed) return false;
    bool writtenBefore = false;
    size_t k = SpansStartingBefore(spans, to);
    for (; k > 0 && reach[k - 1] > from; --k) {
        const Span& o = spans[k - 1];
        if (o.end <= from) continue;
        if (o.atomic || !o.summed || o.begin != w.begin || o.end != w.end || o.sum != w.sum) return false;
        writtenBefore = writtenBefore ||
                        (o.core != read.core && HappensBefore(cores[o.core], o.rel, cores[read.core], read.acq));
    }
    return writtenBefore;
}

// A core reading GM another core writes in the same launch sees the old or the new bytes, depending on
// timing, unless something orders the two (cores run concurrently on the NPU): SyncAll, a cross-core flag
// or a Matmul message, in either direction; or unless every write of those bytes holds the same bytes and one of
// them is ordered before the read (ReadSeesEqualRewrites).
void CheckNoCrossCoreReadAfterWrite(const LaunchSpec& spec, const std::vector<CoreContext>& cores,
                                    const std::vector<Span>& spans)
{
    if (spans.empty()) return;
    std::vector<uint64_t> reach(spans.size());  // the furthest end among spans[0..k]
    for (size_t k = 0; k < spans.size(); ++k) reach[k] = std::max(spans[k].end, k > 0 ? reach[k - 1] : 0);
    const uint64_t written0 = spans.front().begin, written1 = reach.back();  // every write lies in between
    for (const CoreContext& c : cores) {
        for (const GmRead& rec : c.records->reads) {
            // Outside every write (inputs, as a rule): skipped whole; else each of its runs between the writes.
            rec.ForEachRunIn(written0, written1, [&](uint64_t begin, uint64_t end) {
                const Span read{begin, end, c.coreId, rec.rel, rec.acq, false, rec.kind};
                size_t k = SpansStartingBefore(spans, end);
                for (; k > 0 && reach[k - 1] > begin; --k) {
                    const Span& w = spans[k - 1];
                    if (w.core == c.coreId || w.end <= begin || Ordered(cores, read, w)) continue;
                    // Polling a word another core stores to with the scalar unit (WriteGmByPassDCache, SetValue
                    // written back) is the GM-flag hand-off: each poll sees the old or the new value, as meant
                    // (gm_flags.cpp).
                    if (read.kind == kGmPoll && w.kind == kGmScalarStore) continue;
                    const uint64_t from = std::max(begin, w.begin);
                    const uint64_t to = std::min(end, w.end);
                    if (ReadSeesEqualRewrites(cores, read, w, from, to, spans, reach)) continue;
                    throw RuleViolation(spec.kernel, c.blockIdx, CoreLabel(c), "DataCopy/GetValue from GM",
                                        "a core reads GM another core writes in the same launch only after SyncAll",
                                        CoreLabel(c) + " read " + WhereInGm(spec, from, to) + ", which " +
                                            CoreLabel(cores[w.core]) +
                                            " wrote in this launch with no SyncAll between the write and the read "
                                            "(nor a cross-core flag or Matmul message ordering them): the read sees "
                                            "the old or the new bytes depending on timing");
                }
            });
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

namespace {

// One run of the launch with `layout`. Returns -1 when it completed, or the kernel type to run it again with.
int32_t RunLaunch(const LaunchSpec& spec, const Layout& layout, LaunchScratch& scratch)
{
    std::vector<GmRegion>& gm = scratch.gm;
    std::vector<A>& args = scratch.args;
    std::vector<void*>& values = scratch.values;  // for spec.invoke: where each parameter's value is
    std::vector<CoreContext>& cores = scratch.cores;
    std::vector<CoreRecords>& records = scratch.records;
    std::vector<std::exception_ptr>& errors = scratch.errors;
    const uint32_t n = spec.blockDim * (layout.mix ? 1 + layout.ratio : 1);
    cores.assign(n, CoreContext{});
    records.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
        records[i].Clear();
        cores[i].records = &records[i];
    }
    SetUpCores(spec, layout, cores);
    errors.assign(n, nullptr);
    std::vector<int32_t> relaunch(n, -1);
    const uint64_t ubBytes = spec.platform->ubSize;
    LaunchSync sync(n);
    InitCrossCore(sync, cores, layout.mix, layout.ratio, layout.kernelType);
    WorkerPool::Instance().Run(n, ThreadCount(), [&](uint32_t i) {
        try {
            RunCore(spec, gm, args, values, CurrentStackUb(ubBytes), sync, cores[i]);
            cores[i].returned = true;
        } catch (const CoreAborted&) {
            cores[i].abortedInSync = true;
        } catch (const Relaunch& r) {
            relaunch[i] = r.kernelType;
        } catch (...) {
            errors[i] = std::current_exception();
        }
        GmCoreDone(sync, cores[i].coreId);  // its data cache's lines no longer keep other cores waiting
        CoreFinished(sync);
    });
    for (const std::exception_ptr& e : errors) {
        if (e) std::rethrow_exception(e);
    }
    for (int32_t type : relaunch) {
        if (type >= 0) return type;
    }
    if (sync.aborted) {  // cores returned while others waited
        bool allAtSyncAll = true;
        for (const Blocked& b : sync.blocked) allAtSyncAll = allAtSyncAll && b.what == std::string("SyncAll");
        if (!allAtSyncAll || layout.mix) {
            const CoreContext& c = cores[sync.blocked.empty() ? 0 : sync.blocked.front().coreId];
            throw RuleViolation(spec.kernel, c.blockIdx, CoreLabel(c),
                                sync.blocked.empty() ? std::string("SyncAll") : sync.blocked.front().what,
                                "every wait of a core is released by another core", DescribeHang(sync, cores));
        }
        int64_t back = -1;
        std::string waiting;
        uint32_t waitingCount = 0;
        for (uint32_t i = 0; i < n; ++i) {
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
    CheckCrossCoreAtEnd(spec.kernel, sync);
    int64_t culprit = 0;
    std::string detail;
    if (!CheckSyncWorkspaceZeroing(cores, culprit, detail)) {
        throw RuleViolation(spec.kernel, culprit, "SyncAll(gmWorkspace, ubWorkspace, usedCores)",
                            "either the host zeroes SyncAll's gmWorkspace or every core zeroes all of it "
                            "(SyncAll docs)",
                            detail);
    }
    if (n > 1) {  // one core has nobody to race with
        // The writes collected and sorted once for both checks (a matmul records one write per row of C).
        thread_local std::vector<Span> spans;
        spans.clear();
        CollectWrites(cores, spans);
        CheckCoreWritesDisjoint(spec, cores, spans);
        CheckNoCrossCoreReadAfterWrite(spec, cores, spans);
        CheckScalarCachesAcrossCores(spec, cores, sync.generation);
    }
    return -1;
}

const char* MixTypeName(const Layout& l)
{
    return !l.mix ? "" : l.ratio == 1 ? "MIX_AIC_1_1" : "MIX_AIC_1_2";
}

}  // namespace

const LaunchStats& Launch(const LaunchSpec& spec)
{
    if (spec.blockDim == 0) throw std::invalid_argument("ascend_ext twin: blockDim must be at least 1");
    if (spec.args.size() > kMaxKernelArgs) {
        throw std::invalid_argument("ascend_ext twin: kernel '" + std::string(spec.kernel) + "' launched with " +
                                    std::to_string(spec.args.size()) + " arguments; the twin launches kernels of up to " +
                                    std::to_string(kMaxKernelArgs) + " parameters");
    }
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
        // A buffer ending its allocation owns the padding after it, to PaddedBytes(the allocation's bytes) from the
        // allocation's start (a view starting allocOffset bytes in reaches it the same).
        const uint64_t paddedEnd =
            a.endsAllocation ? PaddedBytes(a.allocOffset + a.bytes, *spec.platform) - a.allocOffset : 0;
        gm.push_back({a.name, static_cast<uint8_t*>(a.data), a.bytes, a.elemSize, a.endsAllocation, paddedEnd});
        args[i] = static_cast<A>(a.data);
        values[i] = &args[i];
    }

    Layout layout = LayoutOf(KnownType(spec));
    if (layout.mix && spec.blockDim > spec.platform->aicNum) {
        throw RuleViolation(spec.kernel, 0, "kernel launch", "a kernel on the cube cores launches at most aicNum blocks",
                            "blockDim " + std::to_string(spec.blockDim) + " of a " + MixTypeName(layout) +
                                " kernel on " + spec.platform->name + ", which has " +
                                std::to_string(spec.platform->aicNum) + " AI Cube cores");
    }
    for (int run = 0;; ++run) {
        const int32_t again = RunLaunch(spec, layout, scratch);
        if (again < 0) break;
        if (run > 0 || again == layout.kernelType) {
            throw std::logic_error("ascend_ext twin: kernel '" + std::string(spec.kernel) +
                                   "' changed its kernel type between launches");
        }
        RememberType(spec, again);
        layout = LayoutOf(again);
    }

    std::vector<CoreContext>& cores = scratch.cores;
    LaunchStats& stats = tLast;  // filled in place: its strings and vector keep their capacity
    stats.kernel = spec.kernel;
    stats.platform = spec.platform->name;
    stats.blockDim = spec.blockDim;
    stats.mixType = MixTypeName(layout);
    stats.cores.clear();
    stats.identities.clear();
    for (const CoreContext& c : cores) {
        stats.cores.push_back(c.counters);
        stats.identities.push_back({c.coreType, c.blockIdx});
    }
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
