// The twin's per-core state: which core is running, its UB, its counters, and how a broken rule is
// reported. Everything the Ascend C API headers of the twin need from the launcher goes through here.
// Kernel code sees this header, so it makes no std::string or std::vector visible (device code has no
// heap: a kernel using them would compile here and fail on the NPU; tests/test_twin_kernel_headers.py
// checks it). The exception the launcher throws is in twin/violation.h, the launcher's per-core
// bookkeeping in twin/src/core_records.h.
#pragma once

#include <cstdint>

#include "twin/platform.h"

namespace ascend_twin {

// Vector instructions the twin counts, by name. Element-ops = calCount of each call.
enum class VecOp : uint32_t {
    kAdd, kSub, kMul, kDiv, kMax, kMin, kAdds, kMuls, kExp, kLn, kAbs, kSqrt, kRsqrt, kReciprocal,
    kDuplicate, kCast, kReduceSum, kReduceMax, kAxpy, kRelu, kNot, kMaxs, kMins, kLeakyRelu, kAnd, kOr,
    kReduceMin, kWholeReduceSum, kWholeReduceMax, kWholeReduceMin, kBlockReduceSum, kBlockReduceMax, kBlockReduceMin,
    kPairReduceSum, kCompare, kCompareScalar, kSelect, kBrcb, kBroadcast, kGetCmpMask, kSetCmpMask,
    // The advanced math and activation elementwise functions, in ascend_twin::MathFn's order (twin/adv_math_tmp_size.h).
    kAcos, kAcosh, kAsin, kAsinh, kAtan, kAtanh, kCeil, kCos, kCosh, kErf, kErfc, kFloor, kFrac, kLog, kLog2, kLog10,
    kRound, kSign, kSin, kSinh, kTan, kTanh, kTrunc, kSigmoid, kSilu, kSwish, kGelu, kFasterGelu, kFasterGeluV2,
    kExpTaylor, kClampMin, kClampMax,
    kArithProgression, kPower, kSwiGLU, kFmod, kGeGLU, kCumSum,
    kGatherMask, kCopy,  // twin/kernel_gather_mask.h
    kMulAddDst,          // twin/kernel_vec_tail.h
    // The SoftMax family (twin/kernel_adv_softmax.h).
    kSoftMax, kSimpleSoftMax, kLogSoftMax, kSoftmaxFlash, kSoftmaxFlashV2, kSoftmaxGrad, kSoftmaxGradFront,
    // The reductions over a pattern (twin/kernel_adv_reduce.h).
    kPatternReduceSum, kPatternReduceMax, kPatternReduceMin, kPatternReduceProd, kPatternReduceMean, kPatternReduceAny,
    kPatternReduceAll,
    // The quantization API (twin/kernel_adv_quant.h).
    kAscendDequant,
    kXor,  // twin/kernel_adv_xor.h
    kShiftRight, kAddRelu, kCreateVecIndex,  // twin/kernel_vec_shift.h, twin/kernel_vec_shift_index.h
    kSort,  // twin/kernel_sort.h
    kGather, kGatherb,  // twin/kernel_gather.h
    kSort32, kMrgSort,  // twin/kernel_mrg_sort.h
    kTranspose, kTransDataTo5HD,  // twin/kernel_transpose.h
    kShiftLeft,                   // twin/kernel_vec_shift.h
    kCount
};
const char* VecOpName(VecOp op);

// What a cube core's Matmul object moved and computed (twin/include/lib/matmul_intf.h). GM bytes per
// operand include re-reads; L1 = GM->L1 loads, L0A/L0B = L1->L0 loads, L0C = L0C->GM (Fixpipe) bytes.
struct CubeCounters {
    uint64_t gmBytesA = 0;
    uint64_t gmBytesB = 0;
    uint64_t gmBytesBias = 0;
    uint64_t gmBytesC = 0;
    uint64_t l1BytesLoaded = 0;
    uint64_t l0aBytesLoaded = 0;
    uint64_t l0bBytesLoaded = 0;
    uint64_t l0cBytesOut = 0;
    uint64_t mmadCalls = 0;
};

struct CoreCounters {
    uint64_t gmBytesRead = 0;
    uint64_t gmBytesWritten = 0;
    // Of gmBytesRead, the bytes DMA reads took from the padding past a buffer's end (Platform::gmPadding):
    // legal on A2, undefined values, and a read past the end on a SoC without the padding.
    uint64_t gmPaddingBytesRead = 0;
    // Of gmBytesWritten, the bytes DMA writes sent into the padding after the end of a buffer that ends where its
    // allocation ends (GmRegion::endsAllocation): harmless on A2, never written to the caller's memory.
    uint64_t gmPaddingBytesWritten = 0;
    // Bytes this core wrote by DMA over bytes another core wrote in the same launch with nothing ordering the two
    // writes, both writing the same values (the outcome does not depend on their order; different values fail).
    uint64_t gmUnorderedEqualBytes = 0;
    uint64_t dataCopyCalls = 0;  // DataCopy and DataCopyPad, either direction
    // Per pipe, for the cost model: MTE2 = GM->UB copies, MTE3 = UB->GM copies; a burst is one of a
    // copy's blockCount contiguous GM runs (the unit a DMA descriptor moves).
    uint64_t mte2Calls = 0;
    uint64_t mte2Bursts = 0;
    uint64_t mte3Calls = 0;
    uint64_t mte3Bursts = 0;
    uint64_t ubBytesAllocated = 0;  // peak UB handed out by TPipe::InitBuffer
    uint64_t cubeMacs = 0;
    uint64_t vecElementOps[static_cast<uint32_t>(VecOp::kCount)] = {};
    // Issued vector instructions and their repeats (one repeat = up to 256 bytes of operands, the unit
    // the V pipe processes per cycle-slot; a count-form call issues ceil(count * sizeof / 256) repeats).
    uint64_t vecCalls[static_cast<uint32_t>(VecOp::kCount)] = {};
    uint64_t vecRepeats[static_cast<uint32_t>(VecOp::kCount)] = {};
    CubeCounters cube;
};

struct GmRegion {
    const char* name;
    uint8_t* begin;
    uint64_t bytes;
    uint32_t elemSize = 0;  // the element size of the tensor the caller passed; 0 = untyped bytes
    // Whether the buffer ends where its allocation ends (a fresh tensor; a view reaching its storage's end), so
    // that the padding the runtime allocates after the allocation follows it; false when the bytes after it
    // are other elements of its storage (a view ending earlier) or not known to be padding.
    bool endsAllocation = false;
    // When endsAllocation: the offset from begin at which the allocation's padding ends (AlignUp(allocation's
    // bytes, 32) + Platform::gmPadding from the allocation's start). DMA writes may reach it.
    uint64_t paddedEnd = 0;
};

struct GmWrite {
    uint64_t begin;  // address as an integer
    uint64_t end;
    uint32_t epoch = 0;  // SyncAlls the core had passed when it accessed the bytes
    // The core's cross-core releases and acquires before the access (CoreContext::rel/acq): with the
    // launch's vector clocks (twin/src/cross_core.cpp) they order it against other cores' accesses.
    uint32_t rel = 0;
    uint32_t acq = 0;
    // kGmPlain: DMA, or a scalar access through the data cache; kGmScalarStore: SetValue or
    // WriteGmByPassDCache; kGmPoll: ReadGmByPassDCache, or a GetValue that loads its line fresh from GM
    // (straight after DataCacheCleanAndInvalid). A poll racing a scalar store is the GM-flag hand-off, not a race.
    uint8_t kind = 0;
};
inline constexpr uint8_t kGmPlain = 0, kGmScalarStore = 1, kGmPoll = 2;

struct LaunchSync;   // twin/src/core_sched.h
struct CoreRecords;  // twin/src/core_records.h

// Atomic accumulation of copies to GM (SetAtomicAdd<T> and friends).
enum class AtomicOp : uint8_t { kNone, kAdd, kMax, kMin };
enum class AtomicType : uint8_t { kFloat, kHalf, kBFloat16, kInt32, kInt16, kInt8 };

// State of the virtual core the current thread is running.
struct CoreContext {
    const char* kernel = "";
    int64_t blockIdx = 0;
    int64_t blockNum = 1;
    uint64_t tilingKey = 0;
    // The TilingData struct REGISTER_TILING_FOR_TILINGKEY registered for tilingKey (its tag), if any.
    const void* keyTiling = nullptr;
    const char* keyTilingName = nullptr;
    int32_t kernelType = -1;  // AscendC::KernelMetaType from KERNEL_TASK_TYPE_DEFAULT; -1 when not declared
    // Which core this is. A MIX kernel with cube and vector cores (KERNEL_TYPE_MIX_AIC_1_1/1_2, __mix__(1, 1),
    // __mix__(1, 2)) runs per block one AIC and subBlockNum AIVs; other kernels one core per block.
    int32_t coreType = 2;     // AscendC::AIC (1) or AscendC::AIV (2): g_coreType, ASCEND_IS_AIC/AIV
    int64_t block = 0;        // the block (logical AI Core) the core belongs to
    int32_t subBlockIdx = 0;  // GetSubBlockIdx: 0 or 1 on the AIVs of a 1:2 MIX kernel, else 0
    int32_t subBlockNum = 1;  // GetSubBlockNum/GetTaskRatio: 2 on the AIVs of a 1:2 MIX kernel, else 1
    bool mix = false;         // the launch runs cube and vector cores together
    uint32_t coreId = 0;      // index among the launch's cores (blockIdx repeats between AICs and AIVs)
    uint32_t coreCount = 1;   // cores in the launch
    // Cross-core happens-before (CrossCoreSetFlag/WaitFlag, SyncAll, the Matmul messages): releases and
    // acquires this core made so far; each GM access is tagged with them (GmWrite::rel/acq).
    uint32_t rel = 0;
    uint32_t acq = 0;
    const Platform* platform = nullptr;
    uint8_t* ub = nullptr;  // UB of this core, platform->ubSize bytes, 64-byte aligned
    uint8_t* cube = nullptr;  // L1, L0A, L0B, L0C and BT of this core (twin/kernel_cube_basic.h), set on first use
    CoreCounters counters;
    AtomicOp atomicOp = AtomicOp::kNone;
    bool maskCounter = false;  // the vector mask register: counter mode, or normal mode with these bits
    uint64_t maskHigh = ~0ull;
    uint64_t maskLow = ~0ull;
    uint64_t gatherMaskRemain = 0;  // rsvdCnt of the last GatherMask (GetGatherMaskRemainCount)
    // The 128-bit CMPMASK register (SetCmpMask, the register-result Compare, Select) and which of its bits an
    // instruction defined; GetCmpMask and the Select forms without selMask read it.
    uint8_t cmpMask[16] = {};
    uint64_t cmpMaskDefined[2] = {0, 0};
    // The 64-bit DEQSCALE register (SetDeqScale) and which form set it: 0 none, 1 SetDeqScale(half),
    // 2 SetDeqScale(float, int16_t, bool).
    uint64_t deqScale = 0;
    uint8_t deqScaleForm = 0;
    // The MTE2 pad-value register (SetPadValue: set_mov_pad_val) with the size of the type it was set with (0: not
    // set in this launch); DataCopyPad GM -> UB without isPad pads with it.
    uint64_t movPadValue = 0;
    uint8_t movPadSize = 0;
    AtomicType atomicType = AtomicType::kFloat;
    void* tpipe = nullptr;  // the kernel's current AscendC::TPipe (GetTPipePtr)
    uint32_t pipeGeneration = 0;  // TPipe::Reset/Destroy calls: queues and TBufs of an older one need InitBuffer
    uint64_t ubCarvedEnd = 0;     // UB offset past the tensors LocalMemAllocator handed out
    LaunchSync* sync = nullptr;  // the launch's SyncAll barrier
    uint32_t epoch = 0;          // SyncAlls this core has passed
    uint32_t softSyncs = 0;      // SyncAlls of the workspace form (its GM slot counts them)
    bool determineInit = false;  // InitDetermineComputeWorkspace ran on this core
    uint64_t accVal = 0;       // ACC_VAL: the sum of the last count-form ReduceSum (GetReduceRepeatSumSpr)
    uint8_t accValBytes = 0;   // sizeof its T (2 half, 4 float); 0: no count-form ReduceSum yet
    uint8_t taskSyncCalls[2] = {0, 0};  // WaitPreTaskEnd, SetNextTaskStart calls (once per core each)
    bool returned = false;       // the kernel returned (not stopped by a violation or a SyncAll that cannot open)
    bool abortedInSync = false;  // released from a SyncAll that could never open
    CoreRecords* records = nullptr;  // the launch's GM regions and this core's GM ranges and deferred violation
};

CoreContext& CurrentCore();  // throws std::logic_error outside a launch
// "core 3" in a launch of one core per block, "AIC 1" / "AIV 3" (the core's GetBlockIdx) in a MIX launch.
void CoreLabel(const CoreContext& core, char* out, uint32_t size);
void SetCurrentCore(CoreContext* ctx);  // the launcher's, around each core's run
bool InLaunch();
// KERNEL_TASK_TYPE_DEFAULT: records the core type and checks blockDim against that core type's count. A MIX
// type with cube and vector cores, declared in a launch started with one core per block, restarts the launch
// with its AICs and AIVs (as the device build knows the type before the launch; twin/src/launch.cpp).
void SetKernelType(int32_t kernelType);
// The Matmul object of a MIX kernel (no ASCENDC_CUBE_ONLY) needs AIC and AIV cores: in a kernel that declared
// no type, it makes the launch a 1:2 MIX launch (the device compiler infers that type from the Matmul use).
void RequireMixLaunch(const char* call);

// Stops the launch with a RuleViolation (twin/violation.h) naming the kernel, the core, the call, the rule
// and what broke it. Defer records one found in a destructor (which cannot throw); the launcher raises
// it when the kernel returns. The F forms take a printf-style detail (checked by the compiler).
[[noreturn]] void Fail(const char* call, const char* rule, const char* detail);
void Defer(const char* call, const char* rule, const char* detail);
[[noreturn]] void FailF(const char* call, const char* rule, const char* format, ...)
    __attribute__((format(printf, 3, 4)));
void DeferF(const char* call, const char* rule, const char* format, ...) __attribute__((format(printf, 3, 4)));

// GM accesses: check that [addr, addr+bytes) lies inside one buffer of the launch, then count it.
// The bytes the runtime allocates for an allocation of `bytes`: AlignUp(bytes, 32) + Platform::gmPadding, the reach
// of DMA reads past a buffer's end and of DMA writes past a buffer that ends its allocation.
uint64_t PaddedBytes(uint64_t bytes, const Platform& platform);
void CheckGmInBounds(const char* call, const char* rule, const char* verb, const void* addr, uint64_t bytes);
void CheckGmRead(const char* call, const void* addr, uint64_t bytes);
// `count` reads of `bytes` each, read i at first + i * stride: what CheckGmRead does for each of them, in order
// (the same counters and records), with one bounds check and one record when all of them lie in one buffer.
void CheckGmReadRuns(const char* call, const void* first, uint64_t stride, uint64_t bytes, uint64_t count);
// The same when all of them lie in one buffer; else false, having checked, counted and recorded nothing (the caller
// then checks each, e.g. with CheckGmDmaRead).
bool CheckGmReadRunsInOneBuffer(const char* call, const void* first, uint64_t stride, uint64_t bytes, uint64_t count);
// A DMA read of GM (DataCopy/DataCopyPad GM->UB, DataCopy GM->L1): as CheckGmRead, except that it may run past
// its buffer's end into the padding the runtime allocates after it (Platform::gmPadding: AlignUp(bytes, 32) + 32
// on A2). Returns how many of its leading bytes lie in the buffer; the caller copies those and fills the rest with
// undefined (NaN) bytes, since the NPU reads whatever the padding holds. Only those bytes are recorded for the
// cross-core and pipe hazard checks (the padding is no other buffer's bytes on the NPU).
uint64_t CheckGmDmaRead(const char* call, const void* addr, uint64_t bytes);
// A GlobalTensor<T> bound to addr: when addr lies in a launch argument that holds typed elements, T must
// have their size (a GM_ADDR carries no type: a float64 tensor read as float would be silent garbage).
void CheckGmBinding(const char* call, const void* addr, uint32_t elemSize, const char* typeName);
// A DMA write to GM (DataCopy/DataCopyPad UB->GM, DataCopy L1->GM, Fixpipe/Matmul L0C->GM, InitGlobalMemory):
// checks that [addr, addr+bytes) lies inside one buffer of the launch, counts and records it. It may run past the
// end of a buffer that ends its allocation (GmRegion::endsAllocation) into the padding the runtime allocates
// after it, to GmRegion::paddedEnd: the NPU writes those bytes into the padding, where nothing reads them.
// Returns how many of its leading bytes lie in the buffer; the caller writes only those (the padding is not the
// caller's memory), the rest is counted as gmPaddingBytesWritten and kept out of the hazard records. Past a
// buffer that does not end its allocation (a view ending before its storage: the write would overwrite the
// storage's next elements on the NPU) and past the padding, it fails.
uint64_t CheckGmDmaWrite(const char* call, const void* addr, uint64_t bytes);
// After the caller has written the `bytes` (CheckGmDmaWrite's return) at addr: their checksum for the cross-core
// check (two cores writing the same GM bytes unordered pass when they wrote the same values). `sum`: their
// simd::WriteChecksum, which the copy computes as it goes (simd::CopyToGmSummed): summing them back from GM after the
// stores would wait on the stores. A write without it keeps its range unsummed (then such an overlap is refused).
void GmDmaWritten(const void* addr, uint64_t bytes, uint64_t sum);
// A DMA write of `bytes` from src to GM at dst, whole: CheckGmDmaWrite, the copy of the bytes inside the buffer with
// their checksum (simd::CopyToGmSummed), GmDmaWritten. Returns the bytes inside.
uint64_t CopyToGm(const char* call, void* dst, const void* src, uint64_t bytes);
// GlobalTensor::GetValue/SetValue: a GM access through the core's scalar data cache (checked as above, and
// against what the cache may hold); DataCacheCleanAndInvalid on GM: writes back and drops the line from addr
// to its 64-byte boundary, or (entire) the whole cache.
// out: where GetValue's bytes go, read under the launch's lock with the checks (a store another core makes
// meanwhile is either seen with its publication or not seen at all).
void ScalarGmRead(const char* call, const void* addr, uint64_t bytes, void* out = nullptr);
void ScalarGmWrite(const char* call, const void* addr, uint64_t bytes);
void DataCacheCleanInvalidate(const char* call, const void* addr, bool entire);
// ReadGmByPassDCache / WriteGmByPassDCache (twin/src/gm_flags.cpp): a scalar GM access of `bytes` (1, 2, 4 or
// 8) that bypasses the data cache, its value as the low bytes of a uint64_t. DataSyncBarrier<MemDsbT>: what the
// core's bypass writes after it publish to a core that reads them.
uint64_t BypassGmRead(const char* call, const void* addr, uint64_t bytes);
void BypassGmWrite(const char* call, void* addr, uint64_t bytes, uint64_t value);
void DataSyncBarrierOnCore(uint8_t mode);
// SyncAll on the current core: PipeBarrier<PIPE_ALL>, then wait until `participants` cores (0: all) arrive.
void SyncAllCores(const char* call, uint32_t participants);
// A copy to GM in the core's atomic mode: checks and records the range, then combines the bytes of src
// into dst element by element (one lock for all cores: accumulations never tear).
// Like a DMA write, it may run on into the padding of a buffer that ends its allocation (CheckGmDmaWrite): only
// the bytes inside the buffer are combined.
void AtomicCopyToGm(const char* call, uint8_t* dst, const uint8_t* src, uint64_t bytes);

// UB addresses of vector instructions and DataCopy must be 32-byte aligned.
void CheckUbAligned(const char* call, const char* operand, const void* addr);
uint64_t UbOffset(const void* addr);
// The UB address a kernel passes as a number: `(uint64_t)tensor.GetPhyAddr()` (a pointer into this core's UB,
// whose low 32 bits are the address) or the device's UB address itself. Anything else is returned as it is,
// for the caller's range check to report.
uint64_t UbAddressValue(uint64_t value);
// LocalTensor::GetPhyAddr handed the kernel a pointer to `bytes` of memory: in UB the twin takes it as the
// scalar unit writing them (it cannot see the accesses through the pointer); a cube memory's pointer (no
// scalar access there) serves address arithmetic only.
void RawUbPointer(const char* call, const void* p, uint64_t bytes);

// One issued vector instruction: its element-ops and its repeats.
inline void CountVec(VecOp op, uint64_t elements, uint64_t repeats)
{
    CoreCounters& c = CurrentCore().counters;
    const uint32_t i = static_cast<uint32_t>(op);
    c.vecElementOps[i] += elements;
    c.vecCalls[i] += 1;
    c.vecRepeats[i] += repeats;
}

// The repeats a count-form instruction on `count` elements of `bytesPerElement` issues.
inline uint64_t CountFormRepeats(uint64_t count, uint64_t bytesPerElement)
{
    return (count * bytesPerElement + 255) / 256;
}

}  // namespace ascend_twin
