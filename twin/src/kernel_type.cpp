// KERNEL_TASK_TYPE_DEFAULT and GetSysWorkSpacePtr: which core type a kernel runs on, and the launch's
// system workspace.
//
// The device build knows a kernel's type before the launch (its qualifier, KERNEL_TASK_TYPE_DEFAULT, or what
// the compiler infers from the code, e.g. a Matmul object of a MIX kernel); the launch then starts the AICs and
// AIVs that type needs. The twin knows a qualifier (__mix__, __cube__, __vector__) before the launch; the other
// two it learns while the kernel runs. When a launch started with one core per block meets a type with cube
// and vector cores, it is run again with them (twin/src/launch.cpp) and the type is remembered for the entry.
// That is only sound while the cores have done nothing another run would repeat: a core that has already
// written GM or passed a SyncAll cannot start over, and the twin says so (stricter than the device, where the
// statement's place does not matter).
#include <cstring>
#include <string>

#include "kernel_operator.h"
#include "twin/violation.h"
#include "core_records.h"
#include "cross_core.h"

namespace ascend_twin {

namespace {

const char* TypeName(int32_t type)
{
    switch (type) {
        case KERNEL_TYPE_AIV_ONLY: return "KERNEL_TYPE_AIV_ONLY";
        case KERNEL_TYPE_AIC_ONLY: return "KERNEL_TYPE_AIC_ONLY";
        case KERNEL_TYPE_MIX_AIV_1_0: return "KERNEL_TYPE_MIX_AIV_1_0";
        case KERNEL_TYPE_MIX_AIC_1_0: return "KERNEL_TYPE_MIX_AIC_1_0";
        case KERNEL_TYPE_MIX_AIC_1_1: return "KERNEL_TYPE_MIX_AIC_1_1";
        case KERNEL_TYPE_MIX_AIC_1_2: return "KERNEL_TYPE_MIX_AIC_1_2";
        default: return "another type";
    }
}

bool CubeAndVector(int32_t type) { return type == KERNEL_TYPE_MIX_AIC_1_1 || type == KERNEL_TYPE_MIX_AIC_1_2; }

// Restarts the launch with `type` (its cores laid out for it), if this core can start over.
[[noreturn]] void Restart(const char* call, int32_t type, const char* why)
{
    CoreContext& core = CurrentCore();
    const CoreRecords& r = *core.records;
    if (!r.writes.empty() || !r.atomicWrites.empty() || core.epoch != 0) {
        FailF(call,
              "on the twin a kernel's type is known before the core writes GM or synchronises with other cores",
              "%s: the launch started with one core per block and must start over with the AICs and AIVs of %s, "
              "but this core already %s (the twin is stricter than the device here: declare the type with a "
              "function qualifier such as __mix__(1, 2), or make KERNEL_TASK_TYPE_DEFAULT / REGIST_MATMUL_OBJ come "
              "first)",
              why, TypeName(type), core.epoch != 0 ? "passed a SyncAll" : "wrote GM");
    }
    throw Relaunch{type};
}

}  // namespace

void SetKernelType(int32_t kernelType)
{
    CoreContext& core = CurrentCore();
    const CrossCore& x = *core.sync->cross;
    if (x.mix || CubeAndVector(kernelType)) {
        if (!x.mix) Restart("KERNEL_TASK_TYPE_DEFAULT", kernelType, "the kernel declares cube and vector cores");
        if (x.kernelType != kernelType) {
            if (x.kernelType < 0 || !CubeAndVector(x.kernelType)) {
                Restart("KERNEL_TASK_TYPE_DEFAULT", kernelType, "the kernel declares another MIX type");
            }
            FailF("KERNEL_TASK_TYPE_DEFAULT", "a kernel has one type",
                  "the kernel declares %s, but its launch runs %s (its function qualifier or an earlier "
                  "KERNEL_TASK_TYPE_DEFAULT)",
                  TypeName(kernelType), TypeName(x.kernelType));
        }
    } else if (x.kernelType >= 0 && x.kernelType != kernelType) {
        FailF("KERNEL_TASK_TYPE_DEFAULT", "a kernel has one type",
              "the kernel declares %s, but its function qualifier gives %s", TypeName(kernelType),
              TypeName(x.kernelType));
    }
    core.kernelType = kernelType;
    if (!x.mix) {
        const bool cube = kernelType == KERNEL_TYPE_AIC_ONLY || kernelType == KERNEL_TYPE_MIX_AIC_1_0;
        core.coreType = cube ? AscendC::AIC : AscendC::AIV;
        g_coreType = core.coreType;
    }
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

void RequireMixLaunch(const char* call)
{
    CoreContext& core = CurrentCore();
    const CrossCore& x = *core.sync->cross;
    if (x.mix) return;
    const int32_t type = core.kernelType >= 0 ? core.kernelType : x.kernelType;
    if (type < 0) {
        if (core.blockNum > core.platform->aicNum) {
            FailF(call, "a kernel on the cube cores launches at most aicNum blocks",
                  "the Matmul object makes this a MIX kernel (AIC:AIV = 1:2, the type the device compiler infers), "
                  "launched with blockDim %lld on %s, which has %u AI Cube cores",
                  static_cast<long long>(core.blockNum), core.platform->name, core.platform->aicNum);
        }
        Restart(call, KERNEL_TYPE_MIX_AIC_1_2, "the Matmul object of a MIX kernel needs AIC and AIV cores");
    }
    FailF(call,
          "without ASCENDC_CUBE_ONLY the Matmul object is a MIX kernel's AIV client of its AIC: the kernel runs "
          "cube and vector cores (KERNEL_TYPE_MIX_AIC_1_2/1_1, __mix__(1, 2)/(1, 1), or no declared type)",
          "the kernel declared %s; a kernel that computes on the cube core alone defines ASCENDC_CUBE_ONLY before "
          "including lib/matmul_intf.h",
          TypeName(type));
}

}  // namespace ascend_twin

__aicore__ __gm__ uint8_t* GetSysWorkSpacePtr()
{
    for (const ascend_twin::GmRegion& r : *ascend_twin::CurrentCore().records->gm) {
        if (std::strcmp(r.name, "workspace") == 0) return r.begin;
    }
    return nullptr;
}
