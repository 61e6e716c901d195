"""The twin's launch statistics as Python objects, read through the twin's C interface (twin/c_api.h).

Shared by ``twin`` (the built-in ops, in ascend_ext._C) and ``twin_kernels`` (kernel libraries built by
compile_kernels, each with its own copy of the twin runtime), so neither imports the other.
"""
import contextlib
import ctypes
import dataclasses
import json
import threading
from typing import Dict, Iterator, List


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
    # Per pipe, for the cost model (ascend_ext.costmodel): GM->UB (MTE2) and UB->GM (MTE3) copies and
    # their bursts (a copy's blockCount contiguous GM runs); per vector instruction kind, the issued
    # calls and repeats (a repeat = up to 256 bytes of operands).
    mte2_calls: int = 0
    mte2_bursts: int = 0
    mte3_calls: int = 0
    mte3_bursts: int = 0
    vector_instructions: Dict[str, Dict[str, int]] = dataclasses.field(default_factory=dict)
    # Which core: "aic" or "aiv", and what GetBlockIdx returned on it (a MIX kernel with cube and vector
    # cores lists per block its AIC, then its AIVs; the AIVs' GetBlockIdx is block * ratio + GetSubBlockIdx).
    core_type: str = "aiv"
    block_idx: int = 0
    # Of gm_bytes_read, the bytes DMA reads took from the padding the runtime allocates past a buffer's end
    # (AlignUp(n, 32) + 32 on A2): undefined values on the NPU, and a read out of bounds where there is none.
    gm_padding_bytes_read: int = 0
    # Of gm_bytes_written, the bytes DMA writes sent on past the end of a buffer that ends its allocation (a fresh
    # tensor) into that padding: harmless on the NPU, and never written to the tensor's memory by the twin.
    gm_padding_bytes_written: int = 0
    # Of gm_bytes_written, the bytes DMA writes put over bytes another core wrote in the same launch with nothing
    # ordering the two writes, both writing the same values there (allowed: the order does not change the result).
    gm_unordered_equal_bytes: int = 0


@dataclasses.dataclass(frozen=True)
class LaunchStats:
    kernel: str
    platform: str
    block_dim: int
    cores: List[CoreStats]
    mix_type: str = ""  # "MIX_AIC_1_2" / "MIX_AIC_1_1" for a launch of AICs and AIVs, else ""

    @property
    def total(self) -> CoreStats:
        """Counters summed over cores (ub_bytes_allocated: the largest of any core)."""
        ops: Dict[str, int] = {}
        cube: Dict[str, int] = {}
        instrs: Dict[str, Dict[str, int]] = {}
        for c in self.cores:
            for name, d in c.vector_instructions.items():
                acc = instrs.setdefault(name, {"calls": 0, "repeats": 0})
                acc["calls"] += d["calls"]
                acc["repeats"] += d["repeats"]
            for name, n in c.vector_element_ops.items():
                ops[name] = ops.get(name, 0) + n
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
            mte2_calls=sum(c.mte2_calls for c in self.cores),
            mte2_bursts=sum(c.mte2_bursts for c in self.cores),
            mte3_calls=sum(c.mte3_calls for c in self.cores),
            mte3_bursts=sum(c.mte3_bursts for c in self.cores),
            vector_instructions=instrs,
            core_type="",
            block_idx=-1,
            gm_padding_bytes_read=sum(c.gm_padding_bytes_read for c in self.cores),
            gm_padding_bytes_written=sum(c.gm_padding_bytes_written for c in self.cores),
            gm_unordered_equal_bytes=sum(c.gm_unordered_equal_bytes for c in self.cores),
        )


def parse(raw: dict) -> LaunchStats:
    return LaunchStats(
        kernel=raw["kernel"],
        platform=raw["platform"],
        block_dim=raw["block_dim"],
        cores=[CoreStats(**c) for c in raw["cores"]],
        mix_type=raw.get("mix_type", ""),
    )


def declare(lib: ctypes.CDLL) -> ctypes.CDLL:
    """Sets the ctypes signatures of the statistics functions of a library holding the twin runtime."""
    lib.ascend_twin_last_launch_json.restype = ctypes.c_char_p
    lib.ascend_twin_stop_recording_json.restype = ctypes.c_char_p
    lib.ascend_twin_start_recording.restype = None
    return lib


def last_launch(lib: ctypes.CDLL, who: str) -> LaunchStats:
    raw = json.loads(lib.ascend_twin_last_launch_json())
    if raw is None:
        raise LookupError(f"{who}: this thread has made no twin launch yet")
    return parse(raw)


class Recording:
    """Filled when the ``record()`` block exits: every launch made inside it, in order."""

    def __init__(self) -> None:
        self.launches: List[LaunchStats] = []


@contextlib.contextmanager
def record(lib: ctypes.CDLL) -> Iterator[Recording]:
    rec = Recording()
    lib.ascend_twin_start_recording()
    try:
        yield rec
    finally:
        rec.launches = [parse(r) for r in json.loads(lib.ascend_twin_stop_recording_json())]


# ---- recordings across every library that holds a twin runtime -------------------------------------------
# ascend_ext._C holds one, and so does each kernel library compile_kernels or a declared op builds. A
# recording started by ascend_ext.twin.record() covers them all, including libraries loaded inside the
# block (a declared op builds its library at its first call).

_LIBRARIES: List[ctypes.CDLL] = []
_LOCK = threading.Lock()
_ACTIVE = threading.local()  # .groups: this thread's open record_all() blocks, innermost last


def register_library(lib: ctypes.CDLL) -> None:
    with _LOCK:
        # Kernel libraries share one runtime: recognise it by its functions, not by the library's handle.
        addr = ctypes.cast(lib.ascend_twin_start_recording, ctypes.c_void_p).value
        if any(ctypes.cast(known.ascend_twin_start_recording, ctypes.c_void_p).value == addr for known in _LIBRARIES):
            return
        _LIBRARIES.append(lib)
    for group in getattr(_ACTIVE, "groups", ()):
        lib.ascend_twin_start_recording()
        group.append(lib)


@contextlib.contextmanager
def record_all() -> Iterator[Recording]:
    rec = Recording()
    group: List[ctypes.CDLL] = []
    with _LOCK:
        libs = list(_LIBRARIES)
    for lib in libs:
        lib.ascend_twin_start_recording()
        group.append(lib)
    groups = _ACTIVE.__dict__.setdefault("groups", [])
    groups.append(group)
    try:
        yield rec
    finally:
        groups.remove(group)
        for lib in group:
            rec.launches += [parse(r) for r in json.loads(lib.ascend_twin_stop_recording_json())]
