"""Cores accumulating into the same GM bytes with SetAtomicAdd are legal; plain overlapping writes, or a
plain write over bytes other cores accumulate into, are not."""
import os

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "atomic_add.cpp")])


@pytest.mark.parametrize("cores", [1, 3, 8])
def test_atomic_accumulation_across_cores(lib, cores):
    x = torch.randint(-100, 100, (8 * cores,)).float()  # integers: the sum is exact in any order
    y = torch.full((8,), 0.5)
    stats = lib.launch("atomic_accumulate", cores, x=x, y=y)
    assert torch.equal(y, 0.5 + x.view(cores, 8).sum(0))
    assert stats.total.gm_bytes_written == 32 * cores


@pytest.mark.parametrize("kernel,detail", [
    ("plain_accumulate", r"accumulate with SetAtomicAdd<T> if that is meant"),
    ("mixed_accumulate", r"one of them accumulating atomically, the other overwriting"),
])
def test_overlapping_plain_writes_stay_a_violation(lib, kernel, detail):
    with pytest.raises(KernelRuleViolation, match=r"no two cores write the same GM bytes.*bytes \[0, 32\) of GM "
                                                  r"buffer 'y'.*" + detail):
        # each core's 8 values differ from the others' (with equal values plain writes would be harmless)
        lib.launch(kernel, 3, x=torch.randperm(24).float() + 1, y=torch.zeros(8))
