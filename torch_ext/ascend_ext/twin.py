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
import dataclasses
import json
from typing import Dict, Iterator, List, Sequence

import torch

from ._native import library


@dataclasses.dataclass(frozen=True)
class CoreStats:
    gm_bytes_read: int
    gm_bytes_written: int
    data_copy_calls: int
    ub_bytes_allocated: int
    cube_macs: int
    vector_element_ops: Dict[str, int]
    # Cube cores' Matmul counters: gm_bytes_a/_b/_bias/_c (re-reads included), l1_bytes_loaded,
    # l0a_bytes_loaded, l0b_bytes_loaded, l0c_bytes_out, mmad_calls.
    cube: Dict[str, int] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class LaunchStats:
    kernel: str
    platform: str
    block_dim: int
    cores: List[CoreStats]

    @property
    def total(self) -> CoreStats:
        """Counters summed over cores (ub_bytes_allocated: the largest of any core)."""
        ops: Dict[str, int] = {}
        for c in self.cores:
            for name, n in c.vector_element_ops.items():
                ops[name] = ops.get(name, 0) + n
        cube: Dict[str, int] = {}
        for c in self.cores:
            for name, n in c.cube.items():
                cube[name] = cube.get(name, 0) + n
        return CoreStats(
            gm_bytes_read=sum(c.gm_bytes_read for c in self.cores),
            gm_bytes_written=sum(c.gm_bytes_written for c in self.cores),
            data_copy_calls=sum(c.data_copy_calls for c in self.cores),
            ub_bytes_allocated=max((c.ub_bytes_allocated for c in self.cores), default=0),
            cube_macs=sum(c.cube_macs for c in self.cores),
            vector_element_ops=ops,
            cube=cube,
        )


def _parse(raw: dict) -> LaunchStats:
    return LaunchStats(
        kernel=raw["kernel"],
        platform=raw["platform"],
        block_dim=raw["block_dim"],
        cores=[CoreStats(**c) for c in raw["cores"]],
    )


def last_launch_stats() -> LaunchStats:
    """Counters of the most recent kernel launch on the twin (any thread)."""
    return _parse(json.loads(library().ascend_twin_last_launch_json()))


class Recording:
    """Filled when the ``record()`` block exits: every launch made inside it, in order."""

    def __init__(self) -> None:
        self.launches: List[LaunchStats] = []


@contextlib.contextmanager
def record() -> Iterator[Recording]:
    """Collects the statistics of every twin launch made inside the block."""
    rec = Recording()
    library().ascend_twin_start_recording()
    try:
        yield rec
    finally:
        rec.launches = [_parse(r) for r in json.loads(library().ascend_twin_stop_recording_json())]


def plan(op: str, sizes: Sequence[int], dtype: torch.dtype = torch.float32, platform: str = "") -> dict:
    """The host tiling's decision for ``op`` on an input of ``sizes`` (block_dim, tile sizes, UB use)."""
    names = {torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16", torch.float64: "float64"}
    if dtype not in names:
        raise TypeError(f"ascend_ext.twin.plan: dtype {dtype} has no kernel build")
    arr = (ctypes.c_int64 * len(sizes))(*sizes)
    out = ctypes.c_char_p()
    status = library().ascend_ext_plan_json(
        op.encode(), arr, len(sizes), names[dtype].encode(), (platform or get_platform()).encode(), ctypes.byref(out)
    )
    text = out.value.decode()
    if status != 0:
        raise ValueError(f"ascend_ext.twin.plan: {text}")
    return json.loads(text)


def get_platform() -> str:
    """The hardware profile the twin and the CPU tiling use (default Ascend910B2)."""
    return library().ascend_ext_twin_platform().decode()


def set_platform(name: str) -> None:
    """Switch the twin to another profile: 'Ascend910B2' or 'Ascend910B3'."""
    if library().ascend_ext_set_twin_platform(name.encode()) != 0:
        raise ValueError(f"ascend_ext.twin.set_platform: unknown platform '{name}'; known: Ascend910B2, Ascend910B3")


from .twin_kernels import KernelCompileError, KernelLibrary, KernelRuleViolation, compile_kernels  # noqa: E402,F401
