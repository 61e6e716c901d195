"""One small run of every op against a float64 reference: used by ``doctor`` (one line per op) and by the
demo's report (per-op max error).

Each entry of ``OP_CHECKS`` makes fresh inputs in float64, runs the op on ``device`` in ``dtype`` and
computes the reference in float64 from the same (rounded) inputs.
"""
import dataclasses
from typing import Callable, Dict, List, Tuple

import torch
from torch import Tensor

# Largest max-abs error accepted, relative to the reference's largest magnitude (at least 1): a few
# roundings in the result dtype (float32 accumulation of <= 64 terms for matmul).
RELATIVE_TOLERANCE = {torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}


def _vector_add(dtype: torch.dtype, device: str) -> Tuple[Tensor, Tensor]:
    import ascend_ext

    x, y = torch.randn(3, 257, dtype=torch.float64), torch.randn(257, dtype=torch.float64)
    xs, ys = x.to(dtype), y.to(dtype)
    out = ascend_ext.vector_add(xs.to(device), ys.to(device), alpha=0.5)
    return out, xs.double() + 0.5 * ys.double()


def _matmul(dtype: torch.dtype, device: str) -> Tuple[Tensor, Tensor]:
    import ascend_ext

    a, b, bias = (torch.randn(*s, dtype=torch.float64) for s in [(48, 64), (40, 64), (40,)])
    a_, b_, bias_ = a.to(dtype), b.to(dtype), bias.to(dtype)
    out = ascend_ext.matmul(a_.to(device), b_.to(device), trans_b=True, bias=bias_.to(device))
    return out, a_.double() @ b_.double().t() + bias_.double()


def _dispersion_correction(dtype: torch.dtype, device: str) -> Tuple[Tensor, Tensor]:
    import ascend_ext

    x = (torch.randn(6, 300, dtype=torch.float64) * 2 + 3).to(dtype).double()
    out = ascend_ext.dispersion_correction(x.to(dtype).to(device), 0.8, mode=1, eps=1e-5)
    mean = x.mean(-1, keepdim=True)
    std = ((x - mean).square().mean(-1, keepdim=True) + 1e-5).sqrt()
    return out, mean + 0.8 * (x - mean) / std


OP_CHECKS: Dict[str, Callable[[torch.dtype, str], Tuple[Tensor, Tensor]]] = {
    "vector_add": _vector_add,
    "matmul": _matmul,
    "dispersion_correction": _dispersion_correction,
}


@dataclasses.dataclass(frozen=True)
class CheckResult:
    op: str
    dtype: torch.dtype
    max_error: float
    tolerance: float
    error: str = ""  # the exception's first line when the op raised

    @property
    def ok(self) -> bool:
        return not self.error and self.max_error <= self.tolerance

    def line(self) -> str:
        name = str(self.dtype).replace("torch.", "")
        if self.error:
            return f"{self.op} ({name}) raised: {self.error}"
        return f"{self.op} ({name}): max |error| vs float64 = {self.max_error:.2e} (tolerance {self.tolerance:.1e})"


def check_op(op: str, dtype: torch.dtype = torch.float32, device: str = "cpu") -> CheckResult:
    try:
        out, ref = OP_CHECKS[op](dtype, device)
        if out.dtype != dtype or out.shape != ref.shape:
            raise RuntimeError(f"result is {out.dtype} {tuple(out.shape)}, expected {dtype} {tuple(ref.shape)}")
        err = (out.cpu().double() - ref).abs().max().item()
    except Exception as exc:  # reported, not raised: doctor lists every op
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return CheckResult(op, dtype, float("nan"), float("nan"), error=first)
    return CheckResult(op, dtype, err, RELATIVE_TOLERANCE[dtype] * max(1.0, ref.abs().max().item()))


def check_all(dtypes=(torch.float32,), device: str = "cpu") -> List[CheckResult]:
    return [check_op(op, dtype, device) for op in OP_CHECKS for dtype in dtypes]
