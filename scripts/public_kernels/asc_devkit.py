"""cannmirror/asc-devkit: the kernels of the ACL-based custom-op example
(examples/01_simd_cpp_api/02_features/99_acl_based/00_acl_compilation/custom_op/op_kernel/)."""
import struct
from typing import List

import torch

from .common import Case, Kernel, rand

REPO = "cannmirror/asc-devkit"
F32 = "#define DTYPE_X float\n#define DTYPE_Y float\n#define DTYPE_Z float\n"
DEVKIT = "examples/01_simd_cpp_api/02_features/99_acl_based/00_acl_compilation/custom_op/op_kernel"


def devkit_add_case(struct_fmt: str, values: tuple, n: int, block_dim: int, dtype=torch.float32):
    def make(kdir: str, gen: torch.Generator) -> Case:
        x, y = rand(gen, n, dtype=dtype), rand(gen, n, dtype=dtype)
        return Case(block_dim, {"x": x, "y": y, "z": torch.zeros(n, dtype=dtype), "workspace": None,
                                "tiling": struct.pack(struct_fmt, *values)}, {"z": x.double() + y.double()},
                    rtol=1e-3 if dtype == torch.float16 else 1e-6)
    return make


def leaky_relu_case(kdir: str, gen: torch.Generator) -> Case:
    n, block_dim, tiles, alpha = 8 * 2048, 8, 16, 0.1  # TILE_NUM of the host tiling
    x = rand(gen, n, -5, 5)
    return Case(block_dim, {"x": x, "y": torch.zeros(n), "workspace": None,
                            "tiling": struct.pack("<IIf", n, tiles, alpha)},
                {"y": torch.nn.functional.leaky_relu(x.double(), alpha)})


KERNELS: List[Kernel] = [
    Kernel("devkit_add", REPO, f"{DEVKIT}/add_custom/add_custom_kernel.cpp", "add_custom",
           "LocalMemAllocator, SetFlag/WaitFlag, 8 cores", devkit_add_case("<II", (8 * 2048, 8), 8 * 2048, 8),
           build=F32),
    Kernel("devkit_leaky_relu", REPO, f"{DEVKIT}/leaky_relu_custom/leaky_relu_custom_kernel.cpp",
           "leaky_relu_custom", "Maxs/Mins/Muls/Add, TQue double buffering, ascendc_assert", leaky_relu_case,
           build=F32),
    Kernel("devkit_add_template", REPO, f"{DEVKIT}/add_custom_template/add_custom_template.cpp",
           "add_custom_template", "tiling-key template (ASCENDC_TPL_*), printf, LocalMemAllocator",
           devkit_add_case("<I", (8 * 2048,), 8 * 2048, 8), template="float, float, float, 8, 1"),
    Kernel("devkit_add_template_single", REPO,
           f"{DEVKIT}/add_custom_template/add_custom_template.cpp", "add_custom_template",
           "the same, TILE_NUM 1 / IS_SPLIT 0 (one tile, no loop)", devkit_add_case("<I", (2048,), 2048, 1),
           template="float, float, float, 1, 0"),
    Kernel("devkit_add_tiling_sink", REPO,
           f"{DEVKIT}/add_custom_tiling_sink/add_custom_tiling_sink_kernel.cpp", "add_custom_tiling_sink",
           "KERNEL_TASK_TYPE_DEFAULT, template tile length, conditional flag pairs",
           devkit_add_case("<II", (8 * 64, 8), 8 * 64, 8), build=F32),
]
