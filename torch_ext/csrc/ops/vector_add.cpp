// vector_add on the CPU (through the twin) and on Meta.
#include "ops/vector_add.h"

#include <ATen/ops/empty.h>

#include "common.h"
#include "plan_json.h"
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

at::Tensor vector_add_cpu(const at::Tensor& x, const at::Tensor& y)
{
    const c10::SymDimVector symShape = CheckVectorAddArgs(x, y);
    const std::vector<int64_t> shape = c10::asIntArrayRefUnchecked(symShape).vec();
    // The kernel sees flat operands of equal length: materialise the broadcast here.
    const at::Tensor xs = x.expand(shape).contiguous();
    const at::Tensor ys = y.expand(shape).contiguous();
    at::Tensor z = at::empty(shape, x.options());
    const DType dtype = KernelDType("vector_add", "x", x);
    const VectorAddPlan plan = ComputeVectorAddTiling(static_cast<uint64_t>(z.numel()), dtype, TwinPlatform());
    if (plan.blockDim == 0) return z;
    LaunchOnTwin("vector_add", dtype, plan.blockDim, {{"x", &xs}, {"y", &ys}, {"z", &z}}, plan.tiling);
    return z;
}

at::Tensor vector_add_meta(const at::Tensor& x, const at::Tensor& y)
{
    const c10::SymDimVector shape = CheckVectorAddArgs(x, y);
    return at::empty_symint(shape, x.options());
}

std::string VectorAddPlanJson(const std::vector<int64_t>& sizes, const char* dtype, const char* platform)
{
    PlanJson json("vector_add", sizes, dtype, platform);
    uint64_t n = 1;
    for (int64_t s : sizes) n *= static_cast<uint64_t>(s);
    const VectorAddPlan plan = ComputeVectorAddTiling(n, json.dtype(), json.platform());
    const VectorAddTilingData& t = plan.tiling;
    return json.Field("block_dim", plan.blockDim)
        .Field("total_length", t.totalLength)
        .Field("former_num", t.formerNum)
        .Field("former_length", t.formerLength)
        .Field("tail_length", t.tailLength)
        .Field("tile_length", t.tileLength)
        .Field("ub_bytes", plan.ubBytes)
        .Str();
}

}  // namespace ascend_ext
