// The plan registry behind ascend_ext.twin.plan(): one line per op.
#include "plan_json.h"

#include <cstring>
#include <functional>
#include <map>

#include "ops/vector_add.h"

namespace ascend_ext {

PlanJson::PlanJson(const char* op, const std::vector<int64_t>& sizes, const char* dtype, const char* platform)
{
    const DType all[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kFloat64};
    bool found = false;
    for (DType d : all) {
        if (std::strcmp(DTypeName(d), dtype) == 0) {
            dtype_ = d;
            found = true;
        }
    }
    if (!found) throw std::invalid_argument(std::string("unknown dtype '") + dtype + "'");
    platform_ = FindPlatform(platform);
    if (platform_ == nullptr) throw std::invalid_argument(std::string("unknown platform '") + platform + "'");
    for (int64_t s : sizes) {
        if (s < 0) throw std::invalid_argument("sizes must not be negative");
    }
    os_ << "{\"op\":\"" << op << "\"";
}

namespace {
using PlanFn = std::function<std::string(const std::vector<int64_t>&, const char*, const char*)>;
const std::map<std::string, PlanFn>& Plans()
{
    static const std::map<std::string, PlanFn> plans = {
        {"vector_add", VectorAddPlanJson},
    };
    return plans;
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
        auto it = Plans().find(op);
        if (it == Plans().end()) throw std::invalid_argument(std::string("no tiling plan for op '") + op + "'");
        tResult = it->second(std::vector<int64_t>(sizes, sizes + nsizes), dtype, platform);
        *out = tResult.c_str();
        return 0;
    } catch (const std::exception& e) {
        tResult = e.what();
        *out = tResult.c_str();
        return 1;
    }
}
