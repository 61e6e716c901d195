// System variables of the running core, and the tiling access macros.
#pragma once

#include <cstdint>
#include <cstring>

#include "twin/kernel_types.h"
#include "twin/runtime.h"

// Global, as in the real headers (impl/basic_api/utils/kernel_utils_macros.h).
enum KernelMetaType : uint8_t {
    KERNEL_TYPE_AIV_ONLY,
    KERNEL_TYPE_AIC_ONLY,
    KERNEL_TYPE_MIX_AIV_1_0,
    KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1,
    KERNEL_TYPE_MIX_AIC_1_2,
    KERNEL_TYPE_AICORE,
    KERNEL_TYPE_VECTORCORE,
    KERNEL_TYPE_MIX_AICORE,
    KERNEL_TYPE_MIX_VECTOR_CORE,
    KERNEL_TYPE_MAX,
};

namespace AscendC {

// Core types (impl/utils/sys_constants.h): g_coreType holds AIC or AIV on A2's cores.
constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;

}  // namespace AscendC

// The type of the running core, as the real headers' CPU debug build keeps it (impl/utils/sys_macros.h):
// the twin sets it whenever a thread starts or resumes a core.
extern thread_local int32_t g_coreType;
#define ASCEND_IS_AIV (g_coreType == AscendC::AIV)
#define ASCEND_IS_AIC (g_coreType == AscendC::AIC)
#define ASCEND_IS_NOT_AIV (g_coreType != AscendC::AIV)
#define ASCEND_IS_NOT_AIC (g_coreType != AscendC::AIC)

namespace AscendC {

constexpr uint16_t ONE_BLK_SIZE = 32;          // bytes of one data block: DataCopy and UB alignment unit
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;  // bytes one vector repeat processes

// GetBlockIdx: the block on AICs and on one-core-per-block kernels; on the AIVs of a MIX kernel
// block * GetTaskRatio() + GetSubBlockIdx() (GetBlockIdx docs; dav_c220 kernel_operator_sys_var_impl.h).
// GetBlockNum: the launch's blockDim on every core.
__aicore__ inline int64_t GetBlockIdx() { return ascend_twin::CurrentCore().blockIdx; }
__aicore__ inline int64_t GetBlockNum() { return ascend_twin::CurrentCore().blockNum; }
// One DataBlock's bytes on this chip (kernel_operator_sys_var_intf.h): 32 on A2.
__aicore__ inline constexpr int16_t GetDataBlockSizeInBytes() { return ONE_BLK_SIZE; }
// The AIV's index within its block (0, or 0/1 on the AIVs of a 1:2 MIX kernel) and the number of cores of
// the running core's type per block (GetSubBlockIdx, GetSubBlockNum, GetTaskRatio docs: 2 on the AIVs of
// a 1:2 MIX kernel, else 1).
__aicore__ inline int64_t GetSubBlockIdx() { return ascend_twin::CurrentCore().subBlockIdx; }
__aicore__ inline int64_t GetSubBlockNum() { return ascend_twin::CurrentCore().subBlockNum; }
__aicore__ inline int64_t GetTaskRatio() { return ascend_twin::CurrentCore().subBlockNum; }

namespace twin_detail {
int64_t SystemCycle();  // the host's monotonic clock in ticks of A2's 50 MHz system counter
}

// The system counter (PIPE_S; GetSystemCycle docs): on A2 it counts at 50 MHz, time = cycles / 50 us. The
// twin returns the host's monotonic clock in those units: non-decreasing, but of the CPU, not the NPU.
__aicore__ inline int64_t GetSystemCycle() { return twin_detail::SystemCycle(); }

// The op's part of the kernel's workspace argument. On the device it starts after the system workspace
// (RESERVED_WORKSPACE bytes, dav_c220 kernel_operator_common_impl.h); the twin's launches hold no system
// part, so it is the argument itself (as in the real headers' CPU debug mode).
__aicore__ inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) { return workspace; }

// SetSysWorkspace / SetSysWorkspaceForce (deprecated on the device; dav_c220 kernel_operator_common_impl.h):
// register the system workspace. The twin's is always the launch's "workspace" buffer (GetSysWorkSpacePtr),
// so, as in the real headers' CPU debug mode, they only check that the address is not null.
__aicore__ inline void SetSysWorkspace(GM_ADDR workspace)
{
    if (workspace == nullptr) ascend_twin::FailF("SetSysWorkspace", "workspace can not be nullptr",
                                                  "the workspace argument is a null GM address");
}
__aicore__ inline void SetSysWorkspaceForce(GM_ADDR workspace)
{
    if (workspace == nullptr) ascend_twin::FailF("SetSysWorkspaceForce", "workspace can not be nullptr",
                                                  "the workspace argument is a null GM address");
}

}  // namespace AscendC

// The system workspace: the launch's GM buffer named "workspace" (nullptr when the launch has none).
__aicore__ __gm__ uint8_t* GetSysWorkSpacePtr();

namespace ascend_twin {
// Copies the tiling struct out of its GM buffer, as GET_TILING_DATA does on the device.
void LoadTiling(void* dst, uint64_t bytes, const void* tilingGm);

// One address per TilingData struct: how the twin tells the structs of REGISTER_TILING_FOR_TILINGKEY apart.
template <typename T>
struct TilingStructTag {
    static inline const char id = 0;
};
// REGISTER_TILING_FOR_TILINGKEY: `expression` (over TILING_KEY_VAR) evaluated with the launch's tiling key; when
// it holds, `tag` is the struct the host wrote for this launch. Two registrations of different structs that
// both hold for the key are refused (the toolchain refuses a key naming two structs at build time).
void RegisterTilingForKey(const char* expression, const void* tag, const char* name);
// GET_TILING_DATA(_WITH_STRUCT): reads the tiling as `name`, which must be the struct registered for the
// launch's key when one is (stricter than the device, which reads the bytes as whatever struct it is given).
void LoadTilingAs(void* dst, uint64_t bytes, const void* tilingGm, const void* tag, const char* name);
}  // namespace ascend_twin

#define REGISTER_TILING_DEFAULT(TilingStruct) using AscendTwinDefaultTiling = TilingStruct
// The docs: REGISTER_TILING_DEFAULT comes first (without it, AscendTwinDefaultTiling is undeclared here).
#define REGISTER_TILING_FOR_TILINGKEY(EXPRESSION, TilingStruct)                                                      \
    static_assert(sizeof(AscendTwinDefaultTiling) > 0,                                                             \
                  "REGISTER_TILING_FOR_TILINGKEY needs REGISTER_TILING_DEFAULT first");                            \
    ascend_twin::RegisterTilingForKey(EXPRESSION, &ascend_twin::TilingStructTag<TilingStruct>::id, #TilingStruct)
#define GET_TILING_DATA_WITH_STRUCT(TilingStruct, var, tiling) \
    TilingStruct var;                                          \
    ascend_twin::LoadTilingAs(&var, sizeof(TilingStruct), tiling, &ascend_twin::TilingStructTag<TilingStruct>::id, #TilingStruct)
#define GET_TILING_DATA(var, tiling) GET_TILING_DATA_WITH_STRUCT(AscendTwinDefaultTiling, var, tiling)
#define TILING_KEY_IS(key) (ascend_twin::CurrentCore().tilingKey == static_cast<uint64_t>(key))
#define KERNEL_TASK_TYPE_DEFAULT(type) ascend_twin::SetKernelType(static_cast<int32_t>(type))
