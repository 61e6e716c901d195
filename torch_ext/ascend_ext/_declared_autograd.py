"""The formulas of a declared op's Autograd kernel (backward, forward mode), called from C++.

The kernel itself is C++ (torch_ext/csrc/declared_autograd.cpp), like our own ops' autograd, so a
declared op composes with torch.func (grad, jacrev, jvp, jacfwd, hessian) as native ops do. The
conventions are torch.library.register_autograd's: ``setup_context(ctx, inputs, output)`` (with
``keyword_only_inputs`` when the schema has keyword-only arguments), ``backward(ctx, *grads)`` returning
one gradient or None per argument; ``jvp(ctx, *tangents)`` gets one tangent or None per argument and
returns the output tangent(s); a tensor argument without a tangent gets zeros, as an output without a
gradient does in backward. Tensors go through ``ctx.save_for_backward`` (``ctx.saved_tensors`` in
backward and jvp); other values may be set on ctx directly.
"""
from typing import Callable, Optional

import torch


class DeclaredContext:
    """The ctx of a declared op's formulas."""

    def __init__(self) -> None:
        self._to_save: tuple = ()
        self.saved_tensors: tuple = ()
        self.needs_input_grad: tuple = ()
        self._outputs: tuple = ()

    def save_for_backward(self, *tensors) -> None:
        for t in tensors:
            if t is not None and not isinstance(t, torch.Tensor):
                raise TypeError(f"save_for_backward takes tensors (or None), got {type(t).__name__}; set other values "
                                "on ctx directly")
        self._to_save = tensors

    save_for_forward = save_for_backward

    def _take_saved(self) -> tuple:
        saved, self._to_save = self._to_save, ()
        return saved

    def _set_saved(self, tensors: tuple) -> None:
        self.saved_tensors = tensors


class Formulas:
    def __init__(self, declared, setup_context: Optional[Callable], backward: Optional[Callable],
                 jvp: Optional[Callable]):
        self.declared = declared
        self._setup = setup_context
        self._backward = backward
        self._jvp = jvp
        self._n_pos = len(declared.arg_names) - len(declared._kwarg_only)

    def new_ctx(self) -> DeclaredContext:
        return DeclaredContext()

    def setup_context(self, ctx: DeclaredContext, inputs: tuple, output) -> None:
        outs = output if isinstance(output, tuple) else (output,)
        ctx._outputs = tuple((o.shape, o.dtype, o.device) for o in outs)
        ctx._inputs = tuple((v.shape, v.dtype, v.device) if isinstance(v, torch.Tensor) else None for v in inputs)
        if self._setup is None:
            return
        if self.declared._kwarg_only:
            kw = {name: inputs[self.declared.arg_names.index(name)] for name in self.declared._kwarg_only}
            self._setup(ctx=ctx, inputs=tuple(inputs[:self._n_pos]), keyword_only_inputs=kw, output=output)
        else:
            self._setup(ctx=ctx, inputs=tuple(inputs), output=output)

    def backward(self, ctx: DeclaredContext, grads: tuple) -> tuple:
        q = self.declared.qualname
        if self._backward is None:
            raise RuntimeError(f"{q}: no backward was declared (give backward= to ascend_ext.library.op), so it "
                               "cannot be differentiated in reverse mode")
        grads = tuple(torch.zeros(s, dtype=d, device=dev) if g is None else g
                      for g, (s, d, dev) in zip(grads, ctx._outputs))
        result = self._backward(ctx, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        n = len(self.declared.arg_names)
        if len(result) != n:
            raise RuntimeError(f"{q}: backward returned {len(result)} value(s); it must return one gradient (or None) "
                               f"per argument of the schema: {', '.join(self.declared.arg_names)}")
        return result

    def jvp(self, ctx: DeclaredContext, tangents: tuple):
        q = self.declared.qualname
        if self._jvp is None:
            raise RuntimeError(f"{q}: no jvp was declared (give jvp= to ascend_ext.library.op), so it has no "
                               "forward-mode AD")
        # A tensor argument without a tangent (not a primal of the jvp) has tangent zero, as its gradient would.
        tangents = tuple(torch.zeros(m[0], dtype=m[1], device=m[2]) if t is None and m is not None else t
                         for t, m in zip(tangents, ctx._inputs))
        return self._jvp(ctx, *tangents)


def register(declared, setup_context: Optional[Callable], backward: Optional[Callable],
             jvp: Optional[Callable]) -> None:
    from . import _C

    _C._register_declared_autograd(declared.namespace, declared.name,
                                   Formulas(declared, setup_context, backward, jvp))
