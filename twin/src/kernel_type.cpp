// KERNEL_TASK_TYPE_DEFAULT and GetSysWorkSpacePtr: which core type a kernel runs on, and the launch's
// system workspace.
#include <cstring>
#include <string>

#include "kernel_operator.h"
#include "twin/violation.h"
#include "core_records.h"

namespace ascend_twin {

void SetKernelType(int32_t kernelType)
{
    CoreContext& core = CurrentCore();
    core.kernelType = kernelType;
    // A cube-only or MIX kernel launches one block per AI Cube core (MIX blocks bring their AIV cores along).
    // Vector-only kernels are not checked here: their tilings bound blockDim by aivNum themselves.
    // KERNEL_TYPE_MIX_AIV_1_0 (__mix__(0, 1)) launches AIV cores as blocks, with no cube core.
    if (kernelType != KERNEL_TYPE_AIV_ONLY && kernelType != KERNEL_TYPE_MIX_AIV_1_0 &&
        core.blockNum > core.platform->aicNum) {
        Fail("KERNEL_TASK_TYPE_DEFAULT", "a kernel on the cube cores launches at most aicNum blocks",
             "blockDim " + std::to_string(core.blockNum) + " on " + core.platform->name + ", which has " +
                 std::to_string(core.platform->aicNum) + " AI Cube cores");
    }
}

}  // namespace ascend_twin

__aicore__ __gm__ uint8_t* GetSysWorkSpacePtr()
{
    for (const ascend_twin::GmRegion& r : *ascend_twin::CurrentCore().records->gm) {
        if (std::strcmp(r.name, "workspace") == 0) return r.begin;
    }
    return nullptr;
}
