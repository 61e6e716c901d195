// vector_add on the NPU: the same checks as the CPU path, then aclnnVectorAdd of the op package.
#include "npu/op_api.h"
#include "ops/vector_add.h"

namespace ascend_ext {

namespace {
using GetWorkspaceFn = int (*)(const aclTensor* x, const aclTensor* y, const aclTensor* z, uint64_t* workspaceSize,
                               aclOpExecutor** executor);
}  // namespace

at::Tensor vector_add_npu(const at::Tensor& x, const at::Tensor& y)
{
    const VectorAddOperands op = PrepareVectorAdd(x, y);
    if (op.z.numel() == 0) return op.z;

    static const auto getWorkspace = reinterpret_cast<GetWorkspaceFn>(
        npu::OpApiSymbol("aclnnVectorAddGetWorkspaceSize"));
    npu::AclTensors tensors;
    aclTensor* ax = tensors.Add(op.x);
    aclTensor* ay = tensors.Add(op.y);
    aclTensor* az = tensors.Add(op.z);
    npu::RunAclnn("VectorAdd", x.device(), std::move(tensors),
                  [&](uint64_t* size, aclOpExecutor** executor) { return getWorkspace(ax, ay, az, size, executor); });
    return op.z;
}

}  // namespace ascend_ext
