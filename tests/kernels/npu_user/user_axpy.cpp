// A user's own kernel as ascend_ext.npu_kernels builds it for the NPU (and the twin runs it here): z = x +
// alpha * y over DTYPE_X elements, the cores splitting them in contiguous chunks. The entry ends with
// (workspace, tiling) as an op package's does; the tiling comes from GM.
#include "kernel_operator.h"
#include "user_axpy_impl.h"

extern "C" __global__ __aicore__ void user_axpy(GM_ADDR x, GM_ADDR y, GM_ADDR z, float alpha, GM_ADDR workspace,
                                                GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    (void)workspace;
    const __gm__ UserAxpyTiling* src = reinterpret_cast<const __gm__ UserAxpyTiling*>(tiling);
    const UserAxpyTiling t{src->total, src->perCore, src->tile};
    axpy_impl::Run<DTYPE_X>(x, y, z, alpha, t);
}
