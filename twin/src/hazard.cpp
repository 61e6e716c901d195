#include "twin/hazard.h"
#include "twin/violation.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "twin/runtime.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ascend_twin {

namespace {

constexpr uint32_t kBlock = 32;
constexpr uint32_t kMaxEvents = 64;  // HardEvent values
constexpr uint32_t kMaxEventIds = 8;

struct Access {
    uint32_t epoch = 0;  // 0: none
    uint32_t seq = 0;    // program order within the core
    const char* call = nullptr;
};

// The pipes that access UB on a vector core (M, MTE1 and FIX work on L1/L0 only).
constexpr uint32_t kUbPipes = 4;
constexpr int32_t UbSlot(Pipe p)
{
    return p == Pipe::kS ? 0 : p == Pipe::kV ? 1 : p == Pipe::kMte2 ? 2 : p == Pipe::kMte3 ? 3 : -1;
}
constexpr Pipe kUbPipeOf[kUbPipes] = {Pipe::kS, Pipe::kV, Pipe::kMte2, Pipe::kMte3};

// What the detector knows about a 32-byte UB block. Blocks share records: the UB holds one record id
// per block, and the records live in a table. An instruction's operand usually covers many blocks with
// the same record (a tile written by one copy, read by one instruction), so a range is checked once per
// distinct record it meets, in block order, and every block of it moves to the same successor record:
// the checks and the reports are exactly those of a per-block walk, at the cost of one id per block.
struct Record {
    uint32_t written = 0;   // bit i: byte i was written in this launch (initcheck)
    uint8_t readers = 0;    // bit k: reads[k] holds the last read of UB pipe k since the last write
    Pipe writePipe = Pipe::kS;
    Access write;           // epoch 0: no write
    Access reads[kUbPipes];
};
constexpr uint32_t kFresh = 0;  // the id of the empty record: nothing written, no accesses

}  // namespace

struct HazardState {
    std::vector<uint32_t> ids;      // per UB block: its record in `records`
    std::vector<Record> records;    // records[kFresh] is the empty record
    uint64_t dirtyBegin = 0;        // blocks outside [dirtyBegin, dirtyEnd) hold kFresh
    uint64_t dirtyEnd = 0;
    uint64_t handedOut = 0;  // UB bytes handed out so far by this core (above: records are stale anyway)
    PipeClock clock[kPipeCount];
    uint32_t selfSync[kPipeCount] = {};  // own instructions known complete (PipeBarrier, flag round trips)
    bool flagSet[kMaxEvents][kMaxEventIds] = {};
    PipeClock flagClock[kMaxEvents][kMaxEventIds];
    const char* flagName[kMaxEvents] = {};
    uint32_t flagsSet = 0;
    uint32_t seq = 0;  // instructions issued by the core so far
    struct GmAccess {
        uint64_t begin, end;
        Access access;
    };
    std::vector<GmAccess> gmWrites;  // MTE3 copies to GM not yet known complete for MTE2 and MTE3
};

namespace {

thread_local HazardState tOwn;
thread_local HazardState* tState = nullptr;  // null: tOwn

inline HazardState& State() { return tState != nullptr ? *tState : tOwn; }

uint32_t AddRecord(HazardState& s, const Record& r)
{
    s.records.push_back(r);
    return static_cast<uint32_t>(s.records.size() - 1);
}

// Drops the records no block refers to any more (amortised: at least as many records were added since
// the last collection as there are blocks).
void CollectRecords(HazardState& s)
{
    if (s.records.size() < 2 * s.ids.size() + 64) return;
    std::vector<uint32_t> remap(s.records.size(), UINT32_MAX);
    std::vector<Record> kept;
    kept.reserve(s.ids.size() + 64);
    remap[kFresh] = kFresh;
    kept.push_back(s.records[kFresh]);
    for (uint64_t b = s.dirtyBegin; b < s.dirtyEnd; ++b) {
        uint32_t& id = s.ids[b];
        if (remap[id] == UINT32_MAX) {
            remap[id] = static_cast<uint32_t>(kept.size());
            kept.push_back(s.records[id]);
        }
        id = remap[id];
    }
    s.records.swap(kept);
}

void MarkDirty(HazardState& s, uint64_t first, uint64_t last)
{
    if (s.dirtyBegin >= s.dirtyEnd) {
        s.dirtyBegin = first;
        s.dirtyEnd = last + 1;
        return;
    }
    if (first < s.dirtyBegin) s.dirtyBegin = first;
    if (last + 1 > s.dirtyEnd) s.dirtyEnd = last + 1;
}

uint32_t ByteMask(uint64_t blockBegin, uint64_t begin, uint64_t end)
{
    const uint64_t lo = begin > blockBegin ? begin - blockBegin : 0;
    const uint64_t hi = end < blockBegin + kBlock ? end - blockBegin : kBlock;
    return static_cast<uint32_t>(((hi - lo) == 32 ? 0xffffffffull : ((1ull << (hi - lo)) - 1)) << lo);
}

// Walks the blocks [first, last] in order. step(id, need, block) checks a record for an access of the
// bytes `need` of `block` and returns the record the block holds afterwards; it is called once per
// distinct record among the whole blocks of the range (and for each partial block at either end).
template <typename Step>
void WalkBlocks(HazardState& s, uint64_t off, uint64_t bytes, Step step)
{
    const uint64_t first = off / kBlock;
    const uint64_t last = (off + bytes - 1) / kBlock;
    CollectRecords(s);
    MarkDirty(s, first, last);
    uint32_t* ids = s.ids.data();
    uint64_t b = first;
    const uint64_t end = off + bytes;
    if (off % kBlock != 0 || (first == last && end % kBlock != 0)) {  // a partial first block
        ids[b] = step(ids[b], ByteMask(b * kBlock, off, end), b);
        ++b;
    }
    const uint64_t wholeEnd = end % kBlock != 0 ? last : last + 1;  // the whole blocks are [b, wholeEnd)
    uint32_t from[4] = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX};
    uint32_t to[4] = {};
    uint32_t next = 0;
    while (b < wholeEnd) {
        const uint32_t id = ids[b];
        if (id == from[0]) {
            const uint32_t t = to[0];
            ids[b++] = t;
            // Runs of blocks with the same record, 8 at a time.
#if defined(__SSE2__)
            // Two 4-lane compares: the compiler keeps the portable loop below scalar (eight loads, xors, ors).
            const __m128i want = _mm_set1_epi32(static_cast<int>(id));
            const __m128i put = _mm_set1_epi32(static_cast<int>(t));
            while (b + 8 <= wholeEnd) {
                __m128i* at = reinterpret_cast<__m128i*>(ids + b);
                const __m128i same = _mm_and_si128(_mm_cmpeq_epi32(_mm_loadu_si128(at), want),
                                                   _mm_cmpeq_epi32(_mm_loadu_si128(at + 1), want));
                if (_mm_movemask_epi8(same) != 0xffff) break;
                _mm_storeu_si128(at, put);
                _mm_storeu_si128(at + 1, put);
                b += 8;
            }
#else
            while (b + 8 <= wholeEnd) {
                uint32_t differ = 0;
                for (uint32_t k = 0; k < 8; ++k) differ |= ids[b + k] ^ id;
                if (differ != 0) break;
                for (uint32_t k = 0; k < 8; ++k) ids[b + k] = t;
                b += 8;
            }
#endif
            continue;
        }
        uint32_t k = 1;
        while (k < 4 && from[k] != id) ++k;
        uint32_t t;
        if (k < 4) {
            t = to[k];
        } else {
            t = step(id, 0xffffffffu, b);
            k = 1 + (next++ % 3);
        }
        // Most recent first.
        from[k] = from[0];
        to[k] = to[0];
        from[0] = id;
        to[0] = t;
        ids[b++] = t;
    }
    if (b == last && end % kBlock != 0) {  // a partial last block
        ids[last] = step(ids[last], ByteMask(last * kBlock, off, end), last);
    }
}

// The scalar unit and the vector core's other pipes: with --cce-auto-sync=on (the default of op projects,
// kernel direct-call projects and <<<>>> builds) the bisheng compiler inserts the flags between PIPE_S
// and PIPE_V, PIPE_MTE2, PIPE_MTE3, both ways, around LocalTensor::GetValue/SetValue/operator() (asc-devkit
// docs, 同步控制/核内同步/关键特性说明, the AIV pipe table). It inserts none on the cube core (M, MTE1, FIX).
bool CompilerOrdersScalar(Pipe a, Pipe b)
{
    if (b == Pipe::kS) std::swap(a, b);
    return a == Pipe::kS && (b == Pipe::kV || b == Pipe::kMte2 || b == Pipe::kMte3);
}

// Whether an access of `now` is ordered after one of `earlier` (at `epoch`). Where the compiler's automatic
// synchronisation would order them, the inserted flag is recorded: `now` waits for everything `earlier`
// has issued so far, which also orders what `earlier` did before (as on the device).
bool Ordered(HazardState& s, Pipe earlier, uint32_t epoch, Pipe now)
{
    if (earlier != now && epoch > s.clock[static_cast<uint32_t>(now)].t[static_cast<uint32_t>(earlier)] &&
        CompilerOrdersScalar(earlier, now)) {
        PipeAcquire(now, s.clock[static_cast<uint32_t>(earlier)]);
        return true;
    }
    if (earlier == now) {
        // S: ordered by the hardware; V: by the compiler's automatic PIPE_V synchronisation. MTE2/MTE3
        // copies with overlapping UB ranges need a PipeBarrier or a flag round trip.
        return !(now == Pipe::kMte2 || now == Pipe::kMte3) || epoch <= s.selfSync[static_cast<uint32_t>(now)];
    }
    return epoch <= s.clock[static_cast<uint32_t>(now)].t[static_cast<uint32_t>(earlier)];
}

std::string Range(uint64_t begin, uint64_t end)
{
    return "[" + std::to_string(begin) + ", " + std::to_string(end) + ")";
}

std::string HowToOrder(Pipe a, Pipe b)
{
    if (a == b) {
        return std::string("PipeBarrier<PIPE_") + PipeName(a) + "> between them";
    }
    return std::string("EnQue/DeQue, SetFlag/WaitFlag<HardEvent::") + PipeName(a) + "_" + PipeName(b) +
           "> or PipeBarrier<PIPE_ALL> between them";
}

[[noreturn]] void Race(const char* kind, const char* call, Pipe pipe, const char* verb, uint64_t begin, uint64_t end,
                       uint64_t block, const Access& other, Pipe otherPipe, const char* otherVerb)
{
    Fail(call, "accesses of different pipes to the same UB bytes are ordered by synchronisation",
         std::string(kind) + " hazard: '" + call + "' on pipe " + PipeName(pipe) + " " + verb + " UB bytes " +
             Range(begin, end) + ", which '" + other.call + "' on pipe " + PipeName(otherPipe) + " " + otherVerb +
             " (first conflict in the block at UB offset " + std::to_string(block * kBlock) +
             ") with nothing ordering the two: the NPU may run them in either order (put " +
             HowToOrder(otherPipe, pipe) + ")");
}

bool InUb(const CoreContext& ctx, const void* addr, uint64_t bytes, uint64_t& offset)
{
    const auto* p = static_cast<const uint8_t*>(addr);
    if (ctx.ub == nullptr || p < ctx.ub || p + bytes > ctx.ub + ctx.platform->ubSize || bytes == 0) return false;
    offset = static_cast<uint64_t>(p - ctx.ub);
    return true;
}

}  // namespace

HazardState* NewHazardState() { return new HazardState; }
void DeleteHazardState(HazardState* state) { delete state; }

HazardState* SetHazardState(HazardState* state)
{
    HazardState* previous = tState;
    tState = state;
    return previous;
}

const char* PipeName(Pipe pipe)
{
    static const char* const names[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"};
    return names[static_cast<uint32_t>(pipe)];
}

Instr::Instr(const char* call, Pipe pipe) : call_(call), pipe_(pipe), state_(&State())
{
    HazardState& s = *state_;
    epoch_ = ++s.clock[static_cast<uint32_t>(pipe)].t[static_cast<uint32_t>(pipe)];
    seq_ = ++s.seq;
}

void Instr::Read(const char* operand, const void* addr, uint64_t bytes) { ReadImpl(operand, addr, bytes, nullptr); }

uint32_t Instr::ReadWrittenMask(const char* operand, const void* addr, uint64_t bytes)
{
    if (bytes > 32) {
        Fail(call_, "a register load reads at most 32 bytes", std::to_string(bytes) + " bytes");
    }
    uint32_t mask = bytes >= 32 ? ~0u : (1u << bytes) - 1;  // outside UB: nothing tracked, all written
    ReadImpl(operand, addr, bytes, &mask);
    return mask;
}

// writtenMask: null, a read of bytes never written is an initcheck violation; else bit i is cleared for each byte i
// of the range never written.
void Instr::ReadImpl(const char* operand, const void* addr, uint64_t bytes, uint32_t* writtenMask)
{
    uint64_t off;
    if (core_ == nullptr) core_ = &CurrentCore();
    if (!InUb(*core_, addr, bytes, off)) return;
    HazardState& s = *state_;
    const int32_t q = UbSlot(pipe_);
    WalkBlocks(s, off, bytes, [&](uint32_t id, uint32_t need, uint64_t b) -> uint32_t {
        const Record& blk = s.records[id];
        if ((blk.written & need) != need && writtenMask != nullptr) {
            for (uint32_t m = need & ~blk.written; m != 0; m &= m - 1) {
                *writtenMask &= ~(1u << (b * kBlock + static_cast<uint64_t>(__builtin_ctz(m)) - off));
            }
        } else if ((blk.written & need) != need) {
            const uint32_t missing = need & ~blk.written;
            const uint64_t at = b * kBlock + static_cast<uint64_t>(__builtin_ctz(missing));
            Fail(call_, "instructions read only UB bytes written in this launch (initcheck)",
                 std::string("operand '") + operand + "' reads UB bytes " + Range(off, off + bytes) + "; byte " +
                     std::to_string(at) + " was never written in this launch (its value is whatever the UB held)");
        }
        if (blk.write.epoch != 0 && !Ordered(s, blk.writePipe, blk.write.epoch, pipe_)) {
            Race("RAW", call_, pipe_, "reads", off, off + bytes, b, blk.write, blk.writePipe, "wrote");
        }
        if (q < 0) return id;
        const Access& last = blk.reads[q];
        if ((blk.readers & (1u << q)) != 0 && last.epoch == epoch_ && last.seq == seq_ && last.call == call_) {
            return id;  // read already by this instruction
        }
        Record next = blk;
        next.reads[q] = {epoch_, seq_, call_};
        next.readers |= static_cast<uint8_t>(1u << q);
        return AddRecord(s, next);
    });
}

void Instr::Write(const char* operand, const void* addr, uint64_t bytes)
{
    (void)operand;
    uint64_t off;
    if (core_ == nullptr) core_ = &CurrentCore();
    if (!InUb(*core_, addr, bytes, off)) return;
    HazardState& s = *state_;
    uint32_t wholeId = UINT32_MAX;  // the record of a whole block after this write (the same for every block)
    WalkBlocks(s, off, bytes, [&](uint32_t id, uint32_t need, uint64_t b) -> uint32_t {
        const Record& blk = s.records[id];
        // Of the unordered earlier accesses, report the latest: ordering it usually orders the rest.
        const Access* worst = nullptr;
        Pipe worstPipe = Pipe::kS;
        bool worstIsWrite = false;
        if (blk.write.epoch != 0 && !Ordered(s, blk.writePipe, blk.write.epoch, pipe_) && blk.write.seq != seq_) {
            worst = &blk.write;
            worstPipe = blk.writePipe;
            worstIsWrite = true;
        }
        for (uint32_t mask = blk.readers; mask != 0; mask &= mask - 1) {
            const uint32_t r = static_cast<uint32_t>(__builtin_ctz(mask));
            const Access& rd = blk.reads[r];
            const Pipe rp = kUbPipeOf[r];
            if (rp != pipe_ && !Ordered(s, rp, rd.epoch, pipe_) && (worst == nullptr || rd.seq > worst->seq)) {
                worst = &rd;
                worstPipe = rp;
                worstIsWrite = false;
            }
        }
        if (worst != nullptr) {
            Race(worstIsWrite ? "WAW" : "WAR", call_, pipe_, "writes", off, off + bytes, b, *worst, worstPipe,
                 worstIsWrite ? "wrote" : "read");
        }
        const uint32_t written = blk.written | need;
        if (written == 0xffffffffu && wholeId != UINT32_MAX) return wholeId;
        Record next;
        next.write = {epoch_, seq_, call_};
        next.writePipe = pipe_;
        next.written = written;
        const uint32_t nextId = AddRecord(s, next);
        if (written == 0xffffffffu) wholeId = nextId;
        return nextId;
    });
}

namespace {
std::string GmRange(const void* addr, uint64_t bytes)
{
    const auto begin = reinterpret_cast<uintptr_t>(addr);
    return "GM bytes " + Hex(begin) + ".." + Hex(begin + bytes);
}
}  // namespace

void Instr::GmRead(const void* addr, uint64_t bytes)
{
    HazardState& s = *state_;
    if (bytes == 0 || s.gmWrites.empty()) return;
    const auto begin = reinterpret_cast<uintptr_t>(addr);
    for (const HazardState::GmAccess& w : s.gmWrites) {
        if (w.begin < begin + bytes && begin < w.end && !Ordered(s, Pipe::kMte3, w.access.epoch, pipe_)) {
            Fail(call_, "accesses of different pipes to the same GM bytes are ordered by synchronisation",
                 std::string("RAW hazard: '") + call_ + "' on pipe " + PipeName(pipe_) + " reads " +
                     GmRange(addr, bytes) + ", which '" + w.access.call +
                     "' on pipe MTE3 wrote with nothing ordering the two: the read may see the old bytes (put "
                     "SetFlag/WaitFlag<HardEvent::MTE3_" + PipeName(pipe_) + "> or PipeBarrier<PIPE_ALL> between them)");
        }
    }
}

void Instr::GmWrite(const void* addr, uint64_t bytes)
{
    HazardState& s = *state_;
    if (bytes == 0) return;
    const auto begin = reinterpret_cast<uintptr_t>(addr);
    // Forget the writes every GM reader and MTE3 itself already know complete (the list stays short).
    size_t kept = 0;
    for (const HazardState::GmAccess& w : s.gmWrites) {
        const bool settled = Ordered(s, Pipe::kMte3, w.access.epoch, Pipe::kMte2) &&
                             w.access.epoch <= s.selfSync[static_cast<uint32_t>(Pipe::kMte3)];
        if (!settled) s.gmWrites[kept++] = w;
    }
    s.gmWrites.resize(kept);
    for (const HazardState::GmAccess& w : s.gmWrites) {
        if (w.begin < begin + bytes && begin < w.end && w.access.seq != seq_ &&
            !Ordered(s, Pipe::kMte3, w.access.epoch, pipe_)) {
            Fail(call_, "accesses of different pipes to the same GM bytes are ordered by synchronisation",
                 std::string("WAW hazard: '") + call_ + "' on pipe " + PipeName(pipe_) + " writes " +
                     GmRange(addr, bytes) + ", which '" + w.access.call +
                     "' on pipe MTE3 wrote with nothing ordering the two: copies with overlapping GM destinations "
                     "may complete in either order (put PipeBarrier<PIPE_MTE3> between them)");
        }
    }
    s.gmWrites.push_back({begin, begin + bytes, {epoch_, seq_, call_}});
}

const char* UnsettledGmWrite(Pipe pipe)
{
    if (pipe == Pipe::kMte3) return nullptr;  // a flag on MTE3 goes out after the pipe's earlier copies
    HazardState& s = State();
    for (const HazardState::GmAccess& w : s.gmWrites) {
        if (w.access.epoch > s.clock[static_cast<uint32_t>(pipe)].t[static_cast<uint32_t>(Pipe::kMte3)]) {
            return w.access.call;
        }
    }
    return nullptr;
}

void Instr::WriteUndefined(const void* addr, uint64_t bytes)
{
    uint64_t off;
    if (core_ == nullptr) core_ = &CurrentCore();
    if (!InUb(*core_, addr, bytes, off)) return;
    HazardState& s = *state_;
    WalkBlocks(s, off, bytes, [&](uint32_t id, uint32_t need, uint64_t) -> uint32_t {
        if ((s.records[id].written & need) == need) return id;
        Record next = s.records[id];
        next.written |= need;
        return AddRecord(s, next);
    });
}

PipeClock PipeNow(Pipe pipe) { return State().clock[static_cast<uint32_t>(pipe)]; }

void PipeAcquire(Pipe pipe, const PipeClock& c)
{
    HazardState& s = State();
    const uint32_t p = static_cast<uint32_t>(pipe);
    s.clock[p].Join(c);
    if (c.t[p] > s.selfSync[p]) s.selfSync[p] = c.t[p];
}

bool TrySetFlag(const char* event, Pipe src, int32_t eventId, uint32_t eventIndex)
{
    HazardState& s = State();
    if (s.flagSet[eventIndex][eventId]) return false;
    s.flagSet[eventIndex][eventId] = true;
    ++s.flagsSet;
    s.flagClock[eventIndex][eventId] = s.clock[static_cast<uint32_t>(src)];
    s.flagName[eventIndex] = event;
    return true;
}

bool TryWaitFlag(Pipe dst, int32_t eventId, uint32_t eventIndex)
{
    HazardState& s = State();
    if (!s.flagSet[eventIndex][eventId]) return false;
    s.flagSet[eventIndex][eventId] = false;
    --s.flagsSet;
    PipeAcquire(dst, s.flagClock[eventIndex][eventId]);
    return true;
}

void SetFlag(const char* event, Pipe src, Pipe dst, int32_t eventId, uint32_t eventIndex)
{
    (void)dst;
    if (!TrySetFlag(event, src, eventId, eventIndex)) {
        Fail("SetFlag", "every SetFlag is matched by a WaitFlag before the same flag is set again",
             std::string("SetFlag<HardEvent::") + event + ">(" + std::to_string(eventId) +
                 ") while the flag is still set: the WaitFlag for the previous SetFlag is missing");
    }
}

void WaitFlag(const char* event, Pipe src, Pipe dst, int32_t eventId, uint32_t eventIndex)
{
    (void)src;
    if (!TryWaitFlag(dst, eventId, eventIndex)) {
        Fail("WaitFlag", "every WaitFlag waits for a SetFlag made before it",
             std::string("WaitFlag<HardEvent::") + event + ">(" + std::to_string(eventId) +
                 ") with no SetFlag of that flag before it (the NPU would wait forever unless a later SetFlag "
                 "releases it; the twin requires the SetFlag first)");
    }
}

bool FlagIsSet(uint32_t eventIndex, int32_t eventId) { return State().flagSet[eventIndex][eventId]; }

void Barrier(Pipe pipe)
{
    HazardState& s = State();
    const uint32_t p = static_cast<uint32_t>(pipe);
    s.selfSync[p] = s.clock[p].t[p];
}

void BarrierAll()
{
    HazardState& s = State();
    PipeClock all;
    for (const PipeClock& c : s.clock) all.Join(c);
    for (uint32_t p = 0; p < kPipeCount; ++p) {
        s.clock[p] = all;  // `all` covers every clock already
        s.selfSync[p] = all.t[p];
    }
}

void ResetUbRange(uint64_t offset, uint64_t bytes)
{
    HazardState& s = State();
    if (offset < s.handedOut) {  // handed out again (after TPipe::Reset): forget its past
        const uint64_t end = std::min<uint64_t>((offset + bytes + kBlock - 1) / kBlock, s.ids.size());
        for (uint64_t b = offset / kBlock; b < end; ++b) s.ids[b] = kFresh;
    }
    if (offset + bytes > s.handedOut) s.handedOut = offset + bytes;
}

void BeginCore()
{
    HazardState& s = State();
    const uint64_t ub = CurrentCore().platform->ubSize;
    if (s.ids.size() < ub / kBlock) {
        s.ids.assign(ub / kBlock, kFresh);
        s.dirtyBegin = s.dirtyEnd = 0;
    }
    if (s.dirtyBegin < s.dirtyEnd) {  // only the blocks the previous core touched hold other records
        std::fill(s.ids.begin() + static_cast<std::ptrdiff_t>(s.dirtyBegin),
                  s.ids.begin() + static_cast<std::ptrdiff_t>(s.dirtyEnd), kFresh);
    }
    s.dirtyBegin = s.dirtyEnd = 0;
    if (s.records.empty()) s.records.emplace_back();  // records[kFresh] is never changed
    s.records.resize(1);
    s.handedOut = 0;
    s.seq = 0;
    s.gmWrites.clear();
    for (PipeClock& c : s.clock) c = PipeClock{};
    for (uint32_t& v : s.selfSync) v = 0;
    if (s.flagsSet != 0) std::memset(s.flagSet, 0, sizeof s.flagSet);
    s.flagsSet = 0;
}

void EndCore()
{
    HazardState& s = State();
    if (s.flagsSet == 0) return;
    for (uint32_t e = 0; e < kMaxEvents; ++e) {
        for (uint32_t id = 0; id < kMaxEventIds; ++id) {
            if (s.flagSet[e][id]) {
                Fail("kernel end", "every SetFlag is matched by a WaitFlag before the kernel ends",
                     std::string("SetFlag<HardEvent::") + s.flagName[e] + ">(" + std::to_string(id) +
                         ") was never waited for (synccheck: an unpaired flag leaves the event set for the next "
                         "kernel, which may then skip a wait)");
            }
        }
    }
}

}  // namespace ascend_twin
