// Runs an op's kernel on the CPU twin with torch tensors as its GM buffers.
#pragma once

#include <ATen/core/Tensor.h>

#include <initializer_list>

#include "platform_info.h"

namespace ascend_ext {

struct TwinTensorArg {
    const char* name;  // the kernel parameter
    const at::Tensor* tensor;  // dense CPU tensor (any dimension order), or nullptr/undefined for none
};

// Launches the twin build of `op` for `dtype`: the tensors in kernel-parameter order, then a workspace of
// workspaceBytes, then the tiling bytes. A broken kernel rule becomes a RuntimeError naming kernel, core,
// call and rule.
void LaunchOnTwin(const char* op, DType dtype, uint32_t blockDim, std::initializer_list<TwinTensorArg> tensors,
                  const void* tiling, size_t tilingBytes, uint64_t workspaceBytes = 0, uint64_t tilingKey = 0);

template <typename Tiling>
void LaunchOnTwin(const char* op, DType dtype, uint32_t blockDim, std::initializer_list<TwinTensorArg> tensors,
                  const Tiling& tiling, uint64_t workspaceBytes = 0, uint64_t tilingKey = 0)
{
    LaunchOnTwin(op, dtype, blockDim, tensors, &tiling, sizeof(Tiling), workspaceBytes, tilingKey);
}

}  // namespace ascend_ext
