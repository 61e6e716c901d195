#include "op_package.h"

#include <cstdlib>
#include <sstream>

namespace ascend_ext {

namespace {
constexpr const char* kLibrary = "op_api/lib/libcust_opapi.so";

bool EndsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), std::string::npos, suffix) == 0;
}
}  // namespace

std::vector<std::string> OpPackageCandidates()
{
    std::vector<std::string> out;
    if (const char* lib = std::getenv("ASCEND_EXT_OPAPI_LIB")) out.emplace_back(lib);
    if (const char* custom = std::getenv("ASCEND_CUSTOM_OPP_PATH")) {
        std::stringstream dirs(custom);
        for (std::string dir; std::getline(dirs, dir, ':');) {
            while (!dir.empty() && dir.back() == '/') dir.pop_back();
            // Only our vendor's package: every custom package ships a libcust_opapi.so of its own.
            if (EndsWith(dir, std::string("/") + kOpPackageVendor)) out.push_back(dir + "/" + kLibrary);
        }
    }
    if (const char* opp = std::getenv("ASCEND_OPP_PATH")) {
        out.push_back(std::string(opp) + "/vendors/" + kOpPackageVendor + "/" + kLibrary);
    }
    return out;
}

}  // namespace ascend_ext

namespace {
thread_local std::string tCandidates;
}

// For ctypes: the candidates, one per line.
extern "C" __attribute__((visibility("default"))) const char* ascend_ext_op_package_candidates()
{
    tCandidates.clear();
    for (const std::string& c : ascend_ext::OpPackageCandidates()) tCandidates += c + "\n";
    return tCandidates.c_str();
}

extern "C" __attribute__((visibility("default"))) int ascend_ext_built_with_npu()
{
#if defined(ASCEND_EXT_WITH_TORCH_NPU)
    return 1;
#else
    return 0;
#endif
}
