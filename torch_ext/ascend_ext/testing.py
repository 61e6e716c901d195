"""The conformance suite of an op, for our ops and yours.

    import ascend_ext.testing as at
    report = at.check_op(my_op, samples, reference)       # raises AssertionError naming every failed check

Each check is a function of an ``OpTest`` (the op, its samples, a float64 reference written from the math,
per-dtype tolerances, and optional extras: a layer, a vmap sample, sizes for dynamic shapes). The
project's own ops are OpTests too (``tests/op_db.py``), checked by the same functions in
``tests/test_conformance.py``.

What is checked: numerics against the float64 reference for every dtype and sample; the op in float64 on
the twin where it has a float64 build; ``torch.library.opcheck``; fake/meta tensors equal the real
output's shape, dtype and strides; the profiler names the op; every call launches on the twin; gradients
(gradcheck and gradgradcheck, in float64 where the op runs it, else float32 with the stated tolerances);
forward-mode AD (torch.func.jvp and torch.autograd.forward_ad against the reference's jvp); jacfwd and
jacrev against the reference; torch.func.grad and hessian; vmap against a loop (and the number of
launches it makes); torch.compile(fullgraph=True) with aot_eager and inductor, forward and backward;
dynamic and unbacked sizes where given; torch.export with a save/load round trip; autocast as declared.
"""
import dataclasses
import io
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import torch
import torch.autograd.forward_ad as fwAD

__all__ = ["Sample", "OpTest", "NotApplicable", "CHECKS", "check", "check_op", "make_op_test", "run",
           "DEFAULT_TOLERANCES"]


@dataclasses.dataclass
class Sample:
    args: tuple  # tensors first; numbers may follow
    kwargs: dict = dataclasses.field(default_factory=dict)
    name: str = "sample"
    atol_scale: float = 1.0  # the magnitude of the terms a result is computed from (for absolute error)

    def map_tensors(self, fn) -> "Sample":
        return Sample(tuple(fn(a) if isinstance(a, torch.Tensor) else a for a in self.args), dict(self.kwargs),
                      self.name, self.atol_scale)


DEFAULT_TOLERANCES = {
    torch.float64: dict(rtol=1e-10, atol=1e-10),
    torch.float32: dict(rtol=1e-5, atol=1e-5),
    torch.float16: dict(rtol=2e-3, atol=2e-3),
    torch.bfloat16: dict(rtol=1.6e-2, atol=1.6e-2),
}


@dataclasses.dataclass
class OpTest:
    """What the checks need of an op. Only ``op``, ``samples`` and ``reference`` are required."""

    op: Any                                    # an OpOverload (torch.ops.ns.name.default) or a DeclaredOp
    samples: Callable[[torch.dtype], List[Sample]]  # fresh random samples of a dtype
    reference: Callable                        # float64 reference with the wrapper's signature
    name: str = ""
    wrapper: Optional[Callable] = None         # the typed Python entry (default: the op)
    dtypes: Tuple[torch.dtype, ...] = (torch.float32,)
    tolerances: Dict[torch.dtype, dict] = dataclasses.field(default_factory=lambda: dict(DEFAULT_TOLERANCES))
    # Gradients are checked in this dtype: float64 where the twin has a float64 build, else float32 with
    # finite-difference settings that suit the op (gradcheck_kwargs).
    grad_dtype: torch.dtype = torch.float64
    gradcheck_kwargs: dict = dataclasses.field(default_factory=dict)
    differentiable: bool = True                # has a backward
    forward_ad: bool = True                    # has forward-mode AD
    double_backward: bool = True               # its backward is differentiable
    # How the dispatcher-level op takes a sample (the wrapper may take some keyword arguments positionally).
    op_args: Callable[[Sample], Tuple[tuple, dict]] = lambda s: (s.args, dict(s.kwargs))
    jacobian_sample: Optional[str] = None      # default: the first gradient sample
    batched_sample: Optional[Callable[[torch.dtype], Tuple[Sample, tuple]]] = None  # default: stacked samples
    vmap_launches: Optional[int] = 1           # twin launches a vmap call makes (None: not checked)
    sized_sample: Optional[Callable[[int], Sample]] = None  # a float32 sample whose leading size is n
    unbacked: Optional[Callable[[torch.Tensor], torch.Tensor]] = None  # the op on data-dependent sizes
    make_layer: Optional[Callable[[], Tuple[torch.nn.Module, tuple]]] = None
    scriptable: bool = False                   # the wrapper is TorchScript-able
    autocast: Union[None, str, torch.dtype] = None  # the op's autocast policy, as declared
    compile_backends: Tuple[str, ...] = ("aot_eager", "inductor")

    def __post_init__(self):
        declared = getattr(self.op, "op", None)
        if declared is not None and hasattr(self.op, "qualname"):  # a DeclaredOp
            self.autocast = self.autocast if self.autocast is not None else getattr(self.op, "autocast_policy", None)
            self.op = declared
        if self.wrapper is None:
            self.wrapper = self.op
        if not self.name:
            self.name = self.op._schema.name.split("::", 1)[1]

    @property
    def profiler_name(self) -> str:
        return self.op._schema.name


class NotApplicable(Exception):
    """A check that does not apply to an op (it declares no backward, has no layer, ...)."""


# ---- helpers ------------------------------------------------------------------------------------------


def split(t: OpTest, sample: Sample, op=None):
    """(function of the sample's tensors, the tensors): the sample with numbers and kwargs bound."""
    positions = [i for i, a in enumerate(sample.args) if isinstance(a, torch.Tensor)]
    op = op or t.wrapper

    def fn(*tensors):
        args = list(sample.args)
        for i, x in zip(positions, tensors):
            args[i] = x
        return op(*args, **sample.kwargs)

    return fn, tuple(sample.args[i] for i in positions)


def call_op(t: OpTest, sample: Sample, convert=lambda x: x):
    """The dispatcher-level op on the sample (tensors mapped through `convert`)."""
    args, kwargs = t.op_args(sample.map_tensors(convert))
    kwargs = {k: convert(v) if isinstance(v, torch.Tensor) else v for k, v in kwargs.items()}
    return t.op(*args, **kwargs)


def _outputs(out) -> Tuple[torch.Tensor, ...]:
    return out if isinstance(out, (tuple, list)) else (out,)


def close(t: OpTest, actual, expected, dtype=None, **extra):
    tol = dict(t.tolerances[dtype or t.grad_dtype])
    tol.update(extra)
    for a, e in zip(_outputs(actual), _outputs(expected)):
        torch.testing.assert_close(a, e.to(a.dtype), **tol)


def reference_fn(t: OpTest, sample: Sample):
    fn, _ = split(t, sample, op=t.reference)
    return fn


def op_samples(t: OpTest, dtype, limit=4) -> List[Sample]:
    """Samples the default overload takes as they are (all tensors), finite, non-empty."""
    out = []
    for s in t.samples(dtype):
        tensors = [a for a in s.args if isinstance(a, torch.Tensor)]
        if (all(isinstance(a, torch.Tensor) for a in s.args) and all(x.numel() > 0 for x in tensors)
                and all(torch.isfinite(x).all() for x in tensors if x.is_floating_point())):
            out.append(s)
    if not out:
        raise NotApplicable("no finite, non-empty all-tensor sample")
    return out[:limit]


def grad_samples(t: OpTest, max_elements=200) -> List[Sample]:
    """Finite samples (in the op's gradient dtype) small enough for numerical Jacobians."""
    out = []
    for s in t.samples(t.grad_dtype):
        tensors = [a for a in s.args if isinstance(a, torch.Tensor)]
        finite = all(torch.isfinite(x).all() for x in tensors if x.is_floating_point())
        if finite and s.name != "large-magnitude" and 0 < sum(x.numel() for x in tensors) <= max_elements:
            out.append(s)
    if not out:
        raise NotApplicable(f"no finite sample of at most {max_elements} elements")
    return out


def _needs(flag: bool, reason: str):
    if not flag:
        raise NotApplicable(reason)


# ---- the checks -----------------------------------------------------------------------------------------


def check_matches_float64_reference(t: OpTest):
    for dtype in t.dtypes:
        for sample in t.samples(dtype):
            fn, tensors = split(t, sample)
            out = fn(*tensors)
            expected = reference_fn(t, sample)(*[x.double() if x.is_floating_point() else x for x in tensors])
            # Each result has the dtype the op declares for it (its meta implementation): the sample's dtype,
            # or e.g. float32 for statistics of float16 rows.
            declared = [m.dtype for m in _outputs(fn(*[x.to("meta") for x in tensors]))]
            for o, e, d in zip(_outputs(out), _outputs(expected), declared):
                assert o.dtype == d, f"{t.name} {sample.name} ({dtype}): result dtype {o.dtype}, the op declares {d}"
                assert o.shape == e.shape, f"{t.name} {sample.name}: shape {tuple(o.shape)}, expected {tuple(e.shape)}"
                tol = dict(t.tolerances[dtype])
                tol["atol"] *= sample.atol_scale
                torch.testing.assert_close(o.double(), e.double(), equal_nan=True, **tol,
                                           msg=lambda m: f"{t.name} {sample.name} ({dtype}): {m}")


def check_float64_on_the_twin(t: OpTest):
    _needs(t.grad_dtype == torch.float64, "no float64 build (its hardware unit has no float64)")
    for sample in t.samples(torch.float64):
        fn, tensors = split(t, sample)
        expected = reference_fn(t, sample)(*tensors)
        for o, e in zip(_outputs(fn(*tensors)), _outputs(expected)):
            torch.testing.assert_close(o, e, equal_nan=True, **t.tolerances[torch.float64])


def check_opcheck(t: OpTest):
    for sample in op_samples(t, torch.float32, limit=3):
        torch.library.opcheck(t.op, *t.op_args(sample))
        if t.differentiable:
            grad_sample = sample.map_tensors(
                lambda x: x.clone().requires_grad_() if x.is_floating_point() else x)
            torch.library.opcheck(t.op, *t.op_args(grad_sample))


def check_fake_tensors_match_real_outputs(t: OpTest):
    from torch._subclasses.fake_tensor import FakeTensorMode

    for sample in op_samples(t, torch.float32):
        real = _outputs(call_op(t, sample))
        with FakeTensorMode() as mode:
            fake = _outputs(call_op(t, sample, mode.from_tensor))
        meta = _outputs(call_op(t, sample, lambda x: x.to("meta")))
        for r, f, m in zip(real, fake, meta):
            assert f.shape == r.shape and f.dtype == r.dtype and f.stride() == r.stride(), \
                f"{t.name}: fake {tuple(f.shape)} {f.dtype} {f.stride()} vs real {tuple(r.shape)} {r.dtype} {r.stride()}"
            assert m.device.type == "meta" and m.shape == r.shape and m.stride() == r.stride()


def check_profiler_names_the_op(t: OpTest):
    sample = op_samples(t, torch.float32)[0]
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        call_op(t, sample)
    names = {e.name for e in prof.events()}
    assert t.profiler_name in names, f"{t.name}: the profiler saw {sorted(names)}"


def check_runs_on_the_twin(t: OpTest):
    from . import twin

    sample = op_samples(t, torch.float32)[0]
    with twin.record() as rec:
        call_op(t, sample)
    assert rec.launches, f"{t.name}: the call launched no kernel on the twin"
    for launch in rec.launches:
        assert launch.block_dim >= 1 and len(launch.cores) == launch.block_dim


def check_gradcheck_and_gradgradcheck(t: OpTest):
    _needs(t.differentiable, "no backward declared")
    for sample in grad_samples(t):
        fn, tensors = split(t, sample)
        inputs = tuple(x.detach().requires_grad_(x.is_floating_point()) for x in tensors)
        assert torch.autograd.gradcheck(fn, inputs, **t.gradcheck_kwargs), sample.name
        if t.double_backward:
            assert torch.autograd.gradgradcheck(fn, inputs, **t.gradcheck_kwargs), sample.name


def check_forward_ad_matches_the_reference_jvp(t: OpTest):
    _needs(t.forward_ad, "no forward-mode AD declared")
    for sample in grad_samples(t):
        fn, tensors = split(t, sample)
        tangents = tuple(torch.randn_like(x) for x in tensors)
        out, tangent = torch.func.jvp(fn, tensors, tangents)
        ref_out, ref_tangent = torch.func.jvp(reference_fn(t, sample), tensors, tangents)
        close(t, out, ref_out)
        close(t, tangent, ref_tangent)
        with fwAD.dual_level():
            duals = [fwAD.make_dual(x, dx) for x, dx in zip(tensors, tangents)]
            unpacked = [fwAD.unpack_dual(o) for o in _outputs(fn(*duals))]
        for u, r in zip(unpacked, _outputs(ref_tangent)):
            assert u.tangent is not None, f"{t.name}: forward_ad gave no tangent ({sample.name})"
            close(t, u.tangent, r)


def _jacobian_sample(t: OpTest) -> Sample:
    samples = grad_samples(t)
    if t.jacobian_sample is None:
        return samples[0]
    return next(s for s in samples if s.name == t.jacobian_sample)


def check_jacfwd_equals_jacrev_and_the_reference(t: OpTest):
    _needs(t.differentiable and t.forward_ad, "needs both backward and forward-mode AD")
    sample = _jacobian_sample(t)
    fn, tensors = split(t, sample)
    argnums = tuple(range(len(tensors)))
    # One block per output and argument (an op of several outputs gives a tuple per output).
    forward, reverse, reference = (torch.utils._pytree.tree_leaves(jac(f, argnums=argnums)(*tensors)) for jac, f in (
        (torch.func.jacfwd, fn), (torch.func.jacrev, fn), (torch.func.jacrev, reference_fn(t, sample))))
    assert len(forward) == len(reverse) == len(reference)
    assert sum(f.abs().sum() for f in forward) > 0
    for f, r, ref in zip(forward, reverse, reference):
        close(t, f, ref)
        close(t, r, ref)


def check_torch_func_grad_and_hessian(t: OpTest):
    _needs(t.differentiable, "no backward declared")
    for sample in grad_samples(t)[:6]:
        fn, tensors = split(t, sample)
        weights = torch.randn_like(_outputs(fn(*tensors))[0])

        def loss(*xs, f=fn):
            return (_outputs(f(*xs))[0] * weights).sum()

        ref = reference_fn(t, sample)
        argnums = tuple(range(len(tensors)))
        got = torch.func.grad(loss, argnums=argnums)(*tensors)
        expected = torch.func.grad(lambda *xs: loss(*xs, f=ref), argnums=argnums)(*tensors)
        for g, e in zip(got, expected):
            close(t, g, e)
        if t.double_backward:
            hess = torch.func.hessian(lambda x: loss(x, *tensors[1:]))(tensors[0])
            ref_hess = torch.func.hessian(lambda x: loss(x, *tensors[1:], f=ref))(tensors[0])
            close(t, hess, ref_hess)


def check_layer_grads_through_functional_call(t: OpTest):
    _needs(t.make_layer is not None, "no layer")
    layer, inputs = t.make_layer()
    params = {k: v.detach() for k, v in layer.named_parameters()}

    def loss(p):
        return torch.func.functional_call(layer, p, inputs).square().sum()

    grads = torch.func.grad(loss)(params)
    layer(*inputs).square().sum().backward()
    for name, p in layer.named_parameters():
        torch.testing.assert_close(grads[name], p.grad)


def _default_batched_sample(t: OpTest, dtype) -> Tuple[Sample, tuple]:
    """Three fresh draws of the first all-tensor sample, stacked along a new leading dimension."""
    draws = [op_samples(t, dtype, limit=1)[0] for _ in range(3)]
    args = tuple(torch.stack([d.args[i] for d in draws]) for i in range(len(draws[0].args)))
    return Sample(args, dict(draws[0].kwargs), "batched"), (0,) * len(args)


def check_vmap_matches_a_loop(t: OpTest):
    from . import twin

    sample, in_dims = (t.batched_sample or (lambda d: _default_batched_sample(t, d)))(torch.float32)
    fn, tensors = split(t, sample)
    with twin.record() as rec:
        batched = torch.vmap(fn, in_dims=in_dims)(*tensors)
    if t.vmap_launches is not None:
        assert len(rec.launches) == t.vmap_launches, \
            f"{t.name}: vmap made {len(rec.launches)} kernel launches, expected {t.vmap_launches}"
    size = next(x.shape[d] for x, d in zip(tensors, in_dims) if d is not None)
    looped = [fn(*[x.select(d, i) if d is not None else x for x, d in zip(tensors, in_dims)]) for i in range(size)]
    for k, b in enumerate(_outputs(batched)):
        torch.testing.assert_close(b, torch.stack([_outputs(o)[k] for o in looped]))
    moved = [x.movedim(d, -1) if d is not None else x for x, d in zip(tensors, in_dims)]
    last = tuple(-1 if d is not None else None for d in in_dims)
    for k, b in enumerate(_outputs(torch.vmap(fn, in_dims=last)(*moved))):
        torch.testing.assert_close(b, torch.stack([_outputs(o)[k] for o in looped]))


def compile_sample(t: OpTest) -> Sample:
    samples = op_samples(t, torch.float32)
    return samples[1] if len(samples) > 1 else samples[0]


def _check_compile(t: OpTest, backend: str):
    _needs(backend in t.compile_backends, f"{backend} not among the op's compile backends")
    sample = compile_sample(t)
    fn, tensors = split(t, sample)
    torch._dynamo.reset()
    compiled = torch.compile(fn, backend=backend, fullgraph=True)
    grad = t.differentiable
    eager_in = [x.clone().requires_grad_(grad and x.is_floating_point()) for x in tensors]
    comp_in = [x.clone().requires_grad_(grad and x.is_floating_point()) for x in tensors]
    eager, out = _outputs(fn(*eager_in)), _outputs(compiled(*comp_in))
    for a, b in zip(out, eager):
        torch.testing.assert_close(a, b)
    if grad:
        g = torch.randn_like(eager[0])
        eager[0].backward(g)
        out[0].backward(g)
        for a, b in zip(comp_in, eager_in):
            if b.grad is not None:
                torch.testing.assert_close(a.grad, b.grad)


def check_compile_fullgraph_aot_eager(t: OpTest):
    _check_compile(t, "aot_eager")


def check_compile_fullgraph_inductor(t: OpTest):
    _check_compile(t, "inductor")


def check_compile_with_dynamic_shapes(t: OpTest):
    _needs(t.sized_sample is not None, "no sized sample given")
    torch._dynamo.reset()
    fn, _ = split(t, t.sized_sample(4))
    compiled = torch.compile(fn, backend="aot_eager", fullgraph=True, dynamic=True)
    for n in (4, 7, 11):
        _, tensors = split(t, t.sized_sample(n))
        for a, b in zip(_outputs(compiled(*tensors)), _outputs(fn(*tensors))):
            torch.testing.assert_close(a, b)


def check_compile_with_unbacked_sizes(t: OpTest):
    _needs(t.unbacked is not None, "no unbacked-size function given")
    torch._dynamo.reset()
    x = torch.randn(64)
    with torch._dynamo.config.patch(capture_dynamic_output_shape_ops=True):
        compiled = torch.compile(t.unbacked, backend="aot_eager", fullgraph=True)
        torch.testing.assert_close(compiled(x), t.unbacked(x))


class _Wrap(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *tensors):
        return self.fn(*tensors)


def check_export_round_trip(t: OpTest):
    sample = compile_sample(t)
    fn, tensors = split(t, sample)
    exported = torch.export.export(_Wrap(fn), tensors)
    assert any(t.profiler_name.replace("::", ".") in str(n.target) for n in exported.graph.nodes), \
        f"{t.name}: the exported graph does not call the op"
    buffer = io.BytesIO()
    torch.export.save(exported, buffer)
    buffer.seek(0)
    loaded = torch.export.load(buffer)
    for a, b in zip(_outputs(loaded.module()(*tensors)), _outputs(fn(*tensors))):
        torch.testing.assert_close(a, b)


def check_layer_scripts_and_survives_save_load(t: OpTest):
    _needs(t.make_layer is not None, "no layer")
    layer, inputs = t.make_layer()
    scripted = torch.jit.script(layer)
    buffer = io.BytesIO()
    torch.jit.save(scripted, buffer)
    buffer.seek(0)
    loaded = torch.jit.load(buffer)
    torch.testing.assert_close(loaded(*inputs), layer(*inputs))
    assert t.profiler_name in str(scripted.inlined_graph)  # the layer may hold the op in a submodule


def check_wrapper_scripts(t: OpTest):
    _needs(t.scriptable, "the wrapper is not declared TorchScript-able")
    scripted = torch.jit.script(t.wrapper)
    sample = compile_sample(t)
    torch.testing.assert_close(scripted(*sample.args, **sample.kwargs), t.wrapper(*sample.args, **sample.kwargs))


def check_autocast_as_declared(t: OpTest):
    _needs(t.autocast is not None, "no autocast policy declared (inputs are kept as they are)")
    sample = op_samples(t, torch.float32)[0]
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = _outputs(call_op(t, sample))
    dtype = torch.bfloat16 if t.autocast == "lower" else t.autocast
    expected = _outputs(call_op(t, sample, lambda x: x.to(dtype) if x.is_floating_point() else x))
    for a, b in zip(out, expected):
        assert a.dtype == b.dtype, f"{t.name}: under autocast the result is {a.dtype}, expected {b.dtype}"
        torch.testing.assert_close(a, b)


CHECKS: Dict[str, Callable[[OpTest], None]] = {
    name[len("check_"):]: fn for name, fn in list(globals().items()) if name.startswith("check_") and callable(fn)
}


def check(t: OpTest, name: str) -> None:
    """Runs one check; raises NotApplicable when it does not apply, AssertionError when it fails."""
    CHECKS[name](t)


def _as_samples(samples, dtypes) -> Callable[[torch.dtype], List[Sample]]:
    if callable(samples):
        def draw(dtype):
            return [s if isinstance(s, Sample) else Sample(tuple(s) if isinstance(s, (tuple, list)) else (s,), {},
                                                           f"sample{i}") for i, s in enumerate(samples(dtype))]
        return draw

    def cast(dtype):
        def fn(x):
            return x.to(dtype) if x.is_floating_point() else x
        out = []
        for i, s in enumerate(samples):
            s = s if isinstance(s, Sample) else Sample(tuple(s) if isinstance(s, (tuple, list)) else (s,), {},
                                                       f"sample{i}")
            out.append(s.map_tensors(fn))
        return out

    return cast


def make_op_test(op, samples, reference, *, dtypes: Optional[Sequence[torch.dtype]] = None, **options) -> OpTest:
    """The OpTest that check_op runs: ``op`` a DeclaredOp, a NativeOp or an OpOverload; the rest as check_op's."""
    declared = op if hasattr(op, "qualname") else None
    if dtypes is None:
        dtypes = declared.float_dtypes() if declared is not None else (torch.float32,)
    dtypes = tuple(dtypes)
    grad_dtype = options.pop("grad_dtype", None)
    if grad_dtype is None:
        grad_dtype = torch.float64 if declared is not None and torch.float64 in declared.float_dtypes() \
            else torch.float32
    if declared is not None and hasattr(declared, "has_backward"):  # a DeclaredOp (a NativeOp's are in C++)
        options.setdefault("differentiable", declared.has_backward)
        options.setdefault("forward_ad", declared.has_jvp)
        options.setdefault("vmap_launches", 1 if declared.has_vmap else None)
    if declared is not None and getattr(declared, "tolerances", None):
        options.setdefault("tolerances", dict(declared.tolerances))
    return OpTest(op=op, samples=_as_samples(samples, dtypes), reference=reference, dtypes=dtypes,
                  grad_dtype=grad_dtype, **options)


def check_op(op, samples, reference, *, dtypes: Optional[Sequence[torch.dtype]] = None,
             skip: Sequence[str] = (), **options) -> Dict[str, str]:
    """Runs every check on an op; returns {check: 'ok' | 'n/a: <reason>'} and raises AssertionError naming
    each failed check with its error.

    ``op``: a DeclaredOp or an OpOverload. ``samples``: a function of a dtype returning fresh samples
    (``Sample`` or tuples of arguments), or a list of float32 samples cast to each dtype (drawn once).
    ``reference``: the op's math in float64, same signature. ``dtypes``: default the op's declared ones.
    Gradients are checked in float64 where the op declares float64 (the twin runs it), else in float32
    with ``gradcheck_kwargs`` (eps/atol/rtol). Other options are OpTest fields (tolerances, layer, ...)."""
    t = make_op_test(op, samples, reference, dtypes=dtypes, **options)
    return run(t, skip)


def run(t: OpTest, skip: Sequence[str] = ()) -> Dict[str, str]:
    """Every check on an OpTest, as check_op reports them."""
    report: Dict[str, str] = {}
    failures: List[str] = []
    for name, fn in CHECKS.items():
        if name in skip:
            report[name] = "n/a: skipped by the caller"
            continue
        try:
            fn(t)
            report[name] = "ok"
        except NotApplicable as exc:
            report[name] = f"n/a: {exc}"
        except Exception as exc:  # every failure is collected, then reported together
            report[name] = f"FAILED: {type(exc).__name__}: {exc}"
            failures.append(f"{name}: {type(exc).__name__}: {exc}")
    if failures:
        raise AssertionError(f"check_op({t.name}): {len(failures)} check(s) failed:\n  " + "\n  ".join(failures))
    return report
