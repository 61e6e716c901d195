"""sgl-project/sgl-kernel-npu: the Ascend C kernels of SGLang's NPU backend (csrc/)."""
from typing import List

import torch

from .common import Case, Kernel, rand
from .lora import sgemmv_expand_case, sgemmv_shrink_case

REPO = "sgl-project/sgl-kernel-npu"

KERNELS: List[Kernel] = [
    Kernel("sgl_alloc_extend", REPO, "csrc/alloc_extend/op_kernel/alloc_extend_kernel.cpp", "alloc_extend", "", None),
    Kernel("sgl_apply_token_bitmask", REPO, "csrc/apply_token_bitmask/op_kernel/apply_token_bitmask.cpp",
           "apply_token_bitmask_fp32", "", None),
    Kernel("sgl_assign_cache", REPO, "csrc/assign_cache_op/op_kernel/assign_cache_op.cpp", "assign_cache_op", "", None),
    Kernel("sgl_build_tree", REPO, "csrc/build_tree/op_kernel/build_tree_kernel.cpp", "build_tree_efficient", "", None),
    Kernel("sgl_cache_loc_assign", REPO, "csrc/cache_location_assign/op_kernel/cache_loc_assign_kernel.cpp",
           "cache_loc_assign", "", None),
    Kernel("sgl_causal_conv1d_update", REPO, "csrc/causal_conv1d_update/op_kernel/causal_conv1d_update.cpp",
           "causal_conv1d_update_half", "", None),
    Kernel("sgl_tri_inv", REPO, "csrc/tri_inv/op_kernel/tri_inv_kernel.cpp", "tri_inv_col_sweep_fp32", "", None),
    Kernel("sgl_sgemmv_shrink", REPO, "csrc/lora/op_kernel/sgemmv_shrink_kernel.cpp", "sgemmv_shrink_half",
           "macro-declared entry, 15 parameters, per-adapter ranks and half scales", sgemmv_shrink_case),
    Kernel("sgl_sgemmv_expand", REPO, "csrc/lora/op_kernel/sgemmv_expand_kernel.cpp", "sgemmv_expand_half",
           "macro-declared entry, 16 parameters, slices over cores", sgemmv_expand_case),
    Kernel("sgl_helloworld", REPO, "csrc/helloworld/op_kernel/kernel_helloworld.cpp", "helloworld", "", None),
]
