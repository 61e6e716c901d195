"""The public kernels scripts/measure_public_kernels.py measures, one module per repository."""
from typing import List, Optional

from . import asc_devkit, asc_devkit_examples, ops_math, ops_nn, samples, sgl_kernel_npu, vllm_ascend
from .common import Kernel

_MODULES = (asc_devkit, asc_devkit_examples, ops_math, ops_nn, samples, vllm_ascend, sgl_kernel_npu)
REPOSITORIES = list(dict.fromkeys(m.REPO for m in _MODULES))  # asc-devkit has two modules


def all_kernels(root: Optional[str] = None) -> List[Kernel]:
    """Every listed kernel; with the checkouts' root, also an entry for each asc-devkit A2 example without a run
    (asc_devkit_examples.unmeasured) and for each drawn ops-math op without an entry (ops_math.unmeasured_sample),
    so that these count as failures."""
    kernels = [k for m in _MODULES for k in m.KERNELS] + (
        asc_devkit_examples.unmeasured(root) + ops_math.unmeasured_sample(root) if root else [])
    names = [k.name for k in kernels]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise ValueError(f"kernel names used twice: {', '.join(sorted(dup))}")
    return kernels
