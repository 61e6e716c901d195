#!/usr/bin/env bash
# Keeps the NPU path from rotting on machines without an NPU: installs the torch-npu 2.13.0 wheel into
# its own environment (.venv-npu; it cannot be imported without CANN) and compiles + links the
# PrivateUse1 build of the extension against it (scripts/check_npu_adapter.py).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv-npu/bin/python ]; then
    "$PYTHON" -m venv .venv-npu
fi
export TORCH_DEVICE_BACKEND_AUTOLOAD=0  # with torch_npu installed, plain `import torch` would try to load it
.venv-npu/bin/python -m pip install --quiet --disable-pip-version-check torch==2.13.0 numpy pyyaml nlohmann-json==3.12.0
.venv-npu/bin/python -m pip install --quiet --disable-pip-version-check --no-deps torch-npu==2.13.0
.venv-npu/bin/python scripts/check_npu_adapter.py
