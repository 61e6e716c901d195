#include "twin_launch.h"

#include <c10/util/Exception.h>

#include <memory>
#include <vector>

#include "common.h"
#include "twin/launch.h"

namespace ascend_ext {

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
        // Its place in its storage: a tensor reaching its storage's end ends its allocation (DMA writes may run on
        // into the padding after it); a view ending earlier has the storage's next elements after it.
        const uint64_t bytes = a.tensor->nbytes(), offset = a.tensor->storage_offset() * a.tensor->element_size();
        spec.args.push_back({a.name, a.tensor->data_ptr(), bytes, false,
                             static_cast<uint32_t>(a.tensor->element_size()),
                             offset + bytes == a.tensor->storage().nbytes(), offset});
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
