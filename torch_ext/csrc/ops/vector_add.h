#pragma once

#include <ATen/core/Tensor.h>

#include <vector>

namespace ascend_ext {

// Checks shared by every device's implementation; returns the broadcast output shape.
c10::SymDimVector CheckVectorAddArgs(const at::Tensor& x, const at::Tensor& y);

// What every device's kernel sees: flat operands of equal length (broadcasts materialised), and the
// output allocated on the inputs' device.
struct VectorAddOperands {
    at::Tensor x;
    at::Tensor y;
    at::Tensor z;
};
VectorAddOperands PrepareVectorAdd(const at::Tensor& x, const at::Tensor& y);

at::Tensor vector_add_cpu(const at::Tensor& x, const at::Tensor& y);
at::Tensor vector_add_meta(const at::Tensor& x, const at::Tensor& y);
at::Tensor vector_add_npu(const at::Tensor& x, const at::Tensor& y);

}  // namespace ascend_ext
