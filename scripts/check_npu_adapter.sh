#!/usr/bin/env bash
# Keeps the NPU path from rotting on machines without an NPU: compiles + links the PrivateUse1 build of the
# extension against the torch-npu 2.13.0 wheel (scripts/check_npu_adapter.py).
set -euo pipefail
cd "$(dirname "$0")/.."
# The torch-npu 2.13.0 wheel is unpacked next to the project's environment (.venv, the torch 2.13.0 it was
# built against), never installed into it: importing torch_npu needs CANN. The check finds its headers and
# libraries there (PYTHONPATH) and links against .venv's torch.
[ -x .venv/bin/python ] || bash scripts/bootstrap.sh
export TORCH_DEVICE_BACKEND_AUTOLOAD=0  # torch would otherwise try to load torch_npu at import
NPU_PKGS=build/torch_npu_wheel
if [ ! -f "$NPU_PKGS/torch_npu/__init__.py" ]; then
    rm -rf "$NPU_PKGS"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --target "$NPU_PKGS" torch-npu==2.13.0
fi
PYTHONPATH="$PWD/$NPU_PKGS${PYTHONPATH:+:$PYTHONPATH}" .venv/bin/python scripts/check_npu_adapter.py
