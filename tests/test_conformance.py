"""The op contract, checked for every op in op_db.OP_DB: numerics against float64, opcheck, gradients
(backward, double backward, forward-mode AD, torch.func), vmap in one launch, torch.compile (static,
dynamic, unbacked sizes), torch.export, TorchScript, the profiler and fake tensors.

Each test is generic; what differs between ops lives in the op's entry.
"""
import io

import pytest
import torch
import torch.autograd.forward_ad as fwAD
from torch._subclasses.fake_tensor import FakeTensorMode

import ascend_ext
from op_db import OP_DB, OpEntry, Sample

ENTRIES = pytest.mark.parametrize("entry", OP_DB, ids=lambda e: e.name)


def split(entry: OpEntry, sample: Sample):
    """(function of the sample's tensors, the tensors): the sample with numbers and kwargs bound."""
    positions = [i for i, a in enumerate(sample.args) if isinstance(a, torch.Tensor)]

    def fn(*tensors, op=entry.wrapper):
        args = list(sample.args)
        for i, t in zip(positions, tensors):
            args[i] = t
        return op(*args, **sample.kwargs)

    return fn, tuple(sample.args[i] for i in positions)


def call_op(entry: OpEntry, sample: Sample, convert=lambda t: t):
    """The dispatcher-level op on the sample (tensors mapped through `convert`)."""
    args, kwargs = entry.op_args(sample.map_tensors(convert))
    kwargs = {k: convert(v) if isinstance(v, torch.Tensor) else v for k, v in kwargs.items()}
    return entry.op(*args, **kwargs)


def tol(entry: OpEntry, dtype=None):
    return entry.tolerances[dtype or entry.grad_dtype]


def close(actual, expected, entry, dtype=None):
    torch.testing.assert_close(actual, expected.to(actual.dtype), **tol(entry, dtype))


def reference_fn(entry: OpEntry, sample: Sample):
    fn, _ = split(entry, sample)
    return lambda *tensors: fn(*tensors, op=entry.reference)


def all_samples(entry):
    return [(entry, dtype, s) for dtype in entry.dtypes for s in entry.samples(dtype)]


def sample_id(param):
    if isinstance(param, (Sample, OpEntry)):
        return param.name
    return str(param).replace("torch.", "")


# ---- numerics --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("entry,dtype,sample", [p for e in OP_DB for p in all_samples(e)], ids=sample_id)
def test_matches_float64_reference(entry, dtype, sample):
    fn, tensors = split(entry, sample)
    out = fn(*tensors)
    expected = reference_fn(entry, sample)(*[t.double() for t in tensors])
    assert out.dtype == dtype and out.shape == expected.shape
    tolerance = dict(entry.tolerances[dtype])
    tolerance["atol"] *= sample.atol_scale
    torch.testing.assert_close(out.double(), expected, equal_nan=True, **tolerance)


@ENTRIES
def test_float64_on_the_twin(entry):
    if entry.grad_dtype != torch.float64:
        pytest.skip(f"{entry.name} has no float64 build: its hardware unit has no float64")
    for sample in entry.samples(torch.float64):
        fn, tensors = split(entry, sample)
        expected = reference_fn(entry, sample)(*tensors)
        torch.testing.assert_close(fn(*tensors), expected, equal_nan=True, **entry.tolerances[torch.float64])


# ---- the dispatcher contract -----------------------------------------------------------------------------


def op_samples(entry, dtype, limit=4):
    """Samples the default overload takes as they are (all tensors), finite, non-empty."""
    out = []
    for s in entry.samples(dtype):
        if all(isinstance(a, torch.Tensor) for a in s.args) and s.name not in ("nan-inf", "size-0"):
            out.append(s)
    return out[:limit]


@ENTRIES
def test_opcheck(entry):
    for sample in op_samples(entry, torch.float32, limit=3):
        torch.library.opcheck(entry.op, *entry.op_args(sample))
        grad_sample = sample.map_tensors(lambda t: t.clone().requires_grad_())
        torch.library.opcheck(entry.op, *entry.op_args(grad_sample))


@ENTRIES
def test_fake_tensors_match_real_outputs(entry):
    for sample in op_samples(entry, torch.float32):
        real = call_op(entry, sample)
        with FakeTensorMode() as mode:
            fake = call_op(entry, sample, mode.from_tensor)
        assert fake.shape == real.shape and fake.dtype == real.dtype and fake.stride() == real.stride()
        meta = call_op(entry, sample, lambda t: t.to("meta"))
        assert meta.device.type == "meta" and meta.shape == real.shape and meta.stride() == real.stride()


@ENTRIES
def test_profiler_names_the_op(entry):
    sample = op_samples(entry, torch.float32)[0]
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        call_op(entry, sample)
    assert entry.profiler_name in {e.name for e in prof.events()}


# ---- autograd: backward, double backward, forward mode, torch.func ---------------------------------------


def grad_samples(entry, max_elements=200):
    """Finite samples (in the op's gradient dtype) small enough for numerical Jacobians."""
    out = []
    for s in entry.samples(entry.grad_dtype):
        tensors = [a for a in s.args if isinstance(a, torch.Tensor)]
        if s.name not in ("nan-inf", "large-magnitude") and 0 < sum(t.numel() for t in tensors) <= max_elements:
            out.append(s)
    return out


@ENTRIES
def test_gradcheck_and_gradgradcheck(entry):
    for sample in grad_samples(entry):
        fn, tensors = split(entry, sample)
        inputs = tuple(t.detach().requires_grad_() for t in tensors)
        assert torch.autograd.gradcheck(fn, inputs, **entry.gradcheck_kwargs), sample.name
        assert torch.autograd.gradgradcheck(fn, inputs, **entry.gradcheck_kwargs), sample.name


@ENTRIES
def test_forward_ad_matches_the_reference_jvp(entry):
    for sample in grad_samples(entry):
        fn, tensors = split(entry, sample)
        tangents = tuple(torch.randn_like(t) for t in tensors)
        out, tangent = torch.func.jvp(fn, tensors, tangents)
        ref_out, ref_tangent = torch.func.jvp(reference_fn(entry, sample), tensors, tangents)
        close(out, ref_out, entry)
        close(tangent, ref_tangent, entry)
        with fwAD.dual_level():
            duals = [fwAD.make_dual(t, dt) for t, dt in zip(tensors, tangents)]
            unpacked = fwAD.unpack_dual(fn(*duals))
        assert unpacked.tangent is not None, f"{entry.name}: forward_ad gave no tangent ({sample.name})"
        close(unpacked.tangent, ref_tangent, entry)


@ENTRIES
def test_jacfwd_equals_jacrev_and_the_reference(entry):
    sample = next(s for s in grad_samples(entry) if s.name == entry.jacobian_sample)
    fn, tensors = split(entry, sample)
    argnums = tuple(range(len(tensors)))
    forward = torch.func.jacfwd(fn, argnums=argnums)(*tensors)
    reverse = torch.func.jacrev(fn, argnums=argnums)(*tensors)
    reference = torch.func.jacrev(reference_fn(entry, sample), argnums=argnums)(*tensors)
    for f, r, ref in zip(forward, reverse, reference):
        assert f.abs().sum() > 0
        close(f, ref, entry)
        close(r, ref, entry)


@ENTRIES
def test_torch_func_grad_and_hessian(entry):
    for sample in grad_samples(entry)[:6]:
        fn, tensors = split(entry, sample)
        weights = torch.randn_like(fn(*tensors))

        def loss(*ts, f=fn):
            return (f(*ts) * weights).sum()

        ref = reference_fn(entry, sample)
        argnums = tuple(range(len(tensors)))
        got = torch.func.grad(loss, argnums=argnums)(*tensors)
        expected = torch.func.grad(lambda *ts: loss(*ts, f=ref), argnums=argnums)(*tensors)
        for g, e in zip(got, expected):
            close(g, e, entry)
        hess = torch.func.hessian(lambda t: loss(t, *tensors[1:]))(tensors[0])
        ref_hess = torch.func.hessian(lambda t: loss(t, *tensors[1:], f=ref))(tensors[0])
        close(hess, ref_hess, entry)


@ENTRIES
def test_layer_grads_through_functional_call(entry):
    layer, inputs = entry.make_layer()
    params = {k: v.detach() for k, v in layer.named_parameters()}

    def loss(p):
        return torch.func.functional_call(layer, p, inputs).square().sum()

    grads = torch.func.grad(loss)(params)
    layer(*inputs).square().sum().backward()
    for name, p in layer.named_parameters():
        torch.testing.assert_close(grads[name], p.grad)


# ---- vmap -------------------------------------------------------------------------------------------------


@ENTRIES
def test_vmap_is_one_launch_and_matches_a_loop(entry):
    sample, in_dims = entry.batched_sample(torch.float32)
    fn, tensors = split(entry, sample)
    with ascend_ext.twin.record() as rec:
        batched = torch.vmap(fn, in_dims=in_dims)(*tensors)
    assert len(rec.launches) == 1, f"{entry.name}: vmap made {len(rec.launches)} kernel launches"
    size = tensors[0].shape[0]
    looped = torch.stack([fn(*[t[i] if d is not None else t for t, d in zip(tensors, in_dims)]) for i in range(size)])
    torch.testing.assert_close(batched, looped)
    # the batch along the last dimension instead
    moved = [t.movedim(0, -1) if d is not None else t for t, d in zip(tensors, in_dims)]
    last = tuple(-1 if d is not None else None for d in in_dims)
    torch.testing.assert_close(torch.vmap(fn, in_dims=last)(*moved), looped)


# ---- torch.compile, export, TorchScript -------------------------------------------------------------------


def compile_sample(entry):
    return op_samples(entry, torch.float32)[1]


@ENTRIES
@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_compile_fullgraph_matches_eager_forward_and_backward(entry, backend):
    sample = compile_sample(entry)
    fn, tensors = split(entry, sample)
    torch._dynamo.reset()
    compiled = torch.compile(fn, backend=backend, fullgraph=True)
    eager_in = [t.clone().requires_grad_() for t in tensors]
    comp_in = [t.clone().requires_grad_() for t in tensors]
    eager, out = fn(*eager_in), compiled(*comp_in)
    torch.testing.assert_close(out, eager)
    g = torch.randn_like(eager)
    eager.backward(g)
    out.backward(g)
    for a, b in zip(comp_in, eager_in):
        torch.testing.assert_close(a.grad, b.grad)


@ENTRIES
def test_compile_with_dynamic_shapes(entry):
    torch._dynamo.reset()
    fn, _ = split(entry, entry.sized_sample(4))
    compiled = torch.compile(fn, backend="aot_eager", fullgraph=True, dynamic=True)
    for n in (4, 7, 11):
        _, tensors = split(entry, entry.sized_sample(n))
        torch.testing.assert_close(compiled(*tensors), fn(*tensors))


@ENTRIES
def test_compile_with_unbacked_sizes(entry):
    torch._dynamo.reset()
    x = torch.randn(64)
    with torch._dynamo.config.patch(capture_dynamic_output_shape_ops=True):
        compiled = torch.compile(entry.unbacked, backend="aot_eager", fullgraph=True)
        torch.testing.assert_close(compiled(x), entry.unbacked(x))


class _Wrap(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *tensors):
        return self.fn(*tensors)


@ENTRIES
def test_export_round_trip(entry):
    sample = compile_sample(entry)
    fn, tensors = split(entry, sample)
    exported = torch.export.export(_Wrap(fn), tensors)
    assert any(entry.profiler_name.replace("::", ".") in str(n.target) for n in exported.graph.nodes)
    buffer = io.BytesIO()
    torch.export.save(exported, buffer)
    buffer.seek(0)
    loaded = torch.export.load(buffer)
    torch.testing.assert_close(loaded.module()(*tensors), fn(*tensors))


@ENTRIES
def test_layer_scripts_and_survives_save_load(entry):
    layer, inputs = entry.make_layer()
    scripted = torch.jit.script(layer)
    buffer = io.BytesIO()
    torch.jit.save(scripted, buffer)
    buffer.seek(0)
    loaded = torch.jit.load(buffer)
    torch.testing.assert_close(loaded(*inputs), layer(*inputs))
    assert entry.profiler_name in str(scripted.inlined_graph)  # the layer may hold the op in a submodule


@ENTRIES
def test_wrapper_scripts(entry):
    scripted = torch.jit.script(entry.wrapper)
    sample = compile_sample(entry)
    torch.testing.assert_close(scripted(*sample.args, **sample.kwargs), entry.wrapper(*sample.args, **sample.kwargs))
