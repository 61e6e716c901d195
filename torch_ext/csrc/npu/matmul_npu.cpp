// matmul on the NPU: the same preparation as the CPU path, then aclnnMatmulCube of the op package
// (inputs a, b, optional float32 bias; attrs trans_a, trans_b; output c).
#include <ATen/DeviceGuard.h>

#include "ascend_ext_generated/aclnn.h"  // the op types' typed calls, from the declarations
#include "ops/matmul.h"

namespace ascend_ext {

at::Tensor matmul_npu(const at::Tensor& a, const at::Tensor& b, bool transA, bool transB,
                      const std::optional<at::Tensor>& bias)
{
    const c10::OptionalDeviceGuard guard(at::device_of(a));
    MatmulLaunch l = PrepareMatmul(a, b, transA, transB, bias);
    if (!l.needsKernel) return l.c;
    aclnn::MatmulCube("matmul", l.a, l.b, l.bias, l.transA, l.transB, l.c);
    return l.c;
}

}  // namespace ascend_ext
