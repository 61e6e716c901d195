// How the NPU adapter describes a tensor to aclCreateTensor. Pure C++ (no torch, no CANN), so the C++
// tests check it on every machine (tests/cpp/test_npu_operand_layout.cpp).
//
// Our kernels read a flat run of numel elements from the data pointer and their TilingFunc sizes the
// work from the operand's origin (view) shape. So every operand is described exactly as the bytes the
// kernel may touch: view dims = storage dims = the tensor's sizes, contiguous strides, offset 0, data =
// the address of the tensor's first element. A view into a larger storage (a[1], chunk()) is thereby
// passed as what it is, never as its whole storage. Anything else (a non-contiguous view, a private
// NPU format such as FRACTAL_NZ or NC1HWC0) is first turned into such a tensor by the adapter.
#pragma once

#include <cstdint>
#include <vector>

namespace ascend_ext::npu {

// aclFormat values (CANN acl_base.h) the adapter needs to tell apart.
inline constexpr int64_t kAclFormatND = 2;

// True for the formats in which an NPU tensor's bytes are its elements in row-major order (ND and the
// named plain layouts NCHW, NHWC, HWCN, NDHWC, NCDHW, NC, NCL). Private formats (NC1HWC0, FRACTAL_Z,
// FRACTAL_NZ, NDC1HWC0, FRACTAL_Z_3D, NC1HWC0_C04, the FRACTAL_NZ_C0_* family) and unknown values are
// padded or blocked: the kernels cannot read them as a flat array.
inline constexpr bool IsPlainFormat(int64_t aclFormat)
{
    switch (aclFormat) {
        case 0:   // NCHW
        case 1:   // NHWC
        case 2:   // ND
        case 16:  // HWCN
        case 27:  // NDHWC
        case 30:  // NCDHW
        case 35:  // NC
        case 47:  // NCL
            return true;
        default:
            return false;
    }
}

// Row-major strides of `sizes`.
inline std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& sizes)
{
    std::vector<int64_t> strides(sizes.size(), 1);
    for (size_t i = sizes.size(); i > 1; --i) {
        strides[i - 2] = strides[i - 1] * (sizes[i - 1] > 1 ? sizes[i - 1] : 1);
    }
    return strides;
}

// True when a tensor with these sizes/strides holds its elements densely in row-major order from its
// first element on (dims of size 1 may have any stride), i.e. it can be described by OperandLayout.
inline bool IsDenseRowMajor(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides)
{
    if (sizes.size() != strides.size()) return false;
    int64_t expected = 1;
    for (size_t i = sizes.size(); i-- > 0;) {
        if (sizes[i] == 0) return true;  // empty: nothing to address
        if (sizes[i] != 1 && strides[i] != expected) return false;
        expected *= sizes[i];
    }
    return true;
}

// The arguments of aclCreateTensor (other than dtype, format and data) for a dense row-major tensor.
struct OperandLayout {
    std::vector<int64_t> viewDims;
    std::vector<int64_t> strides;
    int64_t offset = 0;
    std::vector<int64_t> storageDims;
};

inline OperandLayout DescribeDenseOperand(const std::vector<int64_t>& sizes)
{
    return OperandLayout{sizes, ContiguousStrides(sizes), 0, sizes};
}

}  // namespace ascend_ext::npu
