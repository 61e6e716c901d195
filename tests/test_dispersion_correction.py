"""dispersion_correction beyond the generic contract: every row length from 1 to longer than UB, any number
of leading dimensions, rows that defeat naive statistics, constant rows, NaN/Inf, bad input, the gradients
against the float64 reference in both modes, and the kernels' GM traffic against the plan.

The float64 reference is written from the formulas in README.md, "dispersion_correction" (ascend_ext.ops.dispersion_correction._reference).
``ASCEND_EXT_EXHAUSTIVE=1`` widens the row-length sweep.
"""
import os

import pytest
import torch

import ascend_ext
from ascend_ext.ops.dispersion_correction import _reference as reference
from op_db import DISPERSION_CORRECTION

OP = torch.ops.ascend_ext.dispersion_correction
BACKWARD = torch.ops.ascend_ext.dispersion_correction_backward
DTYPES = [torch.float32, torch.float16, torch.bfloat16]
TOL = DISPERSION_CORRECTION.tolerances
EXHAUSTIVE = os.environ.get("ASCEND_EXT_EXHAUSTIVE") == "1"


def chunk_len(dtype, backward=False, mode=1):
    return ascend_ext.twin.plan("dispersion_correction", [1, 1 << 20, mode, int(backward)], dtype)["chunk_len"]


def row_lengths(dtype):
    """1 to longer than UB: tails around 32-byte blocks and 256-byte repeats, the longest packed row, and
    multi-pass rows with and without a partial last chunk."""
    chunk = chunk_len(dtype)
    lengths = [1, 2, 7, 8, 15, 16, 17, 63, 64, 65, 1000, 4096, chunk, chunk + 1, 2 * chunk + 37]
    if EXHAUSTIVE:
        lengths += list(range(3, 300)) + [chunk * 5 + 1, 100_000]
    return sorted(set(lengths))


# ---- numerics ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES + [torch.float64], ids=str)
@pytest.mark.parametrize("mode", [0, 1])
def test_row_lengths_from_one_to_longer_than_ub(dtype, mode):
    for d in row_lengths(dtype if dtype != torch.float64 else torch.float32):
        rows = 3 if d < 5000 else 1
        x = torch.randn(rows, d, dtype=torch.float64).to(dtype)
        y = OP(x, 0.7, mode)
        torch.testing.assert_close(y.double(), reference(x.double(), 0.7, mode), **TOL[dtype], msg=f"D={d}")


@pytest.mark.parametrize("leading", [(), (5,), (2, 3), (2, 1, 3)], ids=lambda s: f"{len(s)}-leading")
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_leading_dimensions_zero_to_three(leading, dtype):
    x = torch.randn(*leading, 19, dtype=torch.float64).to(dtype)
    for mode in (0, 1):
        y = ascend_ext.dispersion_correction(x, 1.3, mode)
        assert y.shape == x.shape and y.dtype == dtype and y.is_contiguous()
        torch.testing.assert_close(y.double(), reference(x.double(), 1.3, mode), **TOL[dtype])


@pytest.mark.parametrize("shape", [(49, 200), (1000, 7), (97, 1500), (10, 4097)])
def test_rows_split_unevenly_over_cores(shape):
    plan = ascend_ext.twin.plan("dispersion_correction", list(shape), torch.float32)
    assert plan["block_dim"] > 1
    x = torch.randn(*shape)
    for mode in (0, 1):
        torch.testing.assert_close(OP(x, 0.8, mode).double(), reference(x.double(), 0.8, mode), **TOL[torch.float32])
        g = torch.randn(*shape)
        xr = x.double().requires_grad_()
        (expected,) = torch.autograd.grad(reference(xr, 0.8, mode), xr, g.double())
        torch.testing.assert_close(BACKWARD(g, x, 0.8, mode, 1e-5).double(), expected, rtol=1e-5, atol=1e-4)


def test_many_short_rows_are_packed_per_tile():
    x = torch.randn(5000, 7)
    plan = ascend_ext.twin.plan("dispersion_correction", [5000, 7], torch.float32)
    assert plan["tile_rows"] > 1 and plan["multi_pass"] == 0
    with ascend_ext.twin.record() as rec:
        y = OP(x, 0.8, 1)
    torch.testing.assert_close(y.double(), reference(x.double(), 0.8, 1), **TOL[torch.float32])
    # one DataCopyPad in and one out per tile: far fewer copies than rows
    tiles = sum(-(-plan["rows_former"] // plan["tile_rows"]) for _ in range(plan["block_dim"]))
    assert rec.launches[0].total.data_copy_calls <= 2 * tiles


@pytest.mark.parametrize("d", [1000, "multi-pass"])
@pytest.mark.parametrize("mode", [0, 1])
def test_large_mean_small_spread_loses_nothing_to_cancellation(d, mode):
    d = 2 * chunk_len(torch.float32) + 5 if d == "multi-pass" else d
    x = (1e4 + 1e-2 * torch.randn(4, d, dtype=torch.float64)).float()
    y = OP(x, 0.8, mode).double()
    expected = reference(x.double(), 0.8, mode)
    mean = expected.mean(-1, keepdim=True)
    # What float32 can hold at 1e4 is ~1e-3; a naive E[x^2] - E[x]^2 variance would be off by orders of
    # magnitude (mode 1), and a single-pass mean by ~1e-3 * D / 64.
    torch.testing.assert_close(y - mean, expected - mean, rtol=0, atol=2e-3)
    torch.testing.assert_close(y.std(-1, correction=0), expected.std(-1, correction=0), atol=1e-4, rtol=2e-3)


@pytest.mark.parametrize("dtype", DTYPES + [torch.float64], ids=str)
@pytest.mark.parametrize("d", [1, 9, "multi-pass"])
def test_constant_rows_stay_finite_and_equal_their_mean(dtype, d):
    d = 2 * chunk_len(dtype if dtype != torch.float64 else torch.float32) + 3 if d == "multi-pass" else d
    x = torch.full((3, d), 2.5, dtype=dtype) * torch.tensor([[1.0], [-4.0], [1000.0]], dtype=dtype)
    for mode in (0, 1):
        y = OP(x, 0.8, mode)
        assert torch.equal(y, x), f"mode {mode}: a constant row must come back as its mean"
        g = BACKWARD(torch.randn_like(x), x, 0.8, mode, 1e-5)
        assert torch.isfinite(g).all()


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("mode", [0, 1])
@pytest.mark.parametrize("d", [6, "multi-pass"])
def test_nan_and_inf_propagate_like_the_reference(dtype, mode, d):
    d = chunk_len(dtype) + 11 if d == "multi-pass" else d
    x = torch.randn(5, d, dtype=dtype)
    x[0, 1] = float("nan")
    x[1, -1] = float("inf")
    x[2, 0], x[2, 2] = float("inf"), -float("inf")
    y, expected = OP(x, 1.0, mode).double(), reference(x.double(), 1.0, mode)
    assert torch.equal(y.isnan(), expected.isnan()) and torch.equal(y.isinf(), expected.isinf())
    assert y[:3].isnan().all() and y[3:].isfinite().all()  # a non-finite value poisons its row only
    torch.testing.assert_close(y, expected, equal_nan=True, **TOL[dtype])


# ---- gradients --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", [0, 1])
def test_gradcheck_gradgradcheck_both_modes(mode):
    for shape in [(3, 6), (2, 2, 5), (4,), (2, 1)]:
        x = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
        fn = lambda t: OP(t, 0.6, mode, 1e-3)  # noqa: E731
        assert torch.autograd.gradcheck(fn, (x,))
        assert torch.autograd.gradgradcheck(fn, (x,))
        g = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
        backward = lambda gg, xx: BACKWARD(gg, xx, 0.6, mode, 1e-3)  # noqa: E731
        assert torch.autograd.gradcheck(backward, (g, x), check_forward_ad=True)
        assert torch.autograd.gradgradcheck(backward, (g, x))


@pytest.mark.parametrize("dtype", DTYPES + [torch.float64], ids=str)
@pytest.mark.parametrize("mode", [0, 1])
@pytest.mark.parametrize("d", [7, 300, "multi-pass"])
def test_backward_kernel_matches_the_reference_gradient(dtype, mode, d):
    d = chunk_len(dtype if dtype != torch.float64 else torch.float32, backward=True, mode=mode) + 70 \
        if d == "multi-pass" else d
    x = torch.randn(3, d, dtype=torch.float64).to(dtype)
    g = torch.randn(3, d, dtype=torch.float64).to(dtype)
    xr = x.double().requires_grad_()
    (expected,) = torch.autograd.grad(reference(xr, 0.9, mode), xr, g.double())
    got = BACKWARD(g, x, 0.9, mode, 1e-5)
    assert got.dtype == dtype
    scale = 1 + expected.abs().max().item()  # gradients in mode 1 are O(alpha / sigma)
    tol = TOL[dtype]
    torch.testing.assert_close(got.double(), expected, rtol=tol["rtol"], atol=tol["atol"] * scale)


@pytest.mark.parametrize("mode", [0, 1])
def test_double_backward_and_jvp_match_the_reference(mode):
    x = torch.randn(4, 9, dtype=torch.float64)
    v, t = torch.randn_like(x), torch.randn_like(x)

    def hvp(f):
        xr = x.clone().requires_grad_()
        (gx,) = torch.autograd.grad(f(xr, 0.7, mode), xr, v, create_graph=True)
        if not gx.requires_grad:  # the reference's mode-0 gradient does not depend on x
            return torch.zeros_like(x)
        return torch.autograd.grad(gx, xr, t, allow_unused=True, materialize_grads=True)[0]

    torch.testing.assert_close(hvp(OP), hvp(reference))
    _, tangent = torch.func.jvp(lambda a: OP(a, 0.7, mode), (x,), (t,))
    _, ref_tangent = torch.func.jvp(lambda a: reference(a, 0.7, mode), (x,), (t,))
    torch.testing.assert_close(tangent, ref_tangent)


def test_function_alias_and_layer():
    x = torch.randn(3, 10, dtype=torch.float64, requires_grad=True)
    fn = ascend_ext.DispersionCorrectionFunction
    torch.testing.assert_close(fn.apply(x, 0.5), OP(x, 0.5))
    torch.testing.assert_close(fn.apply(x, 0.5, 0, 0.0), OP(x, 0.5, 0, 0.0))
    assert torch.autograd.gradcheck(lambda a: fn.apply(a, 0.5, 1, 1e-3), (x,), check_forward_ad=True)
    _, tangent = torch.func.jvp(lambda a: fn.apply(a, 0.5), (x.detach(),), (torch.ones_like(x),))
    _, expected = torch.func.jvp(lambda a: reference(a, 0.5), (x.detach(),), (torch.ones_like(x),))
    torch.testing.assert_close(tangent, expected)
    layer = ascend_ext.nn.DispersionCorrection()
    assert repr(layer) == "DispersionCorrection(alpha=0.8, mode=1, eps=1e-05)"
    torch.testing.assert_close(layer(x), OP(x, 0.8, 1, 1e-5))


@pytest.mark.parametrize("mode", [0, 1])
def test_backward_op_passes_opcheck(mode):
    x = torch.randn(4, 9)
    g = torch.randn(4, 9)
    torch.library.opcheck(BACKWARD, (g, x, 0.8, mode, 1e-5))
    torch.library.opcheck(BACKWARD, (g.requires_grad_(), x.requires_grad_(), 0.8, mode, 1e-5))


def test_vmap_of_the_backward_is_one_launch():
    x = torch.randn(5, 12)
    grads = torch.randn(8, 5, 12)
    with ascend_ext.twin.record() as rec:
        batched = torch.vmap(lambda g: BACKWARD(g, x, 0.8, 1, 1e-5))(grads)
    assert len(rec.launches) == 1
    torch.testing.assert_close(batched, torch.stack([BACKWARD(g, x, 0.8, 1, 1e-5) for g in grads]))


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
def test_autocast_keeps_the_input_dtype(dtype):
    x = torch.randn(4, 16, dtype=dtype)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        y = ascend_ext.dispersion_correction(x, 0.8)
    assert y.dtype == dtype
    torch.testing.assert_close(y, OP(x, 0.8))


# ---- bad input ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs,error,words", [
    (dict(mode=2), ValueError, ["'mode'", "0", "1"]),
    (dict(mode=-1), ValueError, ["'mode'"]),
    (dict(alpha=float("nan")), ValueError, ["'alpha'", "finite"]),
    (dict(alpha=float("inf")), ValueError, ["'alpha'", "finite"]),
    (dict(eps=-1e-3), ValueError, ["'eps'", ">= 0"]),
    (dict(eps=float("nan")), ValueError, ["'eps'", "finite"]),
    (dict(eps=float("inf")), ValueError, ["'eps'", "finite"]),
    (dict(eps=0.0, mode=1), ValueError, ["'eps'", "> 0 in mode 1"]),
])
def test_bad_attributes_are_named(kwargs, error, words):
    args = dict(alpha=0.8, mode=1, eps=1e-5) | kwargs
    for call in (lambda: OP(torch.randn(2, 3), args["alpha"], args["mode"], args["eps"]),
                 lambda: BACKWARD(torch.randn(2, 3), torch.randn(2, 3), args["alpha"], args["mode"], args["eps"]),
                 lambda: OP(torch.randn(2, 3, device="meta"), args["alpha"], args["mode"], args["eps"])):
        with pytest.raises(error) as info:
            call()
        assert "ascend_ext.dispersion_correction" in str(info.value)
        for w in words:
            assert w in str(info.value)


def test_eps_zero_is_allowed_in_mode_0():
    x = torch.full((2, 4), 3.0)
    assert torch.equal(OP(x, 0.8, 0, 0.0), x)


@pytest.mark.parametrize("x,error,words", [
    (torch.ones(2, 3, dtype=torch.int32), TypeError, ["'x'", "torch.int32", "torch.float32"]),
    (torch.ones(2, 3, dtype=torch.complex64), TypeError, ["'x'", "torch.complex64"]),
    (torch.ones(2, 3, dtype=torch.bool), TypeError, ["'x'", "torch.bool"]),
    (torch.tensor(1.0), ValueError, ["'x'", "0-d"]),
    (torch.ones(3, 0), ValueError, ["'x'", "length 0"]),
])
def test_bad_tensors_are_named(x, error, words):
    with pytest.raises(error) as info:
        OP(x, 0.8)
    assert "ascend_ext.dispersion_correction" in str(info.value)
    for w in words:
        assert w in str(info.value)


def test_bad_backward_operands_and_wrapper_arguments():
    x = torch.randn(2, 3)
    with pytest.raises(ValueError, match=r"dispersion_correction_backward: argument 'grad' has shape"):
        BACKWARD(torch.randn(3, 2), x, 0.8, 1, 1e-5)
    with pytest.raises(TypeError, match=r"dispersion_correction_backward: arguments 'grad' and 'x' must have the same"):
        BACKWARD(torch.randn(2, 3, dtype=torch.float64), x, 0.8, 1, 1e-5)
    with pytest.raises(TypeError, match=r"ascend_ext.dispersion_correction: argument 'x' must be a torch.Tensor"):
        ascend_ext.dispersion_correction([1.0, 2.0], 0.8)
    assert OP(torch.empty(0, 4), 0.8).shape == (0, 4)  # no rows: nothing to do, no error


@pytest.mark.parametrize("kwargs,error,message", [
    (dict(mode=5), ValueError, r"argument 'mode' must be 0 \(scale the dispersion by alpha\) or 1 \(normalize it "
                               r"to alpha\), got 5"),
    (dict(mode=1, eps=0.0), ValueError, r"argument 'eps' must be > 0 in mode 1 \(a constant row would divide 0 by "
                                        r"0\), got 0"),
    (dict(mode=0, eps=-1e-3), ValueError, r"argument 'eps' must be a finite number >= 0, got -0.001"),
    (dict(eps=float("nan")), ValueError, r"argument 'eps' must be a finite number >= 0, got nan"),
    (dict(alpha=float("inf")), ValueError, r"argument 'alpha' must be a finite number, got inf"),
    (dict(mode=1.0), TypeError, r"argument 'mode' must be an int \(0 or 1\), got float"),
    (dict(mode=True), TypeError, r"argument 'mode' must be an int \(0 or 1\), got bool"),
    (dict(alpha="0.5"), TypeError, r"argument 'alpha' must be a real number, got str"),
    (dict(eps=None), TypeError, r"argument 'eps' must be a real number, got NoneType"),
])
def test_layer_checks_every_argument_where_it_is_built(kwargs, error, message):
    # Each of these used to be accepted here and fail at the first forward (or pass silently, as mode=1.0).
    with pytest.raises(error, match=r"^ascend_ext\.nn\.DispersionCorrection: " + message + "$"):
        ascend_ext.nn.DispersionCorrection(**kwargs)


@pytest.mark.parametrize("kwargs", [dict(mode=0, eps=0.0), dict(mode=0, alpha=0), dict(mode=1, alpha=-2, eps=1e-12),
                                    dict(alpha=1, eps=1)])
def test_layer_accepts_what_the_op_accepts(kwargs):
    layer = ascend_ext.nn.DispersionCorrection(**kwargs)
    x = torch.randn(3, 16) * 2 + 1
    torch.testing.assert_close(layer(x).double(), reference(x.double(), float(layer.alpha), layer.mode, layer.eps),
                               **TOL[torch.float32])


# ---- GM traffic against the plan --------------------------------------------------------------------------


def _launch_stats(fn):
    with ascend_ext.twin.record() as rec:
        fn()
    assert len(rec.launches) == 1
    return rec.launches[0]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(1000, 7), (48, 1000), (3, 4096), (1, 5)])
def test_rows_that_fit_read_and_write_each_element_once(dtype, shape):
    x = torch.randn(*shape, dtype=dtype)
    plan = ascend_ext.twin.plan("dispersion_correction", list(shape), dtype)
    assert plan["multi_pass"] == 0
    stats = _launch_stats(lambda: OP(x, 0.8, 1))
    size = x.element_size()
    assert stats.block_dim == plan["block_dim"]
    assert stats.total.gm_bytes_read == x.numel() * size == plan["gm_elems_read"] * size
    assert stats.total.gm_bytes_written == x.numel() * size == plan["gm_elems_written"] * size
    assert stats.total.ub_bytes_allocated == plan["ub_bytes"]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("backward,mode", [(False, 1), (False, 0), (True, 1), (True, 0)])
def test_multi_pass_extra_reads_are_what_the_plan_predicts(dtype, backward, mode):
    d = 2 * chunk_len(dtype, backward, mode) + 100
    x = torch.randn(3, d, dtype=dtype)
    plan = ascend_ext.twin.plan("dispersion_correction", [3, d, mode, int(backward)], dtype)
    assert plan["multi_pass"] == 1
    if backward:
        stats = _launch_stats(lambda: BACKWARD(torch.randn_like(x), x, 0.8, mode, 1e-5))
    else:
        stats = _launch_stats(lambda: OP(x, 0.8, mode))
    size = x.element_size()
    inputs = 2 if backward and mode == 1 else 1
    assert plan["gm_elems_read"] == 2 * inputs * x.numel()  # each input twice: statistics, then the output
    # 3 rows of 3 chunks: each row split over 3 cores, which exchange 64-byte partials through the workspace
    assert plan["cores_per_row"] == 3 and plan["workspace_bytes"] == 9 * 64
    assert stats.total.gm_bytes_read == plan["gm_elems_read"] * size + plan["gm_workspace_bytes_read"]
    assert stats.total.gm_bytes_written == plan["gm_elems_written"] * size + plan["gm_workspace_bytes_written"]
    assert plan["gm_elems_written"] == x.numel()
    assert stats.block_dim == plan["block_dim"] == 9
    assert stats.total.ub_bytes_allocated == plan["ub_bytes"]


def test_backward_packed_rows_read_each_input_once():
    x = torch.randn(200, 33, dtype=torch.float16)
    for mode, inputs in ((1, 2), (0, 1)):  # mode 0's gradient does not depend on x: x is not read
        stats = _launch_stats(lambda: BACKWARD(torch.randn_like(x), x, 0.8, mode, 1e-5))
        assert stats.total.gm_bytes_read == inputs * x.numel() * 2
        assert stats.total.gm_bytes_written == x.numel() * 2


# Short float32 rows (at most one 256-byte repeat): the kernels run each step as one repeat-form instruction over
# up to 248 rows (op_kernel/dispersion_correction_tiling_data.h). Tiles of 256 rows (4096 x 8 on 16 cores) take two
# groups, 248 and 8 rows; 2000 x 64 and 300 x 17 (pitch 24, a padded row) take one group per tile.
@pytest.mark.parametrize("shape", [(4096, 8), (2000, 64), (300, 17), (5, 1)])
@pytest.mark.parametrize("mode", [0, 1])
def test_short_float_rows_forward_and_backward_by_row_groups(shape, mode):
    x = (3 + 2 * torch.randn(*shape, dtype=torch.float64)).float()
    g = torch.randn(*shape, dtype=torch.float64).float()
    with ascend_ext.twin.record() as rec:
        y = OP(x, 0.7, mode)
        got = BACKWARD(g, x, 0.7, mode, 1e-5)
    torch.testing.assert_close(y.double(), reference(x.double(), 0.7, mode), **TOL[torch.float32])
    xr = x.double().requires_grad_()
    (expected,) = torch.autograd.grad(reference(xr, 0.7, mode), xr, g.double())
    scale = 1 + expected.abs().max().item()
    torch.testing.assert_close(got.double(), expected, rtol=TOL[torch.float32]["rtol"],
                               atol=TOL[torch.float32]["atol"] * scale)
    # No instruction per row: a tile's vector instructions do not grow with its rows.
    plan = ascend_ext.twin.plan("dispersion_correction", list(shape), torch.float32)
    tiles = sum(-(-plan["rows_former"] // plan["tile_rows"]) for _ in range(plan["block_dim"]))
    groups_per_tile = -(-plan["tile_rows"] // 248)
    forward = sum(op["calls"] for op in rec.launches[0].total.vector_instructions.values())
    assert forward <= plan["block_dim"] * 4 + tiles * groups_per_tile * 30, forward
