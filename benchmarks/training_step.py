"""Section 2, training rows: one optimizer step (forward, loss, backward, Adam) of a model built from
ascend_ext's layers against the same model built from torch's, with identical parameters and inputs.

- the demo's model (`python -m ascend_ext demo` at its defaults: batch 128, width 64, depth 2, Adam);
- a BERT-sized encoder layer (hidden 256, 4 heads, sequence 128, batch 8: self-attention, output
  projection with residual and LayerNorm, a 4x GELU feed-forward), converted by `ascend_ext.nn.convert`
  (every Linear onto our matmul kernel), against the unconverted layer.
"""
import copy
import math
from typing import Callable, Dict, Tuple

import torch
from torch import nn

import ascend_ext
from ascend_ext.models import TeacherTask, build_pair


class EncoderLayer(nn.Module):
    """A post-norm transformer encoder layer with the module tree of a BERT layer (separate query, key and
    value projections; attention output dense + LayerNorm; intermediate dense + GELU; output dense +
    LayerNorm)."""

    def __init__(self, d: int, heads: int):
        super().__init__()
        self.heads = heads
        self.query, self.key, self.value = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.attn_out, self.attn_norm = nn.Linear(d, d), nn.LayerNorm(d)
        self.intermediate, self.out, self.out_norm = nn.Linear(d, 4 * d), nn.Linear(4 * d, d), nn.LayerNorm(d)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        hd = d // self.heads
        q, k, v = (lin(x).view(b, t, self.heads, hd).transpose(1, 2) for lin in (self.query, self.key, self.value))
        probs = ((q @ k.transpose(-1, -2)) / math.sqrt(hd)).softmax(-1)
        ctx = (probs @ v).transpose(1, 2).reshape(b, t, d)
        a = self.attn_norm(self.attn_out(ctx) + x)
        return self.out_norm(self.out(nn.functional.gelu(self.intermediate(a))) + a)


def _stepper(model: nn.Module, batch: Callable[[], Tuple[torch.Tensor, torch.Tensor]],
             loss_fn: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]) -> Callable[[], None]:
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x, target = batch()

    def step():
        opt.zero_grad(set_to_none=True)
        loss_fn(model(x), target).backward()
        opt.step()
    return step


def demo_pair(quick: bool) -> Dict[str, Callable[[], None]]:
    batch = 32 if quick else 128
    ours, native = build_pair(seed=0, d_in=32, width=64, depth=2, classes=8)
    task = TeacherTask(d_in=32, classes=8)
    data = lambda: task.batch(0, batch)  # noqa: E731
    ce = nn.functional.cross_entropy
    return {"ours": _stepper(ours, data, ce), "native": _stepper(native, data, ce)}


def encoder_pair(quick: bool) -> Dict[str, Callable[[], None]]:
    d, heads, seq, batch = (64, 4, 32, 2) if quick else (256, 4, 128, 8)
    torch.manual_seed(0)
    native = EncoderLayer(d, heads)
    ours = ascend_ext.nn.convert(copy.deepcopy(native))
    x, g = torch.randn(batch, seq, d), torch.randn(batch, seq, d)
    data = lambda: (x, g)  # noqa: E731
    mse = nn.functional.mse_loss
    return {"ours": _stepper(ours, data, mse), "native": _stepper(native, data, mse)}
