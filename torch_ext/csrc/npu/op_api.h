// The NPU side of an op call: the generated two-stage aclnn API of our custom op package, resolved from
// libcust_opapi.so at first use, and enqueued on torch_npu's task queue. Built only against torch_npu.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Exception.h>

#include <cstdint>
#include <functional>
#include <vector>

#include <acl/acl_base.h>

#include "torch_npu/csrc/core/npu/NPUStream.h"

// Opaque aclnn types and the signature every generated aclnn<Op> shares. Declared here rather than taken
// from CANN's aclnn headers, which the torch_npu wheel does not ship; the layout is CANN's ABI.
struct aclTensor;
struct aclOpExecutor;
using AclnnRunFn = int (*)(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

namespace ascend_ext::npu {

// Address of `symbol` in the installed ascend_ext op package; a clear error naming the fix if the
// package (or the symbol, for an outdated package) is missing.
void* OpApiSymbol(const char* symbol);

// Where the loader looked, and what it found: for error messages and `python -m ascend_ext doctor`.
std::string DescribeOpPackageSearch();

// An aclTensor describing a (contiguous or strided) NPU tensor; freed by AclTensors.
class AclTensors {
public:
    AclTensors() = default;
    AclTensors(const AclTensors&) = delete;
    AclTensors& operator=(const AclTensors&) = delete;
    AclTensors(AclTensors&& other) noexcept : tensors_(std::move(other.tensors_)) {}
    ~AclTensors();

    aclTensor* Add(const at::Tensor& t);  // nullptr for an undefined (absent optional) tensor
    std::vector<aclTensor*> Release() { return std::move(tensors_); }

private:
    std::vector<aclTensor*> tensors_;
};

void DestroyAclTensors(const std::vector<aclTensor*>& tensors);

// Runs aclnn<op>: `getWorkspace` is the first stage, called now on this thread with the op's aclTensors
// bound (it returns the status and fills workspace size and executor); the second stage is enqueued on
// the current NPU stream through torch_npu's task queue, with workspace from its caching allocator.
void RunAclnn(const char* op, const at::Device& device, AclTensors tensors,
              const std::function<int(uint64_t*, aclOpExecutor**)>& getWorkspace);

}  // namespace ascend_ext::npu
