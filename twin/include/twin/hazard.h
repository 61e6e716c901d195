// The hazard detector: the pipes of a vector core and the order between them.
//
// On the NPU, MTE2 (GM->UB), V (vector), MTE3 (UB->GM) and S (scalar) run concurrently. Every API call
// is attributed to the pipe that executes it; its UB accesses are recorded per 32-byte block with the
// pipe and the call. Queue hand-offs (AllocTensor/EnQue/DeQue/FreeTensor), SetFlag/WaitFlag and
// PipeBarrier create happens-before edges, tracked with one vector clock per pipe. An access that
// conflicts with an earlier one of another pipe (RAW, WAR, WAW) with no happens-before path between
// them is a rule violation naming both calls, their pipes and the UB range. Within one pipe: S is
// ordered by the hardware, V by the compiler's automatic PIPE_V synchronisation (on by default), and
// MTE2/MTE3 copies with overlapping UB ranges need a PipeBarrier (or a flag round trip), as documented.
// Between S and V/MTE2/MTE3 the same automatic synchronisation inserts the flags, so those pairs are
// ordered too.
// initcheck: reading UB bytes nothing in this launch wrote is a violation.
#pragma once

#include <cstdint>

namespace ascend_twin {

// Pipes in the order of pipe_t where they exist there (PIPE_FIX is mapped to kFix).
enum class Pipe : uint8_t { kS = 0, kV, kM, kMte1, kMte2, kMte3, kFix, kCount };
constexpr uint32_t kPipeCount = static_cast<uint32_t>(Pipe::kCount);
const char* PipeName(Pipe pipe);

// What each pipe knows of every pipe's progress: clock[p] = number of p's instructions ordered before.
struct PipeClock {
    uint32_t t[kPipeCount] = {};
    void Join(const PipeClock& other)
    {
        for (uint32_t i = 0; i < kPipeCount; ++i) t[i] = t[i] > other.t[i] ? t[i] : other.t[i];
    }
};

// One API call's UB accesses: construct with the call and its pipe, then Read/Write its operands.
class Instr {
public:
    Instr(const char* call, Pipe pipe);
    void Read(const char* operand, const void* addr, uint64_t bytes);
    // A load into a register that tracks which of its bits are defined (SetCmpMask; bytes <= 32): bytes the launch
    // never wrote are no initcheck violation here, their bits come back clear (bit i: byte i was written).
    uint32_t ReadWrittenMask(const char* operand, const void* addr, uint64_t bytes);
    void Write(const char* operand, const void* addr, uint64_t bytes);
    // GM accesses of MTE2 (reads) and MTE3 (writes) within the core: an MTE2 read of GM bytes an MTE3
    // copy wrote needs MTE3 -> MTE2 synchronisation, and MTE3 copies to overlapping GM bytes need a
    // PipeBarrier<PIPE_MTE3> (PipeBarrier docs).
    void GmRead(const void* addr, uint64_t bytes);
    void GmWrite(const void* addr, uint64_t bytes);
    // Bytes the instruction writes as the docs leave them undefined (e.g. DataCopyPad padding without
    // isPad): later reads of them are not initcheck violations.
    void WriteUndefined(const void* addr, uint64_t bytes);

private:
    void ReadImpl(const char* operand, const void* addr, uint64_t bytes, uint32_t* writtenMask);

    const char* call_;
    Pipe pipe_;
    uint32_t epoch_;
    uint32_t seq_;
    // Looked up once per instruction rather than once per operand (each lookup is a thread-local access,
    // a call in a shared library); an instruction runs on one core, without a fiber switch inside it.
    struct HazardState* state_;
    const struct CoreContext* core_ = nullptr;  // on the first UB operand
};

// Happens-before edges.
PipeClock PipeNow(Pipe pipe);                    // the clock a release on `pipe` publishes
void PipeAcquire(Pipe pipe, const PipeClock& c);  // `pipe` waits for what c covers
void SetFlag(const char* event, Pipe src, Pipe dst, int32_t eventId, uint32_t eventIndex);
void WaitFlag(const char* event, Pipe src, Pipe dst, int32_t eventId, uint32_t eventIndex);
bool FlagIsSet(uint32_t eventIndex, int32_t eventId);  // a SetFlag not waited for yet
// SetFlag/WaitFlag that report a flag already set (not set) by returning false, for callers with their own
// message (the queues).
bool TrySetFlag(const char* event, Pipe src, int32_t eventId, uint32_t eventIndex);
bool TryWaitFlag(Pipe dst, int32_t eventId, uint32_t eventIndex);
void Barrier(Pipe pipe);  // PipeBarrier<pipe>
// The call of an MTE3 copy to GM that a release on `pipe` (CrossCoreSetFlag<mode, pipe>) would not cover: one
// on another pipe that `pipe` has not waited for. nullptr: none.
const char* UnsettledGmWrite(Pipe pipe);
void BarrierAll();        // PipeBarrier<PIPE_ALL>

// A fresh UB range handed out by InitBuffer: no accesses, nothing written.
void ResetUbRange(uint64_t offset, uint64_t bytes);

// The per-core state (clocks, flags) at the start and the end of a core's run.
void BeginCore();
void EndCore();  // flags set and never waited are a violation (the NPU would hang or leak the event)

// Cores suspended in SyncAll keep their records: each fiber of twin/src/core_sched.cpp has its own state.
struct HazardState;
HazardState* NewHazardState();
void DeleteHazardState(HazardState* state);
// Makes `state` the calling thread's current records (nullptr: the thread's own) and returns the previous.
HazardState* SetHazardState(HazardState* state);

}  // namespace ascend_twin
