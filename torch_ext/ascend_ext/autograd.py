"""torch.autograd.Function forms of the ops, for code that composes Functions explicitly.

``torch.ops.ascend_ext.*`` are differentiable on their own (C++ autograd, with forward-mode AD); these
classes call the same op and state the same formulas, including ``jvp`` and a generated vmap rule, so
they work under ``torch.func`` too.
"""
import torch

from .ops.dispersion_correction import dispersion_correction
from .ops.matmul import matmul
from .ops.vector_add import vector_add


class VectorAddFunction(torch.autograd.Function):
    """``VectorAddFunction.apply(x, y, alpha=1.0)`` = ``x + alpha * y`` through the VectorAdd kernel."""

    generate_vmap_rule = True

    @staticmethod
    def forward(x: torch.Tensor, y: torch.Tensor, alpha: float = 1.0) -> torch.Tensor:
        return vector_add(x, y, alpha=alpha)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y, alpha = (*inputs, 1.0)[:3]
        ctx.x_shape, ctx.y_shape, ctx.alpha = x.shape, y.shape, alpha
        ctx.shape, ctx.dtype = output.shape, output.dtype

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        return grad.sum_to_size(ctx.x_shape), (grad * ctx.alpha).sum_to_size(ctx.y_shape), None

    @staticmethod
    def jvp(ctx, tx, ty, _alpha_tangent=None):
        if tx is not None and ty is not None:
            return vector_add(tx, ty, alpha=ctx.alpha)
        tangent = tx if tx is not None else ty * ctx.alpha
        return tangent.to(ctx.dtype).expand(ctx.shape).clone()


class MatMulFunction(torch.autograd.Function):
    """``MatMulFunction.apply(a, b, trans_a=False, trans_b=False, bias=None)`` = ``op(a) @ op(b) + bias``.

    Gradients are the same kernel with other transpose flags (never a materialised transpose)."""

    generate_vmap_rule = True

    @staticmethod
    def forward(a, b, trans_a=False, trans_b=False, bias=None):
        return matmul(a, b, trans_a=trans_a, trans_b=trans_b, bias=bias)

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, b, trans_a, trans_b, bias = (*inputs, False, False, None)[:5]
        ctx.save_for_backward(a, b)
        ctx.trans_a, ctx.trans_b = trans_a, trans_b

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        ta, tb = ctx.trans_a, ctx.trans_b
        grad_a = matmul(b, g, trans_a=tb, trans_b=True) if ta else matmul(g, b, trans_b=not tb)
        grad_b = matmul(g, a, trans_a=True, trans_b=ta) if tb else matmul(a, g, trans_a=not ta)
        return grad_a, grad_b, None, None, g.sum(0) if ctx.needs_input_grad[4] else None

    @staticmethod
    def jvp(ctx, ta, tb, _ta_flag=None, _tb_flag=None, tbias=None):
        a, b = ctx.saved_tensors
        out = None
        for tangent, (x, y) in ((ta, (ta, b)), (tb, (a, tb))):
            if tangent is not None:
                term = matmul(x, y, trans_a=ctx.trans_a, trans_b=ctx.trans_b)
                out = term if out is None else out + term
        if tbias is not None:
            out = tbias.expand(a.shape[1] if ctx.trans_a else a.shape[0], -1) if out is None else out + tbias
        return out


class DispersionCorrectionFunction(torch.autograd.Function):
    """``DispersionCorrectionFunction.apply(x, alpha, mode=1, eps=1e-5)`` through the DispersionCorrection
    kernels: forward and backward are the ops ``dispersion_correction`` and ``dispersion_correction_backward``
    (whose Jacobian is symmetric, so the backward kernel also gives the jvp)."""

    generate_vmap_rule = True

    @staticmethod
    def forward(x: torch.Tensor, alpha: float, mode: int = 1, eps: float = 1e-5) -> torch.Tensor:
        return dispersion_correction(x, alpha, mode, eps)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, alpha, mode, eps = tuple(inputs) + (None, None, 1, 1e-5)[len(inputs):]
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        ctx.attrs = (alpha, mode, eps)

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        (x,) = ctx.saved_tensors
        return torch.ops.ascend_ext.dispersion_correction_backward(grad, x, *ctx.attrs), None, None, None

    @staticmethod
    def jvp(ctx, tx, *_attr_tangents):
        (x,) = ctx.saved_tensors
        return torch.ops.ascend_ext.dispersion_correction_backward(tx, x, *ctx.attrs)
