// Runs a kernel on blockDim virtual cores, then applies the checks that need every core's record.
#include "twin/launch.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>

#include "twin/hazard.h"
#include "worker_pool.h"

namespace ascend_twin {

namespace {

constexpr uint32_t kMaxKernelArgs = 12;

// Statistics are kept per calling thread: a launch made on another thread never shows up here.
thread_local bool tHasLast = false;
thread_local LaunchStats tLast;
thread_local std::vector<std::vector<LaunchStats>> tRecordings;  // innermost last

using A = uint8_t*;

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

struct UbDeleter {
    void operator()(uint8_t* p) const { std::free(p); }
};

// Each thread keeps its UB across launches; TPipe::InitBuffer poisons what it hands out.
uint8_t* ThreadUb(uint64_t bytes)
{
    thread_local std::unique_ptr<uint8_t, UbDeleter> ub;
    thread_local uint64_t size = 0;
    if (size < bytes) {
        ub.reset(static_cast<uint8_t*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64)));
        if (!ub) throw std::bad_alloc();
        size = bytes;
    }
    return ub.get();
}

void RunCore(const LaunchSpec& spec, const std::vector<GmRegion>& gm, const std::vector<A>& args,
             const std::vector<void*>& values, uint8_t* ub, CoreContext& ctx)
{
    ctx.kernel = spec.kernel;
    ctx.blockNum = spec.blockDim;
    ctx.tilingKey = spec.tilingKey;
    ctx.platform = spec.platform;
    ctx.gm = &gm;
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
    if (!ctx.deferredViolation.empty()) {
        throw RuleViolation(ctx.kernel, ctx.blockIdx, ctx.deferredCall, ctx.deferredRule, ctx.deferredViolation);
    }
    EndCore();
}

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

// No two cores write the same GM bytes, unless both accumulate atomically.
void CheckCoreWritesDisjoint(const LaunchSpec& spec, const std::vector<CoreContext>& cores)
{
    struct Span {
        uint64_t begin, end;
        int64_t core;
        bool atomic;
    };
    std::vector<Span> spans;
    for (const CoreContext& c : cores) {
        for (const GmWrite& w : c.writes) spans.push_back({w.begin, w.end, c.blockIdx, false});
        for (const GmWrite& w : c.atomicWrites) spans.push_back({w.begin, w.end, c.blockIdx, true});
    }
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
    Span plain{0, 0, -1, false};   // the plain span reaching furthest so far
    Span atomic{0, 0, -1, true};   // the atomic span reaching furthest so far
    for (const Span& s : spans) {
        for (const Span* r : {&plain, &atomic}) {
            if (s.begin < r->end && s.core != r->core && !(s.atomic && r->atomic)) {
                const uint64_t overlapEnd = std::min(s.end, r->end);
                const bool mixed = s.atomic != r->atomic;
                throw RuleViolation(
                    spec.kernel, s.core, "DataCopy/DataCopyPad to GM", "no two cores write the same GM bytes",
                    "core " + std::to_string(s.core) + " and core " + std::to_string(r->core) + " both wrote " +
                        WhereInGm(spec, s.begin, overlapEnd) +
                        (mixed ? " (one of them accumulating atomically, the other overwriting)"
                               : " (accumulate with SetAtomicAdd<T> if that is meant; the twin is stricter than the "
                                 "NPU here, where the last write wins: results would depend on core timing)"));
            }
        }
        Span& reach = s.atomic ? atomic : plain;
        if (s.end > reach.end) reach = s;
    }
}

// A core reading GM another core writes in the same launch sees the old or the new bytes, depending on
// timing, unless SyncAll orders the two (cores run concurrently on the NPU).
void CheckNoCrossCoreReadAfterWrite(const LaunchSpec& spec, const std::vector<CoreContext>& cores)
{
    struct Span {
        uint64_t begin, end;
        int64_t core;
    };
    std::vector<Span> spans;  // every core's writes, merged per core: disjoint across cores (checked before)
    for (const CoreContext& c : cores) {
        std::vector<GmWrite> w = c.writes;
        w.insert(w.end(), c.atomicWrites.begin(), c.atomicWrites.end());
        std::sort(w.begin(), w.end(), [](const GmWrite& a, const GmWrite& b) { return a.begin < b.begin; });
        for (const GmWrite& r : w) {
            if (!spans.empty() && spans.back().core == c.blockIdx && r.begin <= spans.back().end) {
                spans.back().end = std::max(spans.back().end, r.end);
            } else {
                spans.push_back({r.begin, r.end, c.blockIdx});
            }
        }
    }
    if (spans.empty()) return;
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
    for (const CoreContext& c : cores) {
        for (const GmWrite& r : c.reads) {
            auto it = std::upper_bound(spans.begin(), spans.end(), r.begin,
                                       [](uint64_t v, const Span& s) { return v < s.begin; });
            if (it != spans.begin()) --it;
            for (; it != spans.end() && it->begin < r.end; ++it) {
                if (it->core == c.blockIdx || it->end <= r.begin) continue;
                const uint64_t from = std::max(r.begin, it->begin);
                const uint64_t to = std::min(r.end, it->end);
                throw RuleViolation(spec.kernel, c.blockIdx, "DataCopy/GetValue from GM",
                                    "a core reads GM another core writes in the same launch only after SyncAll",
                                    "core " + std::to_string(c.blockIdx) + " read " + WhereInGm(spec, from, to) +
                                        ", which core " + std::to_string(it->core) +
                                        " wrote in this launch: the read sees the old or the new bytes depending on "
                                        "timing");
            }
        }
    }
}

}  // namespace

LaunchStats Launch(const LaunchSpec& spec)
{
    if (spec.blockDim == 0) throw std::invalid_argument("ascend_ext twin: blockDim must be at least 1");
    if (spec.args.size() > kMaxKernelArgs) throw std::invalid_argument("ascend_ext twin: too many kernel args");
    std::vector<GmRegion> gm;
    std::vector<A> args(spec.args.size());
    std::vector<void*> values(spec.args.size());  // for spec.invoke: where each parameter's value is
    for (size_t i = 0; i < spec.args.size(); ++i) {
        const GmArg& a = spec.args[i];
        if (a.byValue) {
            if (spec.invoke == nullptr) throw std::invalid_argument("ascend_ext twin: by-value arguments need an invoker");
            values[i] = a.data;
            continue;
        }
        gm.push_back({a.name, static_cast<uint8_t*>(a.data), a.bytes});
        args[i] = static_cast<A>(a.data);
        values[i] = &args[i];
    }

    std::vector<CoreContext> cores(spec.blockDim);
    std::vector<std::exception_ptr> errors(spec.blockDim);
    const uint64_t ubBytes = spec.platform->ubSize;
    WorkerPool::Instance().Run(spec.blockDim, ThreadCount(), [&](uint32_t i) {
        cores[i].blockIdx = i;
        try {
            RunCore(spec, gm, args, values, ThreadUb(ubBytes), cores[i]);
        } catch (...) {
            errors[i] = std::current_exception();
        }
    });
    for (const std::exception_ptr& e : errors) {
        if (e) std::rethrow_exception(e);
    }
    CheckCoreWritesDisjoint(spec, cores);
    CheckNoCrossCoreReadAfterWrite(spec, cores);

    LaunchStats stats;
    stats.kernel = spec.kernel;
    stats.platform = spec.platform->name;
    stats.blockDim = spec.blockDim;
    for (const CoreContext& c : cores) stats.cores.push_back(c.counters);
    for (std::vector<LaunchStats>& recording : tRecordings) recording.push_back(stats);
    tLast = stats;
    tHasLast = true;
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

KernelEntry FindKernel(const char* op, ascend_ext::DType dtype)
{
    for (const KernelVariant& v : Registry()) {
        if (std::strcmp(v.op, op) == 0 && v.dtype == dtype) return v.entry;
    }
    return nullptr;
}

}  // namespace ascend_twin
