// dispersion_correction and its backward on the NPU: the same checks as the CPU path, then
// aclnnDispersionCorrection / aclnnDispersionCorrectionBackward of the op package (op_host/dispersion_correction.cpp,
// op_host/dispersion_correction_backward.cpp; the calls' argument order generated from the declarations) on contiguous operands.
#include <ATen/DeviceGuard.h>
#include <ATen/ops/empty.h>

#include "ascend_ext_generated/aclnn.h"  // the op types' typed calls, from the declarations
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
        aclnn::DispersionCorrection(kOp, input, a.alpha, a.mode, a.eps, y);
    }
    return y;
}

at::Tensor dispersion_correction_backward_npu(const at::Tensor& grad, const at::Tensor& x, double alpha, int64_t mode,
                                              double eps)
{
    constexpr const char* kOp = "dispersion_correction_backward";
    const c10::OptionalDeviceGuard guard(at::device_of(x));
    CheckDispersionCorrectionBackward(kOp, grad, x);
    const DispersionCorrectionAttrs a = CheckDispersionCorrectionAttrs(kOp, alpha, mode, eps);
    const at::Tensor g = grad.contiguous();
    const at::Tensor input = x.contiguous();
    at::Tensor gradX = at::empty(x.sizes(), x.options().memory_format(at::MemoryFormat::Contiguous));
    if (gradX.numel() > 0) {
        aclnn::DispersionCorrectionBackward(kOp, g, input, a.alpha, a.mode, a.eps, gradX);
    }
    return gradX;
}

}  // namespace ascend_ext
