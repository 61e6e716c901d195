// vector_add: torch.add for floating dtypes through the VectorAdd kernel. Shared by every device: the
// argument checks, type promotion, result layout, and the decision how the kernel reads each operand.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>

#include "vector_add_tiling.h"

namespace ascend_ext {

// One kernel launch: z = scale_x * full + scale_y * bcast (or + y_value without bcast). `operands` is what
// the op package receives (the NPU adapter passes its attrs to aclnn); `problem` its decode by
// DecodeVectorAddProblem, the function the NPU TilingFunc runs on the same operands.
struct VectorAddLaunch {
    at::Tensor full;   // the output's shape and strides
    at::Tensor bcast;  // undefined when the scalar is in the tiling
    at::Tensor z;      // where the kernel writes (the result, or a temporary copied into it)
    VectorAddOperands operands;
    VectorAddProblem problem;
    DType dtype;
};

// The functional result: allocated with torch.add's dtype, shape and memory format, and the launch
// that fills it. `y` undefined: the number `other` is the second operand (the Scalar overload).
struct VectorAddCall {
    at::Tensor result;
    VectorAddLaunch launch;
    bool copyBack = false;  // the kernel writes a temporary; copy it into `result`
};

// Builds the call for z = x + alpha * y (or x + alpha * other). `into` defined: the in-place or out=
// destination, already checked and sized.
VectorAddCall PrepareVectorAdd(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& other,
                               const c10::Scalar& alpha, const at::Tensor& into);

// The operand that decides the call's device (the result's, and the guard's): x, unless x is a CPU 0-d
// tensor joining y on another device, as torch.add allows. Throws when the devices are incompatible.
const at::Tensor& VectorAddDeviceOperand(const at::Tensor& x, const at::Tensor& y);

// Checks of the in-place (y undefined: the number `other`) and out= forms: shape, dtype castability,
// overlap; `out` is resized as torch resizes out= arguments.
void CheckVectorAddInplace(const at::Tensor& self, const at::Tensor& y, const c10::Scalar& other);
void PrepareVectorAddOut(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha, const at::Tensor& out);

// Device implementations (registration.cpp). *_cpu run the kernel on the twin; *_npu through aclnn.
at::Tensor vector_add_cpu(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha);
at::Tensor vector_add_scalar_cpu(const at::Tensor& x, const c10::Scalar& y, const c10::Scalar& alpha);
at::Tensor& vector_add_out_cpu(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha, at::Tensor& out);
at::Tensor& vector_add__cpu(at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha);
at::Tensor& vector_add__scalar_cpu(at::Tensor& x, const c10::Scalar& y, const c10::Scalar& alpha);

at::Tensor vector_add_meta(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha);
at::Tensor vector_add_scalar_meta(const at::Tensor& x, const c10::Scalar& y, const c10::Scalar& alpha);
at::Tensor& vector_add_out_meta(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha, at::Tensor& out);
at::Tensor& vector_add__meta(at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha);
at::Tensor& vector_add__scalar_meta(at::Tensor& x, const c10::Scalar& y, const c10::Scalar& alpha);

at::Tensor vector_add_npu(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha);
at::Tensor vector_add_scalar_npu(const at::Tensor& x, const c10::Scalar& y, const c10::Scalar& alpha);
at::Tensor& vector_add_out_npu(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha, at::Tensor& out);
at::Tensor& vector_add__npu(at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha);
at::Tensor& vector_add__scalar_npu(at::Tensor& x, const c10::Scalar& y, const c10::Scalar& alpha);

// Autograd (C++: backward, double backward, forward-mode AD).
at::Tensor vector_add_autograd(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha);
at::Tensor vector_add_scalar_autograd(const at::Tensor& x, const c10::Scalar& y, const c10::Scalar& alpha);
at::Tensor& vector_add_out_autograd(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha,
                                    at::Tensor& out);
at::Tensor& vector_add__autograd(at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha);
at::Tensor& vector_add__scalar_autograd(at::Tensor& x, const c10::Scalar& y, const c10::Scalar& alpha);

}  // namespace ascend_ext
