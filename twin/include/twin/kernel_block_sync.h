// Synchronisation across the cores of a launch (SyncAll, IBSet/IBWait) and GM initialisation (InitGlobalMemory, Fill).
// Real declarations: basic_api/kernel_operator_block_sync_intf.h (SyncAll) and
// adv_api/utils/init_global_memory.h (InitGlobalMemory, Fill); A2 implementation:
// impl/basic_api/dav_c220/kernel_operator_sync_impl.h, init_global_memory_v220_impl.h.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/kernel_sync.h"
#include "twin/kernel_tensor.h"
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
void NoteHardSyncAll();  // the hardware SyncAll uses flag ids 11-14 (checked against the kernel's own at the end)
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
                             ubWorkspace.GetPhyAddr(), ubWorkspace.GetSize(), ubWorkspace.GetPosition(), usedCores);
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
                                ubWorkspace.GetPhyAddr(), ubWorkspace.GetSize(), ubWorkspace.GetPosition(), blockIdx,
                                eventID);
}

template <bool isAIVOnly = true>
__aicore__ inline void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                              int32_t blockIdx, int32_t eventID)
{
    ascend_twin::InterBlockSync(false, isAIVOnly, const_cast<int32_t*>(gmWorkspace.GetPhyAddr()),
                                gmWorkspace.GetSize(), ubWorkspace.GetPhyAddr(), ubWorkspace.GetSize(),
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

}  // namespace AscendC
