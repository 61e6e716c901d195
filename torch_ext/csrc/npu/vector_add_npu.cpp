// vector_add on the NPU: the same checks as the CPU path, then aclnnVectorAdd of the op package.
#include <ATen/ops/empty.h>

#include "npu/op_api.h"
#include "ops/vector_add.h"

namespace ascend_ext {

namespace {
using GetWorkspaceFn = int (*)(const aclTensor* x, const aclTensor* y, const aclTensor* z, uint64_t* workspaceSize,
                               aclOpExecutor** executor);
}  // namespace

at::Tensor vector_add_npu(const at::Tensor& x, const at::Tensor& y)
{
    const c10::SymDimVector symShape = CheckVectorAddArgs(x, y);
    const std::vector<int64_t> shape = c10::asIntArrayRefUnchecked(symShape).vec();
    const at::Tensor xs = x.expand(shape).contiguous();
    const at::Tensor ys = y.expand(shape).contiguous();
    at::Tensor z = at::empty(shape, x.options());
    if (z.numel() == 0) return z;

    static const auto getWorkspace = reinterpret_cast<GetWorkspaceFn>(
        npu::OpApiSymbol("aclnnVectorAddGetWorkspaceSize"));
    npu::AclTensors tensors;
    aclTensor* ax = tensors.Add(xs);
    aclTensor* ay = tensors.Add(ys);
    aclTensor* az = tensors.Add(z);
    npu::RunAclnn("VectorAdd", x.device(), std::move(tensors),
                  [&](uint64_t* size, aclOpExecutor** executor) { return getWorkspace(ax, ay, az, size, executor); });
    return z;
}

}  // namespace ascend_ext
