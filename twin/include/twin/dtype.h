// Element types the twin builds and registers kernels for (twin/kernel_variant.h). Float64 exists only on
// the twin, so that gradients can be checked in double precision; the NPU package is built for the first three.
#pragma once

#include <cstdint>

namespace ascend_twin {

enum class DType : uint32_t { kFloat32 = 0, kFloat16 = 1, kBFloat16 = 2, kFloat64 = 3 };

inline constexpr uint32_t DTypeSize(DType t)
{
    return t == DType::kFloat64 ? 8 : (t == DType::kFloat32 ? 4 : 2);
}

inline constexpr const char* DTypeName(DType t)
{
    switch (t) {
        case DType::kFloat32: return "float32";
        case DType::kFloat16: return "float16";
        case DType::kBFloat16: return "bfloat16";
        case DType::kFloat64: return "float64";
    }
    return "?";
}

}  // namespace ascend_twin
