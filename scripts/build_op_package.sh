#!/usr/bin/env bash
# NPU machines only: builds the ascend_ext custom op package with the CANN toolkit.
# Needs CANN 8.3+ set up in this shell (source <CANN>/set_env.sh, which sets ASCEND_HOME_PATH).
# Output: build/op_package/custom_opp_<os>_<arch>.run; install it with
#   build/op_package/custom_opp_*.run --install-path="$HOME/ascend_ext_opp"
#   source "$HOME/ascend_ext_opp/vendors/ascend_ext/bin/set_env.bash"
set -euo pipefail
cd "$(dirname "$0")/.."
CANN=${ASCEND_HOME_PATH:-}
if [ -z "$CANN" ]; then
    echo "build_op_package: ASCEND_HOME_PATH is unset (no CANN toolkit in this shell); run 'source <CANN install>/set_env.sh' first" >&2
    exit 1
fi
export CMAKE_PREFIX_PATH="$CANN/compiler/tikcpp/ascendc_kernel_cmake${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
cmake -S . -B build/op_package -DCMAKE_BUILD_TYPE=Release
cmake --build build/op_package --target binary package -j "$(nproc)"
ls -1 build/op_package/custom_opp_*.run
