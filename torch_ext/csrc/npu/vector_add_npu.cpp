// vector_add on the NPU: the same checks as the CPU path, then aclnnVectorAdd of the op package.
#include <ATen/DeviceGuard.h>

#include "npu/op_api.h"
#include "ops/vector_add.h"

namespace ascend_ext {

at::Tensor vector_add_npu(const at::Tensor& x, const at::Tensor& y)
{
    const c10::OptionalDeviceGuard guard(at::device_of(x));  // output, workspace and stream on x's device
    const VectorAddOperands op = PrepareVectorAdd(x, y);
    if (op.z.numel() == 0) return op.z;
    npu::RunAclnn("vector_add", "VectorAdd", npu::Input("x", op.x), npu::Input("y", op.y), npu::Output("z", op.z));
    return op.z;
}

}  // namespace ascend_ext
