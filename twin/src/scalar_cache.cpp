// The scalar data cache of a core (asc-devkit docs: DataCacheCleanAndInvalid, GlobalTensor GetValue/SetValue):
// GlobalTensor::GetValue/SetValue reach GM through a per-core cache of 64-byte lines (CACHE_LINE_SIZE,
// impl/basic_api/utils/kernel_utils_constants.h for dav-2201), DataCopy and the cube's transfers do not.
// The twin keeps no cached copies; it checks that every scalar access is one the cache serves correctly:
// - a launch starts with no line cached: a GetValue of bytes written before the launch (by the host or an
//   earlier kernel) loads them fresh. The docs ask for DataCacheCleanAndInvalid where GM "may be rewritten
//   from outside" (GetValue, 约束说明) and name other cores as the case (DataCacheCleanAndInvalid, 典型场景);
//   every kernel's tiling is read with scalar loads at its start without it (GET_TILING_DATA), and so do the
//   public kernels. The twin reads the docs so; a 910B run confirms it (docs/twin.md);
// - a GetValue does not read bytes this core's own DMA wrote after the invalidation, nor bytes another
//   core wrote after this core loaded the line (the SyncAll epochs order them);
// - a DMA transfer (of this core, or of another core after a SyncAll) reads SetValue bytes only once a
//   DataCacheCleanAndInvalid wrote them back ("用户通过Scalar单元写GM的数据，希望立刻写出");
// - no other core writes a 64-byte line while this core holds SetValue bytes of it unwritten-back: the
//   write-back of the whole line overwrites them (the docs' example 3, "随机覆盖").
// A SINGLE_CACHE_LINE call acts from its address to the line's 64-byte boundary (docs: "只会操作传入地址到64B
// 对齐的部分"); ENTIRE_DATA_CACHE on all of it.
#include <algorithm>
#include <string>

#include "core_records.h"
#include "twin/launch.h"
#include "twin/violation.h"

namespace ascend_twin {

namespace {

constexpr uint64_t kCacheLine = 64;

uint64_t LineStart(uint64_t a) { return a / kCacheLine * kCacheLine; }
uint64_t LineEnd(uint64_t a) { return LineStart(a) + kCacheLine; }
bool Overlap(uint64_t b1, uint64_t e1, uint64_t b2, uint64_t e2) { return b1 < e2 && b2 < e1; }

std::string Bytes(const CoreContext& ctx, uint64_t begin, uint64_t end)
{
    for (const GmRegion& r : *ctx.records->gm) {
        const auto base = reinterpret_cast<uintptr_t>(r.begin);
        if (begin >= base && begin < base + r.bytes) {
            return "bytes [" + std::to_string(begin - base) + ", " + std::to_string(end - base) + ") of GM buffer '" +
                   r.name + "'";
        }
    }
    return "GM bytes";
}

constexpr const char* kDcci = "DataCacheCleanAndInvalid<T, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>";

}  // namespace

bool ScalarCacheRead(const char* call, CoreContext& ctx, uint64_t begin, uint64_t bytes)
{
    if (bytes == 0) return false;
    ScalarCache& sc = ctx.records->scalarCache;
    sc.used = true;
    const uint64_t end = begin + bytes;
    for (const GmWrite& s : sc.stale) {
        if (Overlap(begin, end, s.begin, s.end)) {
            Fail(call, "GetValue after this core's DataCopy (or other DMA write) to the same GM bytes needs "
                       "DataCacheCleanAndInvalid in between: the DMA write bypasses the data cache",
                 Bytes(ctx, begin, end) + ": the core's data cache may still hold the line as it was before the "
                     "write; call " + kDcci + " on them after the write (GetValue docs, 约束说明)");
        }
    }
    for (auto it = sc.writes.rbegin(); it != sc.writes.rend(); ++it) {
        if (it->begin <= begin && end <= it->end) return false;  // read back what this core stored
    }
    ScalarCacheRange* valid = nullptr;
    for (auto it = sc.valid.rbegin(); it != sc.valid.rend() && valid == nullptr; ++it) {
        if (it->begin <= begin && end <= it->end) valid = &*it;
    }
    if (valid == nullptr && sc.allValid) {
        sc.valid.push_back({LineStart(begin), LineEnd(end - 1), sc.allValidEpoch, kScalarCacheNever});
        valid = &sc.valid.back();
    }
    if (valid == nullptr) {  // not cached since the launch began: the line is loaded from GM now
        sc.valid.push_back({LineStart(begin), LineEnd(end - 1), 0, kScalarCacheNever});
        valid = &sc.valid.back();
    }
    const bool fresh = valid->loadEpoch == kScalarCacheNever;
    if (fresh) valid->loadEpoch = ctx.epoch;  // the line is loaded now
    sc.reads.push_back({begin, end, ctx.epoch, valid->loadEpoch});
    return fresh;
}

void ScalarCacheWrite(CoreContext& ctx, uint64_t begin, uint64_t bytes)
{
    if (bytes == 0) return;
    ScalarCache& sc = ctx.records->scalarCache;
    sc.used = true;
    sc.writes.push_back({begin, begin + bytes, ctx.epoch, kScalarCacheNever});
    GmStorePending(ctx, begin, begin + bytes);  // in this core's cache until written back
}

void DataCacheCleanInvalidate(const char* call, const void* addr, bool entire)
{
    (void)call;
    CoreContext& ctx = CurrentCore();
    ScalarCache& sc = ctx.records->scalarCache;
    sc.used = true;
    if (entire) {
        sc.allValid = true;
        sc.allValidEpoch = ctx.epoch;
        sc.valid.clear();
        sc.stale.clear();
        for (ScalarCacheRange& w : sc.writes) {
            if (w.loadEpoch == kScalarCacheNever) {
                w.loadEpoch = ctx.epoch;
                GmPublish(ctx, w.begin, w.end, false, nullptr);  // written back: other cores may poll it
            }
        }
        return;
    }
    const uint64_t begin = reinterpret_cast<uintptr_t>(addr);
    const uint64_t end = LineEnd(begin);
    sc.valid.erase(std::remove_if(sc.valid.begin(), sc.valid.end(),
                                  [&](const ScalarCacheRange& v) { return begin <= v.begin && v.end <= end; }),
                   sc.valid.end());
    sc.valid.push_back({begin, end, ctx.epoch, kScalarCacheNever});
    // Stale bytes in [begin, end) are fresh again; the parts of a stale range outside it stay stale.
    std::vector<GmWrite> kept;
    for (const GmWrite& s : sc.stale) {
        if (!Overlap(s.begin, s.end, begin, end)) {
            kept.push_back(s);
            continue;
        }
        if (s.begin < begin) kept.push_back({s.begin, begin, s.epoch});
        if (s.end > end) kept.push_back({end, s.end, s.epoch});
    }
    sc.stale.swap(kept);
    for (ScalarCacheRange& w : sc.writes) {
        if (w.loadEpoch == kScalarCacheNever && Overlap(w.begin, w.end, begin, end)) {
            w.loadEpoch = ctx.epoch;
            GmPublish(ctx, w.begin, w.end, false, nullptr);  // written back: other cores may poll it
        }
    }
}

void ScalarCacheOnDmaRead(const char* call, CoreContext& ctx, uint64_t begin, uint64_t end)
{
    for (const ScalarCacheRange& w : ctx.records->scalarCache.writes) {
        if (w.loadEpoch == kScalarCacheNever && Overlap(begin, end, w.begin, w.end)) {
            Fail(call, "a DMA read of GM bytes this core stored with GlobalTensor::SetValue comes after "
                       "DataCacheCleanAndInvalid wrote them back (the DMA reads GM, not the data cache)",
                 Bytes(ctx, std::max(begin, w.begin), std::min(end, w.end)) + " are still in the core's data "
                     "cache; call " + kDcci + " on them after the SetValue");
        }
    }
}

void ScalarCacheOnDmaWrite(CoreContext& ctx, uint64_t begin, uint64_t end)
{
    ScalarCache& sc = ctx.records->scalarCache;
    bool cached = sc.allValid;
    for (const ScalarCacheRange& v : sc.valid) cached = cached || Overlap(begin, end, v.begin, v.end);
    for (const ScalarCacheRange& w : sc.writes) cached = cached || Overlap(begin, end, w.begin, w.end);
    if (!cached) return;
    if (!sc.stale.empty() && sc.stale.back().end == begin) {
        sc.stale.back().end = end;
    } else {
        sc.stale.push_back({begin, end, ctx.epoch});
    }
}

void CheckScalarCachesAcrossCores(const LaunchSpec& spec, const std::vector<CoreContext>& cores, uint64_t generation)
{
    auto ordered = [&](const CoreContext& c) { return c.epoch == generation; };  // took part in every SyncAll
    for (const CoreContext& c : cores) {
        const ScalarCache& sc = c.records->scalarCache;
        if (!sc.used || !ordered(c)) continue;
        for (const CoreContext& d : cores) {
            if (d.coreId == c.coreId || !ordered(d)) continue;
            for (const std::vector<GmWrite>* list : {&d.records->writes, &d.records->atomicWrites}) {
                for (const GmWrite& w : *list) {
                    for (const ScalarCacheRange& r : sc.reads) {
                        if (Overlap(r.begin, r.end, w.begin, w.end) && r.loadEpoch <= w.epoch && w.epoch < r.epoch) {
                            throw RuleViolation(spec.kernel, c.blockIdx, CoreLabel(c), "GlobalTensor::GetValue",
                                "GetValue of GM another core wrote comes after DataCacheCleanAndInvalid of its line, "
                                "once the write is ordered before it (GetValue docs, 约束说明)",
                                CoreLabel(c) + " read " + WhereInGm(spec, r.begin, r.end) +
                                    " after SyncAll " + std::to_string(r.epoch) + " through the line its data cache "
                                    "loaded before SyncAll " + std::to_string(w.epoch + 1) + ", which " +
                                    CoreLabel(d) + " wrote in between: the read returns the old bytes; "
                                    "call " + kDcci + " after the SyncAll");
                        }
                    }
                    for (const ScalarCacheRange& s : sc.writes) {
                        const uint64_t clean = s.loadEpoch;  // kScalarCacheNever: never written back in the launch
                        if (Overlap(LineStart(s.begin), LineEnd(s.end - 1), w.begin, w.end) && s.epoch <= w.epoch &&
                            w.epoch <= clean) {
                            throw RuleViolation(spec.kernel, c.blockIdx, CoreLabel(c), "GlobalTensor::SetValue",
                                "no other core writes a 64-byte line while a core holds SetValue bytes of it in its "
                                "data cache: the line's write-back overwrites the other core's bytes "
                                "(DataCacheCleanAndInvalid docs, example 3)",
                                CoreLabel(c) + " stored " + WhereInGm(spec, s.begin, s.end) +
                                    " with SetValue and " + CoreLabel(d) + " wrote " +
                                    WhereInGm(spec, std::max(w.begin, LineStart(s.begin)),
                                              std::min(w.end, LineEnd(s.end - 1))) +
                                    " of the same line before the SetValue was written back (and ordered by SyncAll): "
                                    "give each core's scalar results a 64-byte line of their own");
                        }
                    }
                }
            }
            for (const GmRead& rec : d.records->reads) {
                for (const ScalarCacheRange& s : sc.writes) {
                    if (rec.epoch <= s.epoch || (s.loadEpoch != kScalarCacheNever && s.loadEpoch < rec.epoch)) continue;
                    rec.ForEachRunIn(s.begin, s.end, [&](uint64_t begin, uint64_t end) {
                        throw RuleViolation(spec.kernel, d.blockIdx, CoreLabel(d), "DataCopy/GetValue from GM",
                            "GM a core stored with SetValue is read by another core only after "
                            "DataCacheCleanAndInvalid wrote it back, before the SyncAll that orders the two",
                            CoreLabel(d) + " read " + WhereInGm(spec, begin, end) +
                                " after SyncAll " + std::to_string(rec.epoch) + ", which " + CoreLabel(c) +
                                " stored with SetValue and " +
                                (s.loadEpoch == kScalarCacheNever ? std::string("never wrote back")
                                                                  : "wrote back only after SyncAll " +
                                                                        std::to_string(s.loadEpoch)) +
                                ": the read sees the old bytes; call " + kDcci + " before the SyncAll");
                    });
                }
            }
        }
    }
}

}  // namespace ascend_twin
