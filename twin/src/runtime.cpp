// Per-core context, rule reporting and GM checks.
#include "twin/runtime.h"
#include "twin/hazard.h"
#include "twin/simd_loops.h"
#include "twin/violation.h"
#include "core_records.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <sstream>
#include <type_traits>

#include "twin/kernel_types.h"

thread_local int32_t g_coreType = 2;  // AscendC::AIV outside a launch

namespace ascend_twin {

namespace {
thread_local CoreContext* tCurrent = nullptr;

const GmRegion* FindRegion(const std::vector<GmRegion>& gm, const uint8_t* p, uint64_t bytes)
{
    for (const GmRegion& r : gm) {
        if (r.bytes > 0 && p >= r.begin && p + bytes <= r.begin + r.bytes && p + bytes >= p) {
            return &r;
        }
    }
    return nullptr;
}

// The buffer whose allocation (PaddedBytes) holds [p, p + bytes) and which the access starts inside or right
// after; a buffer holding the whole access wins.
const GmRegion* FindPaddedRegion(const std::vector<GmRegion>& gm, const uint8_t* p, uint64_t bytes,
                                 const Platform& platform)
{
    if (const GmRegion* r = FindRegion(gm, p, bytes)) return r;
    for (const GmRegion& r : gm) {
        if (r.bytes > 0 && p >= r.begin && p + bytes <= r.begin + PaddedBytes(r.bytes, platform) && p + bytes >= p) {
            return &r;
        }
    }
    return nullptr;
}

// The buffer that ends its allocation whose padding holds the end of [p, p + bytes): the buffer the access starts
// in, or (starting in no buffer) one whose padding it starts in. Where a DMA write may run on to
// (GmRegion::paddedEnd). The buffer it starts in is the only candidate: host memory may place another buffer's
// padding over it.
const GmRegion* FindPaddingOwner(const std::vector<GmRegion>& gm, const uint8_t* p, uint64_t bytes)
{
    if (p + bytes < p) return nullptr;
    if (const GmRegion* start = FindRegion(gm, p, 1)) {
        return start->endsAllocation && p + bytes <= start->begin + start->paddedEnd ? start : nullptr;
    }
    for (const GmRegion& r : gm) {
        if (r.bytes > 0 && r.endsAllocation && p >= r.begin && p + bytes <= r.begin + r.paddedEnd) return &r;
    }
    return nullptr;
}

// Describe where an out-of-bounds access landed relative to the nearest buffer of the launch.
// verb: "read" (a DMA read), "DMA write", "atomic write" (a DMA write in atomic mode), "write" (a scalar store),
// "workspace", ...: reads and writes past a buffer's end say how far the runtime's padding reaches and who may use it.
std::string DescribeMiss(const std::vector<GmRegion>& gm, const uint8_t* p, uint64_t bytes, const char* verb)
{
    const bool write = std::strstr(verb, "write") != nullptr, read = std::strcmp(verb, "read") == 0;
    const bool dmaWrite = write && std::strcmp(verb, "write") != 0;
    std::ostringstream os;
    os << bytes << " bytes at " << Hex(reinterpret_cast<uintptr_t>(p));
    // The buffer the access starts in, else one whose allocation (to its padding's end) it starts in, else the
    // nearest one on the host.
    const GmRegion* nearest = FindRegion(gm, p, 1);
    uint64_t best = nearest != nullptr ? 0 : UINT64_MAX;
    const Platform* platform = InLaunch() ? CurrentCore().platform : nullptr;
    for (const GmRegion& r : gm) {
        if (best == 0) break;
        const uint64_t reach = std::max(r.paddedEnd, platform ? PaddedBytes(r.bytes, *platform) : r.bytes);
        if (r.bytes != 0 && p >= r.begin && p <= r.begin + reach) {
            nearest = &r;
            best = 0;
            break;
        }
    }
    for (const GmRegion& r : gm) {
        if (r.bytes == 0 || best == 0) continue;
        const uint64_t dist = p < r.begin ? static_cast<uint64_t>(r.begin - p)
                                          : (p >= r.begin + r.bytes ? static_cast<uint64_t>(p - (r.begin + r.bytes)) : 0);
        if (dist < best) {
            best = dist;
            nearest = &r;
        }
    }
    if (nearest == nullptr) return os.str();
    const int64_t off = p - nearest->begin, end = off + static_cast<int64_t>(bytes);
    os << " (offset " << off << " of GM buffer '" << nearest->name << "', which holds " << nearest->bytes
       << " bytes; the access ends at offset " << end << ")";
    if (!(read || write) || platform == nullptr || off < 0 || end <= static_cast<int64_t>(nearest->bytes)) {
        return os.str();
    }
    const char* soc = platform->name;
    const int64_t padded = static_cast<int64_t>(PaddedBytes(nearest->bytes, *platform));
    if (off > std::max(padded, static_cast<int64_t>(nearest->paddedEnd))) return os.str();  // far past the buffer
    if (dmaWrite && !nearest->endsAllocation) {
        os << "; '" << nearest->name << "' does not end its allocation (a view ending before its storage does, or a "
           << "buffer not declared a whole allocation): on " << soc << " the bytes after it are other elements of "
           << "that memory, and the write would overwrite them (write the tail with DataCopyPad, or pass an output "
           << "that ends its allocation)";
    } else if (dmaWrite) {
        os << "; " << soc << "'s runtime allocates the padding after '" << nearest->name << "' only to offset "
           << nearest->paddedEnd << " (DMA writes may run on into that padding, not past it)";
    } else if (write) {
        os << "; the twin is stricter than the NPU here: only DMA writes (DataCopy, DataCopyPad, Fixpipe) may run on "
           << "into the padding " << soc << "'s runtime allocates after a buffer that ends its allocation; a scalar "
           << "store (SetValue, WriteGmByPassDCache) past the tensor's end is refused";
    } else if (read && end <= padded) {
        os << "; the twin is stricter than the NPU here: only DMA reads may run on into the padding " << soc
           << "'s runtime allocates after a buffer, to offset " << padded;
    } else {
        os << "; " << soc << "'s runtime allocates the buffer only to offset " << padded
           << " (DMA reads may run on into that padding)";
    }
    return os.str();
}
}  // namespace

uint64_t PaddedBytes(uint64_t bytes, const Platform& platform)
{
    return (bytes + 31) / 32 * 32 + platform.gmPadding;
}

const char* VecOpName(VecOp op)
{
    static const char* const names[] = {"Add", "Sub", "Mul", "Div", "Max", "Min", "Adds", "Muls", "Exp", "Ln",
                                        "Abs", "Sqrt", "Rsqrt", "Reciprocal", "Duplicate", "Cast", "ReduceSum",
                                        "ReduceMax", "Axpy", "Relu", "Not", "Maxs", "Mins", "LeakyRelu", "And",
                                        "Or", "ReduceMin", "WholeReduceSum", "WholeReduceMax", "WholeReduceMin",
                                        "BlockReduceSum", "BlockReduceMax", "BlockReduceMin", "PairReduceSum",
                                        "Compare", "CompareScalar", "Select", "Brcb", "Broadcast", "GetCmpMask",
                                        "SetCmpMask", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Ceil",
                                        "Cos", "Cosh", "Erf", "Erfc", "Floor", "Frac", "Log", "Log2", "Log10",
                                        "Round", "Sign", "Sin", "Sinh", "Tan", "Tanh", "Trunc", "Sigmoid", "Silu", "Swish",
                                        "Gelu", "FasterGelu", "FasterGeluV2", "Exp<taylorExpandLevel>", "ClampMin", "ClampMax",
                                        "ArithProgression", "Power", "SwiGLU", "Fmod", "GeGLU", "CumSum",
                                        "GatherMask", "Copy", "MulAddDst",
                                        "SoftMax", "SimpleSoftMax", "LogSoftMax", "SoftmaxFlash", "SoftmaxFlashV2",
                                        "SoftmaxGrad", "SoftmaxGradFront", "ReduceSum<Pattern>", "ReduceMax<Pattern>",
                                        "ReduceMin<Pattern>", "ReduceProd<Pattern>", "ReduceMean<Pattern>",
                                        "ReduceAny<Pattern>", "ReduceAll<Pattern>", "AscendDequant", "Xor",
                                        "ShiftRight", "AddRelu", "CreateVecIndex", "Sort", "Gather", "Gatherb",
                                        "Sort32", "MrgSort", "Transpose", "TransDataTo5HD", "ShiftLeft"};
    static_assert(sizeof(names) / sizeof(names[0]) == static_cast<size_t>(VecOp::kCount));
    return names[static_cast<uint32_t>(op)];
}

RuleViolation::RuleViolation(std::string kernel_, int64_t core_, std::string call_, std::string rule_,
                             std::string detail_)
    : RuleViolation(std::move(kernel_), core_, "core " + std::to_string(core_), std::move(call_), std::move(rule_),
                    std::move(detail_))
{
}

RuleViolation::RuleViolation(std::string kernel_, int64_t core_, const std::string& label, std::string call_,
                             std::string rule_, std::string detail_)
    : std::runtime_error("ascend_ext twin: kernel '" + kernel_ + "', " + label + ", " + call_ +
                         ": broke the rule '" + rule_ + "': " + detail_),
      kernel(std::move(kernel_)),
      core(core_),
      call(std::move(call_)),
      rule(std::move(rule_)),
      detail(std::move(detail_))
{
}

CoreContext& CurrentCore()
{
    if (tCurrent == nullptr) {
        throw std::logic_error("ascend_ext twin: an Ascend C API call ran outside a kernel launch");
    }
    return *tCurrent;
}

bool InLaunch() { return tCurrent != nullptr; }

void SetCurrentCore(CoreContext* ctx)
{
    tCurrent = ctx;
    g_coreType = ctx != nullptr ? ctx->coreType : 2;
}

void CoreLabel(const CoreContext& core, char* out, uint32_t size)
{
    if (core.mix) {
        std::snprintf(out, size, "%s %lld", core.coreType == 1 ? "AIC" : "AIV", static_cast<long long>(core.blockIdx));
    } else {
        std::snprintf(out, size, "core %lld", static_cast<long long>(core.blockIdx));
    }
}

std::string CoreLabel(const CoreContext& core)
{
    char text[32];
    CoreLabel(core, text, sizeof text);
    return text;
}

void Fail(const char* call, const char* rule, const std::string& detail)
{
    const CoreContext& ctx = CurrentCore();
    throw RuleViolation(ctx.kernel, ctx.blockIdx, CoreLabel(ctx), call, rule, detail);
}

void Fail(const char* call, const char* rule, const char* detail) { Fail(call, rule, std::string(detail)); }

void Defer(const char* call, const char* rule, const std::string& detail)
{
    if (tCurrent == nullptr || tCurrent->records == nullptr || !tCurrent->records->deferredViolation.empty()) {
        return;  // keep the first one
    }
    tCurrent->records->deferredCall = call;
    tCurrent->records->deferredRule = rule;
    tCurrent->records->deferredViolation = detail;
}

void Defer(const char* call, const char* rule, const char* detail) { Defer(call, rule, std::string(detail)); }

namespace {
std::string Format(const char* format, va_list args)
{
    va_list copy;
    va_copy(copy, args);
    const int n = std::vsnprintf(nullptr, 0, format, copy);
    va_end(copy);
    std::string out(n > 0 ? static_cast<size_t>(n) : 0, '\0');
    if (n > 0) std::vsnprintf(&out[0], out.size() + 1, format, args);
    return out;
}
}  // namespace

void FailF(const char* call, const char* rule, const char* format, ...)
{
    va_list args;
    va_start(args, format);
    std::string detail = Format(format, args);
    va_end(args);
    Fail(call, rule, detail);
}

void DeferF(const char* call, const char* rule, const char* format, ...)
{
    va_list args;
    va_start(args, format);
    std::string detail = Format(format, args);
    va_end(args);
    Defer(call, rule, detail);
}

void CheckGmInBounds(const char* call, const char* rule, const char* verb, const void* addr, uint64_t bytes)
{
    const CoreContext& ctx = CurrentCore();
    const auto* p = static_cast<const uint8_t*>(addr);
    if (bytes != 0 && FindRegion(*ctx.records->gm, p, bytes) == nullptr) {
        Fail(call, rule, std::string(verb) + " of " + DescribeMiss(*ctx.records->gm, p, bytes, verb));
    }
}

namespace {
// Whether a record was made under the core's present SyncAll epoch and cross-core clock, with this kind of access:
// only then may an access extend it.
bool SameTags(const GmWrite& r, const CoreContext& ctx, uint8_t kind)
{
    return r.epoch == ctx.epoch && r.rel == ctx.rel && r.acq == ctx.acq && r.kind == kind;
}

// Adds [begin, end) to a list of ranges (CoreRecords::writes, or reads), extending one of the last few when it
// continues it (a core streams through a handful of buffers at once; a strided read record is not extended by a
// contiguous range). Returns the index of the range that holds [begin, end) now.
template <typename R>
size_t AddRange(std::vector<R>& ranges, uint64_t begin, uint64_t end, const CoreContext& ctx, uint8_t kind)
{
    const size_t n = ranges.size();
    for (size_t k = n; k > 0 && k + 4 > n; --k) {
        R& r = ranges[k - 1];
        bool contiguous = true;
        if constexpr (std::is_same_v<R, GmRead>) contiguous = r.stride == 0;
        if (contiguous && r.end == begin && SameTags(r, ctx, kind)) {
            r.end = end;
            return k - 1;
        }
    }
    ranges.push_back(R{GmWrite{begin, end, ctx.epoch, ctx.rel, ctx.acq, kind}});
    // The records of the last launch are long out of the caches (a launch streams its operands through them): the
    // lines the next records go to are asked for now, so that their stores do not each wait for a line from memory.
    if (n + 8 < ranges.capacity()) __builtin_prefetch(ranges.data() + n + 8, 1, 3);
    return n;
}

// Adds `count` reads of `bytes` each, read i at first + i * stride, as one record: a strided one (GmRead) when they
// leave gaps, extending the last record when it is the same strided read and these runs are its next ones.
void AddReadRuns(std::vector<GmRead>& reads, uint64_t first, uint64_t stride, uint64_t bytes, uint64_t count,
                 const CoreContext& ctx)
{
    const uint64_t end = first + (count - 1) * stride + bytes;
    if (count == 1 || stride <= bytes) {  // the runs touch or overlap: one range
        AddRange(reads, first, end, ctx, kGmPlain);
        return;
    }
    if (!reads.empty()) {
        GmRead& r = reads.back();
        const bool nextRuns = r.stride == stride && r.runBytes == bytes && first == r.end - bytes + stride;
        if (nextRuns && SameTags(r, ctx, kGmPlain)) {
            r.end = end;
            return;
        }
    }
    reads.push_back(GmRead{GmWrite{first, end, ctx.epoch, ctx.rel, ctx.acq, kGmPlain}, stride, bytes});
}

// A write range (CoreRecords::writes) with its entry of writeSums; unsummed: the bytes of a DMA write whose checksum
// GmDmaWritten adds after the copy.
void AddWriteRange(CoreRecords& records, uint64_t begin, uint64_t end, const CoreContext& ctx, uint8_t kind,
                   uint64_t unsummed)
{
    const size_t k = AddRange(records.writes, begin, end, ctx, kind);
    if (k == records.writeSums.size()) {
        records.writeSums.emplace_back();
        // As AddRange does for the records.
        if (k + 8 < records.writeSums.capacity()) __builtin_prefetch(records.writeSums.data() + k + 8, 1, 3);
    }
    records.writeSums[k].unsummed += unsummed;
}
}  // namespace

void CheckGmBinding(const char* call, const void* addr, uint32_t elemSize, const char* typeName)
{
    const CoreContext& ctx = CurrentCore();
    const auto* p = static_cast<const uint8_t*>(addr);
    const GmRegion* r = FindRegion(*ctx.records->gm, p, 1);
    if (r == nullptr || r->elemSize == 0 || r->elemSize == elemSize) return;
    std::ostringstream os;
    os << "GM argument '" << r->name << "' holds " << r->elemSize << "-byte elements, but the kernel binds a "
       << "GlobalTensor<" << typeName << "> (" << elemSize << "-byte elements) to it: it would read the "
       << "tensor's bytes as other values. Pass a tensor of the dtype the kernel reads";
    Fail(call, "a GM argument is read with the element size of the tensor passed for it", os.str());
}

namespace {
// Bounds, counters and the cross-core records of a GM access (DMA or scalar); returns its address.
// kind: as GmWrite::kind; kNotYet checks and counts without recording (the caller records it once it knows).
constexpr uint8_t kNotYet = 0xff;
uint64_t RecordGmRead(const char* call, CoreContext& ctx, const void* addr, uint64_t bytes, uint8_t kind = kGmPlain)
{
    CheckGmInBounds(call, "GM reads stay inside the launch's buffers", "read", addr, bytes);
    ctx.counters.gmBytesRead += bytes;
    const uint64_t begin = reinterpret_cast<uintptr_t>(addr);
    if (bytes != 0 && kind != kNotYet) AddRange(ctx.records->reads, begin, begin + bytes, ctx, kind);
    return begin;
}

uint64_t RecordGmWrite(const char* call, CoreContext& ctx, const void* addr, uint64_t bytes, uint8_t kind = kGmPlain)
{
    CheckGmInBounds(call, "GM writes stay inside the launch's buffers", "write", addr, bytes);
    ctx.counters.gmBytesWritten += bytes;
    const uint64_t begin = reinterpret_cast<uintptr_t>(addr);
    // A scalar store: never summed (an unordered overlap with another core's write is refused).
    if (bytes != 0) AddWriteRange(*ctx.records, begin, begin + bytes, ctx, kind, bytes);
    return begin;
}
}  // namespace

uint64_t CheckGmDmaRead(const char* call, const void* addr, uint64_t bytes)
{
    CoreContext& ctx = CurrentCore();
    const auto* p = static_cast<const uint8_t*>(addr);
    const GmRegion* r = bytes == 0 ? nullptr : FindPaddedRegion(*ctx.records->gm, p, bytes, *ctx.platform);
    if (bytes != 0 && r == nullptr) {
        Fail(call, "GM reads stay inside the launch's buffers",
             "read of " + DescribeMiss(*ctx.records->gm, p, bytes, "read"));
    }
    const uint64_t inside =
        bytes == 0 ? 0 : std::min<uint64_t>(bytes, p < r->begin + r->bytes ? static_cast<uint64_t>(r->begin + r->bytes - p) : 0);
    ctx.counters.gmBytesRead += bytes;
    ctx.counters.gmPaddingBytesRead += bytes - inside;
    const uint64_t begin = reinterpret_cast<uintptr_t>(addr);
    if (inside != 0) {
        AddRange(ctx.records->reads, begin, begin + inside, ctx, kGmPlain);
        if (ctx.records->scalarCache.used) ScalarCacheOnDmaRead(call, ctx, begin, begin + inside);
    }
    return inside;
}

void CheckGmRead(const char* call, const void* addr, uint64_t bytes)
{
    CoreContext& ctx = CurrentCore();
    const uint64_t begin = RecordGmRead(call, ctx, addr, bytes);
    if (bytes != 0 && ctx.records->scalarCache.used) ScalarCacheOnDmaRead(call, ctx, begin, begin + bytes);
}

bool CheckGmReadRunsInOneBuffer(const char* call, const void* first, uint64_t stride, uint64_t bytes, uint64_t count)
{
    if (count == 0 || bytes == 0) return true;
    CoreContext& ctx = CurrentCore();
    const auto* p = static_cast<const uint8_t*>(first);
    if (FindRegion(*ctx.records->gm, p, (count - 1) * stride + bytes) == nullptr) return false;
    const uint64_t begin = reinterpret_cast<uintptr_t>(p);
    ctx.counters.gmBytesRead += bytes * count;
    AddReadRuns(ctx.records->reads, begin, stride, bytes, count, ctx);
    if (ctx.records->scalarCache.used) {
        for (uint64_t i = 0; i < count; ++i) {
            ScalarCacheOnDmaRead(call, ctx, begin + i * stride, begin + i * stride + bytes);
        }
    }
    return true;
}

void CheckGmReadRuns(const char* call, const void* first, uint64_t stride, uint64_t bytes, uint64_t count)
{
    if (CheckGmReadRunsInOneBuffer(call, first, stride, bytes, count)) return;
    // One of them leaves its buffer: the first such fails.
    const auto* p = static_cast<const uint8_t*>(first);
    for (uint64_t i = 0; i < count; ++i) CheckGmRead(call, p + i * stride, bytes);
}

namespace {
// The bounds of a DMA write of `bytes` at p (atomic: in the core's atomic mode): fails unless it lies in one
// buffer or runs on into the padding of a buffer that ends its allocation; returns its leading bytes inside it.
uint64_t DmaWriteInside(const char* call, const CoreContext& ctx, const uint8_t* p, uint64_t bytes, bool atomic)
{
    if (FindRegion(*ctx.records->gm, p, bytes) != nullptr) return bytes;
    const GmRegion* r = FindPaddingOwner(*ctx.records->gm, p, bytes);
    if (r == nullptr) {
        Fail(call, "GM writes stay inside the launch's buffers",
             std::string(atomic ? "atomic write of " : "write of ") +
                 DescribeMiss(*ctx.records->gm, p, bytes, atomic ? "atomic write" : "DMA write"));
    }
    return p < r->begin + r->bytes ? static_cast<uint64_t>(r->begin + r->bytes - p) : 0;
}
}  // namespace

uint64_t CheckGmDmaWrite(const char* call, const void* addr, uint64_t bytes)
{
    if (bytes == 0) return 0;
    CoreContext& ctx = CurrentCore();
    const uint64_t inside = DmaWriteInside(call, ctx, static_cast<const uint8_t*>(addr), bytes, false);
    ctx.counters.gmBytesWritten += bytes;
    ctx.counters.gmPaddingBytesWritten += bytes - inside;
    const uint64_t begin = reinterpret_cast<uintptr_t>(addr);
    if (inside != 0) {  // the padding is no other buffer's bytes on the NPU: no hazard records for it
        AddWriteRange(*ctx.records, begin, begin + inside, ctx, kGmPlain, inside);
        if (ctx.records->scalarCache.used) ScalarCacheOnDmaWrite(ctx, begin, begin + inside);
    }
    return inside;
}

void GmDmaWritten(const void* addr, uint64_t bytes, uint64_t sum)
{
    if (bytes == 0) return;
    CoreRecords& records = *CurrentCore().records;
    const uint64_t begin = reinterpret_cast<uintptr_t>(addr);
    // The range CheckGmDmaWrite extended or added: one of the last few. Not found (a write recorded otherwise),
    // the range stays unsummed, and an unordered overlap with another core's write is refused as before.
    const size_t n = records.writes.size();
    for (size_t k = n; k > 0 && k + 4 > n; --k) {
        const GmWrite& r = records.writes[k - 1];
        CoreRecords::WriteSum& s = records.writeSums[k - 1];
        if (r.kind == kGmPlain && r.begin <= begin && begin + bytes <= r.end && s.unsummed >= bytes) {
            s.sum += sum;
            s.unsummed -= bytes;
            return;
        }
    }
}

uint64_t CopyToGm(const char* call, void* dst, const void* src, uint64_t bytes)
{
    const uint64_t inside = CheckGmDmaWrite(call, dst, bytes);
    if (inside != 0) GmDmaWritten(dst, inside, simd::CopyToGmSummed(dst, src, inside));
    return inside;
}

void ScalarGmRead(const char* call, const void* addr, uint64_t bytes, void* out)
{
    CoreContext& ctx = CurrentCore();
    const uint64_t begin = RecordGmRead(call, ctx, addr, bytes, kNotYet);
    if (bytes == 0) return;
    // A GetValue may be polling a GM flag: it waits while it spins on bytes no other core changes; loading its
    // line fresh from GM (after DataCacheCleanAndInvalid) it acquires what their writer published.
    const bool fresh = ScalarCacheRead(call, ctx, begin, bytes);
    GmPollRead(call, ctx, begin, begin + bytes, fresh ? GmPollKind::kFresh : GmPollKind::kCached, out);
    AddRange(ctx.records->reads, begin, begin + bytes, ctx, fresh ? kGmPoll : kGmPlain);
}

void ScalarGmWrite(const char* call, const void* addr, uint64_t bytes)
{
    CoreContext& ctx = CurrentCore();
    ScalarCacheWrite(ctx, RecordGmWrite(call, ctx, addr, bytes, kGmScalarStore), bytes);
}

uint64_t BypassGmRead(const char* call, const void* addr, uint64_t bytes)
{
    CoreContext& ctx = CurrentCore();
    const uint64_t begin = RecordGmRead(call, ctx, addr, bytes, kNotYet);
    // It reads GM, not the data cache: SetValue bytes of this core not yet written back are not there.
    if (ctx.records->scalarCache.used) ScalarCacheOnDmaRead(call, ctx, begin, begin + bytes);
    const uint64_t value = GmPollRead(call, ctx, begin, begin + bytes, GmPollKind::kBypass);
    AddRange(ctx.records->reads, begin, begin + bytes, ctx, kGmPoll);
    return value;
}

void BypassGmWrite(const char* call, void* addr, uint64_t bytes, uint64_t value)
{
    CoreContext& ctx = CurrentCore();
    const uint64_t begin = RecordGmWrite(call, ctx, addr, bytes, kGmScalarStore);
    // It writes GM, not the data cache: a line the cache holds is stale after it (as after a DMA write).
    if (ctx.records->scalarCache.used) ScalarCacheOnDmaWrite(ctx, begin, begin + bytes);
    GmPublish(ctx, begin, begin + bytes, true, &value);
}

namespace {
template <typename T, typename C>
void Combine(AtomicOp op, uint8_t* dst, const uint8_t* src, uint64_t bytes)
{
    for (uint64_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) {
        T a, b;
        std::memcpy(&a, dst + i, sizeof(T));
        std::memcpy(&b, src + i, sizeof(T));
        const C x = static_cast<C>(Widen(a)), y = static_cast<C>(Widen(b));
        const C r = op == AtomicOp::kAdd ? x + y : op == AtomicOp::kMax ? (x > y ? x : y) : (x < y ? x : y);
        T out;
        if constexpr (std::is_integral_v<T>) {
            out = static_cast<T>(r);
        } else {
            out = Narrow<T>(static_cast<float>(r));
        }
        std::memcpy(dst + i, &out, sizeof(T));
    }
}

std::mutex gAtomicMutex;
}  // namespace

void AtomicCopyToGm(const char* call, uint8_t* dst, const uint8_t* src, uint64_t total)
{
    if (total == 0) return;
    CoreContext& ctx = CurrentCore();
    // The bytes inside the buffer: the rest goes to an allocation's padding.
    const uint64_t bytes = DmaWriteInside(call, ctx, dst, total, true);
    static const uint32_t sizes[] = {4, 2, 2, 4, 2, 1};
    const uint32_t size = sizes[static_cast<uint32_t>(ctx.atomicType)];
    if (total % size != 0 || reinterpret_cast<uintptr_t>(dst) % size != 0) {
        Fail(call, "atomic copies move whole elements of the atomic type",
             std::to_string(total) + " bytes at " + Hex(reinterpret_cast<uintptr_t>(dst)) + " for " +
                 std::to_string(size) + "-byte elements");
    }
    ctx.counters.gmBytesWritten += total;
    ctx.counters.gmPaddingBytesWritten += total - bytes;
    if (bytes == 0) return;
    const uint64_t begin = reinterpret_cast<uintptr_t>(dst);
    if (ctx.records->scalarCache.used) ScalarCacheOnDmaWrite(ctx, begin, begin + bytes);
    ctx.records->atomicWrites.push_back({begin, begin + bytes, ctx.epoch, ctx.rel, ctx.acq});
    std::lock_guard<std::mutex> lock(gAtomicMutex);
    switch (ctx.atomicType) {
        case AtomicType::kFloat: return Combine<float, float>(ctx.atomicOp, dst, src, bytes);
        case AtomicType::kHalf: return Combine<half, float>(ctx.atomicOp, dst, src, bytes);
        case AtomicType::kBFloat16: return Combine<bfloat16_t, float>(ctx.atomicOp, dst, src, bytes);
        case AtomicType::kInt32: return Combine<int32_t, int64_t>(ctx.atomicOp, dst, src, bytes);
        case AtomicType::kInt16: return Combine<int16_t, int32_t>(ctx.atomicOp, dst, src, bytes);
        case AtomicType::kInt8: return Combine<int8_t, int32_t>(ctx.atomicOp, dst, src, bytes);
    }
}

uint64_t UbOffset(const void* addr)
{
    return static_cast<uint64_t>(static_cast<const uint8_t*>(addr) - CurrentCore().ub);
}

uint64_t UbAddressValue(uint64_t value)
{
    const auto base = reinterpret_cast<uint64_t>(CurrentCore().ub);
    return base != 0 && (value >> 32) == (base >> 32) ? (value & 0xffffffffu) : value;
}

void RawUbPointer(const char* call, const void* p, uint64_t bytes)
{
    const CoreContext& core = CurrentCore();
    const auto* b = static_cast<const uint8_t*>(p);
    if (core.ub != nullptr && b >= core.ub && b < core.ub + core.platform->ubSize) {
        Instr(call, Pipe::kS).Write("tensor", p, bytes);
    }
}

void CheckUbAligned(const char* call, const char* operand, const void* addr)
{
    const CoreContext& core = CurrentCore();
    if (core.coreType == 1 && core.mix) {  // AscendC::AIC of a MIX kernel: its queues may exist, not its UB
        Fail(call, "an AI Cube core has no Unified Buffer",
             std::string("an AIC of a MIX kernel used UB operand '") + operand +
                 "' (vector work runs on the AIVs: guard it with if ASCEND_IS_AIV)");
    }
    const auto* p = static_cast<const uint8_t*>(addr);
    if (p == nullptr) {
        Fail(call, "vector operands and UB copy ends are in the Unified Buffer",
             std::string("operand '") + operand +
                 "' is a LocalTensor with no buffer (default-constructed: never given one by TBuf::Get, a queue's "
                 "AllocTensor/DeQue or a LocalMemAllocator)");
    }
    if (core.ub == nullptr || p < core.ub || p >= core.ub + core.platform->ubSize) {
        Fail(call, "vector operands and UB copy ends are in the Unified Buffer",
             std::string("operand '") + operand +
                 "' is not in UB (a LocalTensor of another memory, e.g. a static tensor at an L1 or L0 position: the "
                 "vector unit and UB copies reach only UB)");
    }
    const uint64_t off = UbOffset(addr);
    const uint32_t align = core.platform->ubAlign;
    if (off % align != 0) {
        Fail(call, "UB operands start at a 32-byte aligned address",
             std::string("operand '") + operand + "' starts at UB offset " + std::to_string(off) +
                 ", which is not a multiple of " + std::to_string(align) +
                 " (index a LocalTensor only at multiples of 32 bytes)");
    }
}

std::string Hex(uint64_t v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

}  // namespace ascend_twin
