"""The op database of the conformance suite: one ascend_ext.testing.OpTest per built-in op, the same
description a user's op gets from ascend_ext.testing.check_op. Each entry starts from the op's declaration
(torch_ext/ascend_ext/ops/<op>.py: its samples, independent float64 reference and per-dtype tolerances, via
``op_test()``); the native ops add here what only their hand-written Python and C++ have (a typed wrapper's
calling convention, a layer, their vmap and dynamic-size samples). An op declared with samples and a
reference gets the whole suite with no line here. test_conformance.py runs every check on every entry.

Samples cover 0-d, size-0, size-1, tails around 32-byte blocks, non-contiguous and broadcast operands,
large magnitudes and NaN/Inf. Inputs are drawn fresh on every run.
"""
from typing import Dict, List

import torch

import ascend_ext
from ascend_ext.ops import declarations
from ascend_ext.testing import OpTest, Sample


def _rand(*shape, dtype=torch.float32, scale=1.0):
    return (torch.randn(shape, dtype=torch.float64) * scale).to(dtype)


def _vector_add_layer():
    layer = ascend_ext.nn.ResidualAdd(torch.nn.Linear(8, 8))
    return layer, (_rand(3, 8),)


def _matmul_op_args(sample: Sample):
    """The dispatcher-level op takes bias by keyword; the samples give it third."""
    args, kwargs = sample.args, dict(sample.kwargs)
    if len(args) > 2:
        kwargs["bias"] = args[2]
    return args[:2], kwargs


def _matmul_layer():
    return ascend_ext.nn.Linear(8, 4), (_rand(2, 3, 8),)


def _dispersion_correction_layer():
    layer = torch.nn.Sequential(torch.nn.Linear(8, 8), ascend_ext.nn.DispersionCorrection(alpha=0.8))
    return layer, (_rand(3, 8),)


# What the native ops add to their declarations' entries.
NATIVE_EXTRAS: Dict[str, dict] = {
    "vector_add": dict(
        scriptable=True,
        wrapper=ascend_ext.vector_add,
        make_layer=_vector_add_layer,
        batched_sample=lambda dtype: (Sample((_rand(16, 5, 33, dtype=dtype), _rand(16, 33, dtype=dtype)), {},
                                             "batched"), (0, 0)),
        sized_sample=lambda n: Sample((_rand(n, 11), _rand(11)), {}, "sized"),
        unbacked=lambda x: ascend_ext.vector_add(x[x > 0], x[x > 0] * 2),
        jacobian_sample="bias-broadcast",
    ),
    "matmul": dict(
        autocast="lower",  # runs in the autocast dtype, like torch.mm
        scriptable=True,
        make_layer=_matmul_layer,
        batched_sample=lambda dtype: (Sample((_rand(12, 5, 7, dtype=dtype), _rand(7, 3, dtype=dtype)), {},
                                             "batched"), (0, None)),
        sized_sample=lambda n: Sample((_rand(n, 7), _rand(7, 5), _rand(5)), {}, "sized"),
        unbacked=lambda x: ascend_ext.matmul(x[x > 0].unsqueeze(1), torch.ones(1, 3)),
        jacobian_sample="trans-a-bias",
        op_args=_matmul_op_args,
    ),
    "dispersion_correction": dict(
        scriptable=True,
        wrapper=ascend_ext.dispersion_correction,
        make_layer=_dispersion_correction_layer,
        batched_sample=lambda dtype: (Sample((_rand(16, 5, 33, dtype=dtype),), {"alpha": 0.8}, "batched"), (0,)),
        sized_sample=lambda n: Sample((_rand(n, 11),), {"alpha": 0.8}, "sized"),
        unbacked=lambda x: ascend_ext.dispersion_correction(x[x > 0], 0.8),
        jacobian_sample="rows",
    ),
}

OP_DB: List[OpTest] = [d.op_test(**NATIVE_EXTRAS.get(d.name, {})) for d in declarations() if d.samples is not None]

# The entries by op name, for the op-specific test modules (tolerances, samples).
BY_NAME: Dict[str, OpTest] = {t.name: t for t in OP_DB}
DISPERSION_CORRECTION = BY_NAME["dispersion_correction"]
