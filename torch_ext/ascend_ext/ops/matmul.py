"""matmul: ``op(a) @ op(b) (+ bias)`` on the cube unit by the MatmulCube Ascend C kernel (docs/ops.md, matmul).

The op's declaration (its one list of facts), its typed wrapper and its conformance samples. Autograd,
autocast, the vmap batching rule and every device's implementation are C++ (torch_ext/csrc/ops/matmul*.cpp).
"""
from typing import List, Optional

import torch
from torch import Tensor

import ascend_ext.library as al
from ascend_ext.testing import Sample

from ._wrappers import check_tensor

__all__ = ["matmul"]


def _rand(*shape, dtype=torch.float32, scale=1.0):
    return (torch.randn(shape, dtype=torch.float64) * scale).to(dtype)


def _reference(a, b, bias=None, trans_a=False, trans_b=False):
    a64, b64 = a.double(), b.double()
    out = (a64.t() if trans_a else a64) @ (b64.t() if trans_b else b64)
    return out + bias.double() if bias is not None else out


def _samples(dtype) -> List[Sample]:
    """Samples of the wrapper with ``bias`` positional (a, b, bias), so that the generic checks differentiate
    through it; tests/op_db.py maps them onto the op's keyword-only bias."""
    r = lambda *s, **k: _rand(*s, dtype=dtype, **k)  # noqa: E731
    special = r(4, 6)
    special[0, 1], special[2, 3], special[3, 0] = float("nan"), float("inf"), -float("inf")
    return [  # the first four all-tensor samples are the ones opcheck, compile and export use
        Sample((r(1, 1), r(1, 1)), {}, "1x1x1"),
        Sample((r(5, 7), r(7, 3), r(3)), {}, "bias"),
        Sample((r(17, 65), r(33, 65)), {"trans_b": True}, "trans-b"),
        Sample((r(9, 4), r(9, 6), r(6)), {"trans_a": True}, "trans-a-bias"),
        Sample((r(8, 5), r(6, 8)), {"trans_a": True, "trans_b": True}, "trans-both"),
        Sample((r(6, 4).t(), r(6, 3)), {}, "transposed-view"),
        Sample((r(5, 14)[:, ::2], r(7, 4)), {}, "non-contiguous"),
        Sample((r(0, 5), r(5, 3)), {}, "m-0"),
        Sample((r(4, 0), r(0, 3), r(3)), {}, "k-0-bias"),
        # products of 30 x 30 summed over K = 40: absolute errors scale with the terms, not the result
        Sample((r(13, 40, scale=30.0), r(40, 11, scale=30.0)), {}, "large-magnitude", atol_scale=900.0),
        Sample((special, r(6, 5)), {}, "nan-inf"),
    ]


def _call(a: Tensor, b: Tensor, bias: Optional[Tensor] = None, trans_a: bool = False, trans_b: bool = False) -> Tensor:
    """The samples' convention: the wrapper with bias positional (the schema takes it by keyword)."""
    return matmul(a, b, trans_a, trans_b, bias)


MATMUL = al.op(
    "ascend_ext::matmul(Tensor a, Tensor b, *, bool trans_a=False, bool trans_b=False, Tensor? bias=None) -> Tensor",
    impl="native",
    # The kernel's entry cannot be `matmul`: the Matmul API (lib/matmul_intf.h) declares `namespace matmul`, and
    # an extern "C" function of that name collides with it. Its op type follows the entry (CANN derives the
    # entry from the op type), and "Matmul" would also give aclnnMatmul, a name CANN's own op library exports.
    kernel=al.Kernel("op_kernel/matmul_cube.cpp", entry="matmul_cube", kernel_type="aic"),
    # The A2 Matmul adds a float32 bias in L0C (the twin's float64 build a double one): the adapter casts it.
    dtypes={"a": ("float32", "float16", "bfloat16", "float64"), "b": "a", "bias": al.promoted("a", "float32")},
    outputs={"c": al.like("a")},
    aclnn="MatmulCube(Tensor a, Tensor b, Tensor? bias, bool trans_a=False, bool trans_b=False) -> Tensor c",
    plan=al.Plan("op_host/matmul_tiling.h", "MatmulPlanFromSizes"),
    samples=_samples,
    reference=_reference,
    call=_call,
    tolerances={  # float32 accumulation (float64 in the twin's float64 build); the result rounded once
        torch.float64: dict(rtol=1e-12, atol=1e-12),
        torch.float32: dict(rtol=2e-5, atol=2e-5),
        torch.float16: dict(rtol=2e-3, atol=2e-3),
        torch.bfloat16: dict(rtol=1e-2, atol=1e-2),
    },
)


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
        check_tensor("matmul", "a", a)
        check_tensor("matmul", "b", b)
        if bias is not None:
            check_tensor("matmul", "bias", bias)
    return torch.ops.ascend_ext.matmul(a, b, trans_a=trans_a, trans_b=trans_b, bias=bias)
