// The cores of one launch talking to each other: CrossCoreSetFlag/CrossCoreWaitFlag counters, the messages
// between a MIX kernel's AIVs (Matmul clients) and their AIC (the Matmul server), and the vector clocks that
// turn every such hand-off (and SyncAll) into a happens-before edge for the launch's cross-core GM checks.
// All state lives in the launch's LaunchSync (twin/src/core_sched.h) and is guarded by its mutex.
#pragma once

#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core_sched.h"
#include "kernel_tiling/kernel_tiling.h"
#include "twin/runtime.h"

namespace ascend_twin {

constexpr uint32_t kCrossCoreFlagIds = 16;     // per core, modes 0/1/2 (CrossCoreSetFlag docs)
constexpr uint32_t kCrossCoreFlagMax = 15;     // a flag's counter counts 0..15
constexpr uint32_t kMaxMatmulObjects = 4;      // "Matmul最多支持定义4个对象" (CrossCoreSetFlag docs)
constexpr uint32_t kIncProcessCheck = 14;      // INC_PROCESS_CHECK (dav_c220 kfc_comm.h)

// A Matmul client's request (an AIV to its block's AIC), the body the client builds up between messages
// (kfcMsg_ in the API's client) plus the message's kind.
enum class MatmulMsgKind : uint8_t {
    kInit,
    kSetOrgShape,
    kIterate,
    kIterateAll,
    kIterateBatch,
    kGetTensorC,
    kEnd,
    kQuit,
    kScmGm2L1,      // DataCopy GM -> TSCM on an AIV: the AIC copies into its L1 (A2's SCMFUN_GM2L1, any object)
    kScmGm2L1Nd2Nz  // the same with Nd2NzParams (SCMFUN_GM2L1ND2NZ)
};

struct MatmulMsg {
    MatmulMsgKind kind = MatmulMsgKind::kInit;
    uint32_t inst = 0;       // the Matmul object (its place in REGIST_MATMUL_OBJ)
    int32_t sub = 0;         // the sending AIV's GetSubBlockIdx
    bool firstIter = false;  // the first message of a walk (isFirstIter: SetTensorA/B since the last message)
    uint32_t senderId = 0;   // the sending AIV's coreId
    AscendC::tiling::TCubeTiling tiling{};  // kInit
    int64_t orgM = 0, orgN = 0, orgKa = 0, orgKb = 0, orgKc = 0;  // kSetOrgShape
    // kIterate / kIterateAll / kGetTensorC: what the client set since its last message.
    bool setTensorA = false, setTensorB = false, isTransA = false, isTransB = false;
    const uint8_t* a = nullptr;
    const uint8_t* b = nullptr;
    uint64_t aBytes = 0, bBytes = 0;
    // A at TPosition::TSCM: SetTensorA's tensor is at L1 address aL1Addr of the AIC (`a` is null).
    bool aL1 = false;
    uint64_t aL1Addr = 0;
    // kScmGm2L1: blockCount blocks of blockBytes from gmSrc (srcStep bytes apart) to L1 address l1Addr (dstStep
    // apart); l1Room the bytes of the TSCM tensor from l1Addr on.
    const uint8_t* gmSrc = nullptr;
    uint64_t l1Addr = 0, l1Room = 0, blockBytes = 0, srcStep = 0, dstStep = 0;
    uint16_t blockCount = 0;
    // kScmGm2L1Nd2Nz: the element size and Nd2NzParams' eight fields in their order (ndNum, nValue, dValue,
    // srcNdMatrixStride, srcDValue, dstNzC0Stride, dstNzNStride, dstNzMatrixStride).
    uint32_t elemSize = 0;
    uint16_t nd2nz[8] = {};
    bool setBias = false, biasOn = false;
    const uint8_t* bias = nullptr;
    bool setTail = false;
    int64_t tailM = -1, tailN = -1, tailK = -1;
    bool sync = true, waitIterateAll = false, enSequentialWrite = false;
    uint8_t enAtomic = 0;  // IterateAll/GetTensorC into GM: 0 off, 1 AtomicAdd, 2 AtomicMax, 3 AtomicMin
    // Where C goes: GM (cGm, cBytes: the launch's memory, checked), or the client's staging buffer for a
    // LocalTensor (the system workspace area the API maps the UB tensor to; the twin's own memory).
    uint8_t* cGm = nullptr;
    uint64_t cBytes = 0;
    uint8_t* staging = nullptr;
    uint64_t stagingBytes = 0;
    // kIterateBatch: the batch counts, the strides between the matrices (0: the layout's) and the object's layouts.
    uint32_t batchA = 0, batchB = 0, matrixStrideA = 0, matrixStrideB = 0;
    uint32_t batchLoop = 0;  // IterateNBatch's loop count (0: IterateBatch)
    uint8_t layoutAB = 0, layoutC = 0;
    uint8_t esA = 0, esB = 0, esC = 0, esBias = 0;  // element sizes
    bool biasBatch = true;
    std::vector<uint32_t> clock;  // the sender's release
};

// A first-in first-out queue that allocates nothing while empty. A launch makes 16 flag counters and 4 Matmul event
// queues per core, and most launches use none of them: a default-constructed std::deque allocates its map and a
// node (two allocations each, about 2,000 per launch of 48 cores and as many frees), a std::list nothing.
template <typename T>
using Fifo = std::list<T>;

// The counters of one core's 16 flag ids: each pending increment with the clock it publishes.
struct FlagCounters {
    Fifo<std::vector<uint32_t>> pending[kCrossCoreFlagIds];
    uint32_t sets[kCrossCoreFlagIds] = {};   // CrossCoreSetFlag calls made by this core
    uint32_t waits[kCrossCoreFlagIds] = {};  // CrossCoreWaitFlag calls that returned
};

// A group of cores whose every member must set a flag before the targets' counters move (mode 0: all cores
// of a type; mode 1: a block's AIVs; mode 2 from the AIVs: a block's AIVs, target its AIC).
struct FlagGroup {
    std::vector<uint32_t> memberSets;              // per member: its sets so far
    std::deque<std::vector<uint32_t>> roundClocks;  // rounds not complete yet, from `completed` on
    uint32_t completed = 0;
};

struct CrossCore {
    std::vector<CoreContext>* cores = nullptr;
    bool mix = false;   // AICs and AIVs
    uint32_t ratio = 1;  // AIVs per AIC in a MIX launch
    int32_t kernelType = -1;
    std::vector<FlagCounters> flags;  // by coreId
    std::map<uint64_t, FlagGroup> groups;
    // Matmul: per block the messages its AIVs sent; per AIV and object the responses (NotifyEvent/WaitEvent);
    // per AIV whether its client exists (REGIST_MATMUL_OBJ ran on it) and whether it has quit (the kernel
    // returned on it); the objects the AICs registered.
    std::vector<Fifo<MatmulMsg>> mailbox;
    std::vector<Fifo<std::vector<uint32_t>>> events;  // coreId * kMaxMatmulObjects + inst
    std::vector<uint8_t> clientOpen, clientQuit;
    std::vector<uint32_t> matmulObjects;  // by coreId: objects REGIST_MATMUL_OBJ registered on the core
    bool hardSyncAll = false;              // a hardware SyncAll ran (its flag ids are 11-14)
    // IBSet/IBWait (twin/src/block_sync.cpp): per 32-byte slot address of a gmWorkspace, the joined clocks of
    // the cores that wrote the slot (an IBSet's 1, an IBWait's 0), acquired by the core that reads the value.
    std::map<uint64_t, std::vector<uint32_t>> ibClocks;
    std::vector<uint16_t> userFlagIds;     // flag ids the kernel's own CrossCoreSetFlag calls used
    // GM flags (twin/src/gm_flags.cpp): the bytes bypass writes and write-backs of SetValue published, each with
    // its writer's clock and the cores that acquired it since; `publishes` counts them (a polling core waits
    // for it to move).
    struct GmPublished {
        uint64_t begin, end;
        uint32_t writer;
        std::vector<uint32_t> clock;
        std::vector<uint8_t> acquiredBy;  // by coreId
    };
    std::vector<GmPublished> published;
    uint64_t publishes = 0;
    // SetValue bytes a core stored and has not written back yet (its DataCacheCleanAndInvalid publishes them), by
    // the 64-byte lines they lie in: on the NPU they are in the writer's data cache, not in GM, so another core's
    // fresh GetValue or ReadGmByPassDCache of them waits for the write-back (the twin's GM holds them already).
    struct PendingStore {
        uint64_t begin, end;
        uint32_t writer;
    };
    std::unordered_multimap<uint64_t, PendingStore> pendingStores;

    uint32_t AicOf(int64_t block) const { return static_cast<uint32_t>(block * (1 + ratio)); }
    uint32_t AivOf(int64_t block, int32_t sub) const { return static_cast<uint32_t>(block * (1 + ratio) + 1 + sub); }
};

// Thrown by a core that found the launch runs with the wrong layout before it did anything that cannot be
// undone (twin/src/kernel_type.cpp); the launcher runs the launch again with that kernel type.
struct Relaunch {
    int32_t kernelType;
};

// Set up for a launch of `cores` (called before the cores run).
void InitCrossCore(LaunchSync& sync, std::vector<CoreContext>& cores, bool mix, uint32_t ratio, int32_t kernelType);
// After the cores ran: flags set and never waited for, rounds some members never completed (the NPU leaves the
// counters set or a core waiting). Throws RuleViolation.
void CheckCrossCoreAtEnd(const char* kernel, LaunchSync& sync);
// The report for a launch every core of which waits or has returned.
std::string DescribeHang(LaunchSync& sync, const std::vector<CoreContext>& cores);

}  // namespace ascend_twin
