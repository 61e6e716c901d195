"""The device compiler's type names (`__bf16`, `float32_t`, `float16_t`), its folding of constant conversions
to bfloat16_t and its scalar min/max, on the twin's clang front end (docs/twin.md, "Differences from the NPU"
and the scalar rules): constants convert with round-to-nearest-even, run-time values are refused in every
form; min/max take int32_t, uint32_t, int64_t and uint64_t pairs, a mixed pair is ambiguous."""
import os
import random

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelCompileError

SOURCE = os.path.join(os.path.dirname(__file__), "kernels", "device_type_names.cpp")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([SOURCE], defines={"FAULT": "0"})


def test_bf16_constants_fold_round_to_nearest_even(lib):
    scale = random.uniform(0.5, 1000.0)
    out = torch.zeros(16, dtype=torch.bfloat16)
    lib.launch("bf16_constants", 1, out=out, scale=scale)
    s = torch.tensor(scale, dtype=torch.float32).double()
    # float64 values rounded once to bfloat16 by torch (round-to-nearest-even), independent of the twin.
    third = torch.tensor(1.0, dtype=torch.float32) / 3.0
    expect = [float("-inf"), third.item(), torch.tensor(2.718281828, dtype=torch.float64).float().item(),
              65504.0 * 4, 7.0, 1.0 + 1.0 / 256]
    for i in range(6, 16):
        s = s * 0.5
        expect.append(s.item())
    expect = torch.tensor(expect, dtype=torch.float64).to(torch.bfloat16)
    assert out.view(torch.int16).tolist() == expect.view(torch.int16).tolist()
    assert out[5].item() == 1.0  # the tie went to the even neighbour


@pytest.mark.parametrize("fault, message", [
    (1, "made from no run-time number"),
    (2, "made from no run-time number"),
    (3, "made from no run-time number"),
    (4, "made from no run-time number"),
    (5, "made from no number on A2"),
])
def test_run_time_conversions_to_bf16_are_refused(fault, message):
    with pytest.raises(KernelCompileError, match=message):
        ascend_ext.twin.compile_kernels([SOURCE], defines={"FAULT": str(fault)})


def test_float32_t_and_float16_t_tensors_run(lib):
    n = 64 * random.randint(1, 32)
    x = torch.randn(n) * 100
    y = torch.zeros(n, dtype=torch.float16)
    lib.launch("named_types", 1, x=x, y=y, n=n)
    expect = (x.double() * 2).to(torch.float16)  # one rounding of the exact product
    assert torch.equal(y, expect)


def test_scalar_min_max_overloads(lib):
    a, b = (random.randint(-2**40, 2**40) for _ in range(2))
    c, d = (random.randint(0, 2**32 - 1) for _ in range(2))
    out = torch.zeros(8, dtype=torch.int64)
    lib.launch("scalar_min_max", 1, out=out, a=a, b=b, c=c, d=d)

    def wrap32(v):  # the int32_t the kernel's static_cast makes of an int64_t
        return (v + 2**31) % 2**32 - 2**31
    expect = [min(a, b), max(a, b), min(c, d), max(c, d), min(wrap32(a), wrap32(b)), max(wrap32(a), wrap32(b)),
              min(c, d), max(c, d)]
    assert out.tolist() == expect


@pytest.mark.parametrize("fault, message", [
    (6, r"call to 'min' is ambiguous"),
    (7, r"call to 'max' is ambiguous"),
])
def test_mixed_or_floating_min_max_do_not_compile(fault, message):
    with pytest.raises(KernelCompileError, match=message):
        ascend_ext.twin.compile_kernels([SOURCE], defines={"FAULT": str(fault)})
