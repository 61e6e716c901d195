"""The op database of the conformance suite: every ascend_ext op declares here, in one entry, what the
generic checks of ascend_ext.testing need — sample inputs, an independent float64 reference, per-dtype
tolerances, and its layer. Each entry is an ascend_ext.testing.OpTest, the same description a user's op
gets from ascend_ext.testing.check_op; test_conformance.py runs every check on every entry.

Samples cover 0-d, size-0, size-1, tails around 32-byte blocks, non-contiguous and broadcast operands,
large magnitudes and NaN/Inf. Inputs are drawn fresh on every run.
"""
from typing import List, Optional

import torch
from torch import Tensor

import ascend_ext
from ascend_ext.testing import OpTest, Sample


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


VECTOR_ADD = OpTest(
    dtypes=(torch.float32, torch.float16, torch.bfloat16),
    scriptable=True,
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
    batched_sample=lambda dtype: (Sample((_rand(16, 5, 33, dtype=dtype), _rand(16, 33, dtype=dtype)), {}, "batched"),
                                  (0, 0)),
    sized_sample=lambda n: Sample((_rand(n, 11), _rand(11)), {}, "sized"),
    unbacked=lambda x: ascend_ext.vector_add(x[x > 0], x[x > 0] * 2),
    jacobian_sample="bias-broadcast",
)


# ---- matmul -------------------------------------------------------------------------------------------


def _matmul_call(a: Tensor, b: Tensor, bias: Optional[Tensor] = None, trans_a: bool = False,
                 trans_b: bool = False) -> Tensor:
    """The wrapper with bias positional, so that the generic tests differentiate through it."""
    return ascend_ext.matmul(a, b, trans_a, trans_b, bias)


def _matmul_reference(a, b, bias=None, trans_a=False, trans_b=False):
    a64, b64 = a.double(), b.double()
    out = (a64.t() if trans_a else a64) @ (b64.t() if trans_b else b64)
    return out + bias.double() if bias is not None else out


def _matmul_samples(dtype) -> List[Sample]:
    r = lambda *s, **k: _rand(*s, dtype=dtype, **k)  # noqa: E731
    special = r(4, 6)
    special[0, 1], special[2, 3], special[3, 0] = float("nan"), float("inf"), -float("inf")
    return [  # the first four all-tensor samples are the ones opcheck, compile and export use
        Sample((r(1, 1), r(1, 1)), {}, "1x1x1"),
        Sample((r(5, 7), r(7, 3), r(3)), {}, "bias"),
        Sample((r(17, 65), r(33, 65)), {"trans_b": True}, "trans-b"),
        Sample((r(9, 4), r(9, 6), r(6)), {"trans_a": True}, "trans-a-bias"),
        Sample((r(8, 5), r(6, 8)), {"trans_a": True, "trans_b": True}, "trans-both"),
        Sample((r(6, 4).t(), r(6, 3)), {}, "transposed-view"),
        Sample((r(5, 14)[:, ::2], r(7, 4)), {}, "non-contiguous"),
        Sample((r(0, 5), r(5, 3)), {}, "m-0"),
        Sample((r(4, 0), r(0, 3), r(3)), {}, "k-0-bias"),
        # products of 30 x 30 summed over K = 40: absolute errors scale with the terms, not the result
        Sample((r(13, 40, scale=30.0), r(40, 11, scale=30.0)), {}, "large-magnitude", atol_scale=900.0),
        Sample((special, r(6, 5)), {}, "nan-inf"),
    ]


def _matmul_op_args(sample: Sample):
    args, kwargs = sample.args, dict(sample.kwargs)
    if len(args) > 2:
        kwargs["bias"] = args[2]
    return args[:2], kwargs


def _matmul_layer():
    return ascend_ext.nn.Linear(8, 4), (_rand(2, 3, 8),)


MATMUL = OpTest(
    autocast="lower",  # runs in the autocast dtype, like torch.mm
    dtypes=(torch.float32, torch.float16, torch.bfloat16),
    scriptable=True,
    name="matmul",
    op=torch.ops.ascend_ext.matmul.default,
    wrapper=_matmul_call,
    reference=_matmul_reference,
    samples=_matmul_samples,
    tolerances={  # float32 accumulation (float64 in the twin's float64 build); the result rounded once
        torch.float64: dict(rtol=1e-12, atol=1e-12),
        torch.float32: dict(rtol=2e-5, atol=2e-5),
        torch.float16: dict(rtol=2e-3, atol=2e-3),
        torch.bfloat16: dict(rtol=1e-2, atol=1e-2),
    },
    make_layer=_matmul_layer,
    batched_sample=lambda dtype: (Sample((_rand(12, 5, 7, dtype=dtype), _rand(7, 3, dtype=dtype)), {}, "batched"),
                                  (0, None)),
    sized_sample=lambda n: Sample((_rand(n, 7), _rand(7, 5), _rand(5)), {}, "sized"),
    unbacked=lambda x: ascend_ext.matmul(x[x > 0].unsqueeze(1), torch.ones(1, 3)),
    jacobian_sample="trans-a-bias",
    op_args=_matmul_op_args,
)


# ---- dispersion_correction ------------------------------------------------------------------------------


def _dispersion_correction_reference(x, alpha, mode=1, eps=1e-5):
    """README, dispersion_correction: per row of the last dimension, mu = mean, var = population variance."""
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
        # rows of N(0, 1e3^2): y = mu + alpha * z adds terms up to ~200 in magnitude (the row means), so an
        # output near 0 carries their rounding: absolute error scales with them
        Sample((r(3, 300, scale=1e3),), {"alpha": 0.8}, "large-magnitude", atol_scale=20.0),
        Sample((r(3, 4097),), {"alpha": -0.7, "mode": 0}, "tail"),
        Sample((r(2, 20000),), {"alpha": 0.8}, "multi-pass"),
        Sample((special,), {"alpha": 0.8}, "nan-inf"),
    ]


def _dispersion_correction_layer():
    layer = torch.nn.Sequential(torch.nn.Linear(8, 8), ascend_ext.nn.DispersionCorrection(alpha=0.8))
    return layer, (_rand(3, 8),)


DISPERSION_CORRECTION = OpTest(
    dtypes=(torch.float32, torch.float16, torch.bfloat16),
    scriptable=True,
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
    batched_sample=lambda dtype: (Sample((_rand(16, 5, 33, dtype=dtype),), {"alpha": 0.8}, "batched"), (0,)),
    sized_sample=lambda n: Sample((_rand(n, 11),), {"alpha": 0.8}, "sized"),
    unbacked=lambda x: ascend_ext.dispersion_correction(x[x > 0], 0.8),
    jacobian_sample="rows",
)


OP_DB: List[OpTest] = [VECTOR_ADD, MATMUL, DISPERSION_CORRECTION]
