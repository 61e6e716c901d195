"""The hazard detector and the compiler's automatic synchronisation: scalar UB accesses (GetValue,
SetValue) need no hand-written flags against V, MTE2 and MTE3 (the compiler inserts them), while MTE2 ->
V still does."""
import os

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "scalar_auto_sync.cpp")])


def test_scalar_accesses_between_pipes_run_clean(lib):
    x = torch.arange(8, dtype=torch.float32) + 1
    y = torch.zeros(8)
    lib.launch("scalar_between_pipes", 1, x=x, y=y)
    assert torch.equal(y, x + 1)


def test_vector_read_of_an_unsynchronised_copy_is_a_hazard(lib):
    with pytest.raises(KernelRuleViolation, match=r"RAW hazard: 'Adds' on pipe V reads UB bytes \[0, 32\), which "
                                                  r"'DataCopy\(GM->UB\)' on pipe MTE2 wrote"):
        lib.launch("vector_without_copy_flag", 1, x=torch.ones(8), y=torch.zeros(8))
