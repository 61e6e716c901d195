"""The op database of the conformance suite: every ascend_ext op declares here, in one entry, what the
generic tests in test_conformance.py need — sample inputs, an independent float64 reference, per-dtype
tolerances, and its layer. Adding an op to the project means adding its entry here.

Samples cover 0-d, size-0, size-1, tails around 32-byte blocks, non-contiguous and broadcast operands,
large magnitudes and NaN/Inf. Inputs are drawn fresh on every run.
"""
import dataclasses
from typing import Callable, Dict, List, Tuple

import torch

import ascend_ext


@dataclasses.dataclass
class Sample:
    args: tuple  # tensors first; numbers may follow
    kwargs: dict
    name: str

    def map_tensors(self, fn) -> "Sample":
        return Sample(tuple(fn(a) if isinstance(a, torch.Tensor) else a for a in self.args), dict(self.kwargs),
                      self.name)


@dataclasses.dataclass
class OpEntry:
    name: str
    op: torch._ops.OpOverload              # the default overload, as torch.ops exposes it
    wrapper: Callable                      # the typed Python wrapper
    reference: Callable                    # float64 reference with the op's signature, written from the math
    samples: Callable[[torch.dtype], List[Sample]]
    tolerances: Dict[torch.dtype, dict]
    make_layer: Callable[[], Tuple[torch.nn.Module, Tuple[torch.Tensor, ...]]]  # a layer and an input for it
    batched_sample: Callable[[torch.dtype], Sample]  # a sample whose tensors vmap maps over dim 0
    unbacked: Callable[[torch.Tensor], torch.Tensor]  # op on data-dependent sizes (used under torch.compile)
    jacobian_sample: str  # the sample whose full Jacobians the jacfwd/jacrev test compares
    dtypes: Tuple[torch.dtype, ...] = (torch.float32, torch.float16, torch.bfloat16)

    @property
    def profiler_name(self) -> str:
        return f"ascend_ext::{self.name}"


def _rand(*shape, dtype=torch.float32, scale=1.0):
    return (torch.randn(shape, dtype=torch.float64) * scale).to(dtype)


# ---- vector_add ---------------------------------------------------------------------------------------


def _vector_add_reference(x, y, alpha=1.0):
    return x.double() + alpha * (y.double() if isinstance(y, torch.Tensor) else y)


def _vector_add_samples(dtype) -> List[Sample]:
    r = lambda *s, **k: _rand(*s, dtype=dtype, **k)  # noqa: E731
    special = torch.tensor([float("inf"), -float("inf"), float("nan"), 1.0e4, -0.0, 3.0], dtype=dtype)
    return [  # the first four all-tensor samples are the ones opcheck, compile and export use
        Sample((r(), r()), {}, "0-d"),
        Sample((r(4, 11), r(11)), {"alpha": 0.5}, "bias-broadcast"),
        Sample((r(4097), r(4097)), {"alpha": 0.75}, "tail-alpha"),
        Sample((r(9, 7).t(), r(7, 9)), {}, "non-contiguous"),
        Sample((r(0, 5), r(5)), {}, "size-0"),
        Sample((r(1), r(1)), {}, "size-1"),
        Sample((r(33), r(33)), {}, "tail"),
        Sample((r(37, 64).t(), r(64, 37)), {}, "non-contiguous-large"),
        Sample((r(6, 130), r(130)), {}, "bias-broadcast-large"),
        Sample((r(13), r(5, 13)), {"alpha": -2.0}, "broadcast-first"),
        Sample((r(3, 1, 5), r(4, 1)), {}, "mixed-broadcast"),
        Sample((r(2, 1, 3, 5).to(memory_format=torch.channels_last), r(3, 1, 1)), {}, "channels-last-bias"),
        Sample((r(300, scale=1e3), r(300, scale=1e3)), {}, "large-magnitude"),
        Sample((special, special.flip(0)), {}, "nan-inf"),
        Sample((r(2, 3, 4), 2.5), {}, "python-number"),
    ]


def _vector_add_layer():
    layer = ascend_ext.nn.ResidualAdd(torch.nn.Linear(8, 8))
    return layer, (_rand(3, 8),)


VECTOR_ADD = OpEntry(
    name="vector_add",
    op=torch.ops.ascend_ext.vector_add.default,
    wrapper=ascend_ext.vector_add,
    reference=_vector_add_reference,
    samples=_vector_add_samples,
    tolerances={
        torch.float64: dict(rtol=1e-12, atol=1e-12),
        torch.float32: dict(rtol=2e-6, atol=1e-6),
        torch.float16: dict(rtol=1e-3, atol=1e-5),
        torch.bfloat16: dict(rtol=8e-3, atol=1e-5),
    },
    make_layer=_vector_add_layer,
    batched_sample=lambda dtype: Sample((_rand(16, 5, 33, dtype=dtype), _rand(16, 33, dtype=dtype)), {}, "batched"),
    unbacked=lambda x: ascend_ext.vector_add(x[x > 0], x[x > 0] * 2),
    jacobian_sample="bias-broadcast",
)


# ---- dispersion_correction ------------------------------------------------------------------------------


def _dispersion_correction_reference(x, alpha, mode=1, eps=1e-5):
    """ARCHITECTURE.md §2: per row of the last dimension, mu = mean, var = population variance."""
    x = x.double()
    mu = x.mean(-1, keepdim=True)
    if mode == 0:
        return mu + alpha * (x - mu)
    var = ((x - mu) ** 2).mean(-1, keepdim=True)
    return mu + alpha * (x - mu) / torch.sqrt(var + eps)


def _dispersion_correction_samples(dtype) -> List[Sample]:
    r = lambda *s, **k: _rand(*s, dtype=dtype, **k)  # noqa: E731
    nan, inf = float("nan"), float("inf")
    special = torch.tensor([[nan, 1.0, 2.0, 3.0], [inf, 1.0, 2.0, 3.0], [1.0, 2.0, 3.0, 4.5], [-inf, inf, 0.0, 1.0]],
                           dtype=dtype)
    return [  # the first four are the ones opcheck, compile and export use
        Sample((r(8, 16),), {"alpha": 0.8}, "rows"),
        Sample((r(5, 33),), {"alpha": 1.5, "mode": 0}, "scale-mode"),
        Sample((r(2, 3, 7),), {"alpha": 0.5, "mode": 1, "eps": 1e-3}, "two-leading-dims"),
        Sample((r(7, 9).t(),), {"alpha": 0.8}, "non-contiguous"),
        Sample((r(13),), {"alpha": 2.0}, "one-row"),
        Sample((r(2, 2, 2, 5),), {"alpha": 0.3, "mode": 0}, "three-leading-dims"),
        Sample((r(1),), {"alpha": 0.8}, "size-1"),
        Sample((r(4, 1),), {"alpha": 0.8, "mode": 0}, "rows-of-one"),
        Sample((r(0, 5),), {"alpha": 0.8}, "size-0"),
        Sample((torch.full((3, 8), 2.5, dtype=dtype),), {"alpha": 0.8}, "constant-rows"),
        Sample((r(3, 300, scale=1e3),), {"alpha": 0.8}, "large-magnitude"),
        Sample((r(3, 4097),), {"alpha": -0.7, "mode": 0}, "tail"),
        Sample((r(2, 20000),), {"alpha": 0.8}, "multi-pass"),
        Sample((special,), {"alpha": 0.8}, "nan-inf"),
    ]


def _dispersion_correction_layer():
    layer = torch.nn.Sequential(torch.nn.Linear(8, 8), ascend_ext.nn.DispersionCorrection(alpha=0.8))
    return layer, (_rand(3, 8),)


DISPERSION_CORRECTION = OpEntry(
    name="dispersion_correction",
    op=torch.ops.ascend_ext.dispersion_correction.default,
    wrapper=ascend_ext.dispersion_correction,
    reference=_dispersion_correction_reference,
    samples=_dispersion_correction_samples,
    tolerances={
        torch.float64: dict(rtol=1e-10, atol=1e-10),
        torch.float32: dict(rtol=1e-5, atol=1e-5),
        torch.float16: dict(rtol=1e-3, atol=1e-3),
        torch.bfloat16: dict(rtol=8e-3, atol=8e-3),
    },
    make_layer=_dispersion_correction_layer,
    batched_sample=lambda dtype: Sample((_rand(16, 5, 33, dtype=dtype),), {"alpha": 0.8}, "batched"),
    unbacked=lambda x: ascend_ext.dispersion_correction(x[x > 0], 0.8),
    jacobian_sample="rows",
)


OP_DB: List[OpEntry] = [VECTOR_ADD, DISPERSION_CORRECTION]
