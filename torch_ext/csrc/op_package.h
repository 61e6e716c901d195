// Where the ascend_ext op package (libcust_opapi.so) is looked for. Pure C++, compiled on every build:
// the NPU loader uses it, and `python -m ascend_ext doctor` reports it on machines without an NPU.
#pragma once

#include <string>
#include <vector>

namespace ascend_ext {

inline constexpr const char* kOpPackageVendor = "ascend_ext";

// Candidate paths of libcust_opapi.so, most specific first: ASCEND_EXT_OPAPI_LIB (an explicit file, which
// must still lie under an ASCEND_CUSTOM_OPP_PATH entry: the generated aclnn code finds the kernels and the
// tiling library through the vendor paths; `doctor` checks it), the
// ascend_ext entries of ASCEND_CUSTOM_OPP_PATH (what the package's set_env.bash adds), then
// $ASCEND_OPP_PATH/vendors/ascend_ext.
std::vector<std::string> OpPackageCandidates();

}  // namespace ascend_ext
