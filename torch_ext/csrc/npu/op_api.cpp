#include "npu/op_api.h"

#include <ATen/ops/empty.h>
#include <c10/core/DeviceType.h>
#include <dlfcn.h>

#include <atomic>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>

#include <acl/acl_base.h>

#include "npu/operand_layout.h"
#include "npu/workspace.h"
#include "op_package.h"
#include "torch_npu/csrc/aten/CustomFunctions.h"
#include "torch_npu/csrc/core/npu/NPUFunctions.h"
#include "torch_npu/csrc/core/npu/NPUStream.h"
#include "torch_npu/csrc/framework/OpCommand.h"

namespace ascend_ext::npu {

namespace {

// ---- the op package library ------------------------------------------------------------------------------
// Loaded once it is found; a failed search is not cached (the next call searches again).
std::mutex gLoadMutex;
std::atomic<void*> gHandle{nullptr};
std::string gSearched;  // guarded by gLoadMutex

void* LibraryHandle()
{
    if (void* h = gHandle.load(std::memory_order_acquire)) return h;
    std::lock_guard<std::mutex> lock(gLoadMutex);
    if (void* h = gHandle.load(std::memory_order_acquire)) return h;
    std::ostringstream log;
    void* handle = nullptr;
    for (const std::string& path : OpPackageCandidates()) {
        handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle != nullptr) {
            log << "  loaded " << path << "\n";
            break;
        }
        log << "  " << path << ": " << dlerror() << "\n";
    }
    gSearched = log.str();
    gHandle.store(handle, std::memory_order_release);
    return handle;
}

// A symbol of the op package or of a library it links (libascendcl / libacl_rt, libnnopbase), else from the
// global scope; nullptr if absent (for the optional ones).
void* OptionalSymbol(const char* name)
{
    void* handle = LibraryHandle();
    void* fn = handle != nullptr ? dlsym(handle, name) : nullptr;
    return fn != nullptr ? fn : dlsym(RTLD_DEFAULT, name);
}

using CreateTensorFn = aclTensor* (*)(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                                      const int64_t* stride, int64_t offset, aclFormat format,
                                      const int64_t* storageDims, uint64_t storageDimsNum, void* tensorData);
using DestroyTensorFn = int (*)(const aclTensor* tensor);
using DestroyExecutorFn = int (*)(aclOpExecutor* executor);
using RecentErrorFn = const char* (*)();
using UseStreamResFn = int (*)(aclrtStream stream);
using RunFn = int (*)(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

std::string RecentAclError()
{
    auto fn = reinterpret_cast<RecentErrorFn>(OptionalSymbol("aclGetRecentErrMsg"));
    const char* msg = fn != nullptr ? fn() : nullptr;
    return msg != nullptr ? msg : "(no message from CANN)";
}

// The two stages of one aclnn<Op>, resolved once; the first call of an op is serialised (the generated
// first stage initialises its op's state on first use).
struct OpEntry {
    void* getWorkspace = nullptr;
    void* run = nullptr;
    std::mutex firstCall;
    std::atomic<bool> warmed{false};
};

OpEntry& Entry(const std::string& aclnnName)
{
    static std::mutex mutex;
    static std::unordered_map<std::string, std::unique_ptr<OpEntry>> entries;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = entries.find(aclnnName);
    if (it != entries.end()) return *it->second;
    auto entry = std::make_unique<OpEntry>();
    entry->getWorkspace = OpApiSymbol((aclnnName + "GetWorkspaceSize").c_str());
    entry->run = OpApiSymbol(aclnnName.c_str());
    return *entries.emplace(aclnnName, std::move(entry)).first->second;
}

aclDataType AclDType(const char* op, const char* arg, at::ScalarType t)
{
    switch (t) {
        case at::kFloat: return ACL_FLOAT;
        case at::kHalf: return ACL_FLOAT16;
        case at::kBFloat16: return ACL_BF16;
        case at::kInt: return ACL_INT32;
        case at::kLong: return ACL_INT64;
        case at::kBool: return ACL_BOOL;
        default:
            TORCH_CHECK(false, "ascend_ext: ", op, ": argument '", arg, "' has dtype ", t,
                        ", which the NPU adapter cannot pass to aclnn (expected float32, float16, bfloat16, int32, "
                        "int64 or bool)");
    }
}

}  // namespace

void UseStreamResources(aclrtStream stream, bool dequeue)
{
    const bool needed = dequeue ? c10_npu::check_dequeue_need_use(stream) : c10_npu::check_enqueue_need_use(stream);
    if (!needed) return;
    static const auto use = reinterpret_cast<UseStreamResFn>(OptionalSymbol("aclrtUseStreamResInCurrentThread"));
    if (use != nullptr) use(stream);
}

namespace {
std::string LastSearch()
{
    std::lock_guard<std::mutex> lock(gLoadMutex);
    return gSearched.empty() ? "  (no candidate: ASCEND_CUSTOM_OPP_PATH and ASCEND_OPP_PATH are unset)\n" : gSearched;
}
}  // namespace

std::string DescribeOpPackageSearch()
{
    LibraryHandle();
    return LastSearch();
}

void* OpApiSymbol(const char* symbol)
{
    void* handle = LibraryHandle();
    TORCH_CHECK(handle != nullptr,
                "ascend_ext: the ascend_ext op package is not installed (libcust_opapi.so not found).\n",
                LastSearch(),
                "Build it on a machine with CANN (bash scripts/build_op_package.sh), install it with "
                "build/op_package/custom_opp_*.run --install-path=<dir>, then 'source "
                "<dir>/vendors/ascend_ext/bin/set_env.bash' (sets ASCEND_CUSTOM_OPP_PATH) before starting Python. "
                "Run 'python -m ascend_ext doctor' for details. (This search is not cached: the next NPU call "
                "looks again.)");
    void* fn = dlsym(handle, symbol);
    TORCH_CHECK(fn != nullptr, "ascend_ext: ", symbol, " is missing from the installed op package (",
                LastSearch(), "); it predates this version of ascend_ext: rebuild and reinstall the package");
    return fn;
}

// ---- one call ------------------------------------------------------------------------------------------------

struct AclnnCall::State {
    std::vector<at::Tensor> tensors;          // every tensor the launch reads or writes, alive until it ran
    std::vector<aclTensor*> descriptions;     // their aclTensors
    std::vector<std::pair<at::Tensor, at::Tensor>> writeBack;  // (caller's output, dense stand-in)
    aclOpExecutor* executor = nullptr;
    std::atomic<bool> executorConsumed{false};  // the second stage releases it
    uint64_t workspaceSize = 0;

    ~State()
    {
        if (descriptions.empty() && executor == nullptr) return;  // nothing created (the library may be absent)
        static const auto destroyTensor = reinterpret_cast<DestroyTensorFn>(OptionalSymbol("aclDestroyTensor"));
        if (destroyTensor != nullptr) {
            for (aclTensor* t : descriptions) destroyTensor(t);
        }
        if (executor != nullptr && !executorConsumed.load()) {
            static const auto destroyExecutor =
                reinterpret_cast<DestroyExecutorFn>(OptionalSymbol("aclDestroyAclOpExecutor"));
            if (destroyExecutor != nullptr) destroyExecutor(executor);
        }
    }
};

AclnnCall::AclnnCall(const char* opName, const char* aclnnName)
    : opName_(opName), aclnnName_(std::string("aclnn") + aclnnName), state_(std::make_shared<State>())
{
    OpEntry& entry = Entry(aclnnName_);
    getWorkspace_ = entry.getWorkspace;
    run_ = entry.run;
}

const aclTensor* AclnnCall::Convert(const TensorArg& arg)
{
    const char* op = opName_.c_str();
    if (!arg.tensor.defined()) {
        TORCH_CHECK(!arg.output, "ascend_ext: ", op, ": output '", arg.name, "' is undefined (expected a tensor)");
        return nullptr;
    }
    at::Tensor t = arg.tensor;
    const c10::Device current(c10::DeviceType::PrivateUse1, c10_npu::current_device());
    TORCH_CHECK(t.device() == current, "ascend_ext: ", op, ": argument '", arg.name, "' is on ", t.device(),
                ", expected the current NPU device ", current,
                " (the op runs on the device of the operand that decides its result; all tensors must be on it)");
    const aclDataType dtype = AclDType(op, arg.name, t.scalar_type());

    const bool plain = IsPlainFormat(at_npu::native::custom_ops::get_npu_format(t));
    const bool dense = IsDenseRowMajor(t.sizes().vec(), t.strides().vec());
    if (!arg.output) {
        // The kernels read a flat row-major array: private formats are converted, strided views cloned.
        if (!plain) t = at_npu::native::custom_ops::npu_format_cast(t, kAclFormatND);
        if (!IsDenseRowMajor(t.sizes().vec(), t.strides().vec())) t = t.contiguous();
    } else if (!plain || !dense) {
        // The kernel writes a dense ND stand-in; copied into the caller's tensor after the launch (same stream).
        at::Tensor standIn = at::empty(t.sizes(), t.options().memory_format(c10::MemoryFormat::Contiguous));
        state_->writeBack.emplace_back(t, standIn);
        t = standIn;
    }

    static const auto create = reinterpret_cast<CreateTensorFn>(OpApiSymbol("aclCreateTensor"));
    const OperandLayout layout = DescribeDenseOperand(t.sizes().vec());
    aclTensor* out = create(layout.viewDims.data(), layout.viewDims.size(), dtype, layout.strides.data(),
                            layout.offset, ACL_FORMAT_ND, layout.storageDims.data(), layout.storageDims.size(),
                            t.data_ptr());
    TORCH_CHECK(out != nullptr, "ascend_ext: ", op, ": aclCreateTensor failed for argument '", arg.name,
                "': ", RecentAclError());
    state_->tensors.push_back(t);
    state_->descriptions.push_back(out);
    return out;
}

void AclnnCall::Run(c10::function_ref<int(uint64_t*, aclOpExecutor**)> getWorkspace)
{
    const aclrtStream stream = c10_npu::getCurrentNPUStream().stream(false);
    UseStreamResources(stream, /*dequeue=*/false);

    OpEntry& entry = Entry(aclnnName_);
    int status = 0;
    if (entry.warmed.load(std::memory_order_acquire)) {
        status = getWorkspace(&state_->workspaceSize, &state_->executor);
    } else {
        std::lock_guard<std::mutex> lock(entry.firstCall);
        status = getWorkspace(&state_->workspaceSize, &state_->executor);
        entry.warmed.store(true, std::memory_order_release);
    }
    TORCH_CHECK(status == 0, "ascend_ext: ", opName_, ": ", aclnnName_, "GetWorkspaceSize failed with status ", status,
                ": ", RecentAclError());
    // The queued callable owns the state: it is released after the launch ran, or with the callable if it
    // never runs. It must not throw (it may run on torch_npu's task-queue thread); a non-zero status is
    // reported by torch_npu under the aclnn name. The workspace is not part of the state: it comes from the
    // caching allocator on the current stream and is released right after enqueueing (npu/workspace.h).
    const auto run = reinterpret_cast<RunFn>(run_);
    std::shared_ptr<State> state = state_;
    const c10::Device device(c10::DeviceType::PrivateUse1, c10_npu::current_device());
    EnqueueWithWorkspace(
        state_->workspaceSize,
        [&](uint64_t bytes) {
            return at::empty({static_cast<int64_t>(bytes)}, at::TensorOptions().dtype(at::kByte).device(device));
        },
        [](const at::Tensor& t) { return t.data_ptr(); },
        [&](void* workspace) {
            at_npu::native::OpCommand::RunOpApiV2(aclnnName_, [state, run, stream, workspace]() -> int {
                UseStreamResources(stream, /*dequeue=*/true);
                state->executorConsumed.store(true);
                return run(workspace, state->workspaceSize, state->executor, stream);
            });
        });
    for (auto& [dst, standIn] : state_->writeBack) dst.copy_(standIn);
    state_.reset();
}

}  // namespace ascend_ext::npu
