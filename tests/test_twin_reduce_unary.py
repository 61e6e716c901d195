"""The twin's ReduceSum and Sqrt admit exactly A2's dtypes: a kernel using them on bfloat16 does not compile,
as it would not on the NPU (their semantics are tested in tests/cpp/test_twin_reduce_unary.cpp)."""
import os

import pytest

import ascend_ext
from ascend_ext.twin import KernelCompileError

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")


def test_bfloat16_reduce_sum_and_sqrt_do_not_compile():
    with pytest.raises(KernelCompileError) as info:
        ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "bf16_reduce_sqrt.cpp")])
    assert "ReduceSum on A2 supports half and float" in str(info.value)
    assert "Sqrt on A2 supports half and float" in str(info.value)
