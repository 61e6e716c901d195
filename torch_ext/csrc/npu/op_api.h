// The NPU side of an op call: the generated two-stage aclnn API of our custom op package, resolved from
// libcust_opapi.so at first use and enqueued on torch_npu's task queue. Built only against torch_npu.
//
// Per-op code is a device guard, the op's own checks and output allocation, and one RunAclnn call:
//
//   at::Tensor my_op_npu(const at::Tensor& x, const c10::optional<at::Tensor>& bias, double alpha, int64_t mode)
//   {
//       const c10::OptionalDeviceGuard guard(at::device_of(x));  // output, workspace, stream: the op's device
//       ... checks, at::Tensor out = at::empty(...) ...
//       npu::RunAclnn("my_op", "MyOp", npu::Input("x", x), npu::Input("bias", bias), alpha, mode,
//                     npu::Output("out", out));
//       return out;
//   }
//
// The arguments are those of the generated aclnn<Op>GetWorkspaceSize, in its order (inputs, attrs,
// outputs), without the trailing workspaceSize/executor: npu::Input / npu::Output for tensors (an
// undefined or absent optional tensor is passed as nullptr), and attrs as the C type of the generated
// signature (double for Float, int64_t for Int, bool for Bool). Tensors are checked to be on the current
// device, described exactly (npu/operand_layout.h: private formats converted, strided inputs cloned,
// strided outputs written through a dense stand-in), and kept alive until the launch has run.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Exception.h>
#include <c10/util/FunctionRef.h>
#include <c10/util/Optional.h>

#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// Opaque aclnn types. Declared here rather than taken from CANN's aclnn headers, which the torch_npu wheel
// does not ship; the layout is CANN's ABI.
struct aclTensor;
struct aclOpExecutor;

namespace ascend_ext::npu {

// Address of `symbol` in the installed ascend_ext op package (or a library it depends on); a clear error
// naming the fix if the package (or the symbol, for an outdated package) is missing. A failed load is
// not cached: the next call looks again.
void* OpApiSymbol(const char* symbol);

// Where the loader looked, and what it found: for error messages and `python -m ascend_ext doctor`.
std::string DescribeOpPackageSearch();

// Stream resource limits (torch_npu.npu.set_stream_limit) apply to the thread that tiles and launches: makes
// this thread use the stream's, as torch_npu's own aclnn calls do, when torch_npu says it is needed (enqueueing
// thread: dequeue false; the task-queue thread running the launch: dequeue true).
void UseStreamResources(void* stream, bool dequeue);

// A tensor argument of an aclnn call. `name` is the argument name used in error messages.
struct TensorArg {
    const char* name;
    at::Tensor tensor;  // undefined: an absent optional input
    bool output;
};
inline TensorArg Input(const char* name, const at::Tensor& t) { return {name, t, false}; }
inline TensorArg Input(const char* name, const c10::optional<at::Tensor>& t) { return {name, t.value_or(at::Tensor()), false}; }
inline TensorArg Output(const char* name, const at::Tensor& t) { return {name, t, true}; }

// The C type each RunAclnn argument has in the generated aclnn signature.
template <class T>
struct AclnnArg {
    static_assert(std::is_arithmetic_v<T>, "RunAclnn: pass tensors as npu::Input/npu::Output, attrs as "
                                           "double, int64_t or bool");
    using type = T;
};
template <>
struct AclnnArg<TensorArg> {
    using type = const aclTensor*;
};

// One aclnn call being prepared on the calling thread and run by torch_npu's task queue. Owns what the
// call needs (the tensors it reads and writes, their aclTensor descriptions, the executor) through a shared
// state that the queued callable holds: whether the launch runs, fails or is never run (an exception before
// or during enqueueing), the state is released exactly once. The workspace is released in stream order
// right after enqueueing, as torch_npu's own ops release theirs (npu/workspace.h).
class AclnnCall {
public:
    AclnnCall(const char* opName, const char* aclnnName);

    // Checks the tensor (defined -> on the current device), makes it describable (plain format, dense
    // row-major: input cast/cloned, output given a dense stand-in copied back after the launch) and
    // returns its aclTensor (nullptr for an undefined input).
    const aclTensor* Convert(const TensorArg& arg);
    template <class T>
    T Convert(T value) { return value; }

    // Runs the first stage getWorkspace(&workspaceSize, &executor) (an op's first call serialised across
    // threads), allocates the workspace from torch_npu's caching allocator on the current stream,
    // enqueues the second stage there and releases the workspace. Throws, naming the op, if the first
    // stage fails.
    void Run(c10::function_ref<int(uint64_t*, aclOpExecutor**)> getWorkspace);

    void* GetWorkspaceSymbol() const { return getWorkspace_; }

private:
    struct State;

    std::string opName_;
    std::string aclnnName_;
    void* getWorkspace_ = nullptr;
    void* run_ = nullptr;
    std::shared_ptr<State> state_;
};

// Runs aclnn<aclnnName> (see the top of this file). opName is the torch op's name, for errors.
template <class... Args>
void RunAclnn(const char* opName, const char* aclnnName, const Args&... args)
{
    using GetWorkspaceFn = int (*)(typename AclnnArg<Args>::type..., uint64_t*, aclOpExecutor**);
    AclnnCall call(opName, aclnnName);
    // Converted left to right, as the arguments of the generated function.
    std::tuple<typename AclnnArg<Args>::type...> converted{call.Convert(args)...};
    const auto getWorkspace = reinterpret_cast<GetWorkspaceFn>(call.GetWorkspaceSymbol());
    call.Run([&](uint64_t* size, aclOpExecutor** executor) {
        return std::apply([&](auto... a) { return getWorkspace(a..., size, executor); }, converted);
    });
}

}  // namespace ascend_ext::npu
