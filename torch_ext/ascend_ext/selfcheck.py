"""A run of every built-in op against its float64 reference: used by ``doctor`` (one line per op and dtype) and
by the demo's report (per-op max error).

``OP_CHECKS`` has one entry per op whose declaration gives ``samples=`` and ``reference=`` (the conformance
entry's): fresh samples of the dtype, the op run on ``device``, the reference computed in float64 from the
same (rounded) inputs. Samples whose reference is not finite or empty (NaN/Inf propagation, size 0) are
left to the conformance suite.
"""
import dataclasses
from typing import Callable, Dict, List, Sequence, Tuple, Union

import torch
from torch import Tensor

# Largest max-abs error accepted, relative to the reference's largest magnitude (at least 1): a few
# roundings in the result dtype (float32 accumulation of <= 64 terms for matmul).
RELATIVE_TOLERANCE = {torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}

Pairs = Union[Tuple[Tensor, Tensor], List[Tuple[Tensor, Tensor]]]


def _outputs(out) -> Tuple[Tensor, ...]:
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def _run_samples(declaration, dtype: torch.dtype, device: str) -> List[Tuple[Tensor, Tensor]]:
    """(result, float64 reference) for each output of each of the declaration's samples of `dtype`."""
    from . import testing

    t = declaration.op_test()
    pairs = []
    for sample in t.samples(dtype):
        fn, tensors = testing.split(t, sample)
        refs = _outputs(testing.reference_fn(t, sample)(*[x.double() if x.is_floating_point() else x
                                                          for x in tensors]))
        if any(r.numel() == 0 or not bool(r.isfinite().all()) for r in refs):
            continue
        declared = [m.dtype for m in _outputs(fn(*[x.to("meta") for x in tensors]))]
        outs = _outputs(fn(*[x.to(device) for x in tensors]))
        for out, ref, want in zip(outs, refs, declared):
            if out.dtype != want or out.shape != ref.shape:
                raise RuntimeError(f"sample {sample.name}: result is {out.dtype} {tuple(out.shape)}, expected {want} "
                                   f"{tuple(ref.shape)}")
            pairs.append((out, ref))
    return pairs


def _declared_checks() -> Dict[str, Callable[[torch.dtype, str], Pairs]]:
    from .ops import declarations

    return {d.name: (lambda dtype, device, d=d: _run_samples(d, dtype, device))
            for d in declarations() if d.samples is not None and d.reference is not None}


class _Checks(dict):
    """The checks by op name, filled from the declarations at the first use (importing this module declares
    nothing, so the demo's and doctor's command lines load cheaply)."""

    _filled = False

    def _fill(self) -> None:
        if not self._filled:
            self._filled = True
            for name, fn in _declared_checks().items():
                dict.setdefault(self, name, fn)

    def __getitem__(self, key):
        self._fill()
        return dict.__getitem__(self, key)

    def __setitem__(self, key, value):
        self._fill()
        dict.__setitem__(self, key, value)

    def __delitem__(self, key):
        self._fill()
        dict.__delitem__(self, key)

    def __contains__(self, key):
        self._fill()
        return dict.__contains__(self, key)

    def __iter__(self):
        self._fill()
        return dict.__iter__(self)

    def __len__(self):
        self._fill()
        return dict.__len__(self)

    def get(self, key, default=None):
        self._fill()
        return dict.get(self, key, default)

    def keys(self):
        self._fill()
        return dict.keys(self)

    def items(self):
        self._fill()
        return dict.items(self)

    def values(self):
        self._fill()
        return dict.values(self)


OP_CHECKS: Dict[str, Callable[[torch.dtype, str], Pairs]] = _Checks()


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
    """The op on its samples; the result reports the output whose error is largest against its tolerance."""
    try:
        pairs = OP_CHECKS[op](dtype, device)
        pairs = [pairs] if isinstance(pairs, tuple) else list(pairs)
        if not pairs:
            raise RuntimeError("no sample with a finite, non-empty reference")
        worst = None
        for out, ref in pairs:
            err = (out.cpu().double() - ref).abs().max().item() if out.numel() else 0.0
            tol = RELATIVE_TOLERANCE[dtype] * max(1.0, ref.abs().max().item() if ref.numel() else 0.0)
            if worst is None or err / tol > worst[0] / worst[1]:
                worst = (err, tol)
    except Exception as exc:  # reported, not raised: doctor lists every op
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return CheckResult(op, dtype, float("nan"), float("nan"), error=first)
    return CheckResult(op, dtype, worst[0], worst[1])


def check_all(dtypes: Sequence[torch.dtype] = (torch.float32,), device: str = "cpu") -> List[CheckResult]:
    return [check_op(op, dtype, device) for op in OP_CHECKS for dtype in dtypes]
