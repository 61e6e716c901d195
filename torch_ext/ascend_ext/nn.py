"""Drop-in layers built on the ascend_ext ops. They call ``torch.ops`` directly, so they script
(``torch.jit.script``), export and compile like torch's own layers."""
import torch
from torch import Tensor


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


class Linear(torch.nn.Linear):
    """A drop-in for ``torch.nn.Linear`` whose product runs on the MatmulCube kernel.

    Same constructor (``in_features, out_features, bias=True, device=None, dtype=None``), parameter names,
    initialisation and ``state_dict`` as ``torch.nn.Linear``; any number of leading dimensions. The weight
    ``[out, in]`` is read in place as the transposed right operand.
    """

    def forward(self, input: Tensor) -> Tensor:
        flat = input.reshape(-1, self.in_features)
        out = torch.ops.ascend_ext.matmul(flat, self.weight, trans_b=True, bias=self.bias)
        return out.reshape(input.shape[:-1] + (self.out_features,))


def convert(model: torch.nn.Module, reverse: bool = False) -> torch.nn.Module:
    """Swaps every ``torch.nn.Linear`` of ``model`` for ``ascend_ext.nn.Linear`` in place (``reverse=True``:
    back to ``torch.nn.Linear``), keeping the very same parameter objects, so optimizers and hooks on
    them stay valid. Returns ``model``; a bare Linear passed in is returned converted."""
    source, target = (Linear, torch.nn.Linear) if reverse else (torch.nn.Linear, Linear)

    def swap(module: torch.nn.Module) -> torch.nn.Module:
        if type(module) is not source:
            return module
        new = target.__new__(target)
        new.__dict__ = module.__dict__.copy()  # same parameters, buffers, hooks, training flag
        return new

    for name, child in list(model.named_children()):
        converted = swap(child)
        if converted is not child:
            setattr(model, name, converted)
        else:
            convert(child, reverse)
    if isinstance(model, torch.nn.TransformerEncoderLayer):
        _route_around_fast_path(model, reverse)
    return swap(model)


def _route_around_fast_path(layer: torch.nn.TransformerEncoderLayer, reverse: bool) -> None:
    """In inference (eval, no grad) torch's encoder layer runs one fused native kernel instead of its
    submodules, which would silently skip converted Linears. The layer takes its fast path only for a
    ReLU/GELU it knows (``activation_relu_or_gelu``, read for nothing else); clearing that flag keeps the
    regular path, which calls ``linear1``/``linear2``. ``reverse`` restores it."""
    if reverse:
        if hasattr(layer, "_ascend_ext_fast_path"):
            layer.activation_relu_or_gelu = layer.__dict__.pop("_ascend_ext_fast_path")
    elif any(type(m) is Linear for m in (layer.linear1, layer.linear2)) and not hasattr(layer, "_ascend_ext_fast_path"):
        layer._ascend_ext_fast_path = layer.activation_relu_or_gelu
        layer.activation_relu_or_gelu = 0


class DispersionCorrection(torch.nn.Module):
    """Row-wise dispersion correction over the last dimension (``ascend_ext.dispersion_correction``).

    ``mode=1`` (default) sets each row's standard deviation to ``alpha`` keeping its mean, ``mode=0``
    scales each row's deviations from its mean by ``alpha``. No parameters.
    """

    def __init__(self, alpha: float = 0.8, mode: int = 1, eps: float = 1e-5):
        super().__init__()
        # Checked here too, so that a bad layer fails where it is built.
        if mode not in (0, 1):
            raise ValueError(f"ascend_ext.nn.DispersionCorrection: argument 'mode' must be 0 or 1, got {mode}")
        self.alpha = float(alpha)
        self.mode = int(mode)
        self.eps = float(eps)

    def forward(self, x: Tensor) -> Tensor:
        return torch.ops.ascend_ext.dispersion_correction(x, self.alpha, self.mode, self.eps)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}, mode={self.mode}, eps={self.eps}"
