// The twin's C interface. Python reaches the twin through it with ctypes, both in ascend_ext._C and in
// the kernel libraries ascend_ext.twin.compile_kernels builds. That is why this second bridge exists
// next to the ops' TORCH_LIBRARY registration: a user's kernel library is compiled from the kernel and
// the twin alone, without torch or Python headers (about a second instead of half a minute per kernel
// file, and no ABI tie to the installed torch), so it can only offer a C ABI; ascend_ext._C offers the
// same functions so that one Python module serves both.
#pragma once

#include <cstdint>

extern "C" {

struct AscendTwinArg {
    const char* name;
    void* data;      // GM address, or (by_value) the parameter's bytes
    uint64_t bytes;  // GM buffer size, or (by_value) the parameter's size
    uint32_t by_value;
    uint32_t elem_size;  // GM: the size of the tensor's elements (the kernel must read it with a T of that
                         // size); 0 for untyped bytes (tiling, workspace). Ignored by value.
    // GM: the buffer's place in its allocation (ascend_twin::GmArg::allocOffset / endsAllocation). DMA writes may
    // run on past the end of a buffer that ends its allocation (ends_allocation = 1: a fresh tensor, a view reaching
    // its storage's end, a buffer allocated for the launch) into the padding the runtime allocates after it;
    // 0 (a raw pointer not known to end an allocation, a view ending before its storage does) refuses them.
    uint64_t alloc_offset;  // bytes from the allocation's start to data
    uint32_t ends_allocation;
};

enum AscendTwinParamKind : uint32_t {
    ASCEND_TWIN_PARAM_GM = 0,  // GM_ADDR (any pointer)
    ASCEND_TWIN_PARAM_INT = 1,
    ASCEND_TWIN_PARAM_UINT = 2,  // unsigned integers, bool, enums
    ASCEND_TWIN_PARAM_FLOAT = 3,
    ASCEND_TWIN_PARAM_STRUCT = 4,
};

#define ASCEND_TWIN_MAX_PARAMS 16

// A kernel entry point described from its signature (see twin/kernel_entry.h).
struct AscendTwinEntry {
    void* fn;
    void (*invoke)(void* fn, void* const* values);  // values[i] points at parameter i's value
    uint32_t arity;
    uint32_t kinds[ASCEND_TWIN_MAX_PARAMS];
    uint32_t sizes[ASCEND_TWIN_MAX_PARAMS];
    // The kernel type its function qualifier gives (__mix__(1, 2): KERNEL_TYPE_MIX_AIC_1_2, __cube__,
    // __vector__, ...), or -1: none (the kernel may declare one with KERNEL_TASK_TYPE_DEFAULT).
    int32_t kernel_type;
};

// Launches `entry` on blockDim virtual cores of `platform` ("Ascend910B2", "910B3", ...). Returns 0 on
// success, 1 for a kernel rule violation, 2 for any other error; on failure the message is copied into
// err (NUL-terminated, at most errLen bytes).
int ascend_twin_launch(const char* kernel, const AscendTwinEntry* entry, uint32_t blockDim, uint64_t tilingKey,
                       const char* platform, const AscendTwinArg* args, uint32_t nargs, char* err, uint64_t errLen);

// Statistics of the calling thread's launches as JSON ("null" before its first launch). The returned
// string stays valid until the next call on the same thread.
const char* ascend_twin_last_launch_json();
// The hardware profile `platform` names ("Ascend910B2", "910B3", ...) as JSON (core counts, buffer sizes,
// alignments), or "null" for an unknown name. The returned string stays valid until the next call on the
// same thread.
const char* ascend_twin_platform_json(const char* platform);
void ascend_twin_start_recording();
const char* ascend_twin_stop_recording_json();
}
