#!/usr/bin/env bash
# Sets up a fresh machine for ascend_ext: a virtual environment in .venv with torch (CPU), the build
# tools and the test tools, then builds ascend_ext and installs it there. Safe to run again: the C++
# build is incremental (ninja keeps its state in build/).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
export TORCH_DEVICE_BACKEND_AUTOLOAD=0  # torch_npu, where installed, cannot load without CANN
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
export MAX_JOBS=${MAX_JOBS:-$(nproc)}
.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-build-isolation .
