// Tiling plans as JSON for ascend_ext.twin.plan(): the op's Describe<Op>Plan fields, flat.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "platform_info.h"

namespace ascend_ext {

using PlanFields = std::vector<std::pair<const char*, uint64_t>>;

// Sizes are the op's shape arguments (vector_add: the element count, or the output shape).
using PlanFunction = PlanFields (*)(const std::vector<int64_t>& sizes, DType dtype, const PlatformInfo& platform);

}  // namespace ascend_ext
