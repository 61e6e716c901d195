// A C interface to the twin, for Python (ctypes) and for kernels compiled outside the project.
#pragma once

#include <cstdint>

extern "C" {

struct AscendTwinArg {
    const char* name;
    void* data;
    uint64_t bytes;
};

// Launches `entry` (a kernel function in this process) on blockDim virtual cores of `platform`
// ("Ascend910B2", "910B3", ...). Returns 0 on success, 1 for a kernel rule violation, 2 for any other
// error; on failure the message is copied into err (NUL-terminated, at most errLen bytes).
int ascend_twin_launch(const char* kernel, void* entry, uint32_t blockDim, uint64_t tilingKey, const char* platform,
                       const AscendTwinArg* args, uint32_t nargs, char* err, uint64_t errLen);

// Statistics as JSON. The returned string stays valid until the next call on the same thread.
const char* ascend_twin_last_launch_json();
void ascend_twin_start_recording();
const char* ascend_twin_stop_recording_json();
}
