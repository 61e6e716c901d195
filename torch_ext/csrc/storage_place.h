#pragma once

#include <ATen/core/Tensor.h>

#include <cstdint>

namespace ascend_ext {

// Where a tensor lies in its storage, for the twin's GM buffers (twin/launch.h GmArg): a tensor reaching its
// storage's end (a fresh one) ends its allocation, and DMA writes may run on into the padding the NPU's runtime
// allocates after it; a view ending earlier has the storage's next elements after it.
struct StoragePlace {
    uint64_t offset;      // bytes from the storage's start
    bool endsAllocation;  // the tensor's last byte is the storage's
};

inline StoragePlace PlaceInStorage(const at::Tensor& t)
{
    const uint64_t offset = static_cast<uint64_t>(t.storage_offset()) * t.element_size();
    return {offset, offset + t.nbytes() == t.storage().nbytes()};
}

}  // namespace ascend_ext
