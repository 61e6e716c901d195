#include "twin_launch.h"

#include <ATen/Parallel.h>
#include <c10/util/Exception.h>

#include <dlfcn.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "common.h"
#include "storage_place.h"
#include "twin/launch.h"

namespace ascend_ext {

namespace {

// The twin's launches from this library run on torch's intra-op threads (twin/launch.h SetThreadRunner). After
// a torch op, its OpenMP worker threads keep spinning on their CPUs for a while, waiting for torch's next op; the
// twin's own workers would share those CPUs with them (a two-thread 1024^3 matmul right after torch.mm: a quarter
// slower). Handed the launch, the spinning threads take it at once. torch's Linux builds run on GNU OpenMP, whose
// entry points come from the libgomp torch has loaded (at::parallel_for is inline over `#pragma omp parallel`,
// which this library is not compiled with); without it the twin keeps its own pool. At most
// min(ASCEND_TWIN_THREADS, torch.get_num_threads()) threads; inside an OpenMP region the calls run on one thread.
using GompParallel = void (*)(void (*)(void*), void*, unsigned, unsigned);
using OmpThreadNum = int (*)();

struct Gomp {
    GompParallel parallel = nullptr;   // what `#pragma omp parallel num_threads(n)` calls
    OmpThreadNum threadNum = nullptr;  // omp_get_thread_num
};

const Gomp& TorchGomp()
{
    static const Gomp g = [] {
        Gomp r;
        void* h = dlopen("libgomp.so.1", RTLD_LAZY | RTLD_NOLOAD);  // torch's, already loaded; never a second one
        if (h == nullptr) return r;
        r.parallel = reinterpret_cast<GompParallel>(dlsym(h, "GOMP_parallel"));
        r.threadNum = reinterpret_cast<OmpThreadNum>(dlsym(h, "omp_get_thread_num"));
        if (r.parallel == nullptr || r.threadNum == nullptr) r = Gomp{};
        return r;
    }();
    return g;
}

struct TorchThreadJob {
    void (*fn)(void*, uint32_t);
    void* ctx;
    OmpThreadNum threadNum;
};

void RunTorchThreadJob(void* p)
{
    const TorchThreadJob& j = *static_cast<const TorchThreadJob*>(p);
    j.fn(j.ctx, static_cast<uint32_t>(j.threadNum()));
}

void RunOnTorchThreads(uint32_t threads, void (*fn)(void*, uint32_t), void* ctx)
{
    const auto torchThreads = static_cast<uint32_t>(std::max(1, at::get_num_threads()));
    TorchThreadJob job{fn, ctx, TorchGomp().threadNum};
    TorchGomp().parallel(&RunTorchThreadJob, &job, std::min(threads, torchThreads), 0);
}

const bool kTorchThreads = (ascend_twin::SetThreadRunner(TorchGomp().parallel ? &RunOnTorchThreads : nullptr), true);

}  // namespace

void LaunchOnTwin(const char* op, DType dtype, uint32_t blockDim, std::initializer_list<TwinTensorArg> tensors,
                  const void* tiling, size_t tilingBytes, uint64_t workspaceBytes, uint64_t tilingKey)
{
    ascend_twin::LaunchSpec spec;
    spec.kernel = op;
    spec.entry = ascend_twin::FindKernel(op, dtype);
    TORCH_CHECK(spec.entry != nullptr, "ascend_ext.", op, ": the twin has no ", DTypeName(dtype), " build of the kernel");
    spec.blockDim = blockDim;
    spec.tilingKey = tilingKey;
    spec.platform = &TwinPlatform();
    for (const TwinTensorArg& a : tensors) {
        if (a.tensor == nullptr || !a.tensor->defined()) {
            spec.args.push_back({a.name, nullptr, 0});
            continue;
        }
        // Dense operands in any dimension order: the kernel sees their memory as one flat buffer.
        TORCH_INTERNAL_ASSERT(a.tensor->is_non_overlapping_and_dense() && a.tensor->device().is_cpu());
        const StoragePlace place = PlaceInStorage(*a.tensor);
        spec.args.push_back({a.name, a.tensor->data_ptr(), static_cast<uint64_t>(a.tensor->nbytes()), false,
                             static_cast<uint32_t>(a.tensor->element_size()), place.endsAllocation, place.offset});
    }
    // Left uninitialised, as on the device: a kernel may not assume anything about workspace contents. An
    // allocation of its own.
    std::unique_ptr<uint8_t[]> workspace(workspaceBytes ? new uint8_t[workspaceBytes] : nullptr);
    spec.args.push_back({"workspace", workspace.get(), workspaceBytes, false, 0, true, 0});
    // A private copy: the kernel reads tiling through GM like any other buffer.
    std::vector<uint8_t> tilingGm(static_cast<const uint8_t*>(tiling), static_cast<const uint8_t*>(tiling) + tilingBytes);
    spec.args.push_back({"tiling", tilingGm.data(), tilingBytes});
    try {
        ascend_twin::Launch(spec);
    } catch (const ascend_twin::RuleViolation& e) {
        TORCH_CHECK(false, e.what());
    }
}

}  // namespace ascend_ext

// For ctypes (ascend_ext.twin.set_platform / get_platform).
extern "C" __attribute__((visibility("default"))) int ascend_ext_set_twin_platform(const char* name)
{
    return ascend_ext::SetTwinPlatform(name) ? 0 : 1;
}

extern "C" __attribute__((visibility("default"))) const char* ascend_ext_twin_platform()
{
    return ascend_ext::TwinPlatform().name;
}
