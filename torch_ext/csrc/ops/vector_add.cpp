// vector_add on the CPU (through the twin) and on Meta.
#include "ops/vector_add.h"

#include <ATen/ops/empty.h>

#include "common.h"
#include "twin_launch.h"
#include "vector_add_tiling.h"

namespace ascend_ext {

c10::SymDimVector CheckVectorAddArgs(const at::Tensor& x, const at::Tensor& y)
{
    CheckTensor("vector_add", "x", x);
    CheckTensor("vector_add", "y", y);
    CheckSameDevice("vector_add", "x", x, "y", y);
    KernelDType("vector_add", "x", x);
    CheckSameDType("vector_add", "x", x, "y", y);
    return BroadcastShape("vector_add", "x", x, "y", y);
}

VectorAddOperands PrepareVectorAdd(const at::Tensor& x, const at::Tensor& y)
{
    const c10::SymDimVector symShape = CheckVectorAddArgs(x, y);
    const std::vector<int64_t> shape = c10::asIntArrayRefUnchecked(symShape).vec();
    return {x.expand(shape).contiguous(), y.expand(shape).contiguous(), at::empty(shape, x.options())};
}

at::Tensor vector_add_cpu(const at::Tensor& x, const at::Tensor& y)
{
    const VectorAddOperands op = PrepareVectorAdd(x, y);
    const DType dtype = KernelDType("vector_add", "x", x);
    const VectorAddPlan plan = ComputeVectorAddTiling(static_cast<uint64_t>(op.z.numel()), dtype, TwinPlatform());
    if (plan.blockDim == 0) return op.z;
    LaunchOnTwin("vector_add", dtype, plan.blockDim, {{"x", &op.x}, {"y", &op.y}, {"z", &op.z}}, plan.tiling);
    return op.z;
}

at::Tensor vector_add_meta(const at::Tensor& x, const at::Tensor& y)
{
    const c10::SymDimVector shape = CheckVectorAddArgs(x, y);
    return at::empty_symint(shape, x.options());
}

}  // namespace ascend_ext
