// The user_axpy kernel taking its tiling by value (the launch copies the struct into the kernel's arguments).
#include "kernel_operator.h"
#include "user_axpy_impl.h"

extern "C" __global__ __aicore__ void user_axpy_by_value(GM_ADDR x, GM_ADDR y, GM_ADDR z, float alpha,
                                                         UserAxpyTiling tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    axpy_impl::Run<DTYPE_X>(x, y, z, alpha, tiling);
}
