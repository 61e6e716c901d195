"""The twin compiles kernel sources with clang's C++17 front end, as the device compiler (bisheng, clang-based)
does: both directions. A call found only by argument-dependent lookup with explicit template arguments
(``ReduceSum<float>(...)``, which g++ rejects before C++20) compiles and runs; C++20 features that bisheng's C++17
rejects (a concept, a requires clause) still fail, although g++'s C++20 mode would accept them."""
import os
import subprocess

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelCompileError

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")


def test_adl_call_with_explicit_template_arguments_compiles_and_runs():
    lib = ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "adl_reduce_sum.cpp")])
    for n in (8, 1000):
        x = torch.randn(n)
        y = torch.zeros(1)
        stats = lib.launch("adl_reduce_sum", 1, x=x, y=y, n=n)
        ref = x.double().sum().item()
        assert abs(y.item() - ref) <= 1e-5 * (abs(ref) + x.abs().sum().item())
        assert stats.total.vector_element_ops["ReduceSum"] == n


def test_gnu_cxx17_rejects_the_same_source():
    # The evidence for the choice: g++ in C++17 (what the twin used before) refuses the ADL call.
    sdk = os.path.join(os.path.dirname(ascend_ext.__file__), "twin_sdk", "include")
    proc = subprocess.run([os.environ.get("CXX", "g++"), "-std=c++17", "-fsyntax-only", "-I", sdk, "-include",
                           "twin/kernel_target.h", os.path.join(KERNELS, "adl_reduce_sum.cpp")],
                          capture_output=True, text=True)
    assert proc.returncode != 0 and "ReduceSum" in proc.stderr


@pytest.mark.parametrize("construct, what", [
    ("template <typename T> concept Small = sizeof(T) <= 4;\n", "concept"),
    ("template <typename T> requires (sizeof(T) <= 4) void f(T) {}\n", "requires"),
    ("consteval int twice(int v) { return 2 * v; }\n", "consteval"),
])
def test_cxx20_features_bisheng_rejects_fail_here(tmp_path, construct, what):
    src = tmp_path / f"k_{what}.cpp"
    src.write_text('#include "kernel_operator.h"\n' + construct +
                   'extern "C" __global__ __aicore__ void k(GM_ADDR x) { (void)x; }\n')
    with pytest.raises(KernelCompileError, match=r"C\+\+17"):
        ascend_ext.twin.compile_kernels([str(src)])


def test_missing_clang_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCEND_TWIN_CLANG", str(tmp_path / "no-such-clang++"))
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR x) { (void)x; }\n')
    with pytest.raises(KernelCompileError, match=r"no-such-clang\+\+"):
        ascend_ext.twin.compile_kernels([str(src)])
