"""matmul on the cube unit: layouts read in place, empty shapes, counters against the plan, nn.Linear and
convert(), autocast, and bad input. (The generic op contract is in test_conformance.py.)"""
import pytest
import torch

import ascend_ext
from conftest import rand

GEMM_TOL = {torch.float32: dict(rtol=2e-5, atol=2e-5), torch.float16: dict(rtol=2e-3, atol=2e-3),
            torch.bfloat16: dict(rtol=1e-2, atol=1e-2)}


def reference(a, b, trans_a=False, trans_b=False, bias=None):
    a64, b64 = a.double(), b.double()
    out = (a64.t() if trans_a else a64) @ (b64.t() if trans_b else b64)
    return out if bias is None else out + bias.double()


@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (17, 33, 65), (128, 128, 128), (3, 1, 200), (1, 70, 9)])
@pytest.mark.parametrize("trans_a,trans_b", [(False, False), (True, False), (False, True), (True, True)])
def test_matches_float64_for_every_transpose(m, n, k, trans_a, trans_b, dtype):
    a = rand(k, m, dtype=dtype) if trans_a else rand(m, k, dtype=dtype)
    b = rand(n, k, dtype=dtype) if trans_b else rand(k, n, dtype=dtype)
    bias = rand(n, dtype=dtype)
    out = ascend_ext.matmul(a, b, trans_a=trans_a, trans_b=trans_b, bias=bias)
    assert out.dtype == dtype and out.shape == (m, n)
    torch.testing.assert_close(out.double(), reference(a, b, trans_a, trans_b, bias), **GEMM_TOL[dtype])


def test_transposed_views_are_read_in_place():
    a, b = rand(40, 24), rand(40, 16)
    with ascend_ext.twin.record() as rec:
        out = ascend_ext.matmul(a.t(), b)  # a.t() is [24, 40], stored as the contiguous [40, 24]
    assert len(rec.launches) == 1
    torch.testing.assert_close(out.double(), reference(a.t(), b), **GEMM_TOL[torch.float32])
    plan = ascend_ext.twin.plan("matmul", [24, 16, 40, 1, 0, 0])
    assert rec.launches[0].total.gm_bytes_read == plan["gm_bytes_a"] + plan["gm_bytes_b"]


@pytest.mark.parametrize("m,n,k", [(64, 48, 80), (300, 200, 96), (24 * 16, 16, 32)])
def test_gm_traffic_equals_the_plan(m, n, k):
    a, b = rand(m, k), rand(k, n)
    ascend_ext.matmul(a, b)
    stats = ascend_ext.twin.last_launch_stats()
    plan = ascend_ext.twin.plan("matmul", [m, n, k])
    assert stats.block_dim == plan["block_dim"]
    assert stats.total.gm_bytes_read == plan["gm_bytes_a"] + plan["gm_bytes_b"] + plan["gm_bytes_bias"]
    assert stats.total.gm_bytes_written == m * n * 4
    assert stats.total.cube_macs == m * n * k


def test_empty_dimensions_follow_torch():
    assert ascend_ext.matmul(rand(0, 5), rand(5, 3)).shape == (0, 3)
    assert ascend_ext.matmul(rand(4, 5), rand(5, 0)).shape == (4, 0)
    bias = rand(3)
    torch.testing.assert_close(ascend_ext.matmul(rand(4, 0), rand(0, 3), bias=bias), bias.expand(4, 3))
    torch.testing.assert_close(ascend_ext.matmul(rand(4, 0), rand(0, 3)), torch.zeros(4, 3))


def test_backward_uses_the_kernel_with_flags_not_transposes():
    a, b = rand(12, 20).requires_grad_(), rand(20, 8).requires_grad_()
    out = ascend_ext.matmul(a, b)
    with ascend_ext.twin.record() as rec:
        out.backward(torch.ones_like(out))
    assert [launch.kernel for launch in rec.launches] == ["matmul_cube", "matmul_cube"]
    torch.testing.assert_close(a.grad, torch.ones(12, 8) @ b.detach().t())
    torch.testing.assert_close(b.grad, a.detach().t() @ torch.ones(12, 8))


def test_autocast_runs_in_the_autocast_dtype():
    a, b, bias = rand(8, 16), rand(16, 4), rand(4)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = ascend_ext.matmul(a, b, bias=bias)
    assert out.dtype == torch.bfloat16
    torch.testing.assert_close(out.double(), reference(a.bfloat16(), b.bfloat16(), bias=bias.bfloat16()),
                               **GEMM_TOL[torch.bfloat16])


# ---- nn.Linear and convert ---------------------------------------------------------------------------


def test_linear_is_a_drop_in_for_torch_linear():
    torch.manual_seed(0)
    ours = ascend_ext.nn.Linear(12, 5)
    torch.manual_seed(0)
    theirs = torch.nn.Linear(12, 5)
    assert torch.equal(ours.weight, theirs.weight) and torch.equal(ours.bias, theirs.bias)  # same init
    assert list(ours.state_dict()) == list(theirs.state_dict())
    x = rand(2, 3, 12)
    x_ref = x.clone().requires_grad_()
    x.requires_grad_()
    out, ref = ours(x), theirs(x_ref)
    torch.testing.assert_close(out, ref)
    g = rand(2, 3, 5)
    out.backward(g)
    ref.backward(g)
    torch.testing.assert_close(x.grad, x_ref.grad)
    torch.testing.assert_close(ours.weight.grad, theirs.weight.grad)
    torch.testing.assert_close(ours.bias.grad, theirs.bias.grad)
    no_bias = ascend_ext.nn.Linear(4, 3, bias=False, dtype=torch.bfloat16)
    assert no_bias.bias is None and no_bias(rand(2, 4, dtype=torch.bfloat16)).dtype == torch.bfloat16


def test_linear_loads_a_torch_state_dict():
    theirs = torch.nn.Linear(6, 4)
    ours = ascend_ext.nn.Linear(6, 4)
    ours.load_state_dict(theirs.state_dict())
    x = rand(7, 6)
    torch.testing.assert_close(ours(x), theirs(x))


def small_model():
    torch.manual_seed(1)
    return torch.nn.Sequential(
        torch.nn.Linear(16, 32), torch.nn.GELU(),
        torch.nn.TransformerEncoderLayer(32, nhead=4, dim_feedforward=48, dropout=0.0, batch_first=True),
        torch.nn.Linear(32, 3),
    )


def test_convert_swaps_linears_in_place_and_keeps_their_weights():
    model, original = small_model(), small_model()
    params_before = [id(p) for p in model.parameters()]
    assert ascend_ext.nn.convert(model) is model
    assert [id(p) for p in model.parameters()] == params_before  # optimizers stay valid
    converted = [m for m in model.modules() if type(m) is ascend_ext.nn.Linear]
    assert len(converted) == 4  # the two outer layers and the encoder's feed-forward pair
    x = rand(2, 5, 16)
    x_ref = x.clone().requires_grad_()
    x.requires_grad_()
    out, ref = model(x), original(x_ref)
    torch.testing.assert_close(out, ref, rtol=1e-4, atol=1e-5)
    out.square().sum().backward()
    ref.square().sum().backward()
    torch.testing.assert_close(x.grad, x_ref.grad, rtol=1e-4, atol=1e-5)
    for p, q in zip(model.parameters(), original.parameters()):
        torch.testing.assert_close(p.grad, q.grad, rtol=1e-4, atol=1e-5)
    ascend_ext.nn.convert(model, reverse=True)
    assert not any(type(m) is ascend_ext.nn.Linear for m in model.modules())
    assert isinstance(ascend_ext.nn.convert(torch.nn.Linear(2, 2)), ascend_ext.nn.Linear)


# ---- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize("a,b,kwargs,error,match", [
    ((4, 5), (6, 3), {}, ValueError, r"op\(a\) is 4x5 and op\(b\) is 6x3: the inner dimensions must match"),
    ((4, 5), (3, 6), {"trans_b": True}, ValueError, r"op\(a\) is 4x5 and op\(b\) is 6x3: the inner dimensions must match \(trans_a=False, trans_b=True\)"),
    ((5,), (5, 3), {}, ValueError, r"argument 'a' must be 2-D, got 1-D"),
    ((2, 4, 5), (5, 3), {}, ValueError, r"argument 'a' must be 2-D, got 3-D"),
    ((4, 5), (5, 3), {"bias": (4,)}, ValueError, r"argument 'bias' has length 4; expected N=3"),
    ((4, 5), (5, 3), {"bias": (1, 3)}, ValueError, r"argument 'bias' must be 1-D"),
])
def test_rejects_bad_shapes(a, b, kwargs, error, match):
    if "bias" in kwargs:
        kwargs = dict(kwargs, bias=rand(*kwargs["bias"]))
    with pytest.raises(error, match=r"ascend_ext\.matmul: " + match):
        ascend_ext.matmul(rand(*a), rand(*b), **kwargs)


def test_rejects_bad_dtypes():
    with pytest.raises(TypeError, match=r"arguments 'a' and 'b' must have the same dtype"):
        ascend_ext.matmul(rand(2, 2), rand(2, 2, dtype=torch.float16))
    with pytest.raises(TypeError, match=r"arguments 'a' and 'bias' must have the same dtype"):
        ascend_ext.matmul(rand(2, 2), rand(2, 2), bias=rand(2, dtype=torch.bfloat16))
    with pytest.raises(TypeError, match=r"argument 'a' has dtype torch\.int32"):
        ascend_ext.matmul(torch.ones(2, 2, dtype=torch.int32), torch.ones(2, 2, dtype=torch.int32))
    with pytest.raises(TypeError, match=r"ascend_ext\.matmul: argument 'b' must be a torch\.Tensor"):
        ascend_ext.matmul(rand(2, 2), [[1.0]])


# ---- float64: the twin's own build, never the NPU's ---------------------------------------------------


def test_float64_runs_on_the_twin_in_double_precision():
    a, b, bias = (torch.randn(*s, dtype=torch.float64) for s in ((37, 70), (45, 70), (45,)))
    out = ascend_ext.matmul(a, b, trans_b=True, bias=bias)
    assert out.dtype == torch.float64
    # Double accumulation: far closer than float32 could be (float32 inputs alone would be off by ~1e-7).
    torch.testing.assert_close(out, a @ b.t() + bias, rtol=1e-13, atol=1e-13)
    with ascend_ext.twin.record() as rec:
        ascend_ext.matmul(a, b, trans_b=True)
    (launch,) = rec.launches
    assert launch.kernel == "matmul_cube" and launch.total.cube_macs == 37 * 45 * 70


def test_float64_is_never_declared_for_the_npu(tmp_path):
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # The op package's OpDef ports are generated from the declarations (cmake/builtin_ops.py): float64, a
    # twin-only build, is in none of them, for any op.
    subprocess.run([sys.executable, os.path.join(root, "cmake", "builtin_ops.py"), root, str(tmp_path), "cann"],
                   check=True, capture_output=True)
    ports = {p.name: p.read_text() for p in (tmp_path / "ascend_ext_ports").iterdir()}
    assert set(ports) >= {"VectorAdd.h", "MatmulCube.h", "DispersionCorrection.h", "DispersionCorrectionBackward.h"}
    for name, text in ports.items():
        assert "DT_DOUBLE" not in text, name
    assert "ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16" in ports["MatmulCube.h"]
    for name in os.listdir(os.path.join(root, "op_host")):
        if name.endswith(".cpp"):
            with open(os.path.join(root, "op_host", name)) as f:
                assert "DT_DOUBLE" not in f.read(), name
