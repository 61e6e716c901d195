// The bounds-checked memory functions of Huawei's securec library as CANN's host headers reach them (<securec.h>:
// register/tilingdata_base.h copies tiling data with memcpy_s, and some host programs call it directly). The twin
// provides the two that host tiling code uses, with securec's checks and results: an error returns a non-zero code
// and, where securec does, clears the destination (destMax bytes) so that nothing half-copied is left behind.
//   memcpy_s(dest, destMax, src, count): EOK; ERANGE for destMax 0 or above SECUREC_MEM_MAX_LEN (dest untouched);
//     EINVAL (dest null) / EINVAL_AND_RESET (src null); ERANGE_AND_RESET for count > destMax;
//     EOVERLAP_AND_RESET for overlapping ranges (dest == src copies nothing and succeeds).
//   memset_s(dest, destMax, c, count): EOK; ERANGE for destMax 0 or too large; EINVAL for a null dest;
//     ERANGE_AND_RESET for count > destMax (destMax bytes set to c).
// Host-only (twin/host_include); inline: nothing to link.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#ifndef EOK
#define EOK 0
#endif
#ifndef EINVAL
#define EINVAL 22
#endif
#ifndef ERANGE
#define ERANGE 34
#endif
#ifndef EOVERLAP
#define EOVERLAP 54
#endif
#define EINVAL_AND_RESET (EINVAL | 128)
#define ERANGE_AND_RESET (ERANGE | 128)
#define EOVERLAP_AND_RESET (EOVERLAP | 128)
#ifndef SECUREC_MEM_MAX_LEN
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#endif

typedef int errno_t;

inline errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count)
{
    if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return ERANGE;
    if (dest == nullptr) return EINVAL;
    if (src == nullptr) {
        std::memset(dest, 0, destMax);
        return EINVAL_AND_RESET;
    }
    if (count > destMax) {
        std::memset(dest, 0, destMax);
        return ERANGE_AND_RESET;
    }
    if (count == 0 || dest == src) return EOK;
    const auto d = reinterpret_cast<uintptr_t>(dest);
    const auto s = reinterpret_cast<uintptr_t>(src);
    if ((d < s && d + count > s) || (s < d && s + count > d)) {
        std::memset(dest, 0, destMax);
        return EOVERLAP_AND_RESET;
    }
    std::memcpy(dest, src, count);
    return EOK;
}

inline errno_t memset_s(void* dest, size_t destMax, int c, size_t count)
{
    if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return ERANGE;
    if (dest == nullptr) return EINVAL;
    if (count > destMax) {
        std::memset(dest, c, destMax);
        return ERANGE_AND_RESET;
    }
    std::memset(dest, c, count);
    return EOK;
}
