#include "npu/kernel_launch.h"

#include <ATen/ops/empty.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/DeviceType.h>
#include <c10/util/Exception.h>

#include <cstring>
#include <memory>
#include <utility>

#include "npu/op_api.h"
#include "npu/operand_layout.h"
#include "torch_npu/csrc/aten/CustomFunctions.h"
#include "torch_npu/csrc/core/npu/NPUStream.h"
#include "torch_npu/csrc/framework/OpCommand.h"

namespace ascend_ext::npu {

namespace {

// What the queued launch needs, owned by the queued callable: the argument slots and everything they point
// at (tensors and device buffers, by-value bytes), released after the launch ran or with the callable if it
// never runs.
struct LaunchState {
    std::vector<at::Tensor> keep;
    std::vector<std::string> values;  // reserved up front: the slots point into these strings
    std::vector<void*> slots;
};

// `bytes` in device memory from the caching allocator, in stream order: staged in torch_npu's pinned host
// memory and copied by torch_npu's own non-blocking host-to-device copy (an asynchronous copy task on the
// current stream, queued before the launch; the host block is kept until the copy ran), as vllm-ascend and
// sgl-kernel-npu move their tiling. Never a synchronous aclrtMemcpy, which graph capture cannot record.
at::Tensor DeviceBytes(const std::string& bytes, const c10::Device& device)
{
    const auto size = static_cast<int64_t>(bytes.size());
    at::Tensor host = at::empty({size}, at::TensorOptions().dtype(at::kByte).pinned_memory(true));
    std::memcpy(host.mutable_data_ptr(), bytes.data(), bytes.size());
    at::Tensor onDevice = at::empty({size}, at::TensorOptions().dtype(at::kByte).device(device));
    onDevice.copy_(host, /*non_blocking=*/true);
    return onDevice;
}

}  // namespace

void LaunchKernel(KernelLaunchFn fn, const std::string& kernel, int64_t blockDim, int64_t device,
                  std::vector<KernelArg> args, int64_t workspaceBytes)
{
    TORCH_CHECK(fn != nullptr, "ascend_ext: NPU launch of kernel '", kernel, "': the library has no entry for it");
    TORCH_CHECK_VALUE(blockDim >= 1 && blockDim <= kMaxBlockDim, "ascend_ext: NPU launch of kernel '", kernel,
                      "': block_dim must be in [1, ", kMaxBlockDim, "], got ", blockDim);
    TORCH_CHECK_VALUE(workspaceBytes >= 0, "ascend_ext: NPU launch of kernel '", kernel,
                      "': the workspace size must not be negative, got ", workspaceBytes);
    TORCH_CHECK_VALUE(device >= 0, "ascend_ext: NPU launch of kernel '", kernel, "': device index ", device,
                      " is not an NPU");
    const c10::Device npu(c10::DeviceType::PrivateUse1, static_cast<c10::DeviceIndex>(device));
    const c10::DeviceGuard guard(npu);  // current stream, allocations and the launch: this device's

    auto state = std::make_shared<LaunchState>();
    state->values.reserve(args.size());
    state->slots.assign(args.size(), nullptr);
    for (size_t i = 0; i < args.size(); ++i) {
        KernelArg& arg = args[i];
        const char* name = arg.name.c_str();
        switch (arg.kind) {
            case KernelArgKind::kTensor: {
                const at::Tensor& t = arg.tensor;
                TORCH_CHECK_VALUE(t.defined(), "ascend_ext: NPU launch of kernel '", kernel, "': argument '", name,
                                  "' is an undefined tensor");
                TORCH_CHECK_VALUE(t.device() == npu, "ascend_ext: NPU launch of kernel '", kernel, "': argument '",
                                  name, "' is on ", t.device(), ", expected the launch's device ", npu);
                TORCH_CHECK_VALUE(t.is_contiguous(), "ascend_ext: NPU launch of kernel '", kernel, "': argument '",
                                  name, "' must be contiguous (the kernel reads it as a flat array)");
                TORCH_CHECK_VALUE(IsPlainFormat(at_npu::native::custom_ops::get_npu_format(t)),
                                  "ascend_ext: NPU launch of kernel '", kernel, "': argument '", name,
                                  "' has a private NPU format (", at_npu::native::custom_ops::get_npu_format(t),
                                  "); the kernel reads a plain ND array: torch_npu.npu_format_cast(t, 2) first");
                state->slots[i] = t.mutable_data_ptr();
                state->keep.push_back(t);
                break;
            }
            case KernelArgKind::kNull:
                break;
            case KernelArgKind::kValue:
                TORCH_CHECK_VALUE(!arg.bytes.empty(), "ascend_ext: NPU launch of kernel '", kernel, "': argument '",
                                  name, "' is passed by value and has no bytes");
                state->values.push_back(std::move(arg.bytes));
                state->slots[i] = state->values.back().data();
                break;
            case KernelArgKind::kDeviceBytes:
                if (!arg.bytes.empty()) {
                    state->keep.push_back(DeviceBytes(arg.bytes, npu));
                    state->slots[i] = state->keep.back().mutable_data_ptr();
                }
                break;
            case KernelArgKind::kWorkspace:
                if (workspaceBytes > 0) {
                    // From the caching allocator on the current stream: reused only by work queued after this launch.
                    state->keep.push_back(at::empty({workspaceBytes}, at::TensorOptions().dtype(at::kByte).device(npu)));
                    state->slots[i] = state->keep.back().mutable_data_ptr();
                }
                break;
            default:
                TORCH_CHECK(false, "ascend_ext: NPU launch of kernel '", kernel, "': argument '", name,
                            "' has an unknown kind ", static_cast<int>(arg.kind));
        }
    }

    // The queued callable must not throw (it may run on torch_npu's task-queue thread); a non-zero status from
    // the launch is reported by torch_npu under the kernel's name.
    const aclrtStream stream = c10_npu::getCurrentNPUStream().stream(false);
    UseStreamResources(stream, /*dequeue=*/false);
    const auto blocks = static_cast<uint32_t>(blockDim);
    at_npu::native::OpCommand::RunOpApiV2(kernel, [state, fn, blocks, stream]() -> int {
        UseStreamResources(stream, /*dequeue=*/true);
        return fn(blocks, stream, state->slots.data());
    });
}

}  // namespace ascend_ext::npu
