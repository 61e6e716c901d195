// Pieces every op adapter shares: dtype mapping and promotion, argument checks with messages that name the
// op and the argument, broadcasting and result layout as torch computes them, and the twin's platform.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>
#include <c10/util/Exception.h>

#include <optional>
#include <string>

#include "platform_info.h"

namespace ascend_ext {

// The dtype as Python spells it (torch.float32, not Float).
std::string DTypeString(at::ScalarType t);

// The kernel build for a dtype; float64 only where the twin runs it (CPU). `what` names the argument(s).
DType KernelDType(const char* op, const std::string& what, at::ScalarType t, bool onNpu);
inline DType KernelDType(const char* op, const char* arg, const at::Tensor& t)
{
    return KernelDType(op, std::string("argument '") + arg + "'", t.scalar_type(), t.is_privateuseone());
}

void CheckTensor(const char* op, const char* arg, const at::Tensor& t);
void CheckSameDType(const char* op, const char* argA, const at::Tensor& a, const char* argB, const at::Tensor& b);
void CheckSameDevice(const char* op, const char* argA, const at::Tensor& a, const char* argB, const at::Tensor& b);

// A real number (int or float; not bool or complex) for a floating computation.
void CheckRealScalar(const char* op, const char* arg, const c10::Scalar& s);

// Output shape of broadcasting a with b, as torch.add computes it. Symbolic sizes stay symbolic; where the
// trace cannot decide whether two sizes match (unbacked sizes) it assumes they do and leaves a runtime
// assert, as ATen does.
c10::SymDimVector BroadcastShape(const char* op, const char* argA, const at::Tensor& a, const char* argB,
                                 const at::Tensor& b);

// Strides of an elementwise result of `shape` as TensorIterator lays out torch.add's result (operands that
// share a layout pass it on; otherwise the dimension order their strides imply); nullopt: contiguous.
// `b` may be undefined (a number operand).
std::optional<c10::SymDimVector> ElementwiseResultStrides(const at::Tensor& a, const at::Tensor& b,
                                                         c10::SymIntArrayRef shape);

const PlatformInfo& TwinPlatform();
bool SetTwinPlatform(const char* name);

}  // namespace ascend_ext
