"""The CANN branch of our CMake, configured without CANN.

The first two tests need nothing. The last one configures `cmake/cann_op_package.cmake` against CANN's real
Ascend C CMake modules (asc-devkit `cmake/asc/`, taken from a bare git mirror) in a stand-in CANN tree:
`include/` is the ascchk host checker's real header tree, `lib64/` holds empty stand-ins of the three
libraries the op_build step links, and `tools/opbuild/op_build` (closed source) is a stub that writes the
files the package CMake reads. Everything else runs for real, including `npu_op_code_gen`'s
`compile_ascendc_all_ops_so.py`, which compiles `op_host/*.cpp` with the system g++ exactly as CANN would.
It is skipped where the mirror or the ascchk build is missing (not in CI).
"""
import os
import shutil
import subprocess
import sys
import tarfile
import io

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIRRORS = os.environ.get("ASC_MIRRORS", "/work/.mirror")
DEVKIT = os.path.join(MIRRORS, "cannmirror+asc-devkit", "repo")
ASCCHK_INCLUDE = os.path.join(os.environ.get("ASCCHK_DIR", "/tmp/ascchk"), "host", "include")

OP_BUILD_STUB = r"""#!/usr/bin/env bash
# Stand-in for CANN's closed op_build: records its arguments and writes what the package CMake reads.
set -e
lib=$1; out=$2; units=${3#--compute_unit=}
echo "$@" > "$out/op_build.args"
[ -f "$lib" ] || { echo "op_build stub: $lib was not built" >&2; exit 1; }
echo '// generated aclnn API' > "$out/aclnn_vector_add.cpp"
echo '// generated op proto' > "$out/op_proto.cc"
IFS=';' read -ra socs <<< "$units"
for soc in "${socs[@]}"; do printf '[VectorAdd]\nopFile.value=vector_add\n' > "$out/aic-$soc-ops-info.ini"; done
"""


def cmake_exe():
    found = shutil.which("cmake") or os.path.join(os.path.dirname(sys.executable), "cmake")
    if not os.path.exists(found):
        pytest.skip("cmake is not installed")
    return found


def configure(build_dir, env_overrides, source=ROOT):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASCEND_")}
    env.update(env_overrides)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    return subprocess.run([cmake_exe(), "-S", source, "-B", str(build_dir), "-G", "Ninja",
                           "-DASCEND_PYTHON_EXECUTABLE=" + sys.executable],
                          capture_output=True, text=True, env=env, timeout=600)


def test_package_path_without_home_path_is_a_clear_error(tmp_path):
    proc = configure(tmp_path / "build", {"ASCEND_CANN_PACKAGE_PATH": str(tmp_path)})
    assert proc.returncode != 0
    assert "ASCEND_CANN_PACKAGE_PATH is set but ASCEND_HOME_PATH is not" in proc.stderr


def test_home_path_without_the_ascend_c_cmake_modules_is_a_clear_error(tmp_path):
    proc = configure(tmp_path / "build", {"ASCEND_HOME_PATH": str(tmp_path)})
    assert proc.returncode != 0
    assert "has no compiler/tikcpp/ascendc_kernel_cmake" in proc.stderr


def stand_in_cann(root):
    """A CANN tree with the real Ascend C CMake modules and headers and stubs for the closed parts."""
    modules = root / "compiler" / "tikcpp" / "ascendc_kernel_cmake"
    modules.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", DEVKIT, "archive", "HEAD", "cmake/asc"], capture_output=True, check=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        for member in tar.getmembers():
            parts = member.name.split("/", 2)
            if len(parts) == 3:
                member.name = parts[2]
                tar.extract(member, modules)
    (root / "include").symlink_to(ASCCHK_INCLUDE)
    (root / "lib64").mkdir()
    for lib in ("exe_graph", "register", "tiling_api"):
        subprocess.run(["gcc", "-x", "c", "-shared", "-fPIC", "-o", str(root / "lib64" / f"lib{lib}.so"), "-"],
                       input="", text=True, check=True)
    op_build = root / "tools" / "opbuild" / "op_build"
    op_build.parent.mkdir(parents=True)
    op_build.write_text(OP_BUILD_STUB)
    op_build.chmod(0o755)
    return root


@pytest.mark.skipif(not (os.path.isdir(DEVKIT) and os.path.isdir(ASCCHK_INCLUDE)),
                    reason="needs a bare git mirror of asc-devkit ($ASC_MIRRORS) and the ascchk host headers "
                           "(bash ../shared/tools/ascchk/build.sh); not in CI")
def test_op_package_configures_against_the_real_ascend_c_cmake_modules(tmp_path):
    cann = stand_in_cann(tmp_path / "cann")
    build = tmp_path / "build"
    proc = configure(build, {"ASCEND_HOME_PATH": str(cann)})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-6000:]

    autogen = build / "autogen"
    # npu_op_code_gen compiled op_host/*.cpp (at -std=c++11 plus our COMPILE_OPTIONS) and ran op_build
    # for both SoCs, which it takes from ASCEND_COMPUTE_UNIT itself.
    assert (autogen / "libascend_all_ops.so").is_file()
    assert "-std=c++17" in (autogen / "ascendc_all_ops.make").read_text()
    assert (autogen / "op_build.args").read_text().split()[-1] == "--compute_unit=ascend910b;ascend910_93"

    ninja = (build / "build.ninja").read_text()
    assert "-std=gnu++17" in ninja and "++20" not in ninja  # the CANN targets are C++17
    assert "_GLIBCXX_USE_CXX11_ABI=0" in ninja
    for target in ("cust_optiling", "cust_opapi", "cust_op_proto"):
        assert f"CMakeFiles/{target}.dir" in ninja, target
