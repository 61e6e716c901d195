"""scale_shift: ``y = x * a + b``, elementwise, by the ScaleShift Ascend C kernel: a declared built-in op, with
no C++ adapter. On the CPU the twin runs its kernel through the declared-op path of ascend_ext.library; on an
NPU the kernel-launch path runs it, and the op package has it as aclnnScaleShift (op_host/scale_shift.cpp).
Its tiling is C++ (op_host/scale_shift_tiling.h), the function the op package's TilingFunc calls too."""
from typing import List

import torch

import ascend_ext.library as al
from ascend_ext.testing import Sample

__all__ = ["scale_shift"]


def _reference(x, a, b):
    return x.double() * a + b


def _samples(dtype) -> List[Sample]:
    def r(*shape, scale=1.0):
        return (torch.randn(shape, dtype=torch.float64) * scale).to(dtype)

    special = torch.tensor([float("inf"), -float("inf"), float("nan"), 0.0, -0.0, 3.0], dtype=dtype)
    return [  # the first four are the ones opcheck, compile and export use (numbers by keyword: all-tensor args)
        Sample((r(4, 11),), {"a": 0.5, "b": -1.25}, "small"),
        Sample((r(4097),), {"a": 2.0, "b": 0.75}, "tail"),
        Sample((r(9, 7).t(),), {"a": -3.0, "b": 0.5}, "non-contiguous"),
        Sample((r(3, 5, 7),), {"a": 1.5, "b": 0.0}, "three-dims"),
        Sample((r(),), {"a": 0.25, "b": 1.0}, "0-d"),
        Sample((r(0, 5),), {"a": 2.0, "b": 1.0}, "size-0"),
        Sample((r(1),), {"a": -1.0, "b": 2.0}, "size-1"),
        Sample((r(48 * 2048 + 5),), {"a": 0.3, "b": -0.7}, "every-core"),
        # x * a ~ -10..10 plus b = 10: a result near 0 carries the rounding of terms up to ~40 (and of a itself
        # in the float16 build), so its absolute error scales with them
        Sample((r(300, scale=1e3),), {"a": 1e-2, "b": 10.0}, "large-magnitude", atol_scale=40.0),
        Sample((special,), {"a": 2.0, "b": 1.0}, "nan-inf"),
    ]


def _setup_context(ctx, inputs, output):
    ctx.a = inputs[1]


def _backward(ctx, grad):
    # d(x * a + b)/dx = a: the op itself computes grad * a, so double backward runs the kernel again.
    return torch.ops.ascend_ext.scale_shift(grad, ctx.a, 0.0), None, None


def _jvp(ctx, tx, _ta, _tb):
    return torch.ops.ascend_ext.scale_shift(tx, ctx.a, 0.0)


def _vmap(info, in_dims, x, a, b):
    return torch.ops.ascend_ext.scale_shift(x, a, b), in_dims[0]  # elementwise: the batch is more elements


scale_shift = al.op(
    "ascend_ext::scale_shift(Tensor x, float a, float b) -> Tensor y",
    kernel=al.Kernel("op_kernel/scale_shift.cpp", kernel_type="aiv"),
    dtypes={"x": ("float32", "float16", "float64")},  # float64: the twin's build only; A2 has no bfloat16 Muls
    outputs={"y": al.like("x")},
    tiling=al.CppTiling("op_host/scale_shift_tiling.h", "ascend_ext::ScaleShiftTiling"),
    aclnn="ScaleShift(Tensor x, float a, float b) -> Tensor y",
    setup_context=_setup_context, backward=_backward, jvp=_jvp, vmap=_vmap,
    samples=_samples,
    reference=_reference,
    tolerances={
        torch.float64: dict(rtol=1e-12, atol=1e-12),
        torch.float32: dict(rtol=2e-6, atol=1e-6),
        torch.float16: dict(rtol=2e-3, atol=1e-3),  # two roundings: x * a, then + b
    },
)
