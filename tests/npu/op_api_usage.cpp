// Compiled (and linked) by scripts/check_npu_adapter.py, never run: proof that npu::RunAclnn serves ops
// beyond vector_add's three tensors (an optional input, Float/Int/Bool attrs, two outputs) and that the
// function type it derives for the generated first stage is the one such an op's aclnn API has.
#include <ATen/DeviceGuard.h>

#include <type_traits>

#include "npu/op_api.h"

namespace ascend_ext::probe {

using npu::AclnnArg;
static_assert(std::is_same_v<AclnnArg<npu::TensorArg>::type, const aclTensor*>);
static_assert(std::is_same_v<AclnnArg<double>::type, double>);
static_assert(std::is_same_v<AclnnArg<int64_t>::type, int64_t>);
static_assert(std::is_same_v<AclnnArg<bool>::type, bool>);

void ExampleOpNpu(const at::Tensor& x, const c10::optional<at::Tensor>& bias, double alpha, int64_t mode,
                  bool flag, at::Tensor& out, at::Tensor& stats)
{
    const c10::OptionalDeviceGuard guard(at::device_of(x));
    npu::RunAclnn("example_op", "ExampleOp", npu::Input("x", x), npu::Input("bias", bias), alpha, mode, flag,
                  npu::Output("out", out), npu::Output("stats", stats));
}

}  // namespace ascend_ext::probe
