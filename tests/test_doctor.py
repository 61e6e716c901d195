"""`python -m ascend_ext doctor` explains what the NPU path needs, on a machine without it."""
import os
import subprocess
import sys

import pytest

from conftest import NPU_AVAILABLE

ENTRY_POINTS = ["aclnnVectorAdd", "aclnnMatmulCube", "aclnnDispersionCorrection", "aclnnDispersionCorrectionGrad"]
ACLNN = [name for fn in ENTRY_POINTS for name in (fn + "GetWorkspaceSize", fn)]


def run_doctor(*args, **env_overrides):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASCEND_")}
    env.update(env_overrides)
    return subprocess.run([sys.executable, "-m", "ascend_ext", "doctor", *args], capture_output=True, text=True,
                          env=env, timeout=300)


def doctor(**env_overrides):
    proc = run_doctor(**env_overrides)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def fake_op_package(tmp_path, symbols):
    """A stand-in libcust_opapi.so laid out as the package installer lays it out, exporting `symbols`."""
    vendor = tmp_path / "vendors" / "ascend_ext"
    lib_dir = vendor / "op_api" / "lib"
    lib_dir.mkdir(parents=True)
    src = tmp_path / "opapi.c"
    src.write_text("".join(f"int {name}(void) {{ return 0; }}\n" for name in symbols))
    subprocess.run(["gcc", "-shared", "-fPIC", str(src), "-o", str(lib_dir / "libcust_opapi.so")], check=True)
    return vendor


@pytest.mark.skipif(NPU_AVAILABLE, reason="describes a machine without an NPU")
def test_machine_without_cann():
    out = doctor()
    assert "[  ok   ] CPU twin runs the kernels" in out
    assert "[missing] CANN toolkit: none found" in out
    assert "source <install>/set_env.sh" in out
    assert "torch_npu" in out and ("not installed" in out or "does not import" in out)
    assert "ascend_ext._C is the CPU build" in out
    assert "[missing] ascend_ext op package (libcust_opapi.so): looked in nowhere" in out
    assert "bash scripts/build_op_package.sh" in out
    assert "The NPU path is not usable here" in out


def test_cann_path_that_does_not_exist_is_a_problem(tmp_path):
    out = doctor(ASCEND_HOME_PATH=str(tmp_path / "no-such-cann"))
    assert f"[problem] ASCEND_HOME_PATH={tmp_path / 'no-such-cann'} is not a directory" in out


def test_installed_op_package_is_found_and_its_entry_points_listed(tmp_path):
    vendor = fake_op_package(tmp_path, ACLNN)
    out = doctor(ASCEND_CUSTOM_OPP_PATH=f"/elsewhere/vendors/other:{vendor}")
    assert f"[  ok   ] op package at {vendor}/op_api/lib/libcust_opapi.so exports {', '.join(ENTRY_POINTS)}" in out


def test_outdated_op_package_names_the_missing_entry_points(tmp_path):
    vendor = fake_op_package(tmp_path, ACLNN[:1])
    out = doctor(ASCEND_OPP_PATH=str(tmp_path))
    missing = ", ".join(ACLNN[1:])
    assert f"lacks {missing} (built from an older ascend_ext)" in out


def test_other_vendors_packages_are_not_taken_for_ours(tmp_path):
    other = fake_op_package(tmp_path, ACLNN).parent / "someone_else"
    out = doctor(ASCEND_CUSTOM_OPP_PATH=str(other))
    assert "[missing] ascend_ext op package" in out
    # The variable is set: say what it holds, never that it is unset.
    assert f"ASCEND_CUSTOM_OPP_PATH={other} has no ascend_ext entry" in out
    assert "ASCEND_CUSTOM_OPP_PATH is unset" not in out and "are unset" not in out


def test_unknown_twin_platform_is_reported_not_a_crash():
    proc = run_doctor(ASCEND_EXT_TWIN_PLATFORM="bogus")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert "[problem] CPU twin cannot run the kernels: ascend_ext: ASCEND_EXT_TWIN_PLATFORM='bogus'" in proc.stdout
    assert "fix: unset ASCEND_EXT_TWIN_PLATFORM" in proc.stdout


@pytest.mark.skipif(NPU_AVAILABLE, reason="describes a machine without an NPU")
def test_require_npu_fails_where_the_npu_path_is_not_ready():
    proc = run_doctor("--require", "npu")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "The NPU path is not usable here" in proc.stdout
    assert run_doctor().returncode == 0  # without --require, a working twin is success


def test_explicit_library_outside_the_vendor_paths_is_a_problem(tmp_path):
    vendor = fake_op_package(tmp_path, ACLNN)
    lib = vendor / "op_api" / "lib" / "libcust_opapi.so"
    out = doctor(ASCEND_EXT_OPAPI_LIB=str(lib))
    assert f"[problem] op package library {lib} (from ASCEND_EXT_OPAPI_LIB) is not under an entry" in out
    assert "source <install>/vendors/ascend_ext/bin/set_env.bash" in out
    out = doctor(ASCEND_EXT_OPAPI_LIB=str(lib), ASCEND_CUSTOM_OPP_PATH=str(vendor))
    assert "is not under an entry" not in out
    assert f"[  ok   ] op package at {lib} exports {', '.join(ENTRY_POINTS)}" in out
