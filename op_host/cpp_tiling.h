// The one signature of a C++ tiling function of a declared op (ascend_ext.library.CppTiling):
//
//     ascend_ext::TilingDecision F(const ascend_ext::TilingArgs& args, const ascend_ext::PlatformInfo& platform,
//                                  Data& data);
//
// `args` holds the op's tensors (shape and dtype, in the schema's order) and its numbers (in the schema's
// order); F fills `data`, the tiling struct its kernel reads (GET_TILING_DATA), and returns the launch's
// block dim, workspace and tiling key. On the host ascend_ext.library calls F through a generated extern "C"
// shim (ctypes); a CANN TilingFunc calls the same F on a gert::TilingContext (cann_glue.h, RunCppTiling).
// Pure C++17: no torch, no CANN.
#pragma once

#include <cstdint>

#include "platform_info.h"

namespace ascend_ext {

inline constexpr uint32_t kTilingMaxTensors = 16;
inline constexpr uint32_t kTilingMaxDims = 8;
inline constexpr uint32_t kTilingMaxAttrs = 16;
inline constexpr uint32_t kTilingOtherDType = 0xFFFFFFFFu;  // an element type DType does not name

struct TilingTensor {
    uint32_t present;   // 0: an optional tensor passed as None
    uint32_t dtype;     // a DType value, or kTilingOtherDType (elemSize still tells its size)
    uint32_t elemSize;  // bytes per element
    uint32_t dim;
    int64_t sizes[kTilingMaxDims];

    DType Type() const { return static_cast<DType>(dtype); }
    uint64_t Numel() const
    {
        uint64_t n = 1;
        for (uint32_t i = 0; i < dim; ++i) n *= static_cast<uint64_t>(sizes[i]);
        return n;
    }
};

// A number of the schema: a float in `real`; an int or a bool in `integer` (and, converted, in `real`).
struct TilingAttr {
    double real;
    int64_t integer;
};

struct TilingArgs {
    uint32_t numTensors;
    uint32_t numAttrs;
    TilingTensor tensors[kTilingMaxTensors];
    TilingAttr attrs[kTilingMaxAttrs];
};

struct TilingDecision {
    uint32_t blockDim = 0;        // cores to launch (1 or more)
    uint64_t workspaceBytes = 0;  // the kernel's own workspace (the system part is added where registered)
    uint64_t tilingKey = 0;
    const char* error = nullptr;  // non-null: these arguments cannot be tiled, and why (a string literal)
};

template <typename Data>
using TilingFunction = TilingDecision (*)(const TilingArgs&, const PlatformInfo&, Data&);

// The tiling struct of a tiling function, for decltype (declared, never defined).
template <typename Data>
Data TilingDataOf(TilingDecision (*)(const TilingArgs&, const PlatformInfo&, Data&));

}  // namespace ascend_ext
