#!/usr/bin/env bash
# The whole test suite on a fresh machine: set-up, the C++ tests (tiling, twin) with ctest, then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
export TORCH_DEVICE_BACKEND_AUTOLOAD=0
export PATH="$PWD/.venv/bin:$PATH"  # cmake, ninja and ctest from the venv

echo "== C++ tests (ctest) == (set-up took ${SECONDS} s)"
cmake -S . -B build/cmake -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build/cmake
ctest --test-dir build/cmake --output-on-failure

echo "== Python tests (pytest) == (${SECONDS} s so far)"
python -m pytest tests "$@"
