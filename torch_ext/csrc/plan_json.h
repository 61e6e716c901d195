// Writes a tiling plan as a flat JSON object, for the Python plan() helper and the snapshot tests.
#pragma once

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "platform_info.h"

namespace ascend_ext {

class PlanJson {
public:
    PlanJson(const char* op, const std::vector<int64_t>& sizes, const char* dtype, const char* platform);

    DType dtype() const { return dtype_; }
    const PlatformInfo& platform() const { return *platform_; }

    PlanJson& Field(const char* name, uint64_t value)
    {
        os_ << ",\"" << name << "\":" << value;
        return *this;
    }
    std::string Str() const { return os_.str() + "}"; }

private:
    DType dtype_;
    const PlatformInfo* platform_;
    std::ostringstream os_;
};

}  // namespace ascend_ext
