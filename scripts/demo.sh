#!/usr/bin/env bash
# The demo on a fresh machine: set-up, then `python -m ascend_ext demo` (training with our layers next to
# torch's, on the NPU when one is present, else on the CPU twin). Arguments go to the demo, e.g. --amp bf16.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
TORCH_DEVICE_BACKEND_AUTOLOAD=0 .venv/bin/python -m ascend_ext demo "$@"
