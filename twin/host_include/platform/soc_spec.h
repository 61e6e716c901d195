// NpuArch as CANN declares it (hicann runtime pkg_inc/platform/soc_spec.h): the architectures the twin's
// host functions tell apart. The twin models A2 (DAV_2201) only.
#pragma once

#include <cstdint>

enum class NpuArch : uint32_t {
    DAV_2002 = 2002,
    DAV_2201 = 2201,
    DAV_3510 = 3510,
    DAV_RESV = 0xFFFF
};
