"""dispersion_correction and its backward, row-wise over the last dimension, by the DispersionCorrection and
DispersionCorrectionBackward Ascend C kernels (docs/ops.md, dispersion_correction).

The two ops' declarations (their one list of facts), the typed wrapper, the vmap rules and the conformance
samples. Autograd (backward, double backward, forward mode), autocast and every device's implementation are
C++ (torch_ext/csrc/ops/dispersion_correction*.cpp).
"""
from typing import List

import torch
from torch import Tensor

import ascend_ext.library as al
from ascend_ext.testing import Sample

from ._wrappers import check_tensor

__all__ = ["dispersion_correction"]

DTYPES = ("float32", "float16", "bfloat16", "float64")  # float64: the twin's build only (A2 has no float64)


def _rand(*shape, dtype=torch.float32, scale=1.0):
    return (torch.randn(shape, dtype=torch.float64) * scale).to(dtype)


def _reference(x, alpha, mode=1, eps=1e-5):
    """docs/ops.md, dispersion_correction: per row of the last dimension, mu = mean, var = population variance."""
    x = x.double()
    mu = x.mean(-1, keepdim=True)
    if mode == 0:
        return mu + alpha * (x - mu)
    var = ((x - mu) ** 2).mean(-1, keepdim=True)
    return mu + alpha * (x - mu) / torch.sqrt(var + eps)


def _samples(dtype) -> List[Sample]:
    r = lambda *s, **k: _rand(*s, dtype=dtype, **k)  # noqa: E731
    nan, inf = float("nan"), float("inf")
    special = torch.tensor([[nan, 1.0, 2.0, 3.0], [inf, 1.0, 2.0, 3.0], [1.0, 2.0, 3.0, 4.5], [-inf, inf, 0.0, 1.0]],
                           dtype=dtype)
    return [  # the first four are the ones opcheck, compile and export use
        Sample((r(8, 16),), {"alpha": 0.8}, "rows"),
        Sample((r(5, 33),), {"alpha": 1.5, "mode": 0}, "scale-mode"),
        Sample((r(2, 3, 7),), {"alpha": 0.5, "mode": 1, "eps": 1e-3}, "two-leading-dims"),
        Sample((r(7, 9).t(),), {"alpha": 0.8}, "non-contiguous"),
        Sample((r(13),), {"alpha": 2.0}, "one-row"),
        Sample((r(2, 2, 2, 5),), {"alpha": 0.3, "mode": 0}, "three-leading-dims"),
        Sample((r(1),), {"alpha": 0.8}, "size-1"),
        Sample((r(4, 1),), {"alpha": 0.8, "mode": 0}, "rows-of-one"),
        Sample((r(0, 5),), {"alpha": 0.8}, "size-0"),
        Sample((torch.full((3, 8), 2.5, dtype=dtype),), {"alpha": 0.8}, "constant-rows"),
        # rows of N(0, 1e3^2): y = mu + alpha * z adds terms up to ~200 in magnitude (the row means), so an
        # output near 0 carries their rounding: absolute error scales with them
        Sample((r(3, 300, scale=1e3),), {"alpha": 0.8}, "large-magnitude", atol_scale=20.0),
        Sample((r(3, 4097),), {"alpha": -0.7, "mode": 0}, "tail"),
        Sample((r(2, 20000),), {"alpha": 0.8}, "multi-pass"),
        Sample((special,), {"alpha": 0.8}, "nan-inf"),
    ]


DISPERSION_CORRECTION = al.op(
    "ascend_ext::dispersion_correction(Tensor x, float alpha, int mode=1, float eps=1e-05) -> Tensor",
    impl="native",
    # MIX_AIV_1_0: vector cores only, with SyncAll across them (rows split over cores meet in the workspace).
    kernel=al.Kernel("op_kernel/dispersion_correction.cpp", entry="dispersion_correction", kernel_type="mix"),
    dtypes={"x": DTYPES},
    outputs={"y": al.like("x")},
    aclnn="DispersionCorrection(Tensor x, float alpha, int mode=1, float eps=1e-05) -> Tensor y",
    plan=al.Plan("op_host/dispersion_correction_tiling.h", "DispersionCorrectionPlanFromSizes"),
    samples=_samples,
    reference=_reference,
    tolerances={
        torch.float64: dict(rtol=1e-10, atol=1e-10),
        torch.float32: dict(rtol=1e-5, atol=1e-5),
        torch.float16: dict(rtol=1e-3, atol=1e-3),
        torch.bfloat16: dict(rtol=8e-3, atol=8e-3),
    },
)

# The backward has a kernel of its own; its conformance is the forward op's (gradients, double backward,
# forward mode through it), and tests/test_dispersion_correction.py checks it against its formula.
DISPERSION_CORRECTION_BACKWARD = al.op(
    "ascend_ext::dispersion_correction_backward(Tensor grad, Tensor x, float alpha, int mode, float eps) -> Tensor",
    impl="native",
    kernel=al.Kernel("op_kernel/dispersion_correction_backward.cpp", entry="dispersion_correction_backward",
                     kernel_type="mix"),
    dtypes={"grad": DTYPES, "x": "grad"},
    outputs={"grad_x": al.like("grad")},
    aclnn="DispersionCorrectionBackward(Tensor grad, Tensor x, float alpha, int mode, float eps) -> Tensor grad_x",
)

_DISPERSION_CORRECTION = torch.ops.ascend_ext.dispersion_correction.default


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
    check_tensor("dispersion_correction", "x", x)
    return _DISPERSION_CORRECTION(x, alpha, mode, eps)

# ---- vmap: one launch for the whole batch ---------------------------------------------------------------


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
