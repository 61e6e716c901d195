// dispersion_correction and its backward: argument checks shared by every device, the CPU (twin) and Meta
// implementations, and the declarations of the NPU and Autograd implementations.
#pragma once

#include <ATen/core/Tensor.h>

#include "dispersion_correction_tiling.h"

namespace ascend_ext {

// The attributes, checked: mode 0 or 1, finite alpha, finite eps >= 0 and, in mode 1, eps > 0 (so that a
// constant row, sigma = 0, stays finite: its output is its mean).
struct DispersionCorrectionAttrs {
    double alpha;
    int64_t mode;
    double eps;
};
DispersionCorrectionAttrs CheckDispersionCorrectionAttrs(const char* op, double alpha, int64_t mode, double eps);

// The checks of x (a floating tensor of at least one dimension, the rows' length D > 0) and, for the
// backward, of grad against x. Return the kernel's dtype.
DType CheckDispersionCorrectionInput(const char* op, const at::Tensor& x);
DType CheckDispersionCorrectionBackward(const char* op, const at::Tensor& grad, const at::Tensor& x);

// The kernel's problem for x viewed as rows of its last dimension: DecodeDispersionCorrectionProblem, the
// decode the NPU TilingFunc runs, on x's shape and the attrs as the op package receives them.
DispersionCorrectionProblem DispersionCorrectionProblemOf(const at::Tensor& x, const DispersionCorrectionAttrs& a,
                                                          DType dtype, bool backward);

at::Tensor dispersion_correction_cpu(const at::Tensor& x, double alpha, int64_t mode, double eps);
at::Tensor dispersion_correction_backward_cpu(const at::Tensor& grad, const at::Tensor& x, double alpha, int64_t mode,
                                              double eps);
at::Tensor dispersion_correction_meta(const at::Tensor& x, double alpha, int64_t mode, double eps);
at::Tensor dispersion_correction_backward_meta(const at::Tensor& grad, const at::Tensor& x, double alpha,
                                               int64_t mode, double eps);
at::Tensor dispersion_correction_npu(const at::Tensor& x, double alpha, int64_t mode, double eps);
at::Tensor dispersion_correction_backward_npu(const at::Tensor& grad, const at::Tensor& x, double alpha, int64_t mode,
                                              double eps);
at::Tensor dispersion_correction_autograd(const at::Tensor& x, double alpha, int64_t mode, double eps);
at::Tensor dispersion_correction_backward_autograd(const at::Tensor& grad, const at::Tensor& x, double alpha,
                                                   int64_t mode, double eps);

}  // namespace ascend_ext
