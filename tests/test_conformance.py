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
    torch.testing.assert_close(out.double(), expected, equal_nan=True, **entry.tolerances[dtype])


@ENTRIES
def test_float64_on_the_twin(entry):
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
        torch.library.opcheck(entry.op, sample.args, sample.kwargs)
        grad_args = tuple(a.clone().requires_grad_() for a in sample.args)
        torch.library.opcheck(entry.op, grad_args, sample.kwargs)


@ENTRIES
def test_fake_tensors_match_real_outputs(entry):
    for sample in op_samples(entry, torch.float32):
        real = entry.op(*sample.args, **sample.kwargs)
        with FakeTensorMode() as mode:
            fake_args = [mode.from_tensor(a) for a in sample.args]
            fake = entry.op(*fake_args, **sample.kwargs)
        assert fake.shape == real.shape and fake.dtype == real.dtype and fake.stride() == real.stride()
        meta = entry.op(*[a.to("meta") for a in sample.args], **sample.kwargs)
        assert meta.device.type == "meta" and meta.shape == real.shape and meta.stride() == real.stride()


@ENTRIES
def test_profiler_names_the_op(entry):
    sample = op_samples(entry, torch.float32)[0]
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        entry.op(*sample.args, **sample.kwargs)
    assert entry.profiler_name in {e.name for e in prof.events()}


# ---- autograd: backward, double backward, forward mode, torch.func ---------------------------------------


def grad_samples(entry, max_elements=200):
    """Finite float64 samples small enough for numerical Jacobians."""
    out = []
    for s in entry.samples(torch.float64):
        tensors = [a for a in s.args if isinstance(a, torch.Tensor)]
        if s.name not in ("nan-inf", "large-magnitude") and 0 < sum(t.numel() for t in tensors) <= max_elements:
            out.append(s)
    return out


@ENTRIES
def test_gradcheck_and_gradgradcheck(entry):
    for sample in grad_samples(entry):
        fn, tensors = split(entry, sample)
        inputs = tuple(t.detach().requires_grad_() for t in tensors)
        assert torch.autograd.gradcheck(fn, inputs), sample.name
        assert torch.autograd.gradgradcheck(fn, inputs), sample.name


@ENTRIES
def test_forward_ad_matches_the_reference_jvp(entry):
    for sample in grad_samples(entry):
        fn, tensors = split(entry, sample)
        tangents = tuple(torch.randn_like(t) for t in tensors)
        out, tangent = torch.func.jvp(fn, tensors, tangents)
        ref_out, ref_tangent = torch.func.jvp(reference_fn(entry, sample), tensors, tangents)
        torch.testing.assert_close(out, ref_out, **entry.tolerances[torch.float64])
        torch.testing.assert_close(tangent, ref_tangent, **entry.tolerances[torch.float64])
        with fwAD.dual_level():
            duals = [fwAD.make_dual(t, dt) for t, dt in zip(tensors, tangents)]
            unpacked = fwAD.unpack_dual(fn(*duals))
        assert unpacked.tangent is not None, f"{entry.name}: forward_ad gave no tangent ({sample.name})"
        torch.testing.assert_close(unpacked.tangent, ref_tangent, **entry.tolerances[torch.float64])


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
        torch.testing.assert_close(f, ref)
        torch.testing.assert_close(r, ref)


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
            torch.testing.assert_close(g, e)
        hess = torch.func.hessian(lambda t: loss(t, *tensors[1:]))(tensors[0])
        ref_hess = torch.func.hessian(lambda t: loss(t, *tensors[1:], f=ref))(tensors[0])
        torch.testing.assert_close(hess, ref_hess)


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
    sample = entry.batched_sample(torch.float32)
    fn, tensors = split(entry, sample)
    with ascend_ext.twin.record() as rec:
        batched = torch.vmap(fn)(*tensors)
    assert len(rec.launches) == 1, f"{entry.name}: vmap made {len(rec.launches)} kernel launches"
    looped = torch.stack([fn(*[t[i] for t in tensors]) for i in range(tensors[0].shape[0])])
    torch.testing.assert_close(batched, looped)
    # the other operand batched too, and along another dimension
    moved = [t.movedim(0, -1) for t in tensors]
    torch.testing.assert_close(torch.vmap(fn, in_dims=-1)(*moved), looped)


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
    sample = compile_sample(entry)
    fn, tensors = split(entry, sample)
    compiled = torch.compile(fn, backend="aot_eager", fullgraph=True, dynamic=True)
    for grow in (0, 3, 7):
        bigger = [torch.cat([t, t[:1].expand(grow, *t.shape[1:])]) if t.dim() > 1 else t for t in tensors]
        torch.testing.assert_close(compiled(*bigger), fn(*bigger))


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
