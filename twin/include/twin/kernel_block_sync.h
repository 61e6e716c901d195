// Synchronisation across the cores of a launch (SyncAll, IBSet/IBWait, GroupBarrier) and GM initialisation
// (InitGlobalMemory, Fill, InitOutput).
// Real declarations: basic_api/kernel_operator_block_sync_intf.h (SyncAll) and
// adv_api/utils/init_global_memory.h (InitGlobalMemory, Fill); A2 implementation:
// impl/basic_api/dav_c220/kernel_operator_sync_impl.h, init_global_memory_v220_impl.h.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/kernel_sync.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_tpipe.h"
#include "twin/kernel_types.h"
#include "twin/runtime.h"

namespace ascend_twin {
// SyncAll<isAIVOnly>(): both SyncAll forms begin with PipeBarrier<PIPE_ALL> on A2.
void HardSyncAll(bool isAIVOnly);
// SyncAll(gmWorkspace, ubWorkspace, usedCores): the software form, with its workspace rules.
void SoftSyncAll(const char* call, int32_t* gm, uint64_t gmElements, uint64_t ubOffset, uint32_t ubElements,
                 int32_t ubPosition, int32_t usedCores);
// InitGlobalMemory / Fill: Duplicate into UB scratch (V), copies to GM (MTE3), PipeBarrier<PIPE_MTE3>.
void InitGm(const char* call, void* gm, uint64_t gmElements, uint64_t size, const void* value, uint32_t elementBytes,
            VecOp duplicate);
// CrossCoreSetFlag / CrossCoreWaitFlag (twin/src/cross_core.cpp); pipe is the pipe_t value.
void CrossCoreSetFlagImpl(uint32_t mode, int32_t pipe, uint32_t flagId);
void CrossCoreWaitFlagImpl(uint32_t mode, uint32_t flagId);
// IBSet / IBWait: the slot gmWorkspace[coreNum * 8 * eventID + blockIdx * 8] goes 0 -> 1 (set) and 1 -> 0 (wait).
void InterBlockSync(bool set, bool isAIVOnly, int32_t* gm, uint64_t gmElements, uint64_t ubOffset, uint32_t ubElements,
                    int32_t ubPosition, int32_t blockIdx, int32_t eventID);
void NoteHardSyncAll();
// InitDetermineComputeWorkspace (kind 0), WaitPreBlock (1), NotifyNextBlock (2): the cores in blockIdx order.
void DetermineCompute(int32_t kind, int32_t* gm, uint64_t gmElements, uint64_t ubOffset, uint32_t ubElements,
                      int32_t ubPosition);
// WaitPreTaskEnd (setNext false) / SetNextTaskStart (true): once per core (the twin's rule; no effect on A2).
void TaskSyncOnce(bool setNext);  // the hardware SyncAll uses flag ids 11-14 (checked against the kernel's own at the end)
// GroupBarrier (twin/src/block_sync.cpp): the constructor's checks and its message blocks in UB, and one Arrive
// or Wait; counter/hasArrive are the object's round state, as in the dav_c220 implementation.
void GroupBarrierInit(uint8_t* workspace, uint32_t arriveSize, uint32_t waitSize);
void GroupBarrierStep(bool arrive, uint8_t* workspace, uint32_t arriveSize, uint32_t waitSize, uint32_t index,
                      uint32_t& counter, bool& hasArrive);
// InitOutput: Duplicate into the UB after the TPipe's buffers (V), V_MTE3, DataCopyPad rounds to GM (MTE3).
void InitOutputImpl(void* gm, uint64_t gmElements, uint32_t size, const void* value, uint32_t elementBytes,
                    uint64_t pipeEnd, bool hasPipe);
}  // namespace ascend_twin

namespace AscendC {

// Hardware synchronisation of every core of the launch (A2: no workspace). isAIVOnly = false
// synchronises the cube and vector cores of a MIX kernel; a pure vector kernel must keep true.
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll()
{
    ascend_twin::HardSyncAll(isAIVOnly);
}

// Software synchronisation through a GM workspace: every core counts its SyncAll calls in its own
// 32-byte slot of gmWorkspace (GetBlockNum() * 32 bytes, zeroed before the first call) and polls the
// slots of the first usedCores cores (0: all) through ubWorkspace (GetBlockNum() * 32 bytes).
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                               const int32_t usedCores = 0)
{
    ascend_twin::SoftSyncAll("SyncAll(gmWorkspace, ubWorkspace, usedCores)",
                             const_cast<int32_t*>(gmWorkspace.GetPhyAddr()), gmWorkspace.GetSize(),
                             twin_detail::UbAddress(ubWorkspace), ubWorkspace.GetSize(), ubWorkspace.GetPosition(),
                             usedCores);
}

// Synchronisation of one core with another through a GM workspace (IBSet/IBWait docs): the core that is
// waited for calls IBSet, which waits until its 32-byte slot gmWorkspace[coreNum * 8 * eventID + blockIdx * 8]
// holds 0 and writes 1; the waiting core calls IBWait with the same gmWorkspace, blockIdx and eventID, which
// waits until the slot holds 1 and writes 0 back. coreNum is GetBlockNum() (isAIVOnly) or GetBlockNum() * 2;
// gmWorkspace is zeroed before the launch and holds coreNum * 32 * eventID_max + blockIdx_max * 32 + 32 bytes,
// ubWorkspace (VECIN/VECCALC/VECOUT) at least 32. On A2 an AIC returns at once.
template <bool isAIVOnly = true>
__aicore__ inline void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                             int32_t blockIdx, int32_t eventID)
{
    ascend_twin::InterBlockSync(true, isAIVOnly, const_cast<int32_t*>(gmWorkspace.GetPhyAddr()), gmWorkspace.GetSize(),
                                twin_detail::UbAddress(ubWorkspace), ubWorkspace.GetSize(), ubWorkspace.GetPosition(),
                                blockIdx, eventID);
}

template <bool isAIVOnly = true>
__aicore__ inline void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                              int32_t blockIdx, int32_t eventID)
{
    ascend_twin::InterBlockSync(false, isAIVOnly, const_cast<int32_t*>(gmWorkspace.GetPhyAddr()),
                                gmWorkspace.GetSize(), twin_detail::UbAddress(ubWorkspace), ubWorkspace.GetSize(),
                                ubWorkspace.GetPosition(), blockIdx, eventID);
}

// Synchronisation between the cores of a MIX kernel through the scheduler's per-core flag counters
// (CrossCoreSetFlag docs): modeId 0 = all cores of the caller's type, 1 = the AIVs of a block, 2 = a block's
// AIC and its AIVs. The set is issued on `pipe` (PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX)
// once that pipe's earlier work is done; the wait blocks every pipe on A2 (its modeId and pipe have no effect
// there) until the core's counter of flagId is non-zero, and takes one off. flagId 0..15 (higher values are
// cut to their low 4 bits).
template <uint8_t modeId, pipe_t pipe>
__aicore__ inline void CrossCoreSetFlag(uint16_t flagId)
{
    ascend_twin::CrossCoreSetFlagImpl(modeId, static_cast<int32_t>(pipe), flagId);
}

template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
__aicore__ inline void CrossCoreWaitFlag(uint16_t flagId)
{
    ascend_twin::CrossCoreWaitFlagImpl(modeId, flagId);
}

// Deterministic computation in blockIdx order (kernel_operator_determine_compute_sync_intf.h; dav_c220
// kernel_operator_determine_compute_sync_impl.h). InitDetermineComputeWorkspace: core 0 zeroes the GetBlockNum()
// 32-byte slots of gmWorkspace (which need not be zeroed before: docs), every core sets its round counter (the int32_t
// after the slots in ubWorkspace) to 1. WaitPreBlock: core i waits until slots 0..i-1 hold the round and slots
// i.. hold 0. NotifyNextBlock: core i writes the round into its slot, the last core zeroes them all; the round goes
// up by one. gmWorkspace >= GetBlockNum() * 32 bytes, ubWorkspace >= GetBlockNum() * 32 + 32 bytes; AIV cores only
// (an AIC returns at once); the blocks all resident. The notify -> wait pairs order the cores' GM accesses.
__aicore__ inline void InitDetermineComputeWorkspace(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace)
{
    ascend_twin::DetermineCompute(0, const_cast<int32_t*>(gmWorkspace.GetPhyAddr()), gmWorkspace.GetSize(),
                                  twin_detail::UbAddress(ubWorkspace), ubWorkspace.GetSize(), ubWorkspace.GetPosition());
}

__aicore__ inline void WaitPreBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace)
{
    ascend_twin::DetermineCompute(1, const_cast<int32_t*>(gmWorkspace.GetPhyAddr()), gmWorkspace.GetSize(),
                                  twin_detail::UbAddress(ubWorkspace), ubWorkspace.GetSize(), ubWorkspace.GetPosition());
}

__aicore__ inline void NotifyNextBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace)
{
    ascend_twin::DetermineCompute(2, const_cast<int32_t*>(gmWorkspace.GetPhyAddr()), gmWorkspace.GetSize(),
                                  twin_detail::UbAddress(ubWorkspace), ubWorkspace.GetSize(), ubWorkspace.GetPosition());
}

// SuperKernel early start (basic_api/kernel_operator_common_intf.h): on A2 both compile and have no effect (the
// docs: "仅保证编译兼容，实际功能不生效"; dav_c220 issues nothing outside a SuperKernel build). Their docs require each
// on every core exactly once; the twin stops a second call on a core (deliberately stricter than A2, which ignores
// it: in a SuperKernel on A3 the extra wait or set leaves the sync counts unmatched and the task hangs).
template <pipe_t AIV_PIPE = PIPE_MTE3, pipe_t AIC_PIPE = PIPE_FIX, bool FORCE = false>
__aicore__ inline void SetNextTaskStart()
{
    ascend_twin::TaskSyncOnce(true);
}

template <bool FORCE = false>
__aicore__ inline void WaitPreTaskEnd()
{
    ascend_twin::TaskSyncOnce(false);
}

namespace twin_detail {
template <typename T>
constexpr bool kInitGmType = std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t> || std::is_same_v<T, half> ||
                             std::is_same_v<T, uint32_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, float>;
}  // namespace twin_detail

// Sets size elements of GM to value, from this core (no synchronisation with other cores: SyncAll
// before they read). Only before the kernel's first InitBuffer (it uses the UB as scratch); the core's
// own later GM reads need MTE3 -> MTE2 synchronisation.
template <typename T>
__aicore__ inline void InitGlobalMemory(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value)
{
    static_assert(twin_detail::kInitGmType<T>,
                  "InitGlobalMemory on A2 supports uint16_t, int16_t, half, uint32_t, int32_t and float");
    ascend_twin::InitGm("InitGlobalMemory", const_cast<T*>(gmWorkspaceAddr.GetPhyAddr()), gmWorkspaceAddr.GetSize(),
                        size, &value, sizeof(T), ascend_twin::VecOp::kDuplicate);
}

template <typename T>
__aicore__ inline void Fill(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value)
{
    static_assert(twin_detail::kInitGmType<T>, "Fill on A2 supports uint16_t, int16_t, half, uint32_t, int32_t and float");
    ascend_twin::InitGm("Fill", const_cast<T*>(gmWorkspaceAddr.GetPhyAddr()), gmWorkspaceAddr.GetSize(), size,
                        &value, sizeof(T), ascend_twin::VecOp::kDuplicate);
}

// GroupBarrier (docs 基础API/Cube分组管理（ISASI）/GroupBarrier; dav_c220 core_mng/roc/
// kernel_operator_group_barrier_impl.h): arriveSize AIVs call Arrive(i), waitSize AIVs call Wait(j), which returns
// once every Arrive of the round is done; rounds repeat (at most 1,048,575). The groupWorkspace (512-byte aligned,
// zeroed by the user) holds one 512-byte line per member: the arrive counters at 0 + 512 * i, the wait counters at
// 64 + 512 * j, each a 32-byte block added to atomically by an MTE3 copy (after an S_MTE3 flag) from the message
// blocks the constructor writes into the last 50 * 32 bytes of UB (UB_START_ADDR: each block's first int32 is 1).
// An Arrive of round r > 1 first waits until its wait counter shows round r - 1's waits. Only PipeMode::MTE3_MODE;
// on an AIC every call does nothing (ASCEND_IS_AIV).
enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };

template <PipeMode pipeMode>
class GroupBarrier {
public:
    __aicore__ inline GroupBarrier(GM_ADDR groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn)
        : workspace_(groupWorkspace), arriveSize_(arriveSizeIn), waitSize_(waitSizeIn)
    {
        static_assert(pipeMode == PipeMode::MTE3_MODE,
                      "Currently GroupBarrier only support PipeMode::MTE3_MODE (GroupBarrier docs: 仅支持MTE3_MODE)");
        ascend_twin::GroupBarrierInit(groupWorkspace, arriveSizeIn, waitSizeIn);
    }
    __aicore__ inline void Arrive(uint32_t arriveIndex)
    {
        ascend_twin::GroupBarrierStep(true, workspace_, arriveSize_, waitSize_, arriveIndex, counter_, hasArrive_);
    }
    __aicore__ inline void Wait(uint32_t waitIndex)
    {
        ascend_twin::GroupBarrierStep(false, workspace_, arriveSize_, waitSize_, waitIndex, counter_, hasArrive_);
    }
    __aicore__ inline uint64_t GetWorkspaceLen()
    {
        return static_cast<uint64_t>(arriveSize_ > waitSize_ ? arriveSize_ : waitSize_) * 512;  // CACHE_LINE_LEN
    }

private:
    __aicore__ inline GroupBarrier() = delete;
    GM_ADDR workspace_;
    uint32_t arriveSize_;
    uint32_t waitSize_;
    uint32_t counter_ = 1;    // the round
    bool hasArrive_ = false;  // this core arrived in the current round
};

// InitOutput (deprecated for Fill on A2; kernel_operator_common_intf_impl.h): size elements of gmWorkspaceAddr set
// to value from the UB after the TPipe's buffers (PopStackBuffer: up to the last 128 bytes of UB, sizeof(KfcMsg)), in rounds
// of at most 255 * 32 bytes; no barrier at its end (the caller orders later GM reads, e.g. SyncAll). An AIC does
// nothing. Types: those Duplicate takes (half, bfloat16_t, int16_t, uint16_t, int32_t, uint32_t, float).
template <typename T>
__aicore__ inline void InitOutput(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value = 0)
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, int16_t> ||
                      std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
                      std::is_same_v<T, float>,
                  "InitOutput duplicates value in UB first: T is one of Duplicate's types (half, bfloat16_t, "
                  "int16_t, uint16_t, int32_t, uint32_t, float)");
    TPipe* pipe = ::GetTPipePtr();
    ascend_twin::InitOutputImpl(const_cast<T*>(gmWorkspaceAddr.GetPhyAddr()), gmWorkspaceAddr.GetSize(), size, &value,
                                sizeof(T), pipe == nullptr ? 0 : twin_detail::TwinUbEnd(*pipe), pipe != nullptr);
}

}  // namespace AscendC
