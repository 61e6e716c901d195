// The workspace of one aclnn call, as torch_npu's own aclnn ops handle it (op-plugin's EXEC_NPU_CMD,
// op_plugin/utils/op_api_common.h): allocated from the caching allocator on the calling thread, its address
// captured by the queued launch, and the allocation released as soon as the launch is enqueued. The caching
// allocator frees in stream order: the memory goes only to work queued after this launch on the same
// stream, so the queued launch still owns it when it runs. Holding the allocation in the queued callable
// instead would pin one workspace per queued call (up to the task queue's 4,096 entries, 16 MiB each for
// an op using the system workspace) until torch_npu's release thread drops the callables.
//
// Free of torch and CANN: tests/cpp/test_npu_workspace.cpp runs it with a counting stand-in allocator.
#pragma once

#include <cstdint>
#include <utility>

namespace ascend_ext::npu {

// allocate(bytes) -> a handle owning the memory; address(handle) -> void*; enqueue(void* workspace) queues
// the launch (nullptr when bytes is 0). The handle is released when this returns.
template <class Allocate, class Address, class Enqueue>
void EnqueueWithWorkspace(uint64_t bytes, Allocate&& allocate, Address&& address, Enqueue&& enqueue)
{
    if (bytes == 0) {
        enqueue(static_cast<void*>(nullptr));
        return;
    }
    const auto workspace = allocate(bytes);
    enqueue(address(workspace));
}

}  // namespace ascend_ext::npu
