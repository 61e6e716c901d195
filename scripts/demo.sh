#!/usr/bin/env bash
# The demo on a fresh machine: set-up, then examples/demo.py on the CPU twin.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
TORCH_DEVICE_BACKEND_AUTOLOAD=0 .venv/bin/python examples/demo.py "$@"
