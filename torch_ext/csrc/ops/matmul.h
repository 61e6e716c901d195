// matmul: op(a) @ op(b) (+ bias) on the cube unit, op = transpose when the flag is set. Shared by every
// device: argument checks, the in-place reading of transposed layouts, and the empty-shape results.
#pragma once

#include <ATen/core/Tensor.h>

#include <optional>

#include "matmul_tiling.h"

namespace ascend_ext {

// One launch of the MatmulCube kernel: a and b as the kernel reads them (row-major, with the flags
// saying whether each is stored transposed), bias in float32, c the result.
struct MatmulLaunch {
    at::Tensor a, b, bias, c;
    bool transA = false, transB = false;
    uint64_t m = 0, n = 0, k = 0;
    // The kernel's operands (a, b as stored, the flags, the bias) decoded by DecodeMatmulProblem, the
    // function the NPU TilingFunc runs on the same operands.
    MatmulProblem problem;
    DType dtype = DType::kFloat32;
    bool needsKernel = false;  // false: c is already the result (an empty dimension)
};

// Checks the arguments and returns the result's sizes [M, N] (symbolic sizes stay symbolic).
c10::SymDimVector CheckMatmulArgs(const at::Tensor& a, const at::Tensor& b, bool transA, bool transB,
                                  const std::optional<at::Tensor>& bias);
MatmulLaunch PrepareMatmul(const at::Tensor& a, const at::Tensor& b, bool transA, bool transB,
                           const std::optional<at::Tensor>& bias);

at::Tensor matmul_cpu(const at::Tensor& a, const at::Tensor& b, bool transA, bool transB,
                      const std::optional<at::Tensor>& bias);
at::Tensor matmul_meta(const at::Tensor& a, const at::Tensor& b, bool transA, bool transB,
                       const std::optional<at::Tensor>& bias);
at::Tensor matmul_npu(const at::Tensor& a, const at::Tensor& b, bool transA, bool transB,
                      const std::optional<at::Tensor>& bias);
at::Tensor matmul_autograd(const at::Tensor& a, const at::Tensor& b, bool transA, bool transB,
                           const std::optional<at::Tensor>& bias);
at::Tensor matmul_batched(const at::Tensor& a, const at::Tensor& b, bool transA, bool transB,
                          const std::optional<at::Tensor>& bias);
template <c10::DeviceType Device>
at::Tensor matmul_autocast(const at::Tensor& a, const at::Tensor& b, bool transA, bool transB,
                           const std::optional<at::Tensor>& bias);

}  // namespace ascend_ext
