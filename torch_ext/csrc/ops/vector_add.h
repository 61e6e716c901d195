#pragma once

#include <ATen/core/Tensor.h>

#include <vector>

namespace ascend_ext {

// Checks shared by every device's implementation; returns the broadcast output shape.
c10::SymDimVector CheckVectorAddArgs(const at::Tensor& x, const at::Tensor& y);

at::Tensor vector_add_cpu(const at::Tensor& x, const at::Tensor& y);
at::Tensor vector_add_meta(const at::Tensor& x, const at::Tensor& y);
at::Tensor vector_add_npu(const at::Tensor& x, const at::Tensor& y);

}  // namespace ascend_ext
