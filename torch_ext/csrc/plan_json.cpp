// The plan registry behind ascend_ext.twin.plan(): one line per op. Free of torch on purpose (cheap to build).
#include "plan_json.h"

#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>

#include "dispersion_correction_tiling.h"
#include "matmul_tiling.h"
#include "vector_add_tiling.h"

namespace ascend_ext {

namespace {

// The element count; like a torch tensor's numel it must fit in int64_t.
uint64_t Product(const std::vector<int64_t>& sizes)
{
    int64_t n = 1;
    for (int64_t s : sizes) {
        if (__builtin_mul_overflow(n, s, &n)) {
            throw std::invalid_argument("sizes hold more than 2^63 - 1 elements, more than any tensor can");
        }
    }
    return static_cast<uint64_t>(n);
}

const std::map<std::string, PlanFunction>& Plans()
{
    static const std::map<std::string, PlanFunction> plans = {
        // [n]: two operands of n elements; [rows, d]: rows x d plus a broadcast row of d elements.
        {"vector_add", [](const std::vector<int64_t>& sizes, DType dtype, const PlatformInfo& platform) {
             const uint64_t n = Product(sizes);
             VectorAddProblem p;
             p.rows = sizes.size() == 2 ? static_cast<uint64_t>(sizes[0]) : 1;
             p.rowLength = sizes.size() == 2 ? static_cast<uint64_t>(sizes[1]) : n;
             return DescribeVectorAddPlan(ComputeVectorAddTiling(p, dtype, platform));
         }},
        // [rows, d] (mode 1) or [rows, d, mode, backward]: x viewed as rows of d elements.
        {"dispersion_correction", [](const std::vector<int64_t>& sizes, DType dtype, const PlatformInfo& platform) {
             if (sizes.size() != 2 && sizes.size() != 4) {
                 throw std::invalid_argument("dispersion_correction plans take [rows, d] or [rows, d, mode, backward]");
             }
             DispersionCorrectionProblem p;
             p.rows = static_cast<uint64_t>(sizes[0]);
             p.rowLength = static_cast<uint64_t>(sizes[1]);
             if (sizes.size() == 4) {
                 p.mode = static_cast<uint32_t>(sizes[2]);
                 p.backward = sizes[3] != 0;
             }
             return DescribeDispersionCorrectionPlan(ComputeDispersionCorrectionTiling(p, dtype, platform));
         }},
        // [m, n, k] or [m, n, k, trans_a, trans_b, has_bias]
        {"matmul", [](const std::vector<int64_t>& s, DType dtype, const PlatformInfo& platform) {
             if (s.size() != 3 && s.size() != 6) {
                 throw std::invalid_argument("matmul sizes: [m, n, k] or [m, n, k, trans_a, trans_b, has_bias]");
             }
             const bool flags = s.size() == 6;
             return DescribeMatmulPlan(ComputeMatmulTiling(static_cast<uint64_t>(s[0]), static_cast<uint64_t>(s[1]),
                                                           static_cast<uint64_t>(s[2]), dtype, flags && s[3], flags && s[4],
                                                           flags && s[5], platform));
         }},
    };
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
