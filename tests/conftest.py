"""Shared helpers: per-dtype tolerances and float64 references."""
import os

os.environ.setdefault("TORCH_DEVICE_BACKEND_AUTOLOAD", "0")  # torch_npu may be installed without CANN

import pytest  # noqa: E402

# tests/fourth_op/ is an op's files as they would be added to the project (test_fourth_op.py adds them to a
# copy of it): its test file runs there, not here.
collect_ignore = ["fourth_op"]
import torch  # noqa: E402

import ascend_ext  # noqa: E402,F401  registers torch.ops.ascend_ext

KERNEL_DTYPES = [torch.float32, torch.float16, torch.bfloat16]


def _npu_status():
    """(available, reason): NPU cases run only where torch_npu imports and sees a device."""
    try:
        import torch_npu  # noqa: F401
    except Exception as exc:  # not installed, or installed without CANN
        first_line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return False, f"torch_npu does not import here ({first_line})"
    if not torch.npu.is_available():
        return False, "torch.npu.is_available() is False"
    return True, ""


NPU_AVAILABLE, NPU_SKIP_REASON = _npu_status()
DEVICES = ["cpu", pytest.param("npu", marks=pytest.mark.skipif(not NPU_AVAILABLE, reason=NPU_SKIP_REASON))]

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
    torch.testing.assert_close(actual.cpu().double(), reference64.cpu(), **TOLERANCES[dtype])


def rand(*shape, dtype=torch.float32, scale=1.0, device="cpu"):
    """Fresh random normal values (never all zeros), rounded to dtype."""
    return (torch.randn(shape, dtype=torch.float64) * scale).to(dtype).to(device)


@pytest.fixture(params=DEVICES)
def device(request):
    """Every device the ops run on here: the CPU twin always, the NPU where one is present."""
    return request.param


@pytest.fixture(params=KERNEL_DTYPES, ids=lambda d: str(d).replace("torch.", ""))
def dtype(request):
    return request.param
