"""Typed Python entry points of the ops, and their autograd formulas."""
from typing import Tuple

import torch

_OPS = torch.ops.ascend_ext


def _require_tensor(op: str, name: str, value: object) -> None:
    if not isinstance(value, torch.Tensor):
        raise TypeError(f"ascend_ext.{op}: argument '{name}' must be a torch.Tensor, got {type(value).__name__}")


def vector_add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Elementwise ``x + y`` computed by the VectorAdd Ascend C kernel.

    ``x`` and ``y`` share a dtype (float32, float16 or bfloat16) and a device, and broadcast like
    ``torch.add``. On the CPU the kernel runs on the CPU twin. Returns a new contiguous tensor.
    """
    _require_tensor("vector_add", "x", x)
    _require_tensor("vector_add", "y", y)
    return _OPS.vector_add.default(x, y)


def vector_add_setup_context(ctx, inputs: Tuple[torch.Tensor, torch.Tensor], output: torch.Tensor) -> None:
    x, y = inputs
    ctx.x_shape = x.shape
    ctx.y_shape = y.shape


def vector_add_backward(ctx, grad: torch.Tensor):
    """Gradients of x + y: the incoming gradient, summed over the dimensions each input was broadcast in."""
    return grad.sum_to_size(ctx.x_shape), grad.sum_to_size(ctx.y_shape)


torch.library.register_autograd(
    "ascend_ext::vector_add", vector_add_backward, setup_context=vector_add_setup_context
)
