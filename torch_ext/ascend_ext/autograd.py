"""torch.autograd.Function forms of the ops, for code that composes Functions explicitly.

``torch.ops.ascend_ext.*`` are differentiable on their own (their autograd formulas are registered
with the op); these classes call the same op and the same backward formulas.
"""
import torch

from .ops import vector_add, vector_add_backward, vector_add_setup_context


class VectorAddFunction(torch.autograd.Function):
    """``VectorAddFunction.apply(x, y)`` = ``x + y`` through the VectorAdd kernel."""

    @staticmethod
    def forward(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return vector_add(x, y)

    setup_context = staticmethod(vector_add_setup_context)
    backward = staticmethod(vector_add_backward)
