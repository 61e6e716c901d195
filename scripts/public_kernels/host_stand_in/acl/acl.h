// A stand-in for CANN's ACL runtime header (acl/acl.h), for the measurement harness only
// (scripts/public_kernels/asc_devkit_examples.py). asc-devkit's single-file examples hold a host main next to
// their kernels; the twin compiles such a file unchanged, and this header lets its host part compile: the
// declarations its host code uses (names, types and signatures as in CANN's include/external/acl/acl_rt.h and
// acl_base_rt.h), each defined to raise when called. The harness launches the kernels through the twin's own
// launcher and never runs the example's main.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

typedef int aclError;
typedef uint16_t aclFloat16;  // acl_base_rt.h: data passing only
typedef void* aclrtStream;
typedef void* aclrtContext;
static const int ACL_SUCCESS = 0;

typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
} aclrtMemcpyKind;

typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST,
    ACL_MEM_MALLOC_HUGE_ONLY,
    ACL_MEM_MALLOC_NORMAL_ONLY,
} aclrtMemMallocPolicy;

namespace pubk_acl {
[[noreturn]] inline aclError Unavailable(const char* name)
{
    throw std::logic_error(std::string("measurement harness: ") + name +
                           " called; the example's host program does not run on the twin (its kernels are launched "
                           "through ascend_ext.twin)");
}
}  // namespace pubk_acl

inline aclError aclInit(const char*) { return pubk_acl::Unavailable("aclInit"); }
inline aclError aclFinalize() { return pubk_acl::Unavailable("aclFinalize"); }
inline aclError aclrtSetDevice(int32_t) { return pubk_acl::Unavailable("aclrtSetDevice"); }
inline aclError aclrtResetDevice(int32_t) { return pubk_acl::Unavailable("aclrtResetDevice"); }
inline aclError aclrtCreateContext(aclrtContext*, int32_t) { return pubk_acl::Unavailable("aclrtCreateContext"); }
inline aclError aclrtDestroyContext(aclrtContext) { return pubk_acl::Unavailable("aclrtDestroyContext"); }
inline aclError aclrtCreateStream(aclrtStream*) { return pubk_acl::Unavailable("aclrtCreateStream"); }
inline aclError aclrtDestroyStream(aclrtStream) { return pubk_acl::Unavailable("aclrtDestroyStream"); }
inline aclError aclrtSynchronizeStream(aclrtStream) { return pubk_acl::Unavailable("aclrtSynchronizeStream"); }
inline aclError aclrtMalloc(void**, size_t, aclrtMemMallocPolicy) { return pubk_acl::Unavailable("aclrtMalloc"); }
inline aclError aclrtFree(void*) { return pubk_acl::Unavailable("aclrtFree"); }
inline aclError aclrtMallocHost(void**, size_t) { return pubk_acl::Unavailable("aclrtMallocHost"); }
inline aclError aclrtFreeHost(void*) { return pubk_acl::Unavailable("aclrtFreeHost"); }
inline aclError aclrtMemcpy(void*, size_t, const void*, size_t, aclrtMemcpyKind)
{
    return pubk_acl::Unavailable("aclrtMemcpy");
}
inline aclError aclrtMemset(void*, size_t, int32_t, size_t) { return pubk_acl::Unavailable("aclrtMemset"); }
inline float aclFloat16ToFloat(aclFloat16) { return (pubk_acl::Unavailable("aclFloat16ToFloat"), 0.0f); }
inline aclFloat16 aclFloatToFloat16(float) { return (pubk_acl::Unavailable("aclFloatToFloat16"), aclFloat16{0}); }
