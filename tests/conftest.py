"""Shared helpers: per-dtype tolerances and float64 references."""
import os

os.environ.setdefault("TORCH_DEVICE_BACKEND_AUTOLOAD", "0")  # torch_npu may be installed without CANN

import pytest  # noqa: E402
import torch  # noqa: E402

import ascend_ext  # noqa: E402,F401  registers torch.ops.ascend_ext

KERNEL_DTYPES = [torch.float32, torch.float16, torch.bfloat16]

# One rounding of a result in the dtype: half an ulp relative, with room for a second rounding.
TOLERANCES = {
    torch.float64: dict(rtol=1e-12, atol=1e-12),
    torch.float32: dict(rtol=2e-6, atol=1e-6),
    torch.float16: dict(rtol=1e-3, atol=1e-6),
    torch.bfloat16: dict(rtol=8e-3, atol=1e-6),
}


def assert_matches_reference(actual: torch.Tensor, reference64: torch.Tensor, dtype: torch.dtype) -> None:
    """actual (in dtype) against a float64 reference computed from the same inputs, upcast."""
    assert actual.dtype == dtype, f"result dtype {actual.dtype}, expected {dtype}"
    assert actual.shape == reference64.shape
    torch.testing.assert_close(actual.double(), reference64, **TOLERANCES[dtype])


def rand(*shape, dtype=torch.float32, scale=1.0):
    """Fresh random normal values (never all zeros), rounded to dtype."""
    return (torch.randn(shape, dtype=torch.float64) * scale).to(dtype)


@pytest.fixture(params=KERNEL_DTYPES, ids=lambda d: str(d).replace("torch.", ""))
def dtype(request):
    return request.param
