"""Section 3's cases: each op at a few shapes, run once on the twin per chip profile (the tiling depends on
the core count), then modelled from the counters of the launches it made."""
import math
from typing import Callable, List, Tuple

import torch

import ascend_ext
from ascend_ext import twin

from .costmodel import OpCase, model_recording, shortfall
from .profiles import PROFILES

_SIZE = {torch.float32: 4, torch.float16: 2, torch.bfloat16: 2}


def _name(dtype: torch.dtype) -> str:
    return str(dtype).replace("torch.", "")


def vector_add(shape_x, shape_y, dtype) -> Tuple[OpCase, Callable]:
    x, y = torch.randn(shape_x).to(dtype), torch.randn(shape_y).to(dtype)
    n = math.prod(torch.broadcast_shapes(shape_x, shape_y))
    shape = "x".join(map(str, shape_x)) + ("" if shape_x == shape_y else " + " + "x".join(map(str, shape_y)))
    case = OpCase("vector_add", shape, _name(dtype), (x.numel() + y.numel()) * _SIZE[dtype], n * _SIZE[dtype], n,
                  "vector", _SIZE[dtype])
    return case, lambda: ascend_ext.vector_add(x, y)


def dispersion_correction(rows, d, dtype, backward=False) -> Tuple[OpCase, Callable]:
    x = torch.randn(rows, d).to(dtype)
    n = rows * d
    if backward:
        g = torch.randn(rows, d).to(dtype)
        # reads grad and x, writes grad_x; ~12 element-ops per element (row sums and the output formula)
        case = OpCase("dispersion_correction_backward", f"{rows}x{d}", _name(dtype), 2 * n * _SIZE[dtype],
                      n * _SIZE[dtype], 12 * n, "vector", 4)
        return case, lambda: torch.ops.ascend_ext.dispersion_correction_backward(g, x, 0.8, 1, 1e-5)
    # reads x once, writes y once; mean, centre, square, variance sum, scale, shift: 6 element-ops
    case = OpCase("dispersion_correction", f"{rows}x{d}", _name(dtype), n * _SIZE[dtype], n * _SIZE[dtype], 6 * n,
                  "vector", 4)
    return case, lambda: ascend_ext.dispersion_correction(x, 0.8, 1)


def matmul(m, n, k, dtype) -> Tuple[OpCase, Callable]:
    a, b = torch.randn(m, k).to(dtype), torch.randn(k, n).to(dtype)
    case = OpCase("matmul", f"{m}x{n}x{k}", _name(dtype), (m * k + k * n) * _SIZE[dtype], m * n * _SIZE[dtype],
                  2 * m * n * k, "cube", _SIZE[dtype])
    return case, lambda: ascend_ext.matmul(a, b)


def case_list(quick: bool) -> List[Tuple[OpCase, Callable]]:
    if quick:
        return [
            vector_add((4096,), (4096,), torch.float32),
            vector_add((1 << 20,), (1 << 20,), torch.float16),
            dispersion_correction(1024, 1024, torch.float32),
            matmul(256, 256, 256, torch.float16),
        ]
    return [
        vector_add((4096,), (4096,), torch.float32),
        vector_add((1 << 24,), (1 << 24,), torch.float32),
        vector_add((1 << 24,), (1 << 24,), torch.float16),
        vector_add((16384, 1024), (1024,), torch.float32),
        dispersion_correction(48, 1024, torch.float32),
        dispersion_correction(4096, 4096, torch.float32),
        dispersion_correction(4096, 4096, torch.bfloat16),
        dispersion_correction(4096, 4096, torch.float32, backward=True),
        dispersion_correction(10000, 7, torch.float32),
        dispersion_correction(4, 3_000_000, torch.float32),
        matmul(64, 64, 64, torch.float16),
        matmul(1024, 1024, 1024, torch.float16),
        matmul(2048, 2048, 2048, torch.float16),
        matmul(1024, 1024, 1024, torch.float32),
    ]


def run(quick: bool) -> List[dict]:
    rows: List[dict] = []
    before = twin.get_platform()
    try:
        for case, call in case_list(quick):
            for profile in PROFILES.values():
                twin.set_platform(profile.name)
                with twin.record() as rec:
                    call()
                r = model_recording(rec.launches, profile, case)
                rows.append({"section": "model", "op": case.op, "shape": case.shape, "dtype": case.dtype,
                             "min_bytes": case.min_bytes, "flops": case.flops, **r,
                             "shortfall": shortfall(r, case) if r["ratio"] < 0.85 else ""})
    finally:
        twin.set_platform(before)
    return rows
