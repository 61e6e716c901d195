"""Few long rows split across cores (op_host/dispersion_correction_tiling.h): each core's pass 1 covers a
range of the row's chunks, the cores exchange 64-byte partials through the GM workspace around SyncAll,
then each writes its range. Counters equal the plan's prediction (workspace traffic included), numerics
match the float64 reference (rows with mean 1e4 and std 1e-2 too), forward and backward, every dtype,
and the results do not depend on how many threads run the cores (tests/test_twin_stats.py runs these
launches with 1 and 3 pool threads).

Row lengths are the smallest that split: just above one or two chunks (the chunk is what UB holds)."""
import pytest
import torch

import ascend_ext
from ascend_ext.ops.dispersion_correction import _reference as reference
from op_db import DISPERSION_CORRECTION

OP = torch.ops.ascend_ext.dispersion_correction
BACKWARD = torch.ops.ascend_ext.dispersion_correction_backward
DTYPES = [torch.float32, torch.float16, torch.bfloat16]
TOL = DISPERSION_CORRECTION.tolerances


def plan_of(rows, d, dtype, mode=1, backward=False):
    return ascend_ext.twin.plan("dispersion_correction", [rows, d, mode, int(backward)], dtype)


def split_length(dtype, backward=False, mode=1, chunks=3):
    chunk = plan_of(1, 1 << 20, dtype, mode, backward)["chunk_len"]
    return (chunks - 1) * chunk + 37  # a partial last chunk


def launch_stats(fn):
    with ascend_ext.twin.record() as rec:
        out = fn()
    assert len(rec.launches) == 1
    return out, rec.launches[0]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("rows", [1, 3])
@pytest.mark.parametrize("backward,mode", [(False, 1), (False, 0), (True, 1), (True, 0)])
def test_counters_equal_the_plan(dtype, rows, backward, mode):
    d = split_length(dtype, backward, mode)
    plan = plan_of(rows, d, dtype, mode, backward)
    assert plan["cores_per_row"] == 3 and plan["block_dim"] == 3 * rows
    assert plan["workspace_bytes"] == 64 * plan["block_dim"]
    x = torch.randn(rows, d, dtype=dtype)
    if backward:
        _, stats = launch_stats(lambda: BACKWARD(torch.randn_like(x), x, 0.8, mode, 1e-5))
    else:
        _, stats = launch_stats(lambda: OP(x, 0.8, mode))
    size = x.element_size()
    assert stats.block_dim == plan["block_dim"]
    assert stats.total.gm_bytes_read == plan["gm_elems_read"] * size + plan["gm_workspace_bytes_read"]
    assert stats.total.gm_bytes_written == plan["gm_elems_written"] * size + plan["gm_workspace_bytes_written"]
    assert plan["gm_workspace_bytes_read"] == 64 * 3 * plan["block_dim"]
    # Every core reads only its part of the row: the input is read twice in total, no more.
    per_core = [c.gm_bytes_read for c in stats.cores]
    assert max(per_core) - min(per_core) < 2 * plan["chunk_len"] * size * (2 if backward and mode == 1 else 1) + 64 * 3


@pytest.mark.parametrize("dtype", DTYPES + [torch.float64], ids=str)
@pytest.mark.parametrize("mode", [0, 1])
def test_split_rows_match_the_reference(dtype, mode):
    d = split_length(dtype if dtype != torch.float64 else torch.float32, chunks=2)
    x = torch.randn(3, d, dtype=torch.float64)
    x[1] = 1e4 + 1e-2 * x[1]  # a row that defeats naive statistics
    x = x.to(dtype)
    y = OP(x, 0.7, mode)
    expected = reference(x.double(), 0.7, mode)
    if dtype in (torch.float32, torch.float64):
        mean = expected.mean(-1, keepdim=True)
        atol = 2e-3 if dtype == torch.float32 else 1e-9
        torch.testing.assert_close(y.double() - mean, expected - mean, rtol=0, atol=atol)
    else:
        torch.testing.assert_close(y.double(), expected, **TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES + [torch.float64], ids=str)
@pytest.mark.parametrize("mode", [0, 1])
def test_split_rows_backward_matches_the_reference(dtype, mode):
    d = split_length(dtype if dtype != torch.float64 else torch.float32, backward=True, mode=mode, chunks=2)
    x = torch.randn(3, d, dtype=torch.float64)
    x[2] = 1e4 + 1e-2 * x[2]
    x = x.to(dtype)
    g = torch.randn(3, d, dtype=torch.float64).to(dtype)
    xr = x.double().requires_grad_()
    (expected,) = torch.autograd.grad(reference(xr, 0.9, mode), xr, g.double())
    got = BACKWARD(g, x, 0.9, mode, 1e-5)
    scale = 1 + expected.abs().amax(-1, keepdim=True)  # mode 1's gradients are O(alpha / sigma) per row
    tol = TOL[dtype]
    torch.testing.assert_close(got.double() / scale, expected / scale, rtol=tol["rtol"], atol=tol["atol"])
