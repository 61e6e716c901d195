"""The CPU twin: what each virtual core of the last launch moved and computed, tiling plans, platform.

Every CPU call of an ascend_ext op runs its Ascend C kernel on the twin. The twin enforces the rules
of the hardware (UB capacity, 32-byte alignment, GM bounds, queue discipline, disjoint core writes) and
counts per core:

    >>> y = ascend_ext.vector_add(a, b)
    >>> stats = ascend_ext.twin.last_launch_stats()
    >>> stats.total.gm_bytes_read, stats.block_dim
"""
import contextlib
import ctypes
import json
from typing import Iterator, Sequence

import torch

from ._native import library
from ._twin_stats import CoreStats, LaunchStats, Recording  # noqa: F401  (public names)
from . import _twin_stats
from .twin_kernels import (KernelCompileError, KernelLibrary, KernelRuleViolation, UntypedGm,  # noqa: F401
                           compile_kernels)


def last_launch_stats() -> LaunchStats:
    """Counters of the calling thread's most recent kernel launch on the twin.

    Launches made by other threads never show here. Raises ``LookupError`` when this thread has made no
    twin launch yet."""
    return _twin_stats.last_launch(library(), "ascend_ext.twin.last_launch_stats")


@contextlib.contextmanager
def record() -> Iterator[Recording]:
    """Collects the statistics of every twin launch the calling thread makes inside the block: the built-in
    ops' and those of every kernel library (``compile_kernels``, declared ops), including libraries loaded
    inside the block. Launches are in order within each library.

    Launches of other threads are not included. Recordings nest: an inner block's launches also appear
    in every enclosing block's recording."""
    library()  # the built-in ops' runtime is always part of it
    with _twin_stats.record_all() as rec:
        yield rec


def plan(op: str, sizes: Sequence[int], dtype: torch.dtype = torch.float32, platform: str = "") -> dict:
    """The host tiling's decision for ``op`` on an input of ``sizes`` (block_dim, tile sizes, UB use)."""
    names = {torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16", torch.float64: "float64"}
    if dtype not in names:
        raise TypeError(f"ascend_ext.twin.plan: dtype {dtype} has no kernel build")
    sizes = [int(s) for s in sizes]
    if any(not 0 <= s < 2**63 for s in sizes):
        raise ValueError(f"ascend_ext.twin.plan: sizes {sizes} must each be between 0 and 2^63 - 1")
    arr = (ctypes.c_int64 * len(sizes))(*sizes)
    out = ctypes.c_char_p()
    status = library().ascend_ext_plan_json(
        op.encode(), arr, len(sizes), names[dtype].encode(), (platform or get_platform()).encode(), ctypes.byref(out)
    )
    text = out.value.decode()
    if status != 0:
        raise ValueError(f"ascend_ext.twin.plan: {text}")
    return json.loads(text)


_platform_name = None  # the profile's name, read once and kept in step with set_platform


def _current_platform() -> str:
    global _platform_name
    if _platform_name is None:
        _platform_name = library().ascend_ext_twin_platform().decode()
    return _platform_name


_platform_pair = None  # (name, name as bytes), for launches


def _current_platform_bytes():
    global _platform_pair
    name = _current_platform()
    if _platform_pair is None or _platform_pair[0] != name:
        _platform_pair = (name, name.encode())
    return _platform_pair


def get_platform() -> str:
    """The hardware profile the twin and the CPU tiling use (default Ascend910B2)."""
    return _current_platform()


def set_platform(name: str) -> None:
    """Switch the twin to another profile: 'Ascend910B2' or 'Ascend910B3'."""
    global _platform_name
    if library().ascend_ext_set_twin_platform(name.encode()) != 0:
        raise ValueError(f"ascend_ext.twin.set_platform: unknown platform '{name}'; known: Ascend910B2, Ascend910B3")
    _platform_name = library().ascend_ext_twin_platform().decode()

