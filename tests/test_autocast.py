"""Autocast rules of the ops: AutocastCPU, and AutocastPrivateUse1 where an NPU is present."""
import pytest
import torch

import ascend_ext
from conftest import assert_matches_reference, rand


@pytest.mark.parametrize("low", [torch.bfloat16, torch.float16])
def test_vector_add_promotes_mixed_dtypes_under_autocast(low, device):
    x, y = rand(3, 40, device=device), rand(3, 40, dtype=low, device=device)
    with torch.autocast(device, dtype=low):
        z = ascend_ext.vector_add(x, y)
    assert_matches_reference(z, x.double() + y.double(), torch.float32)


def test_vector_add_keeps_a_common_dtype_under_autocast():
    x, y = rand(64, dtype=torch.bfloat16), rand(64, dtype=torch.bfloat16)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        z = ascend_ext.vector_add(x, y)
    assert z.dtype == torch.bfloat16


def test_vector_add_autocast_is_differentiable():
    x = rand(8, 16).requires_grad_()
    y = rand(16, dtype=torch.bfloat16).requires_grad_()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        z = ascend_ext.vector_add(x, y)
    z.sum().backward()
    assert x.grad.dtype == torch.float32 and y.grad.dtype == torch.bfloat16
    torch.testing.assert_close(y.grad, torch.full((16,), 8.0, dtype=torch.bfloat16))


def test_mixed_dtypes_promote_outside_autocast_too_like_torch_add():
    x, y = rand(4, dtype=torch.float16), rand(4, dtype=torch.bfloat16)
    z = ascend_ext.vector_add(x, y)
    assert z.dtype == torch.add(x, y).dtype == torch.float32
    assert_matches_reference(z, x.double() + y.double(), torch.float32)
