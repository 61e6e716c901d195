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


# ---- torch.add semantics -----------------------------------------------------------------------------


@pytest.mark.parametrize("a,b", [
    (torch.float16, torch.float32), (torch.bfloat16, torch.float16), (torch.float32, torch.bfloat16),
    (torch.int32, torch.float16), (torch.bool, torch.bfloat16), (torch.int64, torch.float32),
])
def test_promotes_like_torch_add(a, b):
    x, y = rand(5, 6).to(a), rand(6).to(b)
    z, expected = ascend_ext.vector_add(x, y), torch.add(x, y)
    assert z.dtype == expected.dtype
    assert_matches_reference(z, x.double() + y.double(), expected.dtype)


def test_a_zero_dim_float64_tensor_does_not_widen_the_result():
    x, s = rand(7), torch.tensor(0.25, dtype=torch.float64)
    z = ascend_ext.vector_add(x, s)
    assert z.dtype == torch.add(x, s).dtype == torch.float32
    assert torch.equal(z, torch.add(x, s))


@pytest.mark.parametrize("number", [2.5, -3, True, 1e4])
def test_python_number_operand(number, dtype):
    x = rand(3, 70, dtype=dtype)
    z = ascend_ext.vector_add(x, number)
    assert z.dtype == torch.add(x, number).dtype
    assert_matches_reference(z, x.double() + float(number), dtype)
    torch.testing.assert_close(torch.ops.ascend_ext.vector_add(x, number), z, rtol=0, atol=0)


@pytest.mark.parametrize("alpha", [0.5, -2, 3.25, 0])
@pytest.mark.parametrize("y_shape", [(40, 33), (33,), (), (1, 1)])
def test_alpha_scales_y_in_the_kernel(alpha, y_shape, dtype):
    x, y = rand(40, 33, dtype=dtype), rand(*y_shape, dtype=dtype)
    with ascend_ext.twin.record() as rec:
        z = ascend_ext.vector_add(x, y, alpha=alpha)
    assert len(rec.launches) == 1
    assert_matches_reference(z, x.double() + alpha * y.double(), dtype)


def test_alpha_on_a_broadcast_first_operand():
    x, y = rand(9), rand(5, 9)
    assert_matches_reference(ascend_ext.vector_add(x, y, alpha=-1.5), x.double() - 1.5 * y.double(), torch.float32)


def test_out_argument(dtype):
    x, y = rand(6, 50, dtype=dtype), rand(50, dtype=dtype)
    out = torch.empty(0, dtype=dtype)
    result = torch.ops.ascend_ext.vector_add(x, y, alpha=2.0, out=out)
    assert result is out and out.shape == (6, 50)
    assert_matches_reference(out, x.double() + 2 * y.double(), dtype)
    wider = torch.empty(6, 50, dtype=torch.float64)
    torch.ops.ascend_ext.vector_add(x, y, out=wider)
    torch.testing.assert_close(wider, (x + y).double())


def test_out_into_a_strided_destination():
    x, y = rand(8, 8), rand(8, 8)
    base = torch.zeros(8, 16)
    torch.ops.ascend_ext.vector_add(x, y, out=base[:, ::2])
    assert torch.equal(base[:, ::2], x + y) and torch.equal(base[:, 1::2], torch.zeros(8, 8))


def test_in_place(dtype):
    x, y = rand(4, 33, dtype=dtype), rand(33, dtype=dtype)
    expected = x.double() + 0.5 * y.double()
    version = x._version
    result = ascend_ext.vector_add_(x, y, alpha=0.5)
    assert result is x and x._version > version
    assert_matches_reference(x, expected, dtype)
    rounded = x.double()
    ascend_ext.vector_add_(x, 1.0)
    assert_matches_reference(x, rounded + 1.0, dtype)


def test_in_place_on_a_view_writes_through():
    base = rand(6, 6)
    expected = base.clone()
    expected[1:4] += 1.0
    torch.ops.ascend_ext.vector_add_(base[1:4], torch.ones(6))
    assert torch.equal(base, expected)


def test_in_place_is_differentiable():
    leaf = rand(5).requires_grad_()
    x = leaf * 1.0
    y = rand(5).requires_grad_()
    ascend_ext.vector_add_(x, y, alpha=3.0)
    x.sum().backward()
    torch.testing.assert_close(leaf.grad, torch.ones(5))
    torch.testing.assert_close(y.grad, torch.full((5,), 3.0))
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        ascend_ext.vector_add_(leaf, y)


def test_out_form_refuses_autograd_like_torch():
    with pytest.raises(RuntimeError, match="out= form does not support automatic differentiation"):
        torch.ops.ascend_ext.vector_add(rand(3).requires_grad_(), rand(3), out=torch.empty(3))


@pytest.mark.parametrize("fmt,shape,y_shape", [
    (torch.channels_last, (2, 3, 4, 5), (2, 3, 4, 5)), (torch.channels_last, (2, 3, 4, 5), (3, 1, 1)),
    (torch.channels_last_3d, (2, 3, 2, 4, 5), (3, 1, 1, 1)), (torch.contiguous_format, (2, 3, 4, 5), (5,)),
])
def test_result_memory_format_like_torch_add(fmt, shape, y_shape):
    x, y = rand(*shape).to(memory_format=fmt), rand(*y_shape)
    z, expected = ascend_ext.vector_add(x, y), torch.add(x, y)
    assert z.stride() == expected.stride()
    assert torch.equal(z, expected)


def test_channels_last_bias_is_read_in_place():
    x, bias = rand(4, 16, 8, 8).to(memory_format=torch.channels_last), rand(16, 1, 1)
    ascend_ext.vector_add(x, bias)
    stats = ascend_ext.twin.last_launch_stats()
    assert stats.total.gm_bytes_read == 4 * (x.numel() + stats.block_dim * 16)


def test_broadcast_operand_is_not_materialised():
    x, b = rand(1 << 12, 128), rand(128)
    with torch.profiler.profile(profile_memory=True) as prof:
        ascend_ext.vector_add(x, b)
    (op_event,) = [e for e in prof.events() if e.name == "ascend_ext::vector_add"]
    assert op_event.cpu_memory_usage == x.numel() * 4, "only the output may be allocated"


# ---- bad input -----------------------------------------------------------------------------------


def test_rejects_integer_dtype():
    with pytest.raises(TypeError, match=r"ascend_ext\.vector_add: argument 'x' has dtype torch\.int32"):
        ascend_ext.vector_add(torch.ones(4, dtype=torch.int32), torch.ones(4, dtype=torch.int32))


def test_rejects_complex_and_integer_results():
    with pytest.raises(TypeError, match=r"ascend_ext\.vector_add: x \(torch\.float32\) \+ y \(torch\.complex64\), "
                                        r"promoted as torch\.add does, has dtype torch\.complex64"):
        ascend_ext.vector_add(rand(4), torch.ones(4, dtype=torch.complex64))
    with pytest.raises(TypeError, match=r"argument 'x' has dtype torch\.int64"):
        ascend_ext.vector_add(torch.ones(4, dtype=torch.int64), 3)


@pytest.mark.parametrize("alpha", [1j, True])
def test_rejects_alpha_that_is_not_a_real_number(alpha):
    with pytest.raises(TypeError, match=r"ascend_ext\.vector_add: argument 'alpha' must be a real number"):
        ascend_ext.vector_add(rand(4), rand(4), alpha=alpha)


def test_in_place_errors_name_the_problem():
    with pytest.raises(ValueError, match=r"vector_add_: the result's shape \[3, 4\] differs from the shape \[4\]"):
        ascend_ext.vector_add_(rand(4), rand(3, 4))
    with pytest.raises(TypeError, match=r"result type torch\.float32 can't be cast to the dtype torch\.int32"):
        ascend_ext.vector_add_(torch.ones(4, dtype=torch.int32), rand(4))
    with pytest.raises(RuntimeError, match="unsupported operation"):
        x = rand(8)
        ascend_ext.vector_add_(x[1:], x[:-1])


def test_out_errors_name_the_problem():
    with pytest.raises(TypeError, match=r"can't be cast to the dtype torch\.int32 of argument 'out'"):
        torch.ops.ascend_ext.vector_add(rand(4), rand(4), out=torch.empty(4, dtype=torch.int32))


def test_a_cpu_scalar_x_takes_the_device_of_y():
    # The operand deciding the device is y here (torch.add's rule); the NPU entry guards on the same choice.
    x = torch.tensor(2.0)
    for y in (torch.empty(3, device="meta"), torch.empty(3, 4, device="meta", dtype=torch.bfloat16)):
        z = torch.ops.ascend_ext.vector_add(x, y, alpha=0.5)
        assert z.device == y.device and z.shape == y.shape and z.dtype == torch.add(x, y).dtype


@pytest.mark.parametrize("other", ["meta", pytest.param("npu", marks=DEVICES[1].marks)])
def test_rejects_mixed_devices(other):
    with pytest.raises(ValueError, match=r"ascend_ext\.vector_add: arguments 'x' and 'y' must be on the same device"):
        torch.ops.ascend_ext.vector_add(rand(4), torch.empty(4, device=other))


def test_rejects_shapes_that_do_not_broadcast():
    with pytest.raises(ValueError, match=r"ascend_ext\.vector_add: shapes of 'x' \[3, 4\] and 'y' \[5\] do not "
                                         r"broadcast"):
        ascend_ext.vector_add(rand(3, 4), rand(5))


@pytest.mark.parametrize("bad", [None, [1.0, 2.0], "x"])
def test_rejects_operands_that_are_neither_tensors_nor_numbers(bad):
    with pytest.raises(TypeError, match=r"ascend_ext\.vector_add: argument 'y' must be a torch\.Tensor or a real "
                                        r"number, got"):
        ascend_ext.vector_add(rand(2), bad)
    with pytest.raises(TypeError, match=r"ascend_ext\.vector_add: argument 'x' must be a torch\.Tensor, got"):
        ascend_ext.vector_add(bad, rand(2))
    with pytest.raises((TypeError, RuntimeError), match=r"vector_add"):
        torch.ops.ascend_ext.vector_add(bad, rand(2))


# ascend_ext.vector_add(x, y) enters the dispatcher through ascend_ext._C.vector_add where no Python-level
# hook would see the call, and through torch.ops otherwise: both entries must be the same op to a user.
@pytest.mark.parametrize("x, y", [
    (torch.ones(3, dtype=torch.int32), torch.ones(3, dtype=torch.int32)),
    (torch.ones(3), torch.ones(4)),
    (torch.ones(3), torch.ones(3, dtype=torch.complex64)),
    (torch.ones(3), torch.ones(3, device="meta")),
    (torch.ones(3).to_sparse(), torch.ones(3)),
])
def test_both_entries_report_the_same_errors(x, y):
    with pytest.raises(Exception) as fast:
        ascend_ext._C.vector_add(x, y)
    with pytest.raises(Exception) as slow:
        torch.ops.ascend_ext.vector_add.default(x, y)
    assert type(fast.value) is type(slow.value)
    assert str(fast.value).split("\n")[0] == str(slow.value).split("\n")[0]


def test_fast_entry_matches_and_is_seen_by_autograd_profiler_and_modes():
    x, y = rand(7, 5).requires_grad_(), rand(5)
    z = ascend_ext._C.vector_add(x, y)
    assert torch.equal(z, (x.detach().double() + y.double()).to(z.dtype))
    z.sum().backward()
    assert torch.equal(x.grad, torch.ones_like(x))
    with torch.profiler.profile() as prof:
        ascend_ext.vector_add(x.detach(), y)
    assert "ascend_ext::vector_add" in {e.name for e in prof.events()}
    seen = []

    class Mode(torch.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            seen.append(func)
            return func(*args, **(kwargs or {}))

    with Mode():
        ascend_ext.vector_add(x.detach(), y)
    assert torch.ops.ascend_ext.vector_add.default in seen
    with pytest.raises(TypeError, match="two tensors"):
        ascend_ext._C.vector_add(x, 1.0)
