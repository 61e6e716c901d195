"""Host cost of an op declared with ascend_ext.library, on 1-element tensors (section 1, host path).

Three ways to make the same Ascend C kernel (benchmarks/kernels/axpy.cpp: out = alpha * x + y) a torch op
on the CPU twin, timed side by side:
- declared: ascend_ext.library.op, its tiling a Python function filling the kernel's own struct
  (al.c_struct);
- hand-written: what a user writes without it — torch.library.custom_op around KernelLibrary.launch, the
  tiling packed with struct.pack, the fake function by hand (no argument checks, no autograd);
- ours in C++: ascend_ext.vector_add (our C++ adapter, the twin launch of our VectorAdd kernel).
"""
import itertools
import os
import struct
from typing import Dict

import torch

import ascend_ext
import ascend_ext.library as al
from ascend_ext.twin_kernels import compile_kernels

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")
_SERIAL = itertools.count()


def declared_axpy(namespace: str = "ascend_ext_bench"):
    """The kernel declared as an op (a fresh name each call: the registry cannot hold one name twice)."""
    tiling_struct = al.c_struct(os.path.join(KERNELS, "axpy_tiling.h"), "AxpyTiling")

    def tiling(x, y, alpha, *, platform):
        n = x.numel()
        tile = 2048
        cores = max(1, min(platform.vector_cores, -(-n // tile)))
        per_core = -(-(-(-n // cores)) // 8) * 8
        return al.Tiling(block_dim=cores, data=tiling_struct(total=n, perCore=per_core, tile=tile))

    return al.op(f"{namespace}::axpy{next(_SERIAL)}(Tensor x, Tensor y, float alpha=1.0) -> Tensor out",
                 kernel=al.Kernel(os.path.join(KERNELS, "axpy.cpp"), entry="axpy"),
                 dtypes={"x": ("float32", "float16"), "y": "x"}, outputs={"out": al.like("x")}, tiling=tiling,
                 tiling_struct=tiling_struct)


def hand_written_axpy(namespace: str = "ascend_ext_bench"):
    """The same kernel as a hand-written torch.library.custom_op around KernelLibrary.launch."""
    lib = compile_kernels([os.path.join(KERNELS, "axpy.cpp")], defines={"DTYPE_X": "float"})
    name = f"{namespace}::hand_axpy{next(_SERIAL)}"

    @torch.library.custom_op(name, mutates_args=())
    def hand_axpy(x: torch.Tensor, y: torch.Tensor, alpha: float = 1.0) -> torch.Tensor:
        out = torch.empty_like(x)
        n = x.numel()
        cores = max(1, min(48, -(-n // 2048)))
        per_core = -(-(-(-n // cores)) // 8) * 8
        tiling = struct.pack("<QII", n, per_core, 2048)
        lib.launch("axpy", cores, x=x.contiguous(), y=y.contiguous(), out=out, alpha=alpha, workspace=None,
                   tiling=tiling)
        return out

    @hand_axpy.register_fake
    def _(x, y, alpha=1.0):
        return torch.empty_like(x)

    return hand_axpy


def measure(calls: int, rounds: int) -> Dict[str, float]:
    from .timing import interleaved_medians

    declared = declared_axpy()
    hand = hand_written_axpy()
    x, y = torch.ones(1), torch.ones(1)
    declared(x, y)  # builds and loads the kernel library before timing
    return interleaved_medians({
        "declared": lambda: declared.op(x, y),
        "hand-written": lambda: hand(x, y),
        "vector_add (C++)": lambda: ascend_ext.vector_add(x, y),
        "torch.add": lambda: torch.add(x, y),
    }, calls, rounds)
