#include "npu/op_api.h"

#include "op_package.h"

#include <dlfcn.h>

#include <sstream>
#include <string>

#include "torch_npu/csrc/core/npu/NPUWorkspaceAllocator.h"
#include "torch_npu/csrc/framework/OpCommand.h"

namespace ascend_ext::npu {

namespace {

struct Loaded {
    void* handle = nullptr;
    std::string searched;
};

const Loaded& Library()
{
    static const Loaded loaded = [] {
        Loaded l;
        std::ostringstream log;
        for (const std::string& path : OpPackageCandidates()) {
            l.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (l.handle != nullptr) {
                log << "  loaded " << path << "\n";
                break;
            }
            log << "  " << path << ": " << dlerror() << "\n";
        }
        l.searched = log.str();
        return l;
    }();
    return loaded;
}

using CreateTensorFn = aclTensor* (*)(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                                      const int64_t* stride, int64_t offset, aclFormat format,
                                      const int64_t* storageDims, uint64_t storageDimsNum, void* tensorData);
using DestroyTensorFn = int (*)(const aclTensor* tensor);
using RecentErrorFn = const char* (*)();

aclDataType AclDType(at::ScalarType t)
{
    switch (t) {
        case at::kFloat: return ACL_FLOAT;
        case at::kHalf: return ACL_FLOAT16;
        case at::kBFloat16: return ACL_BF16;
        default: TORCH_CHECK(false, "ascend_ext: no aclDataType for ", t);
    }
}

std::string RecentAclError()
{
    // libascendcl is loaded by torch_npu; looked up at run time so the adapter links against torch_npu only.
    auto fn = reinterpret_cast<RecentErrorFn>(dlsym(RTLD_DEFAULT, "aclGetRecentErrMsg"));
    const char* msg = fn != nullptr ? fn() : nullptr;
    return msg != nullptr ? msg : "(no message from CANN)";
}

}  // namespace

std::string DescribeOpPackageSearch()
{
    const Loaded& l = Library();
    return l.searched.empty() ? "  (no candidate: ASCEND_CUSTOM_OPP_PATH and ASCEND_OPP_PATH are unset)\n"
                              : l.searched;
}

void* OpApiSymbol(const char* symbol)
{
    const Loaded& l = Library();
    TORCH_CHECK(l.handle != nullptr,
                "ascend_ext: the ascend_ext op package is not installed (libcust_opapi.so not found).\n", l.searched,
                "Build it on a machine with CANN (bash scripts/build_op_package.sh), install it with "
                "build/op_package/custom_opp_*.run --install-path=<dir>, then 'source "
                "<dir>/vendors/ascend_ext/bin/set_env.bash' (sets ASCEND_CUSTOM_OPP_PATH) before starting Python. "
                "Run 'python -m ascend_ext doctor' for details.");
    void* fn = dlsym(l.handle, symbol);
    TORCH_CHECK(fn != nullptr, "ascend_ext: ", symbol, " is missing from the installed op package (",
                l.searched, "); it predates this version of ascend_ext: rebuild and reinstall the package");
    return fn;
}

AclTensors::~AclTensors() { DestroyAclTensors(tensors_); }

aclTensor* AclTensors::Add(const at::Tensor& t)
{
    if (!t.defined()) return nullptr;
    static const auto create = reinterpret_cast<CreateTensorFn>(OpApiSymbol("aclCreateTensor"));
    const std::vector<int64_t> sizes = t.sizes().vec();
    const std::vector<int64_t> strides = t.strides().vec();
    const int64_t storageElems = static_cast<int64_t>(t.storage().nbytes() / t.element_size());
    aclTensor* out = create(sizes.data(), sizes.size(), AclDType(t.scalar_type()), strides.data(),
                            t.storage_offset(), ACL_FORMAT_ND, &storageElems, 1,
                            const_cast<void*>(t.storage().data()));
    TORCH_CHECK(out != nullptr, "ascend_ext: aclCreateTensor failed: ", RecentAclError());
    tensors_.push_back(out);
    return out;
}

void DestroyAclTensors(const std::vector<aclTensor*>& tensors)
{
    if (tensors.empty()) return;
    static const auto destroy = reinterpret_cast<DestroyTensorFn>(OpApiSymbol("aclDestroyTensor"));
    for (aclTensor* t : tensors) destroy(t);
}

void RunAclnn(const char* op, const at::Device& device, AclTensors tensors,
              const std::function<int(uint64_t*, aclOpExecutor**)>& getWorkspace)
{
    const std::string runName = std::string("aclnn") + op;
    const auto run = reinterpret_cast<AclnnRunFn>(OpApiSymbol(runName.c_str()));
    const aclrtStream stream = c10_npu::getCurrentNPUStream(device.index()).stream(false);

    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    const int status = getWorkspace(&workspaceSize, &executor);
    TORCH_CHECK(status == 0, "ascend_ext: ", runName, "GetWorkspaceSize failed with status ", status, ": ",
                RecentAclError());
    // Held until the launch is enqueued; the allocator is stream-ordered, so the memory is reused only by
    // work queued behind our kernel on this stream.
    at::Tensor workspaceTensor;
    void* workspace = nullptr;
    if (workspaceSize > 0) {
        workspaceTensor = at_npu::native::allocate_workspace(workspaceSize, stream);
        workspace = workspaceTensor.data_ptr();
    }
    std::vector<aclTensor*> owned = tensors.Release();
    // The lambda may run on torch_npu's task-queue thread: it must not throw. A non-zero status is
    // reported by torch_npu under runName at the next synchronisation.
    at_npu::native::OpCommand::RunOpApiV2(runName, [=]() -> int {
        const int ret = run(workspace, workspaceSize, executor, stream);
        DestroyAclTensors(owned);
        return ret;
    });
}

}  // namespace ascend_ext::npu
