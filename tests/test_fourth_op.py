"""Adding a built-in op is the files the README's "Adding an op" lists, and no edit to any other file.

tests/fourth_op/ holds a fourth op, scale_shift (y = x * a + b, float32 and float16, float64 on the twin),
laid out as it would be added to the project: its kernel and kernel-side tiling struct, its C++ host tiling,
its declaration, the op package's glue (it gives the op the aclnn path) and its tests. These tests copy the
project's sources to a temporary folder, add those files, and build what the build builds from them, in this
subset (the whole pip install takes minutes): the generators of cmake/builtin_ops.py run in a Python without
torch (as CMake's configure step runs them) and pick the op up in every generated list; the op's generated
twin builds compile with g++ and with clang's front end (the two compiles the CMake build makes of every
kernel); its kernel and its op package glue compile against the real CANN headers where the ascchk checkers
are built; and in a fresh process whose ascend_ext finds the new declaration, the project's own conformance
suite (tests/test_conformance.py, whose database gets the op's entry from its declaration) and the op's
tests pass. Nothing of the project but the new files is touched, and test_conformance's check that every
registered op is declared and has an entry runs there too.
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOURTH = os.path.join(ROOT, "tests", "fourth_op")
NEW_FILES = sorted(os.path.relpath(os.path.join(d, f), FOURTH) for d, _, files in os.walk(FOURTH)
                   for f in files if not f.endswith(".pyc"))
# The parts of the project the build reads (the twin's headers for the kernel builds, the tests to run).
PARTS = ("op_kernel", "op_host", "cmake", "torch_ext", "tests", os.path.join("twin", "include"), "README.md")
ASCCHK = os.environ.get("ASCCHK_DIR", "/tmp/ascchk")


def _digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _files(root):
    return {os.path.relpath(os.path.join(d, f), root) for d, _, files in os.walk(root) for f in files}


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """The project's sources with the fourth op's files added (and nothing else changed)."""
    copy = tmp_path_factory.mktemp("project")
    ignore = shutil.ignore_patterns("__pycache__", "twin_sdk", "builtin_sources", "fourth_op", "*.so")
    for part in PARTS:
        src = os.path.join(ROOT, part)
        if os.path.isdir(src):
            shutil.copytree(src, copy / part, ignore=ignore)
        else:
            shutil.copy(src, copy / part)
    before = _files(copy)
    for rel in NEW_FILES:
        assert rel not in before, f"{rel} is not a new file"
        os.makedirs(os.path.dirname(copy / rel), exist_ok=True)
        shutil.copy(os.path.join(FOURTH, rel), copy / rel)
    return copy


def test_a_fourth_op_is_at_most_six_new_files_and_edits_nothing(tree):
    assert len(NEW_FILES) <= 6, NEW_FILES
    assert sorted(_files(tree) - _files(ROOT)) == NEW_FILES
    for rel in sorted(_files(tree) - set(NEW_FILES)):  # every other file is the project's, byte for byte
        assert _digest(tree / rel) == _digest(os.path.join(ROOT, rel)), rel
    # The README's list is this list, by the same paths.
    readme = open(os.path.join(ROOT, "README.md")).read()
    section = readme[readme.index("### Adding an op"):]
    section = section[:section.index("\n## ")]
    for rel in NEW_FILES:
        assert f"`{rel.replace('scale_shift', '<op>')}`" in section, f"README 'Adding an op' does not list {rel}"


def _generate(tree, out, what):
    """cmake/builtin_ops.py of the copy, in a Python where importing torch fails."""
    script = (f"import sys, runpy; sys.modules['torch'] = None; "
              f"sys.argv = ['builtin_ops.py', {str(tree)!r}, {str(out)!r}, {what!r}]; "
              f"runpy.run_path({str(tree / 'cmake' / 'builtin_ops.py')!r}, run_name='__main__')")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split(";")


def test_the_generators_pick_it_up_without_torch(tree, tmp_path):
    twin = _generate(tree, tmp_path / "twin", "twin")
    assert sorted(os.path.basename(p) for p in twin if "scale_shift" in p) == [
        "scale_shift_float16.cpp", "scale_shift_float32.cpp", "scale_shift_float64.cpp"]
    _generate(tree, tmp_path / "cann", "cann")
    assert "npu_op_kernel_sources(ascendc_kernels OP_TYPE ScaleShift KERNEL_FILE scale_shift.cpp)" in \
        (tmp_path / "cann" / "ops.cmake").read_text()
    ports = (tmp_path / "cann" / "ascend_ext_ports" / "ScaleShift.h").read_text()
    assert 'def.Input("x").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})' in ports
    assert 'def.Attr("a").AttrType(ops::REQUIRED).Float();' in ports and 'kAttrKinds[] = "ff"' in ports
    extension = _generate(tree, tmp_path / "torch", "torch")
    generated = tmp_path / "torch" / "include" / "ascend_ext_generated"
    assert "inline void ScaleShift(const char* op, const at::Tensor& x, double a, double b, const at::Tensor& y)" in \
        (generated / "aclnn.h").read_text()
    # A declared op defines its schema from Python and needs none of the extension's kernel builds.
    assert "scale_shift" not in (generated / "schemas.inc").read_text()
    assert not [p for p in extension if "scale_shift" in p]


def test_its_twin_builds_compile_as_the_cmake_build_compiles_them(tree, tmp_path):
    sources = [p for p in _generate(tree, tmp_path, "twin") if "scale_shift" in p]
    include = [f"-I{tree / d}" for d in ("twin/include", "op_host", "op_kernel", ".")]
    clang = shutil.which("clang++") or shutil.which("clang++-14")
    for src in sources:
        proc = subprocess.run([os.environ.get("CXX", "g++"), "-std=c++17", "-O1", "-Wall", "-Wextra",
                               "-Werror=return-type", *include, "-c", src, "-o", str(tmp_path / "k.o")],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        if clang:
            proc = subprocess.run([clang, "-std=c++17", "-fsyntax-only", *include, src], capture_output=True, text=True)
            assert proc.returncode == 0, proc.stderr


@pytest.mark.skipif(not os.path.exists(os.path.join(ASCCHK, "check_host.sh")),
                    reason=f"the ascchk checkers are not built ({ASCCHK}); scripts/check_cann_sources.sh says how")
def test_its_cann_sources_compile_against_the_real_headers(tree, tmp_path):
    _generate(tree, tmp_path, "cann")
    for dtype in ("float", "half"):
        proc = subprocess.run([os.path.join(ASCCHK, "check_kernel.sh"), str(tree / "op_kernel" / "scale_shift.cpp"),
                               str(tree / "op_kernel")], capture_output=True, text=True,
                              env={**os.environ, "CHECK_DTYPE": dtype})
        assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = subprocess.run([os.path.join(ASCCHK, "check_host.sh"), str(tree / "op_host" / "scale_shift.cpp"),
                           str(tree / "op_host"), str(tmp_path), "--std", "gnu++17", "--opbuild-options",
                           f"-std=c++17 -I{tmp_path}"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


PLUGIN = """\
# Lets the installed ascend_ext find the copy's op declarations, as an installed copy of that tree would.
import os

import ascend_ext.ops

ascend_ext.ops.__path__.append(os.environ["FOURTH_OP_DECLARATIONS"])
ascend_ext.ops.load()
"""


def test_its_conformance_entry_and_its_tests_pass_in_a_fresh_process(tree, tmp_path):
    (tmp_path / "fourth_op_plugin.py").write_text(PLUGIN)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]),
           "FOURTH_OP_DECLARATIONS": str(tree / "torch_ext" / "ascend_ext" / "ops")}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "fourth_op_plugin", "-p", "no:cacheprovider",
                           str(tree / "tests" / "test_conformance.py"), str(tree / "tests" / "test_scale_shift.py"),
                           "-k", "scale_shift or declared_and_in_the_database"],
                          capture_output=True, text=True, env=env, cwd=str(tree), timeout=1200)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
    results = dict(re.findall(r"^tests/(\S+) (PASSED|SKIPPED|FAILED)", proc.stdout, flags=re.M))
    conformance = [t for t, r in results.items() if t.startswith("test_conformance.py::test_conformance[")]
    assert conformance and all(t.endswith("-scale_shift]") for t in conformance)
    assert sum(results[t] == "PASSED" for t in conformance) >= 12, proc.stdout[-3000:]
    assert results["test_conformance.py::test_every_builtin_op_is_declared_and_in_the_database"] == "PASSED"
    own = [t for t in results if t.startswith("test_scale_shift.py::")]
    assert len(own) >= 3 and all(results[t] == "PASSED" for t in own), proc.stdout[-3000:]
