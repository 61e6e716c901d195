// dispersion_correction and its backward on the NPU: the same checks as the CPU path, then
// aclnnDispersionCorrection / aclnnDispersionCorrectionGrad of the op package (op_host/dispersion_correction.cpp,
// op_host/dispersion_correction_grad.cpp) on contiguous operands.
#include <ATen/DeviceGuard.h>
#include <ATen/ops/empty.h>

#include "npu/op_api.h"
#include "ops/dispersion_correction.h"

namespace ascend_ext {

at::Tensor dispersion_correction_npu(const at::Tensor& x, double alpha, int64_t mode, double eps)
{
    constexpr const char* kOp = "dispersion_correction";
    const c10::OptionalDeviceGuard guard(at::device_of(x));
    CheckDispersionCorrectionInput(kOp, x);
    const DispersionCorrectionAttrs a = CheckDispersionCorrectionAttrs(kOp, alpha, mode, eps);
    const at::Tensor input = x.contiguous();
    at::Tensor y = at::empty(x.sizes(), x.options().memory_format(at::MemoryFormat::Contiguous));
    if (y.numel() > 0) {
        npu::RunAclnn(kOp, "DispersionCorrection", npu::Input("x", input), a.alpha, a.mode, a.eps,
                      npu::Output("y", y));
    }
    return y;
}

at::Tensor dispersion_correction_backward_npu(const at::Tensor& grad, const at::Tensor& x, double alpha, int64_t mode,
                                              double eps)
{
    constexpr const char* kOp = "dispersion_correction_backward";
    const c10::OptionalDeviceGuard guard(at::device_of(x));
    CheckDispersionCorrectionGrad(kOp, grad, x);
    const DispersionCorrectionAttrs a = CheckDispersionCorrectionAttrs(kOp, alpha, mode, eps);
    const at::Tensor g = grad.contiguous();
    const at::Tensor input = x.contiguous();
    at::Tensor gradX = at::empty(x.sizes(), x.options().memory_format(at::MemoryFormat::Contiguous));
    if (gradX.numel() > 0) {
        npu::RunAclnn(kOp, "DispersionCorrectionGrad", npu::Input("grad", g), npu::Input("x", input), a.alpha, a.mode,
                      a.eps, npu::Output("grad_x", gradX));
    }
    return gradX;
}

}  // namespace ascend_ext
