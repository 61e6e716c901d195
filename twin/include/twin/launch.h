// The launch interface between the twin and its callers (the torch adapter, the C++ tests).
// It knows nothing of torch: GM buffers are raw pointers with their sizes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "twin/dtype.h"
#include "twin/platform.h"
#include "twin/runtime.h"
#include "twin/violation.h"

namespace ascend_twin {

// An entry point as `extern "C" __global__ __aicore__ void k(...)` compiles on the CPU.
using KernelEntry = void*;
// Calls an entry with values[i] pointing at parameter i's value (twin/kernel_entry.h makes one from the
// entry's signature). Without one the launcher calls the entry as a function of GM addresses only.
using KernelInvoker = void (*)(void* fn, void* const* values);

struct GmArg {
    const char* name;  // the kernel parameter's name, used in error messages
    void* data;        // may be null when bytes == 0 (e.g. no workspace); byValue: the value's bytes
    uint64_t bytes;
    bool byValue = false;  // a scalar or struct parameter passed by copy, not a GM buffer
    uint32_t elemSize = 0;  // the element size of the tensor behind a GM buffer; 0 = untyped bytes
    // Whether the buffer ends where its allocation ends, and how far into that allocation it starts: DMA
    // writes may run on past its end into the padding the runtime allocates after the allocation
    // (AlignUp(allocOffset + bytes, 32) + Platform::gmPadding from the allocation's start). A raw pointer is not
    // known to end an allocation (false: a write past its end fails): set it for a buffer allocated for the
    // launch alone, as a fresh tensor's storage is, and for a view that reaches its storage's end.
    bool endsAllocation = false;
    uint64_t allocOffset = 0;
};

struct LaunchSpec {
    const char* kernel;       // name reported in errors and statistics
    KernelEntry entry;
    KernelInvoker invoke = nullptr;  // required when an argument is byValue
    uint32_t blockDim;
    uint64_t tilingKey = 0;
    // The kernel type the entry's qualifier gives (__mix__(1, 2) -> KERNEL_TYPE_MIX_AIC_1_2, ...), -1: none.
    // A MIX type with cube and vector cores runs blockDim AICs and blockDim * ratio AIVs.
    int32_t kernelType = -1;
    std::vector<GmArg> args;  // kernel parameters in order; the tiling buffer is the last one
    const Platform* platform = &kAscend910B2;
};

// Which core a CoreCounters entry belongs to.
struct CoreIdentity {
    int32_t coreType = 2;  // AscendC::AIC (1) or AscendC::AIV (2)
    int64_t blockIdx = 0;  // what GetBlockIdx returned on it
};

struct LaunchStats {
    std::string kernel;
    std::string platform;
    uint32_t blockDim = 0;
    // "" (one core per block, no MIX type) or the cube+vector type the launch ran ("MIX_AIC_1_2", "MIX_AIC_1_1").
    std::string mixType;
    std::vector<CoreCounters> cores;  // per block; in a MIX launch per block its AIC, then its AIVs
    std::vector<CoreIdentity> identities;  // parallel to cores
};

// Runs the kernel on spec.blockDim virtual cores and returns their counters (the calling thread's
// LastLaunch(), valid until its next launch). Throws RuleViolation for
// the first broken rule (lowest core index first, then the cross-core checks). The cores run on a
// persistent pool of ASCEND_TWIN_THREADS threads (default: every CPU; read once; an invalid value
// makes every launch throw std::invalid_argument).
const LaunchStats& Launch(const LaunchSpec& spec);

// Where a launch's cores run when it uses more than one thread. By default on the twin's own pool. A host with
// a thread pool of its own sets a runner to use that one instead: the torch extension runs launches on torch's
// intra-op threads, which otherwise keep spinning on a CPU for a while after each torch op while the twin's
// workers wait for it. The runner calls fn(ctx, t) once for every t in [0, threads), at the same time or one after
// another, on the calling thread and up to threads - 1 others, and returns when every call has returned; fn does
// not throw. A launch then uses at most as many threads as the runner gives it (ASCEND_TWIN_THREADS stays the
// upper bound). Results never depend on the runner or on how many threads it gives (the cores take indices
// from one counter, a core waiting in SyncAll is suspended while its thread runs others). nullptr: the
// twin's pool again.
using ThreadRunner = void (*)(uint32_t threads, void (*fn)(void* ctx, uint32_t t), void* ctx);
void SetThreadRunner(ThreadRunner runner);

// What the calling thread's last launch measured (nullptr before its first launch), and recordings of
// every launch the calling thread makes (for Python's twin.record()). Recordings nest: a launch is
// added to every recording open on the thread; StopRecording closes the innermost one.
const LaunchStats* LastLaunch();
void StartRecording();
std::vector<LaunchStats> StopRecording();

// Kernel variants compiled for the twin, looked up by op name and dtype (generated from the built-in ops' declarations by cmake/builtin_ops.py).
struct KernelVariant {
    const char* op;
    DType dtype;
    KernelEntry entry;
};
int RegisterKernel(const KernelVariant& variant);
KernelEntry FindKernel(const char* op, DType dtype);  // nullptr if not built

}  // namespace ascend_twin
