"""The advanced-API forms the twin implements are the real ones: one kernel calling every form (math, Power,
the activations, SwiGLU, Sum, ArithProgression/Arange) compiles against the twin with the kernel front end
(clang, C++17) and, where the ascchk checkers are built (they hold the real asc-devkit headers; not in CI),
against the real headers in the CPU-debug configuration; likewise one host file calling every size function
(GetXxxMaxMinTmpSize ...) against the twin's host_include and the real CANN host headers. A form the twin lacks,
or declares differently, fails one of the two; a call the API does not have fails here."""
import os
import subprocess

import pytest

import ascend_ext
from ascend_ext.twin import KernelCompileError

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")
FORMS = os.path.join(KERNELS, "adv_api_forms.cpp")
ASCCHK = os.path.join(os.environ.get("ASCCHK_DIR", "/tmp/ascchk"), "check_kernel.sh")


def test_every_form_compiles_against_the_twin():
    lib = ascend_ext.twin.compile_kernels([FORMS])
    assert "adv_api_forms" in lib.entries


def test_a_form_the_api_does_not_have_fails(tmp_path):
    # Floor has no form without calCount (the A2 header declares only the two calCount forms).
    src = tmp_path / "floor_no_count.cpp"
    src.write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                   'extern "C" __global__ __aicore__ void k(GM_ADDR x)\n{\n'
                   '    LocalTensor<float> a, b;\n    Floor(a, b);\n    (void)x;\n}\n')
    with pytest.raises(KernelCompileError, match="Floor"):
        ascend_ext.twin.compile_kernels([str(src)])


@pytest.mark.skipif(not os.access(ASCCHK, os.X_OK), reason="the ascchk checkers (real Ascend C headers) are not built")
def test_every_form_compiles_against_the_real_headers():
    proc = subprocess.run(["bash", ASCCHK, FORMS, "--mode", "aiv"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]


HOST_FORMS = os.path.join(KERNELS, "adv_host_forms.cpp")
ASCCHK_HOST = os.path.join(os.environ.get("ASCCHK_DIR", "/tmp/ascchk"), "check_host.sh")
SDK = os.path.join(os.path.dirname(ascend_ext.__file__), "twin_sdk")


def test_every_host_size_function_compiles_against_the_twin():
    proc = subprocess.run([os.environ.get("CXX", "g++"), "-std=c++17", "-fsyntax-only", "-I",
                           os.path.join(SDK, "host_include"), "-I", os.path.join(SDK, "include"), HOST_FORMS],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]


@pytest.mark.skipif(not os.access(ASCCHK_HOST, os.X_OK), reason="the ascchk checkers (real CANN headers) are not built")
def test_every_host_size_function_compiles_against_the_real_headers():
    proc = subprocess.run(["bash", ASCCHK_HOST, HOST_FORMS, "--variants", "tiling"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]


CLASH = '''#include "kernel_operator.h"
{opening}struct RmsNormTiling {{
    uint32_t rows;
}};{closing}
extern "C" __global__ __aicore__ void tiling_clash(GM_ADDR x)
{{
    (void)x;
}}
'''


def test_a_kernel_struct_named_like_a_high_level_tiling_struct_fails(tmp_path):
    # kernel_tiling/kernel_tiling.h puts the 26 high-level tiling structs into the global namespace, as the real
    # header does: a kernel's own struct RmsNormTiling conflicts with it on the device, and here.
    src = tmp_path / "tiling_clash.cpp"
    src.write_text(CLASH.format(opening="", closing=""))
    with pytest.raises(KernelCompileError, match="RmsNormTiling"):
        ascend_ext.twin.compile_kernels([str(src)])


def test_the_same_struct_in_a_namespace_compiles(tmp_path):
    src = tmp_path / "tiling_no_clash.cpp"
    src.write_text(CLASH.format(opening="namespace mine {\n", closing="\n}  // namespace mine"))
    lib = ascend_ext.twin.compile_kernels([str(src)])
    assert "tiling_clash" in lib.entries


@pytest.mark.skipif(not os.access(ASCCHK, os.X_OK), reason="the ascchk checkers (real Ascend C headers) are not built")
def test_the_real_headers_reject_the_clash_too(tmp_path):
    src = tmp_path / "tiling_clash.cpp"
    src.write_text(CLASH.format(opening="", closing=""))
    proc = subprocess.run(["bash", ASCCHK, str(src), "--mode", "aiv"], capture_output=True, text=True)
    assert proc.returncode != 0 and "RmsNormTiling" in proc.stdout + proc.stderr
