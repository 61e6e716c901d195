"""The cost model against published 910B measurements.

Each published figure is a real kernel timed on a real Atlas A2 chip. We run *our* kernel for the same op
and shape on the twin with the 910B2 profile (24 AI cores, 48 vector cores) and model its time from the
counters. The comparison is model / published: it checks the model's scale (bandwidths, rates, launch),
not that our kernel equals theirs — where the kernels differ, the note says how.
"""
from typing import List

import torch

from ascend_ext import twin

from . import model_cases
from .costmodel import model_recording
from .profiles import PROFILES

PUBLISHED = [
    {
        "what": "Add z = x + y, 8192x8192 float16, 48 vector cores",
        "case": lambda: model_cases.vector_add((8192, 8192), (8192, 8192), torch.float16),
        "published_us": 184.52,
        "source": "asc-devkit add_high_performance example, Atlas A2, Task Duration of its best case (official)",
        "note": "theirs: 16 KB+ copies, inputs bypass L2; ours: the project's vector_add tiling",
    },
    {
        "what": "GEMM 1024^3 float16 (torch.mm on 910B2, 98.08 TFLOP/s)",
        "case": lambda: model_cases.matmul(1024, 1024, 1024, torch.float16),
        "published_us": 2 * 1024 ** 3 / 98.08e12 * 1e6,
        "source": "zzc0721/torch-performance-test-data issue 109 (third-party, 910B2)",
        "note": "theirs: CANN's MatMul through torch_npu (host path included); ours: matmul_cube",
    },
    {
        "what": "GEMM 2048^3 float16 (torch.mm on 910B2, 251.01 TFLOP/s)",
        "case": lambda: model_cases.matmul(2048, 2048, 2048, torch.float16),
        "published_us": 2 * 2048 ** 3 / 251.01e12 * 1e6,
        "source": "zzc0721/torch-performance-test-data issue 109 (third-party, 910B2)",
        "note": "theirs: CANN's MatMul through torch_npu; ours: matmul_cube",
    },
]


def run(quick: bool) -> List[dict]:
    profile = PROFILES["Ascend910B2"]
    rows = []
    before = twin.get_platform()
    try:
        twin.set_platform(profile.name)
        for item in PUBLISHED if not quick else PUBLISHED[1:2]:
            case, call = item["case"]()
            with twin.record() as rec:
                call()
            r = model_recording(rec.launches, profile, case)
            rows.append({"what": item["what"], "published_us": item["published_us"], "model_us": r["model_us"],
                         "ratio": r["model_us"] / item["published_us"], "bound": r["bound"],
                         "source": item["source"], "note": item["note"]})
    finally:
        twin.set_platform(before)
    return rows
