"""Typed Python entry points of the ops (TorchScript-compatible), and their vmap batching rules.

Autograd (backward, double backward, forward-mode AD) is registered in C++ on the Autograd key, so
``torch.ops.ascend_ext.*`` and these wrappers are differentiable with no Python in the call path.
"""
from typing import Optional, Tuple, Union

import torch
from torch import Tensor

from . import _C

# Resolved once: calling an overload directly skips the packet's overload resolution on every call.
_VECTOR_ADD = torch.ops.ascend_ext.vector_add.default
_VECTOR_ADD_SCALAR = torch.ops.ascend_ext.vector_add.Scalar
_DISPERSION_CORRECTION = torch.ops.ascend_ext.dispersion_correction.default


_C_VECTOR_ADD = _C.vector_add
_has_torch_function = torch._C._has_torch_function
_is_compiling = torch.compiler.is_compiling


@torch.jit.unused
def _vector_add_tensors(x: Tensor, y: Tensor) -> Tensor:
    # The same op through the dispatcher without torch.ops' per-call schema matching
    # (torch_ext/csrc/module.cpp), where nothing at the Python level would see the call.
    if _has_torch_function((x, y)) or _is_compiling():
        return _VECTOR_ADD(x, y)
    return _C_VECTOR_ADD(x, y)


@torch.jit.unused
def _check_tensor(op: str, name: str, value: object) -> None:
    if not isinstance(value, torch.Tensor):
        raise TypeError(f"ascend_ext.{op}: argument '{name}' must be a torch.Tensor, got {type(value).__name__}")


@torch.jit.unused
def _check_operand(op: str, name: str, value: object) -> None:
    if not isinstance(value, (torch.Tensor, int, float, bool)):
        raise TypeError(f"ascend_ext.{op}: argument '{name}' must be a torch.Tensor or a real number, "
                        f"got {type(value).__name__}")


def vector_add(x: Tensor, y: Union[Tensor, float], alpha: float = 1.0) -> Tensor:
    """``x + alpha * y`` by the VectorAdd Ascend C kernel: ``torch.add`` for floating dtypes.

    ``y`` is a tensor or a Python number. Mixed dtypes promote as ``torch.result_type`` says (the kernel
    runs in the result dtype: float32, float16 or bfloat16; float64 on the CPU twin only), shapes
    broadcast, and the result has ``torch.add``'s memory format. A broadcast ``y`` of the bias/residual
    kind (``(..., D) + (D,)``) or a scalar is read in place, never expanded. On CPU tensors the kernel
    runs on the CPU twin.
    """
    if torch.jit.is_scripting():  # TorchScript picks the overload from the refined type of y
        if isinstance(y, Tensor):
            return torch.ops.ascend_ext.vector_add(x, y, alpha=alpha)
        return torch.ops.ascend_ext.vector_add(x, y, alpha=alpha)
    if isinstance(y, Tensor) and isinstance(x, Tensor):
        # keyword arguments cost microseconds on this path: pass alpha only when it is not the default
        return _vector_add_tensors(x, y) if alpha == 1 and alpha is not True else _VECTOR_ADD(x, y, alpha=alpha)
    _check_tensor("vector_add", "x", x)
    _check_operand("vector_add", "y", y)
    return _VECTOR_ADD_SCALAR(x, y) if alpha == 1 and alpha is not True else _VECTOR_ADD_SCALAR(x, y, alpha=alpha)


def vector_add_(x: Tensor, y: Union[Tensor, float], alpha: float = 1.0) -> Tensor:
    """In-place ``x += alpha * y`` (``Tensor.add_``); returns ``x``."""
    if torch.jit.is_scripting():
        if isinstance(y, Tensor):
            return torch.ops.ascend_ext.vector_add_(x, y, alpha=alpha)
        return torch.ops.ascend_ext.vector_add_(x, y, alpha=alpha)
    _check_tensor("vector_add_", "x", x)
    _check_operand("vector_add_", "y", y)
    if isinstance(y, Tensor):
        return torch.ops.ascend_ext.vector_add_.default(x, y, alpha=alpha)
    return torch.ops.ascend_ext.vector_add_.Scalar(x, y, alpha=alpha)


def matmul(a: Tensor, b: Tensor, trans_a: bool = False, trans_b: bool = False,
           bias: Optional[Tensor] = None) -> Tensor:
    """``op(a) @ op(b) (+ bias)`` by the MatmulCube Ascend C kernel on the cube unit.

    ``a`` and ``b`` are 2-D of one dtype (float32, float16, bfloat16; float64 on the CPU twin only, for
    gradient checks); ``op`` transposes when its flag is set, and a transposed operand is read in place
    (so is a transposed view). Accumulation is float32 for every dtype (double for float64); the result
    has the inputs' dtype. ``bias`` (length N, same dtype) is added in the accumulation's precision.
    An empty M or N gives an empty result; K = 0 gives ``bias`` (or zeros), as torch does.
    """
    if not torch.jit.is_scripting():
        _check_tensor("matmul", "a", a)
        _check_tensor("matmul", "b", b)
        if bias is not None:
            _check_tensor("matmul", "bias", bias)
    return torch.ops.ascend_ext.matmul(a, b, trans_a=trans_a, trans_b=trans_b, bias=bias)


def dispersion_correction(x: Tensor, alpha: float, mode: int = 1, eps: float = 1e-5) -> Tensor:
    """Row-wise dispersion correction over the last dimension of ``x`` by the DispersionCorrection kernel.

    With ``mu`` and ``var`` each row's mean and population variance: ``mode=0`` returns
    ``mu + alpha * (x - mu)`` (the row's spread scaled by ``alpha``), ``mode=1`` returns
    ``mu + alpha * (x - mu) / sqrt(var + eps)`` (the row's standard deviation set to ``alpha``; ``eps`` must
    be > 0, so a constant row returns its mean). The statistics are computed in float32 for every input
    dtype (float32, float16, bfloat16; float64 on the CPU twin only); the result has ``x``'s dtype and
    shape and is contiguous. Differentiable in ``x`` (backward by its own kernel, double backward and
    forward mode too); ``alpha`` and ``eps`` are not differentiated.
    """
    if torch.jit.is_scripting():
        return torch.ops.ascend_ext.dispersion_correction(x, alpha, mode, eps)
    _check_tensor("dispersion_correction", "x", x)
    return _DISPERSION_CORRECTION(x, alpha, mode, eps)


# ---- vmap: one launch for the whole batch ---------------------------------------------------------------


def _batch_first(t: Tensor, bdim: Optional[int], rank: int) -> Tensor:
    """Batch dimension moved to the front and singleton dimensions inserted after it, so that the
    per-sample (logical) shape is right-aligned with rank ``rank`` and broadcasting stays per sample."""
    if bdim is None:
        return t
    t = t.movedim(bdim, 0)
    missing = rank - (t.dim() - 1)
    return t.reshape((t.shape[0],) + (1,) * missing + tuple(t.shape[1:])) if missing > 0 else t


def _vector_add_vmap(info, in_dims: Tuple[Optional[int], Optional[int]], x: Tensor, y: Tensor, *, alpha=1):
    x_bdim, y_bdim = in_dims
    rank = max(x.dim() - (x_bdim is not None), y.dim() - (y_bdim is not None))
    out = torch.ops.ascend_ext.vector_add(_batch_first(x, x_bdim, rank), _batch_first(y, y_bdim, rank), alpha=alpha)
    return out, 0 if (x_bdim is not None or y_bdim is not None) else None


def _vector_add_scalar_vmap(info, in_dims, x: Tensor, y, *, alpha=1):
    return torch.ops.ascend_ext.vector_add.Scalar(x, y, alpha=alpha), in_dims[0]


torch.library.register_vmap("ascend_ext::vector_add", _vector_add_vmap)
torch.library.register_vmap("ascend_ext::vector_add.Scalar", _vector_add_scalar_vmap)


def _dispersion_correction_vmap(info, in_dims, x: Tensor, alpha: float, mode: int = 1, eps: float = 1e-5):
    # Row-wise over the last (logical) dimension: the batch dimension is one more leading dimension.
    x_bdim = in_dims[0]
    if x_bdim is None:
        return torch.ops.ascend_ext.dispersion_correction(x, alpha, mode, eps), None
    return torch.ops.ascend_ext.dispersion_correction(x.movedim(x_bdim, 0), alpha, mode, eps), 0


def _dispersion_correction_backward_vmap(info, in_dims, grad: Tensor, x: Tensor, alpha: float, mode: int,
                                         eps: float):
    g_bdim, x_bdim = in_dims[0], in_dims[1]
    if g_bdim is None and x_bdim is None:
        return torch.ops.ascend_ext.dispersion_correction_backward(grad, x, alpha, mode, eps), None
    size = info.batch_size
    # An unbatched operand is expanded over the batch (the kernel takes equal shapes).
    g = grad.movedim(g_bdim, 0) if g_bdim is not None else grad.expand(size, *grad.shape)
    xb = x.movedim(x_bdim, 0) if x_bdim is not None else x.expand(size, *x.shape)
    return torch.ops.ascend_ext.dispersion_correction_backward(g, xb, alpha, mode, eps), 0


torch.library.register_vmap("ascend_ext::dispersion_correction", _dispersion_correction_vmap)
torch.library.register_vmap("ascend_ext::dispersion_correction_backward", _dispersion_correction_backward_vmap)
