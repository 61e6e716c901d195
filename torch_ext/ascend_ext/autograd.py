"""torch.autograd.Function forms of the ops, for code that composes Functions explicitly.

``torch.ops.ascend_ext.*`` are differentiable on their own (their autograd formulas are registered
with the op); these classes call the same op and the same backward formulas.
"""
import torch

from .ops import vector_add, vector_add_backward


class VectorAddFunction(torch.autograd.Function):
    """``VectorAddFunction.apply(x, y)`` = ``x + y`` through the VectorAdd kernel."""

    @staticmethod
    def forward(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return vector_add(x, y)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        ctx.x_shape = x.shape
        ctx.y_shape = y.shape

    @staticmethod
    def backward(ctx, grad):
        return vector_add_backward(grad, ctx.x_shape, ctx.y_shape)
