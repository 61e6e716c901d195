"""vector_add: numerics, broadcasting, autograd, opcheck and argument errors."""
import pytest
import torch

import ascend_ext
from conftest import DEVICES, assert_matches_reference, rand

# Lengths around every boundary the kernel handles: 32-byte blocks, tiles, core shares.
LENGTHS = [1, 7, 8, 15, 16, 31, 33, 63, 255, 1000, 2049, 4095, 4096, 8193, 4096 * 48 + 7, 300_001]


@pytest.mark.parametrize("n", LENGTHS)
def test_matches_float64_reference(n, dtype, device):
    x, y = rand(n, dtype=dtype, device=device), rand(n, dtype=dtype, device=device)
    z = ascend_ext.vector_add(x, y)
    assert z.device == x.device
    assert_matches_reference(z, x.double() + y.double(), dtype)
    if device == "cpu":
        # One correct rounding of the float32 sum is exactly what torch.add computes too.
        assert torch.equal(z, torch.add(x, y))


def test_fresh_random_lengths(dtype):
    # Lengths drawn anew each run, so over many runs every tail shape meets the kernel.
    for n in torch.randint(1, 200_000, (12,)).tolist():
        x, y = rand(n, dtype=dtype), rand(n, dtype=dtype)
        z = ascend_ext.vector_add(x, y)
        assert_matches_reference(z, x.double() + y.double(), dtype)
        assert ascend_ext.twin.last_launch_stats().total.gm_bytes_written == n * x.element_size(), f"n={n}"


@pytest.mark.parametrize(
    "x_shape,y_shape",
    [((3, 4), (3, 4)), ((2, 3, 5), (5,)), ((4, 1), (1, 6)), ((), (7,)), ((2, 1, 33), (3, 1)), ((0, 4), (4,))],
)
def test_broadcasts_like_torch_add(x_shape, y_shape, dtype, device):
    x, y = rand(*x_shape, dtype=dtype, device=device), rand(*y_shape, dtype=dtype, device=device)
    z = torch.ops.ascend_ext.vector_add(x, y)
    assert z.shape == torch.broadcast_shapes(x_shape, y_shape)
    assert z.is_contiguous()
    assert_matches_reference(z, x.double() + y.double(), dtype)


def test_non_contiguous_inputs():
    base = rand(64, 48)
    x, y = base.t(), rand(48, 64)[:, ::1]
    assert_matches_reference(ascend_ext.vector_add(x, y), x.double() + y.double(), torch.float32)


def test_special_values_propagate():
    x = torch.tensor([float("inf"), -float("inf"), float("nan"), 3.0e38, 1.0e-45, -0.0])
    y = torch.tensor([1.0, -1.0, 0.0, 3.0e38, 1.0e-45, -0.0])
    torch.testing.assert_close(ascend_ext.vector_add(x, y), x + y, equal_nan=True, rtol=0, atol=0)


def test_float64_runs_on_the_twin_for_gradient_checks():
    x, y = rand(100, dtype=torch.float64), rand(100, dtype=torch.float64)
    assert torch.equal(ascend_ext.vector_add(x, y), x + y)


@pytest.mark.parametrize("x_shape,y_shape", [((4, 5), (4, 5)), ((3, 4, 5), (4, 1)), ((6,), ())])
def test_gradcheck_float64(x_shape, y_shape):
    x = rand(*x_shape, dtype=torch.float64).requires_grad_()
    y = rand(*y_shape, dtype=torch.float64).requires_grad_()
    assert torch.autograd.gradcheck(torch.ops.ascend_ext.vector_add, (x, y))
    assert torch.autograd.gradgradcheck(torch.ops.ascend_ext.vector_add, (x, y))
    assert torch.autograd.gradcheck(ascend_ext.VectorAddFunction.apply, (x, y))


def test_backward_sums_over_broadcast_dimensions(dtype, device):
    x = rand(3, 4, 5, dtype=dtype, device=device).requires_grad_()
    y = rand(4, 1, dtype=dtype, device=device).requires_grad_()
    g = rand(3, 4, 5, dtype=dtype, device=device)
    ascend_ext.vector_add(x, y).backward(g)
    assert_matches_reference(x.grad, g.double(), dtype)
    assert_matches_reference(y.grad, g.double().sum(dim=(0, 2)).reshape(4, 1), dtype)


@pytest.mark.parametrize("shapes", [((16,), (16,)), ((5, 33), (33,)), ((2, 3, 4), (2, 1, 4))])
def test_opcheck(shapes, dtype, device):
    x, y = rand(*shapes[0], dtype=dtype, device=device), rand(*shapes[1], dtype=dtype, device=device)
    torch.library.opcheck(torch.ops.ascend_ext.vector_add.default, (x, y))
    torch.library.opcheck(
        torch.ops.ascend_ext.vector_add.default, (x.requires_grad_(), y.requires_grad_())
    )


def test_meta_and_fake_tensors_give_shape_and_dtype():
    x = torch.empty(2, 1, 8, device="meta", dtype=torch.bfloat16)
    y = torch.empty(3, 1, device="meta", dtype=torch.bfloat16)
    z = torch.ops.ascend_ext.vector_add(x, y)
    assert z.device.type == "meta" and z.shape == (2, 3, 8) and z.dtype == torch.bfloat16


def test_works_under_torch_compile():
    def f(a, b):
        return ascend_ext.vector_add(a, b) * 2

    x, y = rand(37), rand(37)
    compiled = torch.compile(f, backend="aot_eager", fullgraph=True)
    torch.testing.assert_close(compiled(x, y), (x + y) * 2)


def test_residual_add_layer_matches_torch():
    block = torch.nn.Sequential(torch.nn.Linear(12, 12), torch.nn.Tanh())
    layer = ascend_ext.nn.ResidualAdd(block)
    x = rand(5, 12).requires_grad_()
    x_ref = x.detach().clone().requires_grad_()
    out = layer(x)
    ref = block(x_ref) + x_ref
    torch.testing.assert_close(out, ref)
    g = rand(5, 12)
    out.backward(g)
    ref.backward(g)
    torch.testing.assert_close(x.grad, x_ref.grad)


# ---- bad input -----------------------------------------------------------------------------------


def test_rejects_integer_dtype():
    with pytest.raises(TypeError, match=r"ascend_ext\.vector_add: argument 'x' has dtype torch\.int32"):
        ascend_ext.vector_add(torch.ones(4, dtype=torch.int32), torch.ones(4, dtype=torch.int32))


def test_rejects_mixed_dtypes():
    with pytest.raises(TypeError, match=r"arguments 'x' and 'y' must have the same dtype, got torch\.float32 and "
                                        r"torch\.float16"):
        ascend_ext.vector_add(rand(4), rand(4, dtype=torch.float16))


@pytest.mark.parametrize("other", ["meta", pytest.param("npu", marks=DEVICES[1].marks)])
def test_rejects_mixed_devices(other):
    with pytest.raises(ValueError, match=r"ascend_ext\.vector_add: arguments 'x' and 'y' must be on the same device"):
        torch.ops.ascend_ext.vector_add(rand(4), torch.empty(4, device=other))


def test_rejects_shapes_that_do_not_broadcast():
    with pytest.raises(ValueError, match=r"ascend_ext\.vector_add: shapes of 'x' \[3, 4\] and 'y' \[5\] do not "
                                         r"broadcast"):
        ascend_ext.vector_add(rand(3, 4), rand(5))


@pytest.mark.parametrize("bad", [3, 2.5, None, [1.0, 2.0], "x"])
def test_rejects_non_tensor_arguments(bad):
    with pytest.raises(TypeError, match=r"ascend_ext\.vector_add: argument 'y' must be a torch\.Tensor, got"):
        ascend_ext.vector_add(rand(2), bad)
    with pytest.raises((TypeError, RuntimeError), match=r"vector_add"):
        torch.ops.ascend_ext.vector_add(bad, rand(2))
