// The plan registry behind ascend_ext.twin.plan(): every op whose declaration names a plan function
// (al.Plan, generated into plans.h). Free of torch on purpose (cheap to build).
#include "plan_json.h"

#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>

#include "ascend_ext_generated/plans.h"  // the declared plan functions (cmake/builtin_ops.py)

namespace ascend_ext {

namespace {

const std::map<std::string, PlanFunction>& Plans()
{
    static const std::map<std::string, PlanFunction> plans = {ASCEND_EXT_BUILTIN_PLANS};
    return plans;
}

DType ParseDType(const char* name)
{
    for (DType d : {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kFloat64}) {
        if (std::strcmp(DTypeName(d), name) == 0) return d;
    }
    throw std::invalid_argument(std::string("unknown dtype '") + name + "'");
}

std::string PlanJson(const char* op, const std::vector<int64_t>& sizes, const char* dtype, const char* platform)
{
    const auto it = Plans().find(op);
    if (it == Plans().end()) throw std::invalid_argument(std::string("no tiling plan for op '") + op + "'");
    const PlatformInfo* info = FindPlatform(platform);
    if (info == nullptr) throw std::invalid_argument(std::string("unknown platform '") + platform + "'");
    for (int64_t s : sizes) {
        if (s < 0) throw std::invalid_argument("sizes must not be negative");
    }
    std::ostringstream os;
    os << "{\"op\":\"" << op << "\"";
    for (const auto& [name, value] : it->second(sizes, ParseDType(dtype), *info)) os << ",\"" << name << "\":" << value;
    os << "}";
    return os.str();
}

thread_local std::string tResult;

}  // namespace

}  // namespace ascend_ext

// C interface for ctypes: returns 0 and the JSON in *out, or 1 and an error message in *out.
extern "C" __attribute__((visibility("default"))) int ascend_ext_plan_json(const char* op, const int64_t* sizes,
                                                                           uint32_t nsizes, const char* dtype,
                                                                           const char* platform, const char** out)
{
    using namespace ascend_ext;
    try {
        tResult = PlanJson(op, std::vector<int64_t>(sizes, sizes + nsizes), dtype, platform);
        *out = tResult.c_str();
        return 0;
    } catch (const std::exception& e) {
        tResult = e.what();
        *out = tResult.c_str();
        return 1;
    }
}
