// Pieces every op adapter shares: dtype mapping, argument checks with messages that name the op and the
// argument, and the platform the CPU twin models.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Exception.h>

#include <string>
#include <vector>

#include "platform_info.h"

namespace ascend_ext {

// The dtype a kernel is built for; float64 only where the twin runs it (CPU).
DType KernelDType(const char* op, const char* arg, const at::Tensor& t);

void CheckTensor(const char* op, const char* arg, const at::Tensor& t);
void CheckSameDType(const char* op, const char* argA, const at::Tensor& a, const char* argB, const at::Tensor& b);
void CheckSameDevice(const char* op, const char* argA, const at::Tensor& a, const char* argB, const at::Tensor& b);

// Output shape of broadcasting a with b, as torch.add would; symbolic sizes stay symbolic.
c10::SymDimVector BroadcastShape(const char* op, const char* argA, const at::Tensor& a, const char* argB,
                                 const at::Tensor& b);

const PlatformInfo& TwinPlatform();
bool SetTwinPlatform(const char* name);

}  // namespace ascend_ext
