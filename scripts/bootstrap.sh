#!/usr/bin/env bash
# Sets up a fresh machine for ascend_ext: a virtual environment in .venv with torch (CPU), the build
# tools and the test tools, then builds ascend_ext and installs it there. Safe to run again: the C++
# build is incremental (ninja keeps its state in build/).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}

# clang's C++17 front end: the twin checks and compiles kernel sources with it (ascend_ext.twin.compile_kernels,
# the built-in kernels' front-end test), because the device compiler (bisheng) is clang-based and accepts what
# clang accepts, e.g. a call like ReduceSum<float>(...) found by argument-dependent lookup (docs/twin.md).
if ! command -v clang++-14 > /dev/null && ! command -v clang++ > /dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
        apt-get update -qq > /dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang-14 > /dev/null
    else
        echo "ascend_ext bootstrap: clang++ is missing; install clang (Debian: apt-get install clang-14)" >&2
        exit 1
    fi
fi
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
export TORCH_DEVICE_BACKEND_AUTOLOAD=0  # torch_npu, where installed, cannot load without CANN
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
export MAX_JOBS=${MAX_JOBS:-$(nproc)}
.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-build-isolation .
