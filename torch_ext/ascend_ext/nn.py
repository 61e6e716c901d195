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
    return swap(model)
