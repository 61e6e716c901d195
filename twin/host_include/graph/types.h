// ge::DataType as host tiling code uses it (CANN metadef inc/external/graph/types.h; the values are those of
// c_types.h there). Host code only: the twin's kernel headers never include it.
#pragma once

#include <cstdint>

// A unit holding kernel and host code at once (the twin's C++ tests) has seen kernel_type.h's DT_* macros
// (twin/kernel_type_names.h) when it reaches this header: the host's enumerators replace them here, as CANN's
// kernel_type.h leaves the macros out of its mixed host/device units (__NPU_HOST__, __ASCC_HOST__). Kernel
// code of such a unit that compares DT_* in #if sees them undefined.
#define ASCEND_TWIN_GE_DATA_TYPE 1
#ifdef DT_FLOAT
#undef DT_FLOAT
#undef DT_FLOAT16
#undef DT_INT8
#undef DT_INT32
#undef DT_UINT8
#undef DT_INT16
#undef DT_UINT16
#undef DT_INT64
#undef DT_UINT32
#undef DT_UINT64
#undef DT_DOUBLE
#undef DT_BOOL
#undef DT_STRING
#undef DT_DUAL_SUB_INT8
#undef DT_DUAL_SUB_UINT8
#undef DT_COMPLEX64
#undef DT_COMPLEX128
#undef DT_QINT8
#undef DT_QINT16
#undef DT_QINT32
#undef DT_QUINT8
#undef DT_QUINT16
#undef DT_RESOURCE
#undef DT_STRING_REF
#undef DT_DUAL
#undef DT_VARIANT
#undef DT_BF16
#undef DT_UNDEFINED
#undef DT_INT4
#undef DT_UINT1
#undef DT_INT2
#undef DT_UINT2
#undef DT_COMPLEX32
#undef DT_HIFLOAT8
#undef DT_FLOAT8_E5M2
#undef DT_FLOAT8_E4M3FN
#undef DT_FLOAT8_E8M0
#undef DT_FLOAT6_E3M2
#undef DT_FLOAT6_E2M3
#undef DT_FLOAT4_E2M1
#undef DT_FLOAT4_E1M2
#undef DT_MAX
#endif

namespace ge {

enum DataType {
    DT_FLOAT = 0,
    DT_FLOAT16 = 1,
    DT_INT8 = 2,
    DT_INT32 = 3,
    DT_UINT8 = 4,
    DT_INT16 = 6,
    DT_UINT16 = 7,
    DT_UINT32 = 8,
    DT_INT64 = 9,
    DT_UINT64 = 10,
    DT_DOUBLE = 11,
    DT_BOOL = 12,
    DT_STRING = 13,
    DT_DUAL_SUB_INT8 = 14,
    DT_DUAL_SUB_UINT8 = 15,
    DT_COMPLEX64 = 16,
    DT_COMPLEX128 = 17,
    DT_QINT8 = 18,
    DT_QINT16 = 19,
    DT_QINT32 = 20,
    DT_QUINT8 = 21,
    DT_QUINT16 = 22,
    DT_RESOURCE = 23,
    DT_STRING_REF = 24,
    DT_DUAL = 25,
    DT_VARIANT = 26,
    DT_BF16 = 27,
    DT_UNDEFINED = 28,
    DT_INT4 = 29,
    DT_UINT1 = 30,
    DT_INT2 = 31,
    DT_UINT2 = 32,
    DT_COMPLEX32 = 33,
    DT_HIFLOAT8 = 34,
    DT_FLOAT8_E5M2 = 35,
    DT_FLOAT8_E4M3FN = 36,
    DT_FLOAT8_E8M0 = 37,
    DT_FLOAT6_E3M2 = 38,
    DT_FLOAT6_E2M3 = 39,
    DT_FLOAT4_E2M1 = 40,
    DT_FLOAT4_E1M2 = 41,
    DT_HIFLOAT4 = 42,
    DT_MAX
};

}  // namespace ge
