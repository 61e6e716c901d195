// ge::Shape as host tiling code uses it (CANN metadef inc/external/graph/tensor.h; graphStatus and its two
// codes are from graph/error_codes.h there). Host code only: the twin's kernel headers never include it.
// The subset the twin's host tiling functions take: the constructors, GetDimNum, GetDim, SetDim, GetDims,
// GetShapeSize, with the real header's documented results (GetDim of an invalid index is 0; GetShapeSize is
// 0 for a scalar, for a 0 dim and on int64 overflow, -1 for an unknown (negative) dim).
#pragma once

#include <cstdint>
#include <vector>

#include "graph/types.h"  // ge::DataType, as the real tensor.h includes it

namespace ge {

using graphStatus = uint32_t;
const graphStatus GRAPH_FAILED = 0xFFFFFFFF;
const graphStatus GRAPH_SUCCESS = 0;

class Shape {
public:
    Shape() = default;
    ~Shape() = default;
    explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}

    size_t GetDimNum() const
    {
        for (int64_t d : dims_) {
            if (d == -2) return 0;  // unknown rank
        }
        return dims_.size();
    }
    int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
    graphStatus SetDim(size_t idx, int64_t value)
    {
        if (idx >= dims_.size()) return GRAPH_FAILED;
        dims_[idx] = value;
        return GRAPH_SUCCESS;
    }
    std::vector<int64_t> GetDims() const { return dims_; }
    int64_t GetShapeSize() const
    {
        if (dims_.empty()) return 0;
        int64_t size = 1;
        for (int64_t d : dims_) {
            if (d < 0) return -1;
            if (d == 0) return 0;
            if (size > INT64_MAX / d) return 0;
            size *= d;
        }
        return size;
    }

private:
    std::vector<int64_t> dims_;
};

}  // namespace ge
