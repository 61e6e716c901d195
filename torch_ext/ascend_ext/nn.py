"""Drop-in layers built on the ascend_ext ops, and ``convert``, which moves an existing model's matrix
products onto them. The layers call ``torch.ops`` directly, so they script (``torch.jit.script``), export
and compile like torch's own layers."""
import dataclasses
import logging
import re
import sys
from typing import Callable, Dict, List, Optional, Tuple

import torch
from torch import Tensor

_log = logging.getLogger(__name__)


class ResidualAdd(torch.nn.Module):
    """``block(x) + x`` with the addition done by the VectorAdd kernel.

    Wraps any module whose output has the shape of its input (or broadcasts to it), as in a residual
    network: ``ResidualAdd(nn.Sequential(nn.Linear(d, d), nn.ReLU()))``.
    """

    def __init__(self, block: torch.nn.Module):
        super().__init__()
        self.block = block

    def forward(self, x: Tensor) -> Tensor:
        return torch.ops.ascend_ext.vector_add(self.block(x), x)


def _product(input: Tensor, weight: Tensor, bias: Optional[Tensor], weight_is_out_in: bool, in_features: int,
             out_features: int, layer: str) -> Tensor:
    """``input @ W (+ bias)`` over the last dimension of ``input`` (any number of leading dimensions) by the
    MatmulCube kernel, with ``weight`` read in place: ``[out, in]`` (``weight_is_out_in``, as
    ``torch.nn.Linear`` stores it) or ``[in, out]``. The result is a tensor of its own (not a view)."""
    if input.dim() == 0 or input.shape[-1] != in_features:
        got = "a 0-d input" if input.dim() == 0 else f"an input whose last dimension is {input.shape[-1]}"
        raise ValueError(f"{layer}: expected an input with in_features={in_features} in its last dimension, got "
                         f"{got} (shape {list(input.shape)})")
    if input.dim() == 2:
        return torch.ops.ascend_ext.matmul(input, weight, trans_b=weight_is_out_in, bias=bias)
    # flatten, not reshape(-1, K): K may be 0. The kernel's 2-D result is fresh; _unsafe_view gives it the
    # leading dimensions without making it a view (as torch's own matmul does), at no copy.
    flat = input.unsqueeze(0) if input.dim() == 1 else input.flatten(0, -2)
    out = torch.ops.ascend_ext.matmul(flat, weight, trans_b=weight_is_out_in, bias=bias)
    return torch.ops.aten._unsafe_view(out, list(input.shape[:-1]) + [out_features])


class Linear(torch.nn.Linear):
    """A drop-in for ``torch.nn.Linear`` whose product runs on the MatmulCube kernel.

    Same constructor (``in_features, out_features, bias=True, device=None, dtype=None``), parameter names,
    initialisation and ``state_dict`` as ``torch.nn.Linear``; any number of leading dimensions. The weight
    ``[out, in]`` is read in place as the transposed right operand. float32, float16 and bfloat16; float64
    on the CPU twin only (gradient checks).
    """

    def forward(self, input: Tensor) -> Tensor:
        return _product(input, self.weight, self.bias, True, self.in_features, self.out_features,
                        f"ascend_ext.nn.Linear(in_features={self.in_features}, out_features={self.out_features})")


class Conv1DForward(torch.nn.Module):
    """The forward of Hugging Face's ``Conv1D`` (``x @ weight + bias`` with ``weight`` stored ``[in, out]``,
    as in GPT-2) on the MatmulCube kernel, the weight read in place. A mixin: ``convert`` combines it with
    ``transformers``' ``Conv1D`` by itself; for a class of your own with that layout (attributes ``weight``
    ``[in, out]`` and ``bias`` ``[out]``)::

        class MyConv1DOnAscend(ascend_ext.nn.Conv1DForward, MyConv1D):
            pass
        ascend_ext.nn.register_conversion(MyConv1D, MyConv1DOnAscend)
    """

    def forward(self, x: Tensor) -> Tensor:
        k, n = self.weight.shape[0], self.weight.shape[1]
        return _product(x, self.weight, self.bias, False, k, n, f"ascend_ext.nn.Conv1D(in={k}, out={n})")


# ---- convert --------------------------------------------------------------------------------------------

# Registered conversions: source class -> target class, and back. A target reads exactly the state of its
# source (parameters, buffers, attributes) and computes the same function on our kernels.
_CONVERSIONS: Dict[type, type] = {torch.nn.Linear: Linear}
_REVERSIONS: Dict[type, type] = {Linear: torch.nn.Linear}
# Classes made by convert for sources it knows by their forward (Linear subclasses, Hugging Face's Conv1D):
# (source, mixin) -> target.
_DERIVED: Dict[Tuple[type, type], type] = {}


class ConversionHandle:
    """Returned by ``register_conversion``; ``remove()`` unregisters the conversion."""

    def __init__(self, source: type, target: type):
        self.source, self.target = source, target

    def remove(self) -> None:
        if _CONVERSIONS.get(self.source) is self.target:
            del _CONVERSIONS[self.source]
            del _REVERSIONS[self.target]


def register_conversion(source: type, target: type) -> ConversionHandle:
    """Makes ``convert`` turn every module of class ``source`` (exactly that class, not its subclasses,
    which may compute something else) into a ``target`` with the same parameters, buffers and attributes,
    and ``convert(..., reverse=True)`` turn it back. ``target`` is typically ``class Target(Source)`` whose
    ``forward`` computes the same function with the ascend_ext ops (see ``Conv1DForward``). Returns a
    handle whose ``remove()`` unregisters it. Registering a class again replaces its conversion."""
    for name, cls in (("source", source), ("target", target)):
        if not (isinstance(cls, type) and issubclass(cls, torch.nn.Module)):
            raise TypeError(f"ascend_ext.nn.register_conversion: argument '{name}' must be a subclass of "
                            f"torch.nn.Module, got {cls!r}")
    if source is target:
        raise ValueError(f"ascend_ext.nn.register_conversion: source and target are the same class "
                         f"{source.__qualname__}")
    if target in _CONVERSIONS or source in _REVERSIONS:
        raise ValueError(f"ascend_ext.nn.register_conversion: {target.__qualname__} is already a source of a "
                         f"conversion, or {source.__qualname__} a target; a chain of conversions is ambiguous")
    old = _CONVERSIONS.pop(source, None)
    if old is not None:
        del _REVERSIONS[old]
    _CONVERSIONS[source] = target
    _REVERSIONS[target] = source
    return ConversionHandle(source, target)


def _rebuild_derived(source: type, mixin: type) -> torch.nn.Module:
    cls = _derived_class(source, mixin)
    return cls.__new__(cls)


class _Derived:
    """Base of the classes ``convert`` makes at run time: they pickle (and deep-copy) as their source class
    and mixin, so a converted model saves with ``torch.save`` and loads wherever ascend_ext imports."""

    _ascend_ext_source: type
    _ascend_ext_mixin: type

    def __reduce_ex__(self, protocol):
        return _rebuild_derived, (self._ascend_ext_source, self._ascend_ext_mixin), self.__dict__.copy()


def _derived_class(source: type, mixin: type) -> type:
    """``source`` with ``mixin``'s forward: the class a module of ``source`` becomes. Made once per pair; it
    keeps ``source``'s name (and ``isinstance`` against ``source`` holds)."""
    cls = _DERIVED.get((source, mixin))
    if cls is None:
        # A qualified name of its own (TorchScript caches compiled classes by it).
        qualname = re.sub(r"\W", "_", f"{source.__module__}.{source.__qualname__}") + f"_on_{mixin.__name__}"
        cls = type(source.__name__, (mixin, _Derived, source),
                   {"__module__": __name__, "__qualname__": qualname, "_ascend_ext_source": source,
                    "_ascend_ext_mixin": mixin})
        _DERIVED[(source, mixin)] = cls
    return cls


def _hf_conv1d() -> Optional[type]:
    """Hugging Face's Conv1D, when transformers is already imported (a model holding one imported it)."""
    utils = sys.modules.get("transformers.pytorch_utils")
    return getattr(utils, "Conv1D", None)


_MHA_REASON = ("its forward calls F.multi_head_attention_forward on in_proj_weight and out_proj.weight directly, "
              "bypassing out_proj.forward, so its projections stay on torch's kernels")


def _plan(module: torch.nn.Module, reverse: bool) -> Tuple[Optional[type], Optional[str]]:
    """What convert does with ``module`` alone: (the class it becomes, None), or (None, the reason a
    matrix-product layer is left on torch's kernels), or (None, None) for anything else (ours already, or
    not a matrix product)."""
    cls = type(module)
    if reverse:
        if cls in _REVERSIONS:
            return _REVERSIONS[cls], None
        return (cls._ascend_ext_source, None) if issubclass(cls, _Derived) else (None, None)
    if cls in _CONVERSIONS:
        return _CONVERSIONS[cls], None
    if cls in _REVERSIONS or issubclass(cls, _Derived):
        return None, None  # ours already
    hf_conv1d = _hf_conv1d()
    if isinstance(module, torch.nn.modules.lazy.LazyModuleMixin) and module.has_uninitialized_params():
        return None, "its parameters are not initialised yet (a lazy module): convert after the first forward"
    if isinstance(module, torch.nn.Linear):
        if cls.forward is torch.nn.Linear.forward:
            return _derived_class(cls, Linear), None
        return None, (f"{cls.__qualname__} overrides torch.nn.Linear.forward, which may compute more than the "
                      f"product; register a conversion for it (ascend_ext.nn.register_conversion)")
    if hf_conv1d is not None and isinstance(module, hf_conv1d):
        if cls.forward is hf_conv1d.forward:
            return _derived_class(cls, Conv1DForward), None
        return None, f"{cls.__qualname__} overrides Conv1D.forward; register a conversion for it"
    for kind, reason in _LEFT:
        if isinstance(module, kind):
            return None, reason
    return None, None


_LEFT = (
    (torch.nn.MultiheadAttention, _MHA_REASON),
    (torch.nn.modules.conv._ConvNd, "a convolution, not a plain matrix product that the matmul op computes"),
    (torch.nn.Bilinear, "a bilinear form x1^T A x2, not a plain matrix product that the matmul op computes"),
    (torch.nn.RNNBase, "its forward runs torch's fused recurrent kernels on the raw weights"),
)


@dataclasses.dataclass
class ConversionReport:
    """What ``convert`` did and what of the model runs on ascend_ext's kernels afterwards.

    - ``converted``: (qualified name, class name) of each module swapped by this call;
    - ``ours``: (qualified name, class name) of each module that runs its product on ascend_ext's kernels
      after the call (those converted now and any that were ours before);
    - ``left``: (qualified name, class name, reason) of each matrix-product layer left on torch's kernels;
    - ``other``: class name -> count of the remaining modules that hold parameters but are not matrix
      products ascend_ext computes (norms, embeddings, classes it knows nothing of).
    """

    reverse: bool
    converted: List[Tuple[str, str]] = dataclasses.field(default_factory=list)
    ours: List[Tuple[str, str]] = dataclasses.field(default_factory=list)
    left: List[Tuple[str, str, str]] = dataclasses.field(default_factory=list)
    other: Dict[str, int] = dataclasses.field(default_factory=dict)

    def __str__(self) -> str:
        def counts(pairs) -> str:
            tally: Dict[str, int] = {}
            for pair in pairs:
                tally[pair[1]] = tally.get(pair[1], 0) + 1
            return ", ".join(f"{n} {name}" for name, n in sorted(tally.items())) or "none"

        verb = "converted back to torch" if self.reverse else "converted"
        lines = [f"ascend_ext.nn.convert: {len(self.converted)} module(s) {verb} ({counts(self.converted)}); "
                 f"{len(self.ours)} run on ascend_ext kernels ({counts(self.ours)}); {len(self.left)} "
                 f"matrix-product layer(s) left on torch's kernels" + (":" if self.left else "")]
        lines += [f"  {name or '(the model)'} ({cls}): {reason}" for name, cls, reason in self.left]
        if self.other:
            lines.append("  not matrix products ascend_ext computes: "
                         + ", ".join(f"{n} {c}" for c, n in sorted(self.other.items())))
        return "\n".join(lines)


def convert(model: torch.nn.Module, reverse: bool = False, *, strict: bool = False,
            report: bool = False):
    """Moves the matrix products of ``model`` onto ascend_ext's kernels, in place: every ``torch.nn.Linear``
    becomes ``ascend_ext.nn.Linear``; a subclass of ``torch.nn.Linear`` that keeps Linear's forward, and
    Hugging Face's ``Conv1D`` (GPT-2's ``x @ W + b``, ``W`` stored ``[in, out]`` and read in place), become
    their class with the product on our kernel (``isinstance`` against their class still holds); classes
    registered with ``register_conversion`` become their target. ``reverse=True`` turns all of them back.

    Modules keep their very parameter objects, so optimizers and hooks on them stay valid. Layers it leaves
    on torch's kernels are reported with the reason (``torch.nn.MultiheadAttention``: its forward uses the
    raw weights, bypassing ``out_proj.forward``; convolutions; recurrent layers; Linear subclasses that
    override ``forward``): one log record on the ``ascend_ext.nn`` logger (WARNING when a product layer is
    left, else INFO), a ``ValueError`` listing them with ``strict=True``, and with ``report=True`` the
    ``ConversionReport`` is returned as ``(model, report)``. Returns ``model``; a module that is itself
    converted (a bare Linear) is returned as its converted object.
    """
    result = ConversionReport(reverse=reverse)

    def swap(module: torch.nn.Module, name: str) -> torch.nn.Module:
        target, reason = _plan(module, reverse)
        if target is not None:
            new = target.__new__(target)
            new.__dict__ = module.__dict__.copy()  # same parameters, buffers, hooks, training flag
            result.converted.append((name, type(module).__name__))
            module = new
        elif reason is not None:
            result.left.append((name, type(module).__name__, reason))
            return module  # its children serve its own forward (MHA's out_proj): left with it
        for child_name, child in list(module.named_children()):
            converted = swap(child, f"{name}.{child_name}" if name else child_name)
            if converted is not child:
                setattr(module, child_name, converted)
        if isinstance(module, torch.nn.TransformerEncoderLayer):
            _route_around_fast_path(module)
        if _runs_on_ascend(module):
            result.ours.append((name, type(module).__name__))
        elif not reverse and target is None and next(module.parameters(recurse=False), None) is not None:
            kind = type(module).__name__
            result.other[kind] = result.other.get(kind, 0) + 1
        return module

    model = swap(model, "")
    if strict and result.left:
        raise ValueError(f"ascend_ext.nn.convert(strict=True): {len(result.left)} matrix-product layer(s) would "
                         f"stay on torch's kernels:\n"
                         + "\n".join(f"  {name} ({cls}): {why}" for name, cls, why in result.left))
    _log.log(logging.WARNING if result.left else logging.INFO, "%s", result)
    return (model, result) if report else model


def _runs_on_ascend(module: torch.nn.Module) -> bool:
    cls = type(module)
    return cls in _REVERSIONS or issubclass(cls, _Derived)


def _route_around_fast_path(layer: torch.nn.TransformerEncoderLayer) -> None:
    """In inference (eval, no grad) torch's encoder layer runs one fused native kernel instead of its
    submodules, which would silently skip converted Linears. The layer takes its fast path only for a
    ReLU/GELU it knows (``activation_relu_or_gelu``, read for nothing else); clearing that flag keeps the
    regular path, which calls ``linear1``/``linear2``. Once neither is ours, the flag is restored."""
    ours = any(_runs_on_ascend(m) for m in (layer.linear1, layer.linear2))
    if not ours and hasattr(layer, "_ascend_ext_fast_path"):
        layer.activation_relu_or_gelu = layer.__dict__.pop("_ascend_ext_fast_path")
    elif ours and not hasattr(layer, "_ascend_ext_fast_path"):
        layer._ascend_ext_fast_path = layer.activation_relu_or_gelu
        layer.activation_relu_or_gelu = 0


class DispersionCorrection(torch.nn.Module):
    """Row-wise dispersion correction over the last dimension (``ascend_ext.dispersion_correction``).

    ``mode=1`` (default) sets each row's standard deviation to ``alpha`` keeping its mean, ``mode=0``
    scales each row's deviations from its mean by ``alpha``. No parameters. The arguments are checked
    here, by the op's own rules: ``mode`` 0 or 1, ``alpha`` finite, ``eps`` finite and >= 0 (> 0 in mode 1).
    """

    def __init__(self, alpha: float = 0.8, mode: int = 1, eps: float = 1e-5):
        super().__init__()
        layer = "ascend_ext.nn.DispersionCorrection"
        if not isinstance(mode, int) or isinstance(mode, bool):
            raise TypeError(f"{layer}: argument 'mode' must be an int (0 or 1), got {type(mode).__name__}")
        for name, value in (("alpha", alpha), ("eps", eps)):
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise TypeError(f"{layer}: argument '{name}' must be a real number, got {type(value).__name__}")
        try:  # the op's checks, on a tensor without data (no kernel runs)
            torch.ops.ascend_ext.dispersion_correction(torch.empty(1, 1, device="meta"), float(alpha), mode,
                                                       float(eps))
        except ValueError as exc:
            raise ValueError(str(exc).split("\n")[0].replace("ascend_ext.dispersion_correction", layer, 1)) from None
        self.alpha = float(alpha)
        self.mode = int(mode)
        self.eps = float(eps)

    def forward(self, x: Tensor) -> Tensor:
        return torch.ops.ascend_ext.dispersion_correction(x, self.alpha, self.mode, self.eps)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}, mode={self.mode}, eps={self.eps}"
