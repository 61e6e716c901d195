"""The demo's model and its synthetic task: a small residual MLP built from ascend_ext's layers, and the
same network built from torch's own layers, so the two can be trained side by side from one
initialisation.

The normalisation layer of each variant is one function, ``ours_norm`` / ``native_norm``: every block
of the model takes its normalisation from there.
"""
from typing import Callable, Dict, Tuple

import torch
from torch import Tensor

from . import nn as ext_nn


class Residual(torch.nn.Module):
    """``block(x) + x`` with torch's own addition: the native counterpart of ``ascend_ext.nn.ResidualAdd``
    (same submodule name, so the two exchange ``state_dict``\\ s)."""

    def __init__(self, block: torch.nn.Module):
        super().__init__()
        self.block = block

    def forward(self, x: Tensor) -> Tensor:
        return self.block(x) + x


class DispersionCorrectionReference(torch.nn.Module):
    """The dispersion_correction formula composed of torch ops: the native counterpart of
    ``ascend_ext.nn.DispersionCorrection``. Mode 0 scales each row's spread about its mean by ``alpha``;
    mode 1 sets each row's standard deviation (population, plus ``eps`` under the root) to ``alpha``."""

    def __init__(self, alpha: float = 0.8, mode: int = 1, eps: float = 1e-5):
        super().__init__()
        self.alpha, self.mode, self.eps = alpha, mode, eps

    def forward(self, x: Tensor) -> Tensor:
        mean = x.mean(-1, keepdim=True)
        centred = x - mean
        if self.mode == 0:
            return mean + self.alpha * centred
        var = centred.square().mean(-1, keepdim=True)
        return mean + self.alpha * centred * torch.rsqrt(var + self.eps)


def ours_norm(width: int) -> torch.nn.Module:
    """The normalisation layer of the model built from our layers: DispersionCorrection, mode 1 (each row's
    standard deviation set to 1, its mean kept)."""
    return ext_nn.DispersionCorrection(alpha=1.0, mode=1)


def native_norm(width: int) -> torch.nn.Module:
    """The normalisation layer of the model built from torch's layers: the same formula in torch ops."""
    return DispersionCorrectionReference(alpha=1.0, mode=1)


LAYER_SETS: Dict[str, Dict[str, Callable]] = {
    "ours": dict(linear=ext_nn.Linear, residual=ext_nn.ResidualAdd, norm=ours_norm),
    "native": dict(linear=torch.nn.Linear, residual=Residual, norm=native_norm),
}


def build_model(layers: str = "ours", d_in: int = 32, width: int = 64, depth: int = 2, classes: int = 8,
                norm: Callable[[int], torch.nn.Module] = None) -> torch.nn.Sequential:
    """``Linear(d_in, width)``, ``depth`` pre-norm residual blocks ``x + Linear(GELU(Linear(norm(x))))``,
    a final norm and ``Linear(width, classes)``. ``layers`` is "ours" (ascend_ext.nn.Linear, ResidualAdd)
    or "native" (torch.nn.Linear, ``+``); ``norm`` overrides the layer set's normalisation."""
    if layers not in LAYER_SETS:
        raise ValueError(f"build_model: layers must be one of {sorted(LAYER_SETS)}, got {layers!r}")
    kind = LAYER_SETS[layers]
    linear, residual, make_norm = kind["linear"], kind["residual"], norm or kind["norm"]
    blocks = [residual(torch.nn.Sequential(make_norm(width), linear(width, 2 * width), torch.nn.GELU(),
                                           linear(2 * width, width)))
              for _ in range(depth)]
    return torch.nn.Sequential(linear(d_in, width), *blocks, make_norm(width), linear(width, classes))


def build_pair(seed: int = 0, **sizes) -> Tuple[torch.nn.Module, torch.nn.Module]:
    """(ours, native) with identical parameters: the native model is initialised, ours loads its state."""
    torch.manual_seed(seed)
    native = build_model("native", **sizes)
    ours = build_model("ours", **sizes)
    ours.load_state_dict(native.state_dict())
    return ours, native


class TeacherTask:
    """A classification task that needs no download: inputs are Gaussian, labels the argmax of a fixed
    random two-layer teacher network. Deterministic in ``seed``; ``batch(step)`` is the same on every
    process, so data-parallel ranks can take their shards of one global batch."""

    def __init__(self, d_in: int = 32, classes: int = 8, seed: int = 1234):
        g = torch.Generator().manual_seed(seed)
        self.d_in, self.classes, self.seed = d_in, classes, seed
        self.w1 = torch.randn(d_in, 4 * d_in, generator=g) / d_in ** 0.5
        self.w2 = torch.randn(4 * d_in, classes, generator=g) / (4 * d_in) ** 0.5

    def labels(self, x: Tensor) -> Tensor:
        return (torch.tanh(x @ self.w1) @ self.w2).argmax(-1)

    def batch(self, step: int, size: int) -> Tuple[Tensor, Tensor]:
        g = torch.Generator().manual_seed(self.seed * 100003 + step)
        x = torch.randn(size, self.d_in, generator=g)
        return x, self.labels(x)
