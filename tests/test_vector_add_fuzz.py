"""vector_add against torch.add on randomly drawn shapes, broadcast patterns, layouts, dtypes and alphas.

Every run draws new cases (the seed is printed on failure). ASCEND_EXT_EXHAUSTIVE=1 runs many more.
"""
import os
import random

import pytest
import torch

import ascend_ext
from conftest import TOLERANCES

CASES = 3000 if os.environ.get("ASCEND_EXT_EXHAUSTIVE") == "1" else 200
DTYPES = [torch.float32, torch.float16, torch.bfloat16, torch.int32, torch.bool, torch.float64]


def draw_operand(rng, shape, dtype):
    """A tensor that broadcasts to `shape`: some dimensions dropped or set to 1, maybe non-contiguous."""
    dims = list(shape)
    keep = rng.randint(0, len(dims))
    dims = dims[len(dims) - keep:]
    dims = [1 if rng.random() < 0.3 else d for d in dims]
    base = torch.randn(dims, dtype=torch.float64) * rng.choice([1.0, 100.0])
    t = base.to(dtype) if dtype != torch.bool else base > 0
    if len(dims) == 4 and rng.random() < 0.4:
        t = t.contiguous(memory_format=torch.channels_last)
    elif len(dims) >= 2 and rng.random() < 0.3:
        t = t.transpose(-1, -2).contiguous().transpose(-1, -2)
    return t


@pytest.mark.parametrize("case", range(CASES))
def test_matches_torch_add(case):
    seed = random.randrange(1 << 30)
    rng = random.Random(seed)
    shape = [rng.choice([1, 2, 3, 7, 16, 33, 130]) for _ in range(rng.randint(0, 4))]
    a, b = rng.choice(DTYPES), rng.choice(DTYPES)
    if not (torch.promote_types(a, b).is_floating_point):
        a = torch.float32
    x, y = draw_operand(rng, shape, a), draw_operand(rng, shape, b)
    if rng.random() < 0.5:
        x, y = y, x
    alpha = rng.choice([1, 1, 0.5, -2.0, 3])
    expected = torch.add(x, y, alpha=alpha)
    got = ascend_ext.vector_add(x, y, alpha=alpha)
    context = f"seed {seed}: {tuple(x.shape)}:{x.dtype}:{x.stride()} + {alpha} * {tuple(y.shape)}:{y.dtype}:{y.stride()}"
    assert got.dtype == expected.dtype and got.shape == expected.shape, context
    assert got.stride() == expected.stride() or expected.numel() <= 1, context
    # The op's definition: operands cast to the result dtype (as torch.add does), then added exactly. The
    # kernel may round alpha * y before adding (Muls then Add), so the bound scales with the operands, not
    # only with the result (which can cancel to near zero).
    xd, yd = x.to(got.dtype).double(), alpha * y.to(got.dtype).double()
    reference = xd + yd
    tol = TOLERANCES[got.dtype]
    bound = tol["rtol"] * (reference.abs() + yd.abs().expand_as(reference)) + tol["atol"]
    err = (got.double() - reference).abs()
    finite = reference.isfinite()
    assert torch.equal(got.double().isnan(), reference.isnan()), context
    assert bool((err[finite] <= bound[finite]).all()), f"{context}: worst error {(err - bound)[finite].max()}"
