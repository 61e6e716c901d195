"""hicann/ops-nn: experimental activation kernels (experimental/activation/<op>/op_kernel/)."""
import struct
from typing import List

import torch

from .common import CORE_NUM, Case, Kernel, rand
from .ops_math import F32, unary_case

REPO = "hicann/ops-nn"


def log_softmax_case(kdir: str, gen: torch.Generator) -> List[Case]:
    # softmax over the last axis of [rows, cols]: the host tiling folds it to dims 2, axis 1 and launches
    # min(rows * CORE_NUM_MIN_FACTOR (2), coreNum) cores; each takes a contiguous range of rows.
    cases = []
    for rows, cols in ((64, 1024), (64, 1000)):
        x = rand(gen, rows * cols, -4, 4)
        tiling = struct.pack("<10Q", 1, 2, rows, cols, 1, 1, 1, 1, 1, 1)
        cases.append(Case(min(2 * rows, CORE_NUM), {"input": x, "out": torch.zeros(rows * cols), "workspace": None,
                                                    "tiling": tiling},
                          {"out": torch.log_softmax(x.double().view(rows, cols), 1).reshape(-1)}, rtol=1e-4,
                          atol=1e-5, label=f"{rows}x{cols}"))
    return cases


KERNELS: List[Kernel] = [
    Kernel("gelu", REPO, "experimental/activation/gelu/op_kernel/gelu.cpp", "gelu",
           "Mul/Muls/Exp/Adds/Div, TBuf", unary_case(
               "gelu", "GeluTilingData", 12,
               lambda x: x / (1 + torch.exp(-1.595769122 * (x + 0.0455399241 * x ** 3)))),
           template="0", build=F32),
    Kernel("log_softmax_v2", REPO, "experimental/activation/log_softmax_v2/op_kernel/log_softmax_v2.cpp",
           "log_softmax_v2", "row kernel: WholeReduceMax/Sum, BlockReduceSum, Exp, DataCopyPad", log_softmax_case,
           template="0", build="#define DTYPE_INPUT float\n"),
]
