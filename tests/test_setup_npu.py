"""setup.py's choice between the NPU build and the CPU-only build, on a machine without CANN.

A stand-in torch_npu that fails to import the way the real one does without CANN's set_env.sh shows what a
user sees: a warning (CPU-only build) or, with ASCEND_EXT_REQUIRE_NPU=1, an error.
"""
import os
import subprocess
import sys

import pytest

from conftest import NPU_AVAILABLE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

pytestmark = pytest.mark.skipif(NPU_AVAILABLE, reason="describes a machine without a working torch_npu")


def setup_py(tmp_path, *, broken_torch_npu, **env_overrides):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASCEND_EXT_")}
    env.update(env_overrides)
    if broken_torch_npu:
        pkg = tmp_path / "site" / "torch_npu"
        pkg.mkdir(parents=True)
        (pkg / "__init__.py").write_text(
            'raise ImportError("libhccl.so: cannot open shared object file: No such file or directory")\n')
        env["PYTHONPATH"] = str(tmp_path / "site") + os.pathsep + env.get("PYTHONPATH", "")
    # --name: setup.py makes its build decision, then prints the name without building anything.
    return subprocess.run([sys.executable, "setup.py", "--name"], cwd=ROOT, capture_output=True, text=True,
                          env=env, timeout=300)


def test_broken_torch_npu_warns_and_builds_cpu_only(tmp_path):
    proc = setup_py(tmp_path, broken_torch_npu=True)
    assert proc.returncode == 0, proc.stderr
    assert "torch_npu is installed but does not import (ImportError: libhccl.so" in proc.stderr
    assert "building WITHOUT the NPU adapter" in proc.stderr
    assert "ASCEND_EXT_REQUIRE_NPU=1" in proc.stderr


def test_require_npu_turns_a_broken_torch_npu_into_an_error(tmp_path):
    proc = setup_py(tmp_path, broken_torch_npu=True, ASCEND_EXT_REQUIRE_NPU="1")
    assert proc.returncode != 0
    assert "ASCEND_EXT_REQUIRE_NPU=1 stops the build" in proc.stderr
    assert "libhccl.so" in proc.stderr


def test_require_npu_without_torch_npu_is_an_error(tmp_path):
    import importlib.util

    if importlib.util.find_spec("torch_npu") is not None:
        pytest.skip("torch_npu is installed in this Python")
    proc = setup_py(tmp_path, broken_torch_npu=False, ASCEND_EXT_REQUIRE_NPU="1")
    assert proc.returncode != 0
    assert "ASCEND_EXT_REQUIRE_NPU=1 but torch_npu is not installed" in proc.stderr


def test_no_torch_npu_is_a_quiet_cpu_only_build(tmp_path):
    proc = setup_py(tmp_path, broken_torch_npu=False)
    assert proc.returncode == 0, proc.stderr
    assert "WITHOUT the NPU adapter" not in proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "ascend_ext"
