"""vector_add: ``torch.add`` for floating results by the VectorAdd Ascend C kernel (docs/ops.md, vector_add).

The op's declaration (its one list of facts: schemas, kernel, the kernel's dtypes, the op package's
interface, the plan function, its conformance samples), its typed wrappers and its vmap rules. Autograd,
autocast and every device's implementation are C++ (torch_ext/csrc/ops/vector_add*.cpp), registered on the
Autograd key, so ``torch.ops.ascend_ext.vector_add`` and the wrappers are differentiable with no Python in
the call path.
"""
from typing import List, Optional, Tuple, Union

import torch
from torch import Tensor

import ascend_ext.library as al
from ascend_ext import _C
from ascend_ext.testing import Sample

from ._wrappers import check_operand, check_tensor

__all__ = ["vector_add", "vector_add_"]


def _rand(*shape, dtype=torch.float32, scale=1.0):
    return (torch.randn(shape, dtype=torch.float64) * scale).to(dtype)


def _reference(x, y, alpha=1.0):
    return x.double() + alpha * (y.double() if isinstance(y, torch.Tensor) else y)


def _samples(dtype) -> List[Sample]:
    r = lambda *s, **k: _rand(*s, dtype=dtype, **k)  # noqa: E731
    special = torch.tensor([float("inf"), -float("inf"), float("nan"), 1.0e4, -0.0, 3.0], dtype=dtype)
    return [  # the first four all-tensor samples are the ones opcheck, compile and export use
        Sample((r(), r()), {}, "0-d"),
        Sample((r(4, 11), r(11)), {"alpha": 0.5}, "bias-broadcast"),
        Sample((r(4097), r(4097)), {"alpha": 0.75}, "tail-alpha"),
        Sample((r(9, 7).t(), r(7, 9)), {}, "non-contiguous"),
        Sample((r(0, 5), r(5)), {}, "size-0"),
        Sample((r(1), r(1)), {}, "size-1"),
        Sample((r(33), r(33)), {}, "tail"),
        Sample((r(37, 64).t(), r(64, 37)), {}, "non-contiguous-large"),
        Sample((r(6, 130), r(130)), {}, "bias-broadcast-large"),
        Sample((r(13), r(5, 13)), {"alpha": -2.0}, "broadcast-first"),
        Sample((r(3, 1, 5), r(4, 1)), {}, "mixed-broadcast"),
        Sample((r(2, 1, 3, 5).to(memory_format=torch.channels_last), r(3, 1, 1)), {}, "channels-last-bias"),
        Sample((r(300, scale=1e3), r(300, scale=1e3)), {}, "large-magnitude"),
        Sample((special, special.flip(0)), {}, "nan-inf"),
        Sample((r(2, 3, 4), 2.5), {}, "python-number"),
    ]


# Resolved once: calling an overload directly skips the packet's overload resolution on every call.
_VECTOR_ADD = torch.ops.ascend_ext.vector_add.default
_VECTOR_ADD_SCALAR = torch.ops.ascend_ext.vector_add.Scalar


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
    check_tensor("vector_add", "x", x)
    check_operand("vector_add", "y", y)
    return _VECTOR_ADD_SCALAR(x, y) if alpha == 1 and alpha is not True else _VECTOR_ADD_SCALAR(x, y, alpha=alpha)


def vector_add_(x: Tensor, y: Union[Tensor, float], alpha: float = 1.0) -> Tensor:
    """In-place ``x += alpha * y`` (``Tensor.add_``); returns ``x``."""
    if torch.jit.is_scripting():
        if isinstance(y, Tensor):
            return torch.ops.ascend_ext.vector_add_(x, y, alpha=alpha)
        return torch.ops.ascend_ext.vector_add_(x, y, alpha=alpha)
    check_tensor("vector_add_", "x", x)
    check_operand("vector_add_", "y", y)
    if isinstance(y, Tensor):
        return torch.ops.ascend_ext.vector_add_.default(x, y, alpha=alpha)
    return torch.ops.ascend_ext.vector_add_.Scalar(x, y, alpha=alpha)


VECTOR_ADD = al.op(
    "ascend_ext::vector_add(Tensor x, Tensor y, *, Scalar alpha=1) -> Tensor",
    overloads=(
        "ascend_ext::vector_add.Scalar(Tensor x, Scalar y, *, Scalar alpha=1) -> Tensor",
        "ascend_ext::vector_add.out(Tensor x, Tensor y, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
        "ascend_ext::vector_add_(Tensor(a!) x, Tensor y, *, Scalar alpha=1) -> Tensor(a!)",
        "ascend_ext::vector_add_.Scalar(Tensor(a!) x, Scalar y, *, Scalar alpha=1) -> Tensor(a!)",
    ),
    # The C++ adapter (torch_ext/csrc/ops/vector_add.cpp) promotes, broadcasts and casts, so the kernel sees
    # one dtype: x ("full", the output's elements) and y (the operand read in place) of the result's dtype.
    impl="native",
    kernel=al.Kernel("op_kernel/vector_add.cpp", entry="vector_add", kernel_type="aiv"),
    dtypes={"x": ("float32", "float16", "bfloat16", "float64"), "y": "x"},  # float64: the twin's build only
    outputs={"z": al.like("x")},
    # z = scale_x * x + scale_y * y, or + y_value without y (op_host/vector_add.cpp): alpha and a number
    # operand become attrs, so the op type takes no Scalar.
    aclnn="VectorAdd(Tensor x, Tensor? y, float scale_x=1.0, float scale_y=1.0, float y_value=0.0) -> Tensor z",
    plan=al.Plan("op_host/vector_add_tiling.h", "VectorAddPlanFromSizes"),
    samples=_samples,
    call=vector_add,  # the samples take a Python number for y too (the .Scalar overload)
    reference=_reference,
    tolerances={
        torch.float64: dict(rtol=1e-12, atol=1e-12),
        torch.float32: dict(rtol=2e-6, atol=1e-6),
        torch.float16: dict(rtol=1e-3, atol=1e-5),
        torch.bfloat16: dict(rtol=8e-3, atol=1e-5),
    },
)

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


