"""Training with the ops: autocast (bfloat16, float16 with a GradScaler), torch.compile of a whole model,
and the drop-in layers against torch's own.

The model is the demo's (``ascend_ext.models``): its normalisation comes from ``ours_norm``/``native_norm``.
"""
import os

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

import ascend_ext
from ascend_ext.models import Residual, build_model, build_pair
from ascend_ext.training import TrainConfig, train
from conftest import rand

EXHAUSTIVE = os.environ.get("ASCEND_EXT_EXHAUSTIVE") == "1"


class OpDtypes(TorchDispatchMode):
    """Records (op, input dtypes, output dtype) of every ascend_ext op call (after autocast has cast)."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if func.namespace == "ascend_ext":
            inputs = [a.dtype for a in list(args) + list((kwargs or {}).values()) if isinstance(a, torch.Tensor)]
            self.calls.append((func.overloadpacket.__name__, inputs, out.dtype))
        return out


# What autocast does at each op of the model (README.md, "The op contract", the Autocast row): (input dtypes, output dtype, low) -> ok.
AUTOCAST_RULES = {
    # The forward and both gradients run in the autocast dtype.
    "matmul": lambda inputs, out, low: set(inputs) == {low} and out == low,
    # No cast: promotes as torch.add does.
    "vector_add": lambda inputs, out, low: out == (torch.promote_types(*inputs) if len(inputs) == 2 else inputs[0]),
    # No cast: the kernels compute in float32 inside and return the input's dtype (x's, for the backward).
    "dispersion_correction": lambda inputs, out, low: out == inputs[0],
    "dispersion_correction_backward": lambda inputs, out, low: out == inputs[-1],
}
# The twin kernels a training step of the model launches.
MODEL_KERNELS = {"matmul_cube", "vector_add", "dispersion_correction", "dispersion_correction_backward"}


def seeded_model(depth=2, width=32):
    return build_pair(int(torch.randint(0, 2**31 - 1, ())), d_in=32, width=width, depth=depth, classes=8)[0]


# ---- AMP ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("low", [torch.bfloat16, torch.float16])
def test_dtype_at_each_op_under_autocast(low, device):
    model = seeded_model().to(device)
    x = rand(16, 32, device=device)
    with torch.autocast(device, dtype=low), OpDtypes() as seen:
        model(x).float().sum().backward()
    assert {name for name, _, _ in seen.calls} == set(AUTOCAST_RULES)
    for name, inputs, out in seen.calls:
        assert AUTOCAST_RULES[name](inputs, out, low), (name, inputs, out)


def test_vector_add_in_a_block_promotes_a_float32_residual():
    # A float32 residual stream plus a bfloat16 block output: the sum stays float32, as with torch.add.
    layer = ascend_ext.nn.ResidualAdd(ascend_ext.nn.Linear(16, 16))
    x = rand(4, 16)
    with torch.autocast("cpu", dtype=torch.bfloat16), OpDtypes() as seen:
        out = layer(x)
    assert out.dtype == torch.float32
    assert seen.calls[-1] == ("vector_add", [torch.bfloat16, torch.float32], torch.float32)


def loss_window(result, n=5):
    return sum(result.losses[-n:]) / n


@pytest.mark.parametrize("amp", ["bf16", "fp16"])
def test_mixed_precision_training_falls_like_float32(amp, device):
    cfg = TrainConfig(steps=120 if EXHAUSTIVE else 40, batch=64, width=32, depth=2, lr=1e-2,
                      seed=int(torch.randint(0, 2**31 - 1, ())), eval_every=10**9, eval_size=256, device=device)
    ours, native = build_pair(cfg.seed, **cfg.sizes())
    reference = train(native.to(device), cfg)  # float32, torch's layers
    mixed = train(ours.to(device), TrainConfig(**{**cfg.__dict__, "amp": amp}))
    start = sum(reference.losses[:3]) / 3
    assert loss_window(reference) < 0.6 * start
    assert loss_window(mixed) < 0.6 * start
    assert abs(loss_window(mixed) - loss_window(reference)) < 0.1 * start
    assert all(torch.isfinite(torch.tensor(mixed.losses)))
    for value in mixed.state_dict.values():  # the master weights stay float32
        assert value.dtype == torch.float32


def test_grad_scaler_skips_steps_with_overflowing_float16_gradients():
    model = seeded_model(depth=1)
    before = {k: v.clone() for k, v in model.state_dict().items()}
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu", init_scale=2.0**30)  # certain to overflow float16 gradients
    with torch.autocast("cpu", dtype=torch.float16):
        loss = torch.nn.functional.cross_entropy(model(rand(8, 32) * 100).float(), torch.randint(0, 8, (8,)))
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    assert scaler.get_scale() < 2.0**30  # the overflow was seen in our kernels' gradients
    for k, v in model.state_dict().items():
        assert torch.equal(v, before[k]), f"{k} changed although the step was skipped"


# ---- torch.compile -----------------------------------------------------------------------------------


def test_whole_model_traces_as_one_graph():
    explanation = torch._dynamo.explain(seeded_model())(rand(8, 32))
    assert explanation.graph_count == 1 and explanation.graph_break_count == 0, explanation.break_reasons


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_compiled_model_matches_eager_forward_and_backward(backend):
    torch._dynamo.reset()
    model = seeded_model(depth=1, width=16)
    compiled = torch.compile(model, backend=backend, fullgraph=True)
    x, target = rand(8, 32), torch.randint(0, 8, (8,))
    eager_loss = torch.nn.functional.cross_entropy(model(x), target)
    eager_grads = torch.autograd.grad(eager_loss, list(model.parameters()))
    with ascend_ext.twin.record() as rec:
        loss = torch.nn.functional.cross_entropy(compiled(x), target)
        grads = torch.autograd.grad(loss, list(model.parameters()))
    assert {launch.kernel for launch in rec.launches} == MODEL_KERNELS  # our kernels ran, in the graph
    torch.testing.assert_close(loss, eager_loss, rtol=1e-5, atol=1e-6)
    for g, e in zip(grads, eager_grads):
        torch.testing.assert_close(g, e, rtol=1e-5, atol=1e-6)


# ---- drop-in layers -----------------------------------------------------------------------------------


def test_state_dicts_round_trip_with_the_native_model():
    ours, native = build_model("ours", width=16), build_model("native", width=16)
    assert list(ours.state_dict()) == list(native.state_dict())
    ours.load_state_dict(native.state_dict(), strict=True)
    native2 = build_model("native", width=16)
    native2.load_state_dict(ours.state_dict(), strict=True)
    x = rand(5, 32)
    torch.testing.assert_close(ours(x), native(x), rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(native2(x), native(x), rtol=0, atol=0)
    assert list(ascend_ext.nn.ResidualAdd(torch.nn.Linear(3, 3)).state_dict()) == \
        list(Residual(torch.nn.Linear(3, 3)).state_dict())


@pytest.mark.parametrize("mode", [0, 1])
def test_native_dispersion_correction_is_the_formula(mode):
    from ascend_ext.models import DispersionCorrectionReference

    x = rand(6, 40, dtype=torch.float64) * 3 + 1
    y = DispersionCorrectionReference(alpha=0.7, mode=mode, eps=1e-5)(x)
    torch.testing.assert_close(y.mean(-1), x.mean(-1))  # the mean stays
    spread = x.var(-1, unbiased=False) if mode == 0 else torch.ones(6, dtype=torch.float64) - 1e-5 / (x.var(-1, unbiased=False) + 1e-5)
    torch.testing.assert_close(y.var(-1, unbiased=False), 0.49 * spread)


def encoder_pair():
    torch.manual_seed(int(torch.randint(0, 2**31 - 1, ())))
    layer = torch.nn.TransformerEncoderLayer(32, nhead=4, dim_feedforward=64, dropout=0.0, batch_first=True)
    original = torch.nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
    converted = torch.nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
    converted.load_state_dict(original.state_dict())
    return ascend_ext.nn.convert(converted), original


def test_converted_transformer_encoder_matches_forward_and_backward():
    converted, original = encoder_pair()
    x = rand(3, 7, 32)
    x_ref = x.clone().requires_grad_()
    x.requires_grad_()
    with ascend_ext.twin.record() as rec:
        out = converted(x)
        out.square().sum().backward()
    assert sum(launch.kernel == "matmul_cube" for launch in rec.launches) == 2 * 2 * 3  # 2 layers x 2 Linears x fwd+2 grads
    ref = original(x_ref)
    ref.square().sum().backward()
    torch.testing.assert_close(out, ref, rtol=1e-4, atol=1e-5)
    torch.testing.assert_close(x.grad, x_ref.grad, rtol=1e-4, atol=1e-5)
    for (name, p), q in zip(converted.named_parameters(), original.parameters()):
        torch.testing.assert_close(p.grad, q.grad, rtol=1e-4, atol=1e-5, msg=lambda m: f"{name}: {m}")


def test_converted_encoder_runs_our_kernels_in_inference_too():
    # torch's encoder layer has a fused inference path that would bypass the converted Linears.
    converted, original = encoder_pair()
    converted.eval(), original.eval()
    x = rand(2, 5, 32)
    with torch.no_grad(), ascend_ext.twin.record() as rec:
        out = converted(x)
        ref = original(x)
    assert sum(launch.kernel == "matmul_cube" for launch in rec.launches) == 4
    torch.testing.assert_close(out, ref, rtol=1e-4, atol=1e-5)
    ascend_ext.nn.convert(converted, reverse=True)
    with torch.no_grad(), ascend_ext.twin.record() as rec:
        converted(x)
    assert not rec.launches  # back to torch's layers, fused path included
