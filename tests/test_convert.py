"""ascend_ext.nn.convert on models no one here wrote, as a torch user meets them: what it converts (Linear,
Linear subclasses, Hugging Face's Conv1D, registered classes), what it leaves and why (its report, log
record and strict mode), that a converted model computes what the original does on our kernels, and
ascend_ext.nn.Linear's own contract (a fresh result, torch-like errors, empty K, float64 on the twin).

The GPT-2- and BERT-shaped models are in models_hf_shaped.py; the test with the real transformers runs
only where it imports."""
import copy
import io
import logging
import sys
import types

import pytest
import torch

import ascend_ext
from ascend_ext.nn import Conv1DForward, ConversionReport, convert, register_conversion
from conftest import rand
from models_hf_shaped import BertModel, Conv1D, GPT2LMHead

TOL = dict(rtol=1e-4, atol=1e-5)


class Conv1DOnAscend(Conv1DForward, Conv1D):
    pass


@pytest.fixture
def conv1d_registered():
    handle = register_conversion(Conv1D, Conv1DOnAscend)
    yield
    handle.remove()


@pytest.fixture
def fake_transformers(monkeypatch):
    """Hugging Face's Conv1D as convert finds it when transformers is imported: the test's Conv1D, served as
    transformers.pytorch_utils.Conv1D."""
    module = types.ModuleType("transformers.pytorch_utils")
    module.Conv1D = Conv1D
    monkeypatch.setitem(sys.modules, "transformers.pytorch_utils", module)


def matmul_launches(fn):
    with ascend_ext.twin.record() as rec:
        out = fn()
    return out, sum(launch.kernel == "matmul_cube" for launch in rec.launches)


def assert_same_training_signal(converted, original, make_input, outputs=lambda out: out):
    """Forward equal, and after one backward of a random projection every parameter gradient equal."""
    x = make_input()
    out, launches = matmul_launches(lambda: outputs(converted(x)))
    ref = outputs(original(x))
    torch.testing.assert_close(out, ref, **TOL)
    g = torch.randn_like(ref)
    (out * g).sum().backward()
    (ref * g).sum().backward()
    for (name, p), q in zip(converted.named_parameters(), original.parameters()):
        torch.testing.assert_close(p.grad, q.grad, **TOL, msg=lambda m: f"{name}: {m}")
    return launches


def pair(build):
    torch.manual_seed(int(torch.randint(0, 2**31 - 1, ())))
    original = build()
    return copy.deepcopy(original), original


# ---- the three models of the issue: exactly which modules run on our kernels ----------------------------


def test_gpt2_shaped_all_projections_run_on_our_kernels(conv1d_registered):
    model, original = pair(GPT2LMHead)
    model, report = convert(model, report=True)
    assert sorted(cls for _, cls in report.converted) == ["Conv1D"] * 8 + ["Linear"]
    assert report.left == [] and report.other == {"Embedding": 2, "LayerNorm": 5}
    assert sorted(name for name, _ in report.ours) == sorted(
        [f"transformer.h.{i}.{m}" for i in range(2) for m in ("attn.c_attn", "attn.c_proj", "mlp.c_fc", "mlp.c_proj")]
        + ["lm_head"])
    assert all(isinstance(model.transformer.h[i].attn.c_attn, Conv1D) for i in range(2))
    assert model.lm_head.weight is model.transformer.wte.weight  # the tie survives
    launches = assert_same_training_signal(model, original, lambda: torch.randint(0, 50, (2, 7)))
    assert launches == 9  # one per converted layer


def test_hugging_face_conv1d_is_converted_without_registration(fake_transformers):
    model, original = pair(GPT2LMHead)
    model, report = convert(model, report=True)
    assert len(report.converted) == 9 and not report.left
    layer = model.transformer.h[0].mlp.c_fc
    assert isinstance(layer, Conv1D) and isinstance(layer, Conv1DForward) and type(layer).__name__ == "Conv1D"
    assert_same_training_signal(model, original, lambda: torch.randint(0, 50, (3, 5)))
    # A converted model pickles whole (torch.save) and deep-copies, still converted.
    buffer = io.BytesIO()
    torch.save(model, buffer)
    buffer.seek(0)
    for clone in (torch.load(buffer, weights_only=False), copy.deepcopy(model)):
        assert type(clone.transformer.h[1].attn.c_proj) is type(model.transformer.h[1].attn.c_proj)
        ids = torch.randint(0, 50, (1, 4))
        torch.testing.assert_close(clone(ids), model(ids))
    convert(model, reverse=True)
    assert type(model.transformer.h[0].mlp.c_fc) is Conv1D and type(model.lm_head) is torch.nn.Linear


def test_without_a_conversion_an_unknown_layer_is_reported_not_converted():
    model, report = convert(GPT2LMHead(), report=True)
    assert [cls for _, cls in report.converted] == ["Linear"]
    assert report.other == {"Conv1D": 8, "Embedding": 2, "LayerNorm": 5}
    assert "not matrix products ascend_ext computes: 8 Conv1D, 2 Embedding, 5 LayerNorm" in str(report)


def test_bert_shaped_all_linears_run_on_our_kernels():
    model, original = pair(BertModel)
    model, report = convert(model, report=True)
    assert [cls for _, cls in report.converted] == ["Linear"] * 13  # 6 per layer + the pooler
    assert len(report.ours) == 13 and report.left == []
    assert report.other == {"Embedding": 3, "LayerNorm": 5}
    launches = assert_same_training_signal(model, original, lambda: torch.randint(0, 50, (2, 6)),
                                           outputs=lambda out: torch.cat([out[0].flatten(), out[1].flatten()]))
    assert launches == 13


def encoder():
    layer = torch.nn.TransformerEncoderLayer(32, nhead=4, dim_feedforward=64, dropout=0.0, batch_first=True)
    return torch.nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)


def test_transformer_encoder_reports_attention_left_with_the_reason(caplog):
    model, original = pair(encoder)
    with caplog.at_level(logging.INFO, logger="ascend_ext.nn"):
        model, report = convert(model, report=True)
    assert sorted(name for name, _ in report.converted) == [
        "layers.0.linear1", "layers.0.linear2", "layers.1.linear1", "layers.1.linear2"]
    assert [(name, cls) for name, cls, _ in report.left] == [("layers.0.self_attn", "MultiheadAttention"),
                                                            ("layers.1.self_attn", "MultiheadAttention")]
    assert "F.multi_head_attention_forward" in report.left[0][2] and "out_proj.forward" in report.left[0][2]
    assert report.other == {"LayerNorm": 4}
    # The out_proj that MHA bypasses is not converted (it would claim work it does not do).
    assert type(model.layers[0].self_attn.out_proj) is torch.nn.modules.linear.NonDynamicallyQuantizableLinear
    (record,) = caplog.records
    assert record.levelno == logging.WARNING and "2 matrix-product layer(s) left" in record.getMessage()
    assert "layers.1.self_attn (MultiheadAttention)" in record.getMessage()
    launches = assert_same_training_signal(model, original, lambda: rand(2, 5, 32))
    assert launches == 4


def test_strict_refuses_a_model_with_layers_left():
    with pytest.raises(ValueError, match=r"convert\(strict=True\): 2 matrix-product layer\(s\) would stay on "
                                         r"torch's kernels:\n  layers\.0\.self_attn \(MultiheadAttention\)"):
        convert(encoder(), strict=True)
    model = convert(BertModel(), strict=True)  # nothing left: converts quietly
    assert sum(isinstance(m, ascend_ext.nn.Linear) for m in model.modules()) == 13


def test_a_fully_converted_model_logs_info(caplog):
    with caplog.at_level(logging.INFO, logger="ascend_ext.nn"):
        convert(torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2)))
    (record,) = caplog.records
    assert record.levelno == logging.INFO
    assert record.getMessage() == ("ascend_ext.nn.convert: 2 module(s) converted (2 Linear); 2 run on ascend_ext "
                                   "kernels (2 Linear); 0 matrix-product layer(s) left on torch's kernels")


def test_converting_twice_converts_nothing_more():
    model = convert(encoder())
    _, again = convert(model, report=True)
    assert again.converted == [] and len(again.ours) == 4


# ---- which classes convert ------------------------------------------------------------------------------


class KeepsForward(torch.nn.Linear):
    def extra(self):
        return "kept"


class OverridesForward(torch.nn.Linear):
    def forward(self, x):
        return super().forward(x).relu()


def test_linear_subclasses_convert_when_they_keep_linears_forward():
    model = torch.nn.Sequential(KeepsForward(6, 5), OverridesForward(5, 4))
    original = copy.deepcopy(model)
    model, report = convert(model, report=True)
    assert [name for name, _ in report.converted] == ["0"]
    assert isinstance(model[0], KeepsForward) and isinstance(model[0], ascend_ext.nn.Linear)
    assert model[0].extra() == "kept" and type(model[0]).__name__ == "KeepsForward"
    assert report.left == [("1", "OverridesForward",
                            "OverridesForward overrides torch.nn.Linear.forward, which may compute more than the "
                            "product; register a conversion for it (ascend_ext.nn.register_conversion)")]
    _, launches = matmul_launches(lambda: model(rand(3, 6)))
    assert launches == 1
    assert_same_training_signal(model, original, lambda: rand(3, 6))
    assert type(convert(model, reverse=True)[0]) is KeepsForward
    assert torch.jit.script(convert(model)[0])(torch.ones(1, 6)).shape == (1, 5)  # a made class scripts too


def test_a_lazy_linear_is_left_until_initialised():
    model, report = convert(torch.nn.Sequential(torch.nn.LazyLinear(3)), report=True)
    assert "not initialised yet" in report.left[0][2]
    model(rand(2, 4))  # materialises: it becomes a torch.nn.Linear
    _, report = convert(model, report=True)
    assert [cls for _, cls in report.converted] == ["Linear"] and isinstance(model[0], ascend_ext.nn.Linear)


def test_convolutions_and_recurrent_layers_are_reported_left():
    model = torch.nn.ModuleDict(dict(patch=torch.nn.Conv2d(3, 8, 4, stride=4), rnn=torch.nn.GRU(8, 8),
                                     bil=torch.nn.Bilinear(2, 2, 2)))
    _, report = convert(model, report=True)
    reasons = {name: why for name, _, why in report.left}
    assert "a convolution" in reasons["patch"] and "fused recurrent" in reasons["rnn"] and "bilinear" in reasons["bil"]


def test_register_conversion_checks_its_arguments_and_unregisters():
    with pytest.raises(TypeError, match=r"register_conversion: argument 'target' must be a subclass of "
                                        r"torch\.nn\.Module, got 3"):
        register_conversion(Conv1D, 3)
    with pytest.raises(ValueError, match="source and target are the same class"):
        register_conversion(Conv1D, Conv1D)
    with pytest.raises(ValueError, match="a chain of conversions is ambiguous"):
        register_conversion(ascend_ext.nn.Linear, Conv1DOnAscend)
    handle = register_conversion(Conv1D, Conv1DOnAscend)
    assert type(convert(Conv1D(3, 2))) is Conv1DOnAscend
    handle.remove()
    assert type(convert(Conv1D(3, 2))) is Conv1D


def test_report_is_a_dataclass_with_the_lists():
    report = ConversionReport(reverse=False)
    assert (report.converted, report.ours, report.left, report.other) == ([], [], [], {})


# ---- ascend_ext.nn.Linear: fresh results, errors, empty K, float64 --------------------------------------


@pytest.mark.parametrize("shape", [(5,), (4, 5), (2, 3, 5), (2, 0, 5)])
def test_linear_returns_a_tensor_of_its_own(shape):
    layer = ascend_ext.nn.Linear(5, 3)
    x = rand(*shape).requires_grad_()
    out = layer(x)
    assert not out._is_view() and out._base is None and out.is_contiguous()
    assert out.shape == shape[:-1] + (3,)
    ref = torch.nn.functional.linear(x, layer.weight, layer.bias)
    torch.testing.assert_close(out, ref, **TOL)
    if out.numel():
        g = torch.randn_like(out)
        grads = torch.autograd.grad((out * g).sum(), (x, layer.weight))
        expected = torch.autograd.grad((ref * g).sum(), (x, layer.weight))
        for got, want in zip(grads, expected):
            torch.testing.assert_close(got, want, **TOL)


def test_linear_in_place_on_its_result_keeps_gradients_right():
    layer = ascend_ext.nn.Linear(4, 4)
    x = rand(2, 3, 4).requires_grad_()
    out = layer(x)
    out += 1.0  # fine on a fresh tensor; on a view it would be the FSDP2 hazard
    out.sum().backward()
    torch.testing.assert_close(x.grad, layer.weight.sum(0).expand(2, 3, 4), **TOL)


def test_linear_compiles_and_scripts_with_leading_dimensions():
    layer = ascend_ext.nn.Linear(8, 4)
    x = rand(2, 3, 8)
    expected = torch.nn.functional.linear(x, layer.weight, layer.bias)
    torch.testing.assert_close(torch.compile(layer, backend="aot_eager", fullgraph=True)(x), expected, **TOL)
    torch.testing.assert_close(torch.jit.script(layer)(x), expected, **TOL)


def test_linear_errors_name_the_layer_and_the_sizes():
    with pytest.raises(ValueError, match=r"^ascend_ext\.nn\.Linear\(in_features=48, out_features=32\): expected an "
                                         r"input with in_features=48 in its last dimension, got an input whose last "
                                         r"dimension is 47 \(shape \[4, 47\]\)$"):
        ascend_ext.nn.Linear(48, 32)(rand(4, 47))
    with pytest.raises(ValueError, match=r"in_features=3 in its last dimension, got a 0-d input"):
        ascend_ext.nn.Linear(3, 2)(torch.tensor(1.0))
    conv = Conv1DOnAscend(4, 6)
    with pytest.raises(ValueError, match=r"^ascend_ext\.nn\.Conv1D\(in=6, out=4\): expected an input with "
                                         r"in_features=6 in its last dimension, got an input whose last dimension is 5"):
        conv(rand(2, 5))


@pytest.mark.parametrize("shape", [(2, 0), (3, 2, 0), (0,)])
def test_linear_with_no_input_features_returns_the_bias_like_torch(shape):
    ours = ascend_ext.nn.Linear(0, 3)
    x = rand(*shape).requires_grad_()
    out = ours(x)
    expected = torch.nn.functional.linear(x, ours.weight, ours.bias)
    torch.testing.assert_close(out, expected)
    assert out.shape == shape[:-1] + (3,)
    out.sum().backward()
    rows = torch.Size(shape[:-1]).numel()  # 1 for a 1-D input
    torch.testing.assert_close(ours.bias.grad, torch.full((3,), float(rows)))


def test_converted_model_runs_in_float64_on_the_twin_and_passes_gradcheck(conv1d_registered):
    torch.manual_seed(int(torch.randint(0, 2**31 - 1, ())))
    model = GPT2LMHead(vocab=11, positions=4, d=8, layers=1, heads=2).double()
    original = copy.deepcopy(model)
    convert(model)
    ids = torch.randint(0, 11, (1, 3))
    out, launches = matmul_launches(lambda: model(ids))
    assert launches == 5 and out.dtype == torch.float64
    torch.testing.assert_close(out, original(ids), rtol=1e-12, atol=1e-12)
    block = model.transformer.h[0]
    x = torch.randn(1, 3, 8, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(block, (x,))
    layer = ascend_ext.nn.Linear(4, 3).double()
    a = torch.randn(2, 5, 4, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(layer, (a,))
    params = (layer.weight.detach().requires_grad_(), layer.bias.detach().requires_grad_())
    assert torch.autograd.gradcheck(
        lambda w, b: torch.func.functional_call(layer, {"weight": w, "bias": b}, (a,)), params)


# ---- with the real transformers, where it imports --------------------------------------------------------

try:
    import transformers  # noqa: F401

    HAVE_TRANSFORMERS, NO_TRANSFORMERS = True, ""
except Exception as exc:  # not installed (it is no dependency of ascend_ext)
    HAVE_TRANSFORMERS, NO_TRANSFORMERS = False, f"transformers does not import here ({type(exc).__name__}: {exc})"


@pytest.mark.skipif(not HAVE_TRANSFORMERS, reason=NO_TRANSFORMERS)
def test_hugging_face_models_from_tiny_configs(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    from transformers import BertConfig, BertModel as HFBert, GPT2Config, GPT2LMHeadModel
    from transformers.pytorch_utils import Conv1D as HFConv1D

    torch.manual_seed(int(torch.randint(0, 2**31 - 1, ())))
    gpt2 = GPT2LMHeadModel(GPT2Config(vocab_size=64, n_positions=16, n_embd=32, n_layer=2, n_head=4,
                                      attn_pdrop=0.0, embd_pdrop=0.0, resid_pdrop=0.0)).eval()
    bert = HFBert(BertConfig(vocab_size=64, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                             intermediate_size=64, max_position_embeddings=16, hidden_dropout_prob=0.0,
                             attention_probs_dropout_prob=0.0)).eval()
    ids = torch.randint(0, 64, (2, 6))
    for model, expected, logits in ((gpt2, ["Conv1D"] * 8 + ["Linear"], lambda o: o.logits),
                                    (bert, ["Linear"] * 13, lambda o: o.last_hidden_state)):
        original = copy.deepcopy(model)
        _, report = convert(model, report=True)
        assert sorted(cls for _, cls in report.converted) == expected and not report.left, str(report)
        with torch.no_grad():
            out, launches = matmul_launches(lambda: logits(model(ids)))
            torch.testing.assert_close(out, logits(original(ids)), **TOL)
        assert launches == len(expected)
    assert isinstance(gpt2.transformer.h[0].attn.c_attn, HFConv1D)
